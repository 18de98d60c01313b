"""A move's price before it is made, from a placement snapshot (no tensor is touched).

``moves.preview_move`` walks the live model, which only its owner (the window's worker) may
do. A front end holds a ``Placement`` instead; this module prices a move from it: the bytes
held per device at the move's peak (the originals are kept until the move succeeds, so a
cast needs the model's bytes plus its copies there for a moment), and, from the facts the
session states next to the placement, the warnings and any refusal.

Costs: ``held_bytes`` is one pass over the placement's rows (once per snapshot); ``price``
is O(devices x dtypes), cheap enough to run on every change of the target or dtype.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from inspector.core.devices import discovery as devices
from inspector.core.errors import InputError
from inspector.core.moves.transaction import MovePreview, MoveRequest, _plan, refusal_text
from inspector.core.placement.tensor_rows import Placement
from inspector.core.units import format_bytes

#: The kinds of tensor ``Module.to`` converts (optimizer state does not follow it).
_MOVED_KINDS = frozenset({"parameter", "buffer", "grad"})


def held_bytes(placement: Placement) -> dict[tuple[str, str], int]:
    """Bytes of the tensors a move converts, per (device id, dtype name)."""
    held: dict[tuple[str, str], int] = {}
    for row in placement.tensors:
        if row.kind in _MOVED_KINDS and row.shares_with is None:
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
    """``moves.preview_move``'s figures from ``held_bytes``. Raises ``InputError`` like it
    (a request that is not a move; an absent device, kind "device")."""
    plan = _plan(request)
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
        return f"{preview.call}: nothing to copy (the model is already there, in that dtype)"
    parts = []
    for where in sorted(preview.copy_bytes):
        peak = preview.peak_bytes[where]
        own = preview.model_bytes.get(where, 0)
        if own:
            parts.append(f"{format_bytes(peak)} on {where} for a moment ({peak / own:.1f}x the model's bytes there)")
        else:
            parts.append(f"{format_bytes(peak)} on {where}")
    line = f"{preview.call} needs " + ", ".join(parts) + ": the originals are kept until it succeeds"
    if preview.warnings:
        line += "; " + "; ".join(preview.warnings)
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
