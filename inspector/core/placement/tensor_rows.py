"""Where every tensor of a model lives: one row per tensor, totals, and what looks wrong."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Iterator

import torch
from torch import nn

from inspector.core.devices.discovery import device_id
from inspector.core.files.models import LoadedModel
from inspector.core.messages import Text, capped, joined
from inspector.core.placement.shared_memory import memory_blocks, view_key
from inspector.core.placement.tensor_bytes import measure
from inspector.core.placement.texts import META
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
    bytes: int  # really allocated: 0 on meta, indices + values when sparse (tensor_bytes)
    elements: int
    requires_grad: bool
    #: Name of the first row lying in the same memory (a tied weight, a view of its storage,
    #: an overlapping storage); such rows count once, on that first row.
    shares_with: str | None = None
    #: "dense", "meta", "quantized", "sparse_coo", "sparse_csr", ... (tensor_bytes.storage_kind)
    storage: str = "dense"
    #: numel × element size: what a dense tensor of this shape and dtype takes (a meta
    #: tensor's would-be size; a sparse one's dense equivalent).
    dense_bytes: int = 0
    #: Rows with the same number lie in the same memory (shared_memory.memory_blocks); -1: not known.
    storage_id: int = -1
    #: What this row adds to the totals: its memory's bytes on the first row that lies in it
    #: (the whole storage, however many tensors view it), 0 on the rows sharing it.
    counted_bytes: int = -1
    #: True when the row shares ``shares_with``'s memory as another view of it (other offset,
    #: shape, stride or dtype); False for a tied weight (the same tensor under two names).
    is_view: bool = False

    def __post_init__(self) -> None:
        if self.counted_bytes < 0:  # built without it (an older agent, a test): as before views counted
            object.__setattr__(self, "counted_bytes", self.bytes if self.shares_with is None else 0)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["shape"] = list(self.shape)
        return d


@dataclass(frozen=True)
class Totals:
    count: int  # the rows counted: one per storage (tied weights and views share their first's)
    elements: int
    bytes: int  # really allocated, each storage once (meta tensors hold none)
    by_device: dict[str, int]  # allocated bytes per device ("meta": 0, listed so it is seen)
    by_dtype: dict[str, int]  # allocated bytes per dtype
    #: What the meta tensors would take once materialised: shown apart, never as allocated.
    meta_bytes: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Finding:
    code: str  # "split_model" | "optimizer_state_elsewhere" | "buffer_elsewhere"
    message: str
    names: tuple[str, ...] = ()
    #: The PyTorch code that fixes it, where one line does ("" otherwise).
    fix: str = ""

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
    for name, t in _packed_tensors(module):
        yield name, "parameter", t, t.requires_grad
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


_QUANTIZED_MODULES = ("torch.ao.nn.quantized", "torch.nn.quantized", "torch.ao.nn.intrinsic.quantized")


def _packed_tensors(module: nn.Module) -> Iterator[tuple[str, torch.Tensor]]:
    """Weights a module keeps outside its parameters and buffers: a quantized Linear packs
    its int8 weight and bias into a C++ object, so ``parameters()`` lists nothing and a
    quantized model would read as 0 B. Its ``_save_to_state_dict`` unpacks them: listed
    from there, as state_dict() would save them (0-d scales and zero points left out: they
    are Python numbers the state dict turns into tensors, not memory the model holds)."""
    for prefix, sub in _modules_saving_their_own_way(module):
        quantized_module = type(sub).__module__.startswith(_QUANTIZED_MODULES)
        own = {id(t) for t in (*sub._parameters.values(), *sub._buffers.values()) if t is not None}
        saved: dict[str, Any] = {}
        try:
            sub._save_to_state_dict(saved, f"{prefix}." if prefix else "", True)
        except Exception:  # noqa: BLE001 - a user module's own saving code: list what we can
            continue
        for key, value in saved.items():
            for name, t in _named_items(key, value):
                # Another module's own tensors are listed as its parameters and buffers; from
                # a user's module only quantized tensors are taken (fresh copies are not memory).
                if id(t) in own or t.dim() == 0 or not (quantized_module or t.is_quantized):
                    continue
                yield name, t


def _modules_saving_their_own_way(module: nn.Module) -> Iterator[tuple[str, nn.Module]]:
    """(path, module) of each module whose class overrides ``_save_to_state_dict``.

    A plain stack walk, not ``named_modules()``: its recursive generators cost a model of
    5,000 modules about 10 ms, and this runs on every snapshot."""
    plain = nn.Module._save_to_state_dict
    seen: set[int] = set()
    stack: list[tuple[str, nn.Module]] = [("", module)]
    while stack:
        prefix, sub = stack.pop()
        if id(sub) in seen:
            continue
        seen.add(id(sub))
        if type(sub)._save_to_state_dict is not plain:
            yield prefix, sub
        for name, child in reversed(sub._modules.items()):
            if child is not None:
                stack.append((f"{prefix}.{name}" if prefix else name, child))


def _named_items(key: str, value: Any) -> Iterator[tuple[str, torch.Tensor]]:
    if isinstance(value, torch.Tensor):
        yield key, value
    elif isinstance(value, (tuple, list)):
        # LinearPackedParams saves (weight, bias) under "<module>._packed_params".
        owner = key.rpartition(".")[0]
        names = ("weight", "bias") if len(value) == 2 else tuple(str(i) for i in range(len(value)))
        for part, item in zip(names, value):
            if isinstance(item, torch.Tensor):
                yield f"{owner}.{part}" if owner else part, item


def snapshot(loaded: LoadedModel | nn.Module, optimizer: torch.optim.Optimizer | None = None) -> Placement:
    """One row per tensor of the model (and its optimizer), with totals and findings."""
    if isinstance(loaded, LoadedModel):
        module, optimizer = loaded.module, loaded.optimizer
    else:
        module = loaded
    listed = list(_iter_tensors(module, optimizer))
    blocks = memory_blocks([t for _, _, t, _ in listed])
    block_ids: dict[int, int] = {}  # id(Block) -> its number, in first-seen order
    rows: list[TensorRow] = []
    count = elements = total_bytes = meta_bytes = 0
    by_device: Counter[str] = Counter()
    by_dtype: Counter[str] = Counter()
    for i, ((name, kind, t, requires_grad), block) in enumerate(zip(listed, blocks)):
        first = block.first
        shares_with = None if first == i else listed[first][0]
        device = t.device
        kind_of_storage, nbytes, dense = measure(t, device.type)
        dev, dt = device_id(device) if device.type != "meta" else "meta", dtype_name(t.dtype)
        counted = 0
        if shares_with is None:
            counted = nbytes if block.bytes is None else block.bytes
            count += 1
            elements += t.numel()
            total_bytes += counted
            by_device[dev] += counted
            by_dtype[dt] += counted
            if kind_of_storage == META:
                meta_bytes += dense
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
                storage=kind_of_storage,
                dense_bytes=dense,
                storage_id=block_ids.setdefault(id(block), len(block_ids)),
                counted_bytes=counted,
                is_view=shares_with is not None and view_key(t) != view_key(listed[first][2]),
            )
        )
    totals = Totals(count, elements, total_bytes, dict(by_device), dict(by_dtype), meta_bytes)
    return Placement(tuple(rows), totals, tuple(_findings(rows)))


def _name_list(names: list[str], limit: int = 3) -> str:
    """The first ``limit`` names (the model's own, never translated), and how many more."""
    shown = ", ".join(capped(name) for name in names[:limit])  # a 100,000-character name: its start
    return Text("list.and_more", names=shown, more=len(names) - limit) if len(names) > limit else shown


def _findings(rows: list[TensorRow]) -> list[Finding]:
    findings: list[Finding] = []
    model_rows = [r for r in rows if r.kind in ("parameter", "buffer")]
    per_device = Counter(r.device for r in model_rows)
    if len(per_device) > 1:
        where = joined([Text("placement.device_tensors" if n != 1 else "placement.device_tensor", device=d, count=n)
                        for d, n in per_device.items()])  # fmt: skip
        findings.append(Finding("split_model", Text("placement.split_model", where=where), tuple(per_device)))

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
        key = "placement.optimizer_state_device" if first.device != owner.device else "placement.optimizer_state_dtype"
        if len(stray_state) == 1:
            key += "_one"
        stayed = Text(key, count=len(stray_state), names=_name_list(stray_state),
                      state=first.device if first.device != owner.device else first.dtype,
                      model=owner.device if first.device != owner.device else owner.dtype)  # fmt: skip
        findings.append(
            Finding(
                "optimizer_state_elsewhere",
                stayed,
                tuple(stray_state),
                fix="optimizer.load_state_dict(optimizer.state_dict())  # state follows the parameters",
            )
        )

    if param_devices:
        main_device = param_devices.most_common(1)[0][0]
        stray_buffers = [r.name for r in rows if r.kind == "buffer" and r.device != main_device]
        if stray_buffers:
            findings.append(
                Finding(
                    "buffer_elsewhere",
                    Text("placement.buffer_elsewhere" if len(stray_buffers) != 1 else "placement.buffer_elsewhere_one",
                         count=len(stray_buffers), names=_name_list(stray_buffers), device=main_device),
                    tuple(stray_buffers),
                )
            )
    return findings
