"""A move's price before it is made: the bytes it holds per device at its peak, and its caveats.

The originals are kept until a move succeeds (to roll back), so a cast needs the model's bytes
plus its copies on a device for a moment. ``preview_move`` prices a move from the live model,
which only its owner (the window's worker) may walk; a front end holds a ``Placement``
instead, and ``price`` prices the move from it and from the facts the session states next to
the placement (the warnings and any refusal). After a move, ``peak_bytes`` says what it held.

Costs: ``preview_move`` is O(tensors) and touches nothing; ``held_bytes`` is one pass over the
placement's rows (once per snapshot); ``price`` is O(devices x dtypes), cheap enough to run
on every change of the target or dtype.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import torch

from inspector.core.devices import discovery as devices
from inspector.core.errors import InputError
from inspector.core.files.models import LoadedModel
from inspector.core.messages import Text, joined
from inspector.core.moves import caveats, rollback
from inspector.core.moves.request import MoveRequest, Plan, plan_move
from inspector.core.placement.tensor_rows import Placement
from inspector.core.units import format_bytes


# --------------------------------------------------------------------------- from the live model


@dataclass(frozen=True)
class MovePreview:
    """What a move will cost before it is made: the transaction's price, and its caveats.

    ``model_bytes``: the model's parameters, grads and buffers per device now.
    ``copy_bytes``: the converted copies the move makes, per device where they land.
    ``peak_bytes``: both at once, per device: the originals are kept until the move
    succeeds (to roll back), so a cast needs the model's bytes plus its copies there for a
    moment (a float32 -> float64 cast: 3x; a float32 -> bfloat16 cast: 1.5x), where a plain
    ``Module.to`` frees each original as it goes. ``warnings``: what a rollback could not
    restore exactly; ``refusal``: why the move will not be made at all (None: it will).
    """

    call: str
    model_bytes: dict[str, int]
    copy_bytes: dict[str, int]
    peak_bytes: dict[str, int]
    warnings: tuple[str, ...] = ()
    refusal: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def preview_move(loaded: LoadedModel, request: MoveRequest) -> MovePreview:
    """The peak memory per device and the caveats of ``move_model(loaded, request)``.

    O(tensors); touches nothing. Raises ``InputError`` like ``move_model`` for a request that
    is not a move, and for an absent device (kind "device").
    """
    plan = plan_move(request)
    snapshot = rollback.Snapshot(loaded.module)
    copies: dict[str, int] = {}
    for t in snapshot.tensors():
        needed = bytes_needed((t,), plan)
        if needed:
            where = devices.device_id(plan.target if plan.target is not None else t.device)
            copies[where] = copies.get(where, 0) + needed
    peak = dict(snapshot.by_device)
    for where, size in copies.items():
        peak[where] = peak.get(where, 0) + size
    return MovePreview(
        call=plan.call,
        model_bytes=dict(snapshot.by_device),
        copy_bytes=copies,
        peak_bytes=peak,
        warnings=tuple(caveats.vouch(snapshot.modules)),
        refusal=refusal(snapshot, plan),
    )


def refusal(snapshot: rollback.Snapshot, plan: Plan) -> str | None:
    """``refusal_text`` for the model ``snapshot`` was taken of."""
    return refusal_text(plan, caveats.has_packed_weights(snapshot.modules))


def refusal_text(plan: Plan, packed_weights: bool) -> str | None:
    """A move that would leave part of the model behind is refused before it starts."""
    if plan.target is None or not packed_weights:
        return None
    if plan.target.type == "cpu":  # where packed quantized weights live
        return None
    return Text("move.refused_quantized", call=plan.call)


def bytes_needed(tensors: Iterable[torch.Tensor], plan: Plan) -> int:
    """Bytes the target must hold for the converted copies (for the out-of-memory message)."""
    target_id = devices.device_id(plan.target) if plan.target is not None else None
    needed = 0
    for t in tensors:
        # Module.to casts floating-point and complex tensors only.
        castable = t.is_floating_point() or t.is_complex()
        cast = plan.dtype if plan.dtype is not None and castable else t.dtype
        moves = target_id is not None and devices.device_id(t.device) != target_id
        if moves or cast != t.dtype:
            needed += rollback.nbytes(t) // t.element_size() * cast.itemsize
    return needed


def peak_bytes(snapshot: rollback.Snapshot, plan: Plan, target_id: str, made: int) -> dict[str, int]:
    """The model's bytes plus the copies, per device, at the moment before the originals go."""
    peak = dict(snapshot.by_device)
    if plan.target is not None:
        peak[target_id] = peak.get(target_id, 0) + made
    elif snapshot.total:
        # A cast alone makes each copy where its original is: share by the devices' bytes.
        for where, size in snapshot.by_device.items():
            peak[where] = size + made * size // snapshot.total
    return peak


