"""Device maps applied to a model as a transaction, and the placement they make explained.

A device map (``core.moves.device_map_file``) says, per module name, where accelerate keeps
that module's weights. Applying: every parameter, gradient and buffer goes to the device of the
longest map key that prefixes its name, as ``dispatch_model`` leaves them: the parameters of
modules mapped to ``cpu`` stay in the CPU's RAM while their buffers go to the main device (the
first GPU), and modules mapped to ``disk`` are not applied (nothing is written: they stay where
they are). The tensors move as ``Module.to`` moves them, through ``Module._apply`` and the move
engine's seam (``core.moves.seam``), with a conversion function that sends each tensor to its
own device: a module's own ``_apply`` runs (an RNN rebuilds its flat weights), tensor
subclasses and torch's swap flag take the swap path, and every original is logged for
``core.moves.rollback``. As with ``core.moves.transaction``, the originals stay referenced until
every tensor has moved; any failure puts each one back (the same Parameter objects, their data,
class, attributes, hooks, grads and buffers, each module's attributes), so the model is exactly
as before.

Explaining (``core.moves.dispatch_plan``, which needs no GPU): what runs where under accelerate,
what is streamed per forward, every budget; per device the top-most modules wholly on it; what
the map left out. Measuring (``measure``): one forward as ``dispatch_model`` runs it, the
streamed modules' weights copied to the main device for each call.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from inspector.core import gc_pause
from inspector.core.devices import discovery as devices
from inspector.core.moves import dispatch_plan, rollback
from inspector.core.moves.crossings import CrossingReport
from inspector.core.moves.device_map_file import DISK, DeviceMap, shown
from inspector.core.moves.dispatch_plan import DispatchPlan, compress_names
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
    key = dispatch_plan.covering_key(name, mapping)
    return None if key is None else mapping[key]


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
    #: accelerate's reading of the map (None for a model split by its own code).
    plan: DispatchPlan | None = None
    #: False for ``--explain``: nothing was moved.
    applied: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "ok": self.ok,
            "applied": self.applied,
            "error": None if self.error is None else {"kind": self.error.kind, "message": self.error.message},
            "seconds": self.seconds,
            "bytes": self.bytes,
            "devices": [share.to_dict() for share in self.layout],
            "uncovered": list(self.uncovered),
            "findings": list(self.findings),
            "crossings": None if self.crossings is None else self.crossings.to_dict(),
            "plan": None if self.plan is None else self.plan.to_dict(),
        }


def _check_devices(dmap: DeviceMap) -> None:
    for ident in dict.fromkeys(device for _, device in dmap.entries):
        if ident not in ("meta", DISK):
            devices.resolve_device(ident)  # InputError (kind "device") for one that is absent


def explain_only(module: nn.Module, dmap: DeviceMap) -> MapResult:
    """``--explain``: accelerate's reading of the map, nothing moved, no device needed."""
    slots = _tensor_slots(module)
    check_names(dmap, module, slots)
    mapping = dmap.as_dict()
    uncovered = [name for name, *_ in slots if _target_of(name, mapping) is None]
    found = dispatch_plan.plan(module, dmap)
    findings = list(found.findings) + _uncovered(module, uncovered)
    return MapResult(True, None, 0.0, 0, layout(module), tuple(uncovered), tuple(findings), source=dmap.source,
                     plan=found, applied=False)  # fmt: skip


def _homes(dmap: DeviceMap, module: nn.Module) -> tuple[dict[str, str], dict[str, str]]:
    """Where dispatch_model leaves parameters and buffers, per key (``disk`` keys: nowhere, so
    they stay): a streamed module's parameters where the map keeps them, its buffers on the
    main device."""
    mapping = dmap.as_dict()
    main = dispatch_plan.main_device(mapping.values())
    streamed = dispatch_plan.offloaded_devices(main)
    params = {k: d for k, d in mapping.items() if d != DISK}
    buffers = {k: (main if d in streamed else d) for k, d in params.items()}
    return params, buffers


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
    params, buffers = _homes(dmap, module)
    targets, moved, uncovered, ties, tied = _targets(slots, params, buffers, set(dmap.as_dict()))
    snapshot = rollback.Snapshot(module)
    log = rollback.ConversionLog(swap=torch.__future__.get_swap_module_params_on_conversion())
    seam = Seam(log, snapshot.total, None, None, pin=False)

    def place(t: torch.Tensor) -> torch.Tensor:
        target = targets.get(id(t))
        # By identity too: a tensor made during the move may take the id of one freed.
        return t.to(target[1]) if target is not None and target[0] is t else t

    accelerators = sorted({device for _, device in dmap.entries} - {"cpu", "meta", DISK})
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
    found = dispatch_plan.plan(module, dmap, _free_bytes)
    findings = list(found.findings) + _uncovered(module, uncovered) + ties
    return MapResult(True, None, seconds, moved, layout(module), tuple(uncovered), tuple(findings), source=dmap.source,
                     plan=found)  # fmt: skip


