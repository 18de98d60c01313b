"""Device maps applied to a model as a transaction, and the placement they make explained.

A device map (``core.moves.device_map_file``) says, per module name, which device holds that
module's weights. Applying: every parameter, gradient and buffer goes to the device of the
longest map key that prefixes its name. The tensors move as ``Module.to`` moves them, through
``Module._apply`` and the move engine's seam (``core.moves.seam``), with a conversion function
that sends each tensor to its own device: a module's own ``_apply`` runs (an RNN rebuilds its
flat weights), tensor subclasses and torch's swap flag take the swap path, and every original
is logged for ``core.moves.rollback``. As with ``core.moves.transaction``, the originals stay
referenced until every tensor has moved; any failure puts each one back (the same Parameter
objects, their data, class, attributes, hooks, grads and buffers, each module's attributes),
so the model is exactly as before.

Explaining: per device the top-most modules wholly on it, then in words what sits off the
accelerators and why (budgets, free memory), and what the map left out.
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from inspector.core import gc_pause
from inspector.core.devices import discovery as devices
from inspector.core.moves import rollback
from inspector.core.moves.crossings import CrossingReport
from inspector.core.moves.device_map_file import DeviceMap, shown
from inspector.core.moves.seam import Seam
from inspector.core.errors import Failure, InputError, InspectorError
from inspector.core.messages import Text
from inspector.core.units import first_line, format_bytes
from inspector.core.vocabulary import FailureKind

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
        hint = Text("device_map.hint_module_names", names=", ".join(sample)) if sample else ""
        more = Text("device_map.more_names", count=len(unknown) - 1) if len(unknown) > 1 else ""
        raise InputError(Text("device_map.unknown_name", name=shown(unknown[0]), more=more, hint=hint))


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


# The rollback log and snapshot make a tuple or dict per tensor, as a move's do; see gc_pause.
@gc_pause.paused()
def apply_device_map(module: nn.Module, dmap: DeviceMap) -> MapResult:
    """Place every tensor as ``dmap`` says, as a transaction; explain the result.

    Raises InputError for a map that names what the model lacks or a device that does not
    exist here (nothing moved). A failure while moving (out of memory, a device that
    cannot take tensors) comes back as ``ok=False`` with the model exactly as before.
    """
    slots = _tensor_slots(module)
    check_names(dmap, module, slots)
    _check_devices(dmap)
    targets, moved, uncovered, ties, tied = _targets(slots, dmap.as_dict())
    snapshot = rollback.Snapshot(module)
    log = rollback.ConversionLog(swap=torch.__future__.get_swap_module_params_on_conversion())
    seam = Seam(log, snapshot.total, None, None, pin=False)

    def place(t: torch.Tensor) -> torch.Tensor:
        target = targets.get(id(t))
        # By identity too: a tensor made during the move may take the id of one freed.
        return t.to(target[1]) if target is not None and target[0] is t else t

    accelerators = sorted({device for _, device in dmap.entries} - {"cpu", "meta"})
    start = time.perf_counter()
    error: Failure | None = None
    try:
        module._apply(seam.wrap(place))
        if tied:
            _retie(snapshot)
    except Exception as exc:  # noqa: BLE001 -- every failure rolls back, then becomes a value
        error = _failure(exc)
    except BaseException:
        # KeyboardInterrupt and friends: still leave the model whole, then let it through.
        rollback.roll_back(snapshot, log, accelerators)
        raise
    seconds = time.perf_counter() - start
    # Out of the except block, so the half-made copies its traceback's frames hold are gone.
    note = rollback.roll_back(snapshot, log, accelerators) if error is not None else ""
    log.release()
    snapshot.release()
    if error is not None:
        return MapResult(False, error, seconds, 0, layout(module), (), (note,) if note else (), source=dmap.source)
    findings = explain(module, dmap, uncovered, slots) + ties
    return MapResult(True, None, seconds, moved, layout(module), tuple(uncovered), tuple(findings), source=dmap.source)


def _targets(
    slots: list[tuple[str, nn.Module, str, str]], mapping: Mapping[str, str]
) -> tuple[dict[int, tuple[torch.Tensor, torch.device]], int, list[str], list[str], bool]:
    """Each tensor that moves (by id, with itself) and its device, grads with their parameter;
    the bytes that move; the tensors no key covers; tied weights whose entries disagree (the
    first entry wins: a tensor is on one device); whether a tied weight moves."""
    targets: dict[int, tuple[torch.Tensor, torch.device]] = {}
    places: dict[str, torch.device] = {}
    tied = False
    seen_params: dict[int, str] = {}
    seen_buffers: set[tuple[int, str]] = set()
    uncovered: list[str] = []
    ties: list[str] = []
    moved = 0
    for name, owner, key, kind in slots:
        target = _target_of(name, mapping)
        if target is None:
            uncovered.append(name)
            continue
        device = places.get(target) or places.setdefault(target, torch.device(target))
        if kind == "parameter":
            param = owner._parameters[key]
            assert param is not None
            if id(param) in seen_params:
                tied = tied or id(param) in targets
                if seen_params[id(param)] != target:
                    ties.append(Text("device_map.tied_stays", name=name, device=seen_params[id(param)], target=target))
                continue
            seen_params[id(param)] = target
            if param.device != device:
                moved += param.nbytes
                targets[id(param)] = (param, device)
                if param.grad is not None:
                    targets[id(param.grad)] = (param.grad, device)
        else:
            buf = owner._buffers[key]
            assert buf is not None
            if (id(owner), key) in seen_buffers:
                continue
            seen_buffers.add((id(owner), key))
            if buf.device != device and id(buf) not in targets:
                moved += buf.nbytes
                targets[id(buf)] = (buf, device)
    return targets, moved, uncovered, ties, tied


def _retie(snapshot: rollback.Snapshot) -> None:
    """A tied weight one Parameter again in all its slots. Where a tensor cannot be converted
    in place (cpu -> meta), ``Module._apply`` gives each slot a new Parameter of its own."""
    fresh: dict[int, Any] = {}
    for module, saved in zip(snapshot.modules, snapshot.params):
        live = module._parameters
        for key, original in saved.items():
            if original is not None and live[key] is not original:
                live[key] = fresh.setdefault(id(original), live[key])


def _failure(exc: BaseException) -> Failure:
    if devices.is_out_of_memory(exc):
        return Failure(FailureKind.OOM, Text("device_map.oom", error=first_line(exc)))
    if isinstance(exc, InspectorError):
        return Failure(exc.kind, Text("device_map.unchanged", message=exc.message))
    if "meta tensor" in str(exc):
        return Failure("error", Text("device_map.failed_meta", error=first_line(exc)))
    return Failure(FailureKind.ERROR, Text("device_map.failed", error=first_line(exc)), f"{type(exc).__name__}: {exc}")


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
        one = "_one" if len(names) == 1 else ""  # "is" or "are"
        if last in budgets:
            findings.append(Text(f"device_map.spill_budget{one}", names=where, spill=spill, device=last,
                                 budget=format_bytes(budgets[last]), placed=format_bytes(placed[last])))  # fmt: skip
            continue
        free = _free_bytes(last)
        if free is not None and free >= spilled:
            findings.append(Text(f"device_map.spill_by_map{one}", names=where, spill=spill, size=format_bytes(spilled),
                                 device=last, free=format_bytes(free)))  # fmt: skip
        elif free is not None:
            findings.append(Text(f"device_map.spill_no_room{one}", names=where, spill=spill, size=format_bytes(spilled),
                                 device=last, free=format_bytes(free)))  # fmt: skip
        else:
            findings.append(Text(f"device_map.spill{one}", names=where, spill=spill, size=format_bytes(spilled)))
    for device in accelerators:
        if device in budgets and placed[device] > budgets[device]:
            findings.append(Text("device_map.over_budget", device=device, placed=format_bytes(placed[device]),
                                 budget=format_bytes(budgets[device])))  # fmt: skip
    if uncovered:
        kinds = "buffer" if all(_is_buffer(module, n) for n in uncovered) else "tensor"
        shown = ", ".join(uncovered[:3])
        if len(uncovered) > 3:
            shown = Text("list.and_more", names=shown, more=len(uncovered) - 3)
        key = f"device_map.uncovered_{kinds}" + ("_one" if len(uncovered) == 1 else "s")
        findings.append(Text(key, count=len(uncovered), names=shown))
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
        words.append(Text("device_map.forward_failed", error=report.error))
    return dataclasses.replace(result, crossings=report, findings=result.findings + tuple(words))
