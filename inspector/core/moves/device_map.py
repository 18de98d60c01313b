"""Device maps: read one (accelerate's JSON), apply it as a transaction, explain the placement.

A device map says, per module name, which device holds that module's weights: the
``device_map`` that accelerate's ``infer_auto_device_map`` returns and ``from_pretrained``
accepts, written as JSON (``{"model.embed_tokens": 0, "model.layers.0": 0, ..., "lm_head":
"cpu"}``; an integer is a CUDA index). A file may also wrap it with the budgets it was made
from: ``{"device_map": {...}, "max_memory": {"0": "10GiB", "cpu": "64GiB"}}``; the
explanations then say which budget pushed modules elsewhere. accelerate itself is not needed.

The file is read as an attacker wrote it: size-capped before parsing, every key and value
checked, every message one line with the file's text escaped.

Applying: every parameter, gradient and buffer goes to the device of the longest map key
that prefixes its name. As with ``core.moves.transaction``, the originals stay referenced until every
tensor has moved; any failure puts each one back (the same Parameter objects, their data,
grads and buffers), so the model is exactly as before.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from inspector.core.devices import discovery as devices
from inspector.core.moves import rollback
from inspector.core.moves.crossings import CrossingReport
from inspector.core.errors import Failure, InputError, InspectorError
from inspector.core.units import first_line, format_bytes
from inspector.core.vocabulary import FailureKind

#: A real map has one entry per block; 16 MiB of JSON is far beyond any model's.
MAX_FILE_BYTES = 16 * 1024 * 1024
_ACCEPTED_TYPES = ("cpu", "cuda", "mps", "xpu", "meta")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}


def _shown(value: Any, limit: int = 60) -> str:
    """A file's text, safe for one terminal line: repr escapes control characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class DeviceMap:
    """A checked device map: module name -> canonical device id, in the file's order."""

    entries: tuple[tuple[str, str], ...]
    #: Budgets per device id in bytes, when the file carries them.
    max_memory: tuple[tuple[str, int], ...] = ()
    source: str = ""

    def as_dict(self) -> dict[str, str]:
        return dict(self.entries)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "device_map": self.as_dict(), "max_memory": dict(self.max_memory)}