def _targets(
    slots: list[tuple[str, nn.Module, str, str]], mapping: Mapping[str, str], buffer_mapping: Mapping[str, str],
    keys: set[str],
) -> tuple[dict[int, tuple[torch.Tensor, torch.device]], int, list[str], list[str], bool]:
    """Each tensor that moves (by id, with itself) and its device, grads with their parameter;
    the bytes that move (a tensor sent to meta is dropped, not moved: not counted); the
    tensors no key covers (a ``disk`` key covers its tensors, which stay); tied weights whose
    entries disagree (the first entry wins: a tensor is on one device); whether a tied weight
    moves."""
    targets: dict[int, tuple[torch.Tensor, torch.device]] = {}
    places: dict[str, torch.device] = {}
    tied = False
    seen_params: dict[int, str] = {}
    seen_buffers: set[tuple[int, str]] = set()
    uncovered: list[str] = []
    ties: list[str] = []
    moved = 0
    for name, owner, key, kind in slots:
        target = _target_of(name, mapping if kind == "parameter" else buffer_mapping)
        if target is None:
            if dispatch_plan.covering_key(name, keys) is None:
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
                moved += param.nbytes if device.type != "meta" else 0
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
                moved += buf.nbytes if device.type != "meta" else 0
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


def explain(module: nn.Module, dmap: DeviceMap, uncovered: list[str]) -> list[str]:
    """The map in accelerate's words (``dispatch_plan``), then what the map left out."""
    findings = list(dispatch_plan.plan(module, dmap, _free_bytes).findings)
    findings.extend(_uncovered(module, uncovered))
    return findings


def _uncovered(module: nn.Module, uncovered: list[str]) -> list[str]:
    if not uncovered:
        return []
    kinds = "buffer" if all(_is_buffer(module, n) for n in uncovered) else "tensor"
    shown = ", ".join(uncovered[:3])
    if len(uncovered) > 3:
        shown = Text("list.and_more", names=shown, more=len(uncovered) - 3)
    key = f"device_map.uncovered_{kinds}" + ("_one" if len(uncovered) == 1 else "s")
    return [Text(key, count=len(uncovered), names=shown)]


def _is_buffer(module: nn.Module, name: str) -> bool:
    owner, _, key = name.rpartition(".")
    try:
        sub = module.get_submodule(owner)
    except AttributeError:
        return False
    return key in sub._buffers


def alignment(module: nn.Module, dmap: DeviceMap) -> dict[str, torch.device]:
    """Where each module entry of the map runs under dispatch_model (a streamed one on the
    main device), as ``crossings.measure_crossings(align=...)`` takes it."""
    modules = {name for name, _ in module.named_modules(remove_duplicate=False)}
    mapping = dmap.as_dict()
    main = dispatch_plan.main_device(mapping.values())
    streamed = dispatch_plan.offloaded_devices(main)
    return {name: torch.device(main if device in streamed else device) for name, device in dmap.entries if name in modules}


def streamed_weights(module: nn.Module, dmap: DeviceMap) -> dict[str, frozenset[str]]:
    """Per module, its own parameters that dispatch_model streams to the main device for each
    call (those under a key mapped to ``cpu`` or ``disk`` when the main device is a GPU)."""
    mapping = dmap.as_dict()
    streamed = dispatch_plan.offloaded_devices(dispatch_plan.main_device(mapping.values()))
    keys: dict[str, set[str]] = defaultdict(set)
    for name, _owner, key, kind in _tensor_slots(module):
        if kind == "parameter" and _target_of(name, mapping) in streamed:
            keys[_owner_of(name)].add(key)
    return {owner: frozenset(names) for owner, names in keys.items()}


def measure(module: nn.Module, dmap: DeviceMap, result: MapResult, inputs: Any) -> MapResult:
    """``result`` with one forward on ``inputs`` as dispatch_model runs it: the activation
    crossings, and the weights streamed to the main device (measured per call), in words."""
    import dataclasses

    from inspector.core.moves.crossings import measure_crossings

    main = torch.device(dispatch_plan.main_device(dmap.as_dict().values()))
    report = measure_crossings(module, inputs, align=alignment(module, dmap), stream=streamed_weights(module, dmap),
                               stream_to=main)  # fmt: skip
    words = [c.describe() for c in sorted(report.crossings, key=lambda c: -c.bytes_per_forward)]
    if report.streamed_calls:
        one = "_one" if report.streamed_calls == 1 else ""
        words.append(Text(f"device_map.streamed_measured{one}", size=format_bytes(report.streamed_bytes),
                          calls=report.streamed_calls, main=dispatch_plan.main_device(dmap.as_dict().values())))  # fmt: skip
    if report.error is not None:
        key = "device_map.forward_failed_streamed" if report.streamed_calls else "device_map.forward_failed"
        words.append(Text(key, error=report.error))
    return dataclasses.replace(result, crossings=report, findings=result.findings + tuple(words))