# --------------------------------------------------------------------------- from a placement


#: The kinds of tensor ``Module.to`` converts (optimizer state does not follow it).
_MOVED_KINDS = frozenset({"parameter", "buffer", "grad"})


def held_bytes(placement: Placement) -> dict[tuple[str, str], int]:
    """Bytes of the tensors a move converts, per (device id, dtype name)."""
    held: dict[tuple[str, str], int] = {}
    for row in placement.tensors:
        # A tied weight converts once; a view is converted into a copy of its own (Module._apply).
        if row.kind in _MOVED_KINDS and (row.shares_with is None or row.is_view):
            key = (row.device, row.dtype)
            held[key] = held.get(key, 0) + row.bytes
    return held


def price(
    held: Mapping[tuple[str, str], int],
    request: MoveRequest,
    *,
    warnings: tuple[str, ...] = (),
    packed_weights: bool = False,
) -> MovePreview:
    """``preview_move``'s figures from ``held_bytes``. Raises ``InputError`` like it
    (a request that is not a move; an absent device, kind "device")."""
    plan = plan_move(request)
    target_id = devices.device_id(plan.target) if plan.target is not None else None
    model: dict[str, int] = {}
    copies: dict[str, int] = {}
    for (where, dtype_name), size in held.items():
        model[where] = model.get(where, 0) + size
        dtype = getattr(torch, dtype_name, None)
        if not isinstance(dtype, torch.dtype) or not size:
            continue
        castable = dtype.is_floating_point or dtype.is_complex
        cast = plan.dtype if plan.dtype is not None and castable else dtype
        if (target_id is not None and where != target_id) or cast != dtype:
            lands = target_id or where
            copies[lands] = copies.get(lands, 0) + size // dtype.itemsize * cast.itemsize
    peak = dict(model)
    for where, size in copies.items():
        peak[where] = peak.get(where, 0) + size
    refusal = refusal_text(plan, packed_weights)
    return MovePreview(plan.call, model, copies, peak, warnings, refusal)


def price_text(preview: MovePreview) -> str:
    """One line for the window: what the move holds at its peak, per device, and why."""
    if preview.refusal is not None:
        return preview.refusal
    if not preview.copy_bytes:
        return Text("price.nothing_to_copy", call=preview.call)
    parts: list[str] = []
    for where in sorted(preview.copy_bytes):
        peak = preview.peak_bytes[where]
        own = preview.model_bytes.get(where, 0)
        if own:
            parts.append(Text("price.peak_part", peak=format_bytes(peak), device=where, ratio=f"{peak / own:.1f}"))
        else:
            parts.append(Text("price.peak_part_new", peak=format_bytes(peak), device=where))
    line = Text("price.needs", call=preview.call, parts=joined(parts))
    if preview.warnings:
        return Text("price.with_warnings", line=line, warnings=joined(list(preview.warnings), "list.semicolon"))
    return line


def price_line(
    held: Mapping[tuple[str, str], int],
    request: MoveRequest,
    *,
    warnings: tuple[str, ...] = (),
    packed_weights: bool = False,
) -> str:
    """``price_text(price(...))``, or the reason the move cannot be made (never raises)."""
    try:
        return price_text(price(held, request, warnings=warnings, packed_weights=packed_weights))
    except InputError as exc:
        return exc.message