def parse_map_device(value: Any) -> str:
    """accelerate's device values -> our ids: ``0`` -> ``cuda:0``, ``"cuda"`` -> ``cuda:0``."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f"{_shown(value)} is not a device (use a GPU index such as 0, or cpu, cuda:1, mps, xpu:0, meta)")
    if isinstance(value, int):
        if value < 0:
            raise InputError(f"{value} is not a GPU index (indices start at 0)")
        return f"cuda:{value}"
    text = value.strip()
    if text == "disk":
        raise InputError("'disk' (accelerate's offload to disk) cannot be applied here: map those modules to cpu or meta")
    if text.isdigit():
        return f"cuda:{int(text)}"
    if len(text) > 32:
        raise InputError(f"{_shown(value)} is not a device name")
    try:
        device = torch.device(text)
    except (RuntimeError, TypeError, ValueError):
        raise InputError(f"{_shown(value)} is not a device name (try cpu, cuda:0, mps, xpu:0 or meta)") from None
    if device.type not in _ACCEPTED_TYPES:
        raise InputError(f"{_shown(value)} is a device type this app does not place on (use {', '.join(_ACCEPTED_TYPES)})")
    return "meta" if device.type == "meta" else devices.device_id(device)


def _parse_size(value: Any, key: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str):
        m = _SIZE.match(value)
        if m:
            return int(float(m.group(1)) * _UNITS[(m.group(2) or "").upper()])
    raise InputError(f"max_memory for {_shown(key)} is {_shown(value)}, not a size (bytes, or text such as 10GiB)")


def parse_device_map(data: Any, source: str = "") -> DeviceMap:
    """Check a decoded JSON value; raise InputError naming the first problem."""
    max_memory: list[tuple[str, int]] = []
    if isinstance(data, dict) and "device_map" in data and isinstance(data["device_map"], dict):
        budgets = data.get("max_memory", {})
        if not isinstance(budgets, dict):
            raise InputError("max_memory must map devices to sizes")
        for key, value in budgets.items():
            max_memory.append((parse_map_device(int(key) if isinstance(key, str) and key.isdigit() else key), _parse_size(value, key)))
        data = data["device_map"]
    if not isinstance(data, dict):
        raise InputError("a device map is a JSON object of module name -> device, e.g. {\"encoder\": 0, \"decoder\": \"cpu\"}")
    if not data:
        raise InputError("the device map is empty: it names no module")
    entries: list[tuple[str, str]] = []
    for name, value in data.items():
        if len(name) > 1000 or any(ord(c) < 32 for c in name):
            raise InputError(f"{_shown(name)} is not a module name")
        try:
            entries.append((name, parse_map_device(value)))
        except InputError as exc:
            raise InputError(f"device map entry {_shown(name)}: {exc.message}") from None
    return DeviceMap(tuple(entries), tuple(max_memory), source)


def read_device_map(path: str | Path) -> DeviceMap:
    """Read and check a device map file. Every failure is an InputError of one line."""
    p = Path(path).expanduser()
    try:
        with p.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"no device map at {p}: the file does not exist") from None
    except IsADirectoryError:
        raise InputError(f"{p} is a folder, not a device map") from None
    except OSError as exc:
        raise InputError(f"could not read the device map {p}: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(f"{p} is larger than {format_bytes(MAX_FILE_BYTES)}: not a device map")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{p} is not a device map: it is not UTF-8 text") from None

    def refuse_constant(name: str) -> Any:
        raise ValueError(f"{name} is not valid JSON")

    try:
        data = json.loads(text, parse_constant=refuse_constant)
    except (ValueError, RecursionError) as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise InputError(f"{p} is not a device map: it is not JSON{where}") from None
    return parse_device_map(data, str(p))


# --------------------------------------------------------------------------- resolving


def _owner_of(name: str) -> str:
    return name.rpartition(".")[0]


def _tensor_slots(module: nn.Module) -> list[tuple[str, nn.Module, str, str]]:
    """(full name, owning module, key, kind) for each parameter and buffer, ties included."""
    slots: list[tuple[str, nn.Module, str, str]] = []
    for prefix, owner in module.named_modules(remove_duplicate=False):
        dot = f"{prefix}." if prefix else ""
        slots.extend((dot + key, owner, key, "parameter") for key, p in owner._parameters.items() if p is not None)
        slots.extend((dot + key, owner, key, "buffer") for key, b in owner._buffers.items() if b is not None)
    return slots


def _target_of(name: str, mapping: Mapping[str, str]) -> str | None:
    """The device of the longest map key that is ``name`` or one of its parents."""
    candidate = name
    while True:
        if candidate in mapping:
            return mapping[candidate]
        if not candidate:
            return None
        candidate = _owner_of(candidate)


def check_names(dmap: DeviceMap, module: nn.Module, slots: list[tuple[str, nn.Module, str, str]] | None = None) -> None:
    """Raise InputError when the map names something the model does not have."""
    modules = {name for name, _ in module.named_modules(remove_duplicate=False)}
    tensors = {name for name, *_ in (slots if slots is not None else _tensor_slots(module))}
    unknown = [name for name, _ in dmap.entries if name not in modules and name not in tensors]
    if unknown:
        sample = sorted(n for n in modules if n)[:3]
        hint = f" (its modules are named like {', '.join(sample)})" if sample else ""
        more = f" and {len(unknown) - 1} more" if len(unknown) > 1 else ""
        raise InputError(f"the device map names {_shown(unknown[0])}{more}, which is no module or tensor of the model{hint}")


# --------------------------------------------------------------------------- applying


@dataclass(frozen=True)
class DeviceShare:
    """What one device holds after the map: the top-most modules wholly on it, tensors, bytes."""

    device: str
    modules: tuple[str, ...]
    tensors: int
    bytes: int

    def to_dict(self) -> dict[str, Any]:
        return {"device": self.device, "modules": list(self.modules), "tensors": self.tensors, "bytes": self.bytes}


@dataclass(frozen=True)
class MapResult:
    """One application of a device map, as plain values."""

    ok: bool
    error: Failure | None
    seconds: float
    bytes: int
    layout: tuple[DeviceShare, ...]
    #: Tensors no key covers: left where they were.
    uncovered: tuple[str, ...]
    findings: tuple[str, ...]
    crossings: CrossingReport | None = None
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "ok": self.ok,
            "error": None if self.error is None else {"kind": self.error.kind, "message": self.error.message},
            "seconds": self.seconds,
            "bytes": self.bytes,
            "devices": [share.to_dict() for share in self.layout],
            "uncovered": list(self.uncovered),
            "findings": list(self.findings),
            "crossings": None if self.crossings is None else self.crossings.to_dict(),
        }


def _check_devices(dmap: DeviceMap) -> None:
    for ident in dict.fromkeys(device for _, device in dmap.entries):
        if ident != "meta":
            devices.resolve_device(ident)  # InputError (kind "device") for one that is absent


def apply_device_map(module: nn.Module, dmap: DeviceMap) -> MapResult:
    """Place every tensor as ``dmap`` says, as a transaction; explain the result.

    Raises InputError for a map that names what the model lacks or a device that does not
    exist here (nothing moved). A failure while moving (out of memory, a device that
    cannot take tensors) comes back as ``ok=False`` with the model exactly as before.
    """
    slots = _tensor_slots(module)
    check_names(dmap, module, slots)
    _check_devices(dmap)
    mapping = dmap.as_dict()
    # The same rollback as core.moves.transaction: every module's dicts (slots rebound to buffers and to
    # fresh meta Parameters) and each tensor whose data changes in place, with its old data.
    snapshot = rollback.Snapshot(module)
    log = rollback.ConversionLog(swap=False)
    seen_params: dict[int, str] = {}
    seen_buffers: set[tuple[int, str]] = set()
    uncovered: list[str] = []
    ties: list[str] = []
    replaced: dict[int, nn.Parameter] = {}
    moved = 0
    start = time.perf_counter()
    error: Failure | None = None
    try:
        with torch.no_grad():
            for name, owner, key, kind in slots:
                target = _target_of(name, mapping)
                if target is None:
                    uncovered.append(name)
                    continue
                device = torch.device(target)
                if kind == "parameter":
                    param = owner._parameters[key]
                    assert param is not None
                    if id(param) in replaced:  # tied to one already replaced (meta)
                        owner._parameters[key] = replaced[id(param)]
                    if id(param) in seen_params:
                        if seen_params[id(param)] != target:
                            ties.append(f"{name} is tied to a weight the map put on {seen_params[id(param)]}, but its own entry says {target}: it stays on {seen_params[id(param)]}")
                        continue
                    seen_params[id(param)] = target
                    if param.device != device:
                        moved += param.nbytes
                        _move_parameter(owner, key, param, device, replaced, log)
                else:
                    buf = owner._buffers[key]
                    assert buf is not None
                    if (id(owner), key) in seen_buffers:
                        continue
                    seen_buffers.add((id(owner), key))
                    if buf.device != device:
                        moved += buf.nbytes
                        owner._buffers[key] = buf.to(device)
    except Exception as exc:  # noqa: BLE001 -- every failure rolls back, then becomes a value
        error = _failure(exc)
    seconds = time.perf_counter() - start
    if error is not None:
        log.restore()  # tensors first, then the modules' dicts (as core.moves.transaction does)
        snapshot.restore()
    log.release()
    snapshot.release()
    if error is not None:
        for ident in {d for _, d in dmap.entries} - {"cpu", "meta"}:
            try:
                devices.empty_cache(ident)
            except Exception:  # noqa: BLE001 -- the model is whole; the cache is a nicety
                pass
        return MapResult(False, error, seconds, 0, layout(module), (), (), source=dmap.source)
    findings = explain(module, dmap, uncovered, slots) + ties
    return MapResult(True, None, seconds, moved, layout(module), tuple(uncovered), tuple(findings), source=dmap.source)


def _move_parameter(
    owner: nn.Module, key: str, param: nn.Parameter, device: torch.device, replaced: dict[int, nn.Parameter],
    log: rollback.ConversionLog,
) -> None:
    """Move one parameter as ``Module._apply`` does: in place (``.data``, the grad's too) where
    the tensor types allow, else a new Parameter in its slot (cpu -> meta); the original is
    kept either way (``log``; the slot by the caller's snapshot)."""
    data = param.data.to(device)
    grad = None if param.grad is None else param.grad.to(device)
    if torch._has_compatible_shallow_copy_type(param.data, data):
        log.keep(param, rollback.nbytes(param), rollback.nbytes(data))
        param.data = data
        if grad is not None:
            assert param.grad is not None
            log.keep(param.grad, rollback.nbytes(param.grad), rollback.nbytes(grad))
            param.grad.data = grad
        return
    fresh = nn.Parameter(data, requires_grad=param.requires_grad)
    if grad is not None:
        fresh.grad = grad
    owner._parameters[key] = fresh
    replaced[id(param)] = fresh


def _failure(exc: BaseException) -> Failure:
    if devices.is_out_of_memory(exc):
        return Failure(FailureKind.OOM, f"out of memory while applying the device map ({first_line(exc)}); the model is as it was before")
    if isinstance(exc, InspectorError):
        return Failure(exc.kind, f"{exc.message}; the model is as it was before")
    if "meta tensor" in str(exc):
        return Failure(
            "error",
            f"applying the device map failed: {first_line(exc)} (the model's tensors are on the meta device and hold "
            "no values: load its weights first, e.g. load_state_dict(..., assign=True)); the model is as it was before",
        )
    return Failure(FailureKind.ERROR, f"applying the device map failed: {first_line(exc)}; the model is as it was before", f"{type(exc).__name__}: {exc}")


# --------------------------------------------------------------------------- explaining


def _device_of(t: torch.Tensor, names: dict[torch.device, str] = {}) -> str:  # noqa: B006 -- a cache on purpose
    device = t.device
    if device not in names:
        names[device] = "meta" if device.type == "meta" else devices.device_id(device)
    return names[device]


def layout(module: nn.Module) -> tuple[DeviceShare, ...]:
    """Per device: the top-most modules whose every tensor is there, tensor count, bytes."""
    tensors: Counter[str] = Counter()
    nbytes: Counter[str] = Counter()
    seen: set[int] = set()
    modules = list(module.named_modules())
    where: dict[str, set[str]] = {}
    for name, sub in reversed(modules):  # children before parents
        own: set[str] = set()
        for t in (*sub._parameters.values(), *sub._buffers.values()):
            if t is None:
                continue
            device = _device_of(t)
            own.add(device)
            if id(t) not in seen:
                seen.add(id(t))
                tensors[device] += 1
                nbytes[device] += t.nbytes
        dot = f"{name}." if name else ""
        for child_name in sub._modules:
            own |= where.get(dot + child_name, set())
        where[name] = own
    top: dict[str, list[str]] = defaultdict(list)
    for name, _ in modules:
        devs = where.get(name, set())
        parent = _owner_of(name) if name else None
        parent_single = parent is not None and len(where.get(parent, set())) == 1
        if len(devs) == 1 and not parent_single:
            top[next(iter(devs))].append(name or "(the whole model)")
    order = sorted(tensors, key=lambda d: (d == "meta", d != "cpu", d))
    return tuple(DeviceShare(d, tuple(compress_names(top.get(d, []))), tensors[d], nbytes[d]) for d in order)


_NUMBERED = re.compile(r"^(.*\.)?(\d+)$")


def compress_names(names: Iterable[str]) -> list[str]:
    """``layers.20, layers.21, …, layers.31`` -> ``layers.20–31`` (consecutive runs only)."""
    out: list[str] = []
    run: tuple[str, int, int] | None = None
    for name in names:
        m = _NUMBERED.match(name)
        if m and run is not None and run[0] == (m.group(1) or "") and int(m.group(2)) == run[2] + 1:
            run = (run[0], run[1], int(m.group(2)))
            continue
        if run is not None:
            out.append(_run_text(run))
            run = None
        if m:
            run = (m.group(1) or "", int(m.group(2)), int(m.group(2)))
        else:
            out.append(name)
    if run is not None:
        out.append(_run_text(run))
    return out


def _run_text(run: tuple[str, int, int]) -> str:
    prefix, first, last = run
    return f"{prefix}{first}" if first == last else f"{prefix}{first}–{last}"


def _entry_bytes(slots: list[tuple[str, nn.Module, str, str]], dmap: DeviceMap) -> list[tuple[str, str, int]]:
    """(map key, device, bytes its tensors take) in the map's order; each tensor counted once."""
    sizes: Counter[str] = Counter()
    mapping = dmap.as_dict()
    seen: set[int] = set()
    for name, owner, key, kind in slots:
        t = owner._parameters[key] if kind == "parameter" else owner._buffers[key]
        if t is None or id(t) in seen:
            continue
        seen.add(id(t))
        candidate = name
        while candidate not in mapping and candidate:
            candidate = _owner_of(candidate)
        if candidate in mapping:
            sizes[candidate] += t.nbytes
    return [(name, device, sizes[name]) for name, device in dmap.entries]


def _free_bytes(ident: str) -> int | None:
    if ident in ("cpu", "meta"):
        return None
    try:
        reading = devices.memory_reading(ident)
    except Exception:  # noqa: BLE001 -- an explanation without the figure is still one
        return None
    if reading.total is None or reading.used is None:
        return None
    return reading.total - reading.used


def explain(module: nn.Module, dmap: DeviceMap, uncovered: list[str], slots: list[tuple[str, nn.Module, str, str]] | None = None) -> list[str]:
    """Mixed placement in words: what sits off the accelerators and why, what the map left out."""
    findings: list[str] = []
    entries = _entry_bytes(slots if slots is not None else _tensor_slots(module), dmap)
    accelerators = [d for d in dict.fromkeys(d for _, d, _ in entries) if d not in ("cpu", "meta")]
    budgets = dict(dmap.max_memory)
    placed: Counter[str] = Counter()
    for _, device, size in entries:
        placed[device] += size
    for spill in ("cpu", "meta"):
        names = [name for name, device, _ in entries if device == spill]
        if not names or not accelerators:
            continue
        spilled = sum(size for _, device, size in entries if device == spill)
        where = ", ".join(compress_names(names))
        last = accelerators[-1]
        verb = "is" if len(names) == 1 else "are"
        if last in budgets:
            findings.append(
                f"{where} {verb} on {spill}: the budget for {last} ({format_bytes(budgets[last])} in max_memory) "
                f"was used up ({format_bytes(placed[last])} placed there)"
            )
            continue
        free = _free_bytes(last)
        if free is not None and free >= spilled:
            findings.append(
                f"{where} {verb} on {spill} ({format_bytes(spilled)}), though {last} has {format_bytes(free)} free: "
                "the map, not the memory, put them there (no max_memory in the file says why)"
            )
        else:
            room = f" and {last} has only {format_bytes(free)} free" if free is not None else ""
            findings.append(f"{where} {verb} on {spill} ({format_bytes(spilled)}){room}: forwards through them run there")
    for device in accelerators:
        if device in budgets and placed[device] > budgets[device]:
            findings.append(
                f"{device} holds {format_bytes(placed[device])}, more than its budget of {format_bytes(budgets[device])} in max_memory"
            )
    if uncovered:
        kinds = "buffers" if all(_is_buffer(module, n) for n in uncovered) else "tensors"
        shown = ", ".join(uncovered[:3]) + (f" and {len(uncovered) - 3} more" if len(uncovered) > 3 else "")
        if len(uncovered) == 1:
            kinds = kinds[:-1]
        verb = "is" if len(uncovered) == 1 else "are"
        findings.append(f"{len(uncovered)} {kinds} {verb} not in the map and stay{'s' if len(uncovered) == 1 else ''} where {'it was' if len(uncovered) == 1 else 'they were'}: {shown}")
    return findings


def _is_buffer(module: nn.Module, name: str) -> bool:
    owner, _, key = name.rpartition(".")
    try:
        sub = module.get_submodule(owner)
    except AttributeError:
        return False
    return key in sub._buffers


def alignment(module: nn.Module, dmap: DeviceMap) -> dict[str, torch.device]:
    """The map's module entries as ``crossings.measure_crossings(align=...)`` takes them."""
    modules = {name for name, _ in module.named_modules(remove_duplicate=False)}
    return {name: torch.device(device) for name, device in dmap.entries if name in modules}


def measure(module: nn.Module, dmap: DeviceMap, result: MapResult, inputs: Any) -> MapResult:
    """``result`` with the activation crossings of one forward on ``inputs`` and their findings."""
    import dataclasses

    from inspector.core.moves.crossings import measure_crossings

    report = measure_crossings(module, inputs, align=alignment(module, dmap))
    words = [c.describe() for c in sorted(report.crossings, key=lambda c: -c.bytes_per_forward)]
    if report.error is not None:
        words.append(f"the forward failed under this map: {report.error}")
    return dataclasses.replace(result, crossings=report, findings=result.findings + tuple(words))
