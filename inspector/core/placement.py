"""Where every tensor of a model lives: one row per tensor, totals, and what looks wrong."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Iterator

import torch
from torch import nn

from inspector.core.devices import device_id
from inspector.core.models import LoadedModel
from inspector.core.units import dtype_name

KINDS = ("parameter", "buffer", "grad", "optimizer_state")


@dataclass(frozen=True)
class TensorRow:
    name: str  # "fc1.weight"; optimizer state: "fc1.weight.momentum_buffer"
    kind: str  # one of KINDS
    module: str  # owning module's path, "" for the root
    shape: tuple[int, ...]
    dtype: str  # "float32"
    device: str  # "cpu", "cuda:0"
    bytes: int
    elements: int
    requires_grad: bool
    #: Name of the first row with the same storage (tied weights); such rows count once.
    shares_with: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["shape"] = list(self.shape)
        return d


@dataclass(frozen=True)
class Totals:
    count: int
    elements: int
    bytes: int
    by_device: dict[str, int]  # bytes per device
    by_dtype: dict[str, int]  # bytes per dtype

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Finding:
    code: str  # "split_model" | "optimizer_state_elsewhere" | "buffer_elsewhere"
    message: str
    names: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["names"] = list(self.names)
        return d


@dataclass(frozen=True)
class Placement:
    tensors: tuple[TensorRow, ...]
    totals: Totals
    warnings: tuple[Finding, ...]

    @property
    def devices(self) -> tuple[str, ...]:
        """Devices holding parameters or buffers (what a forward pass needs), in first-seen order."""
        seen = dict.fromkeys(r.device for r in self.tensors if r.kind in ("parameter", "buffer"))
        return tuple(seen)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tensors": [r.to_dict() for r in self.tensors],
            "totals": self.totals.to_dict(),
            "warnings": [w.to_dict() for w in self.warnings],
        }


def _storage_key(t: torch.Tensor) -> tuple[Any, ...]:
    """Identity of the memory a tensor views: tied weights and aliases give the same key."""
    if t.numel() == 0 or t.device.type == "meta":
        return ("id", id(t))
    try:
        ptr = t.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError):  # tensor subclasses without storage
        return ("id", id(t))
    return (str(t.device), ptr, t.storage_offset(), tuple(t.shape), tuple(t.stride()), t.dtype)


def _module_of(name: str) -> str:
    return name.rpartition(".")[0]


def _iter_tensors(
    module: nn.Module, optimizer: torch.optim.Optimizer | None
) -> Iterator[tuple[str, str, torch.Tensor, bool]]:
    """(name, kind, tensor, requires_grad) for every tensor a user cares about."""
    param_names: dict[int, str] = {}
    # remove_duplicate=False lists a tied weight under each name it is reachable by.
    params = list(module.named_parameters(remove_duplicate=False))
    for name, p in params:
        param_names.setdefault(id(p), name)
        yield name, "parameter", p, p.requires_grad
    for name, b in module.named_buffers(remove_duplicate=False):
        if b is not None:
            yield name, "buffer", b, False
    seen_grads: set[int] = set()
    for name, p in params:
        if p.grad is not None and id(p) not in seen_grads:
            seen_grads.add(id(p))
            yield f"{name}.grad", "grad", p.grad, False
    if optimizer is None:
        return
    for g, group in enumerate(optimizer.param_groups):
        for i, p in enumerate(group["params"]):
            state = optimizer.state.get(p)
            if not state:
                continue
            owner = param_names.get(id(p), f"param_groups[{g}][{i}]")
            for key, value in state.items():
                if isinstance(value, torch.Tensor):
                    yield f"{owner}.{key}", "optimizer_state", value, False


def snapshot(loaded: LoadedModel | nn.Module, optimizer: torch.optim.Optimizer | None = None) -> Placement:
    """One row per tensor of the model (and its optimizer), with totals and findings."""
    if isinstance(loaded, LoadedModel):
        module, optimizer = loaded.module, loaded.optimizer
    else:
        module = loaded
    rows: list[TensorRow] = []
    first_name_by_storage: dict[tuple[Any, ...], str] = {}
    count = elements = total_bytes = 0
    by_device: Counter[str] = Counter()
    by_dtype: Counter[str] = Counter()
    for name, kind, t, requires_grad in _iter_tensors(module, optimizer):
        key = _storage_key(t)
        shares_with = first_name_by_storage.get(key)
        nbytes = t.numel() * t.element_size()
        dev, dt = device_id(t.device) if t.device.type != "meta" else "meta", dtype_name(t.dtype)
        if shares_with is None:
            first_name_by_storage[key] = name
            count += 1
            elements += t.numel()
            total_bytes += nbytes
            by_device[dev] += nbytes
            by_dtype[dt] += nbytes
        rows.append(
            TensorRow(
                name=name,
                kind=kind,
                # Grad and optimizer-state names extend their parameter's ("fc1.weight.grad").
                module=_module_of(name) if kind in ("parameter", "buffer") else _module_of(_module_of(name)),
                shape=tuple(t.shape),
                dtype=dt,
                device=dev,
                bytes=nbytes,
                elements=t.numel(),
                requires_grad=requires_grad,
                shares_with=shares_with,
            )
        )
    totals = Totals(count, elements, total_bytes, dict(by_device), dict(by_dtype))
    return Placement(tuple(rows), totals, tuple(_findings(rows)))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _name_list(names: list[str], limit: int = 3) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _findings(rows: list[TensorRow]) -> list[Finding]:
    findings: list[Finding] = []
    model_rows = [r for r in rows if r.kind in ("parameter", "buffer")]
    per_device = Counter(r.device for r in model_rows)
    if len(per_device) > 1:
        where = ", ".join(f"{d} ({_plural(n, 'tensor')})" for d, n in per_device.items())
        findings.append(
            Finding(
                "split_model",
                f"The model is split across devices: {where}. A forward pass fails with "
                "'Expected all tensors to be on the same device' until it is moved as a whole.",
                tuple(per_device),
            )
        )

    params = {r.name: r for r in rows if r.kind == "parameter"}
    param_devices = Counter(r.device for r in params.values())
    stray_state: list[str] = []
    for r in rows:
        if r.kind != "optimizer_state":
            continue
        owner = params.get(_module_of(r.name))
        # Adam/AdamW keep the scalar `step` on the CPU on purpose (unless capturable/fused).
        if owner is None or (r.shape == () and r.name.endswith(".step")):
            continue
        if r.device != owner.device or (r.dtype != owner.dtype and r.shape == owner.shape):
            stray_state.append(r.name)
    if stray_state:
        first = next(r for r in rows if r.name == stray_state[0])
        owner = params[_module_of(first.name)]
        findings.append(
            Finding(
                "optimizer_state_elsewhere",
                f"{_plural(len(stray_state), 'optimizer-state tensor')} ({_name_list(stray_state)}) "
                f"{'is' if len(stray_state) == 1 else 'are'} not where {'its' if len(stray_state) == 1 else 'their'} "
                f"parameter is (e.g. {first.device}/{first.dtype} vs {owner.device}/{owner.dtype}). "
                "Module.to() does not move optimizer state: create the optimizer after moving the "
                "model, or load its state_dict again so it follows the parameters.",
                tuple(stray_state),
            )
        )

    if param_devices:
        main_device = param_devices.most_common(1)[0][0]
        stray_buffers = [r.name for r in rows if r.kind == "buffer" and r.device != main_device]
        if stray_buffers:
            findings.append(
                Finding(
                    "buffer_elsewhere",
                    f"{_plural(len(stray_buffers), 'buffer')} ({_name_list(stray_buffers)}) "
                    f"{'is' if len(stray_buffers) == 1 else 'are'} not on {main_device} with the parameters.",
                    tuple(stray_buffers),
                )
            )
    return findings
