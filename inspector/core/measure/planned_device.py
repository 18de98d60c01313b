"""What a "will it fit?" answer's device is called wherever it is shown: a device planned for
(a preset such as "RTX 4090", or a capacity) is named as planned, never by the ``cuda:0`` the
plan's layout used, so a machine without a GPU never reads as having one (issue 45 item 2:
a report listed "cuda:0 … usable 23.0 GiB, yes" on a laptop with no GPU).

Values may come from a report someone else wrote: a name that is not a string counts as none.
"""

from __future__ import annotations

from typing import Any

from inspector.core.messages import Text


def device_label(device: Any, named: Any = None, present: Any = True) -> str:
    """``"RTX 4090, planned: not on this machine"``; ``"24.0 GiB, planned (cuda:0 is here)"``
    for a capacity planned on a device the machine has; the device itself when nothing was named."""
    shown = device if isinstance(device, str) and device else "?"
    if not isinstance(named, str) or not named:
        return shown
    if present is True:
        return Text("fit.planned_here", name=named, device=shown)
    return Text("fit.planned_absent", name=named)


def input_text(entry: Any) -> str:
    """A fit answer's input (its ``input_shapes``, and the largest batch a search found), as
    ``"64x3"`` or ``"12x3 (largest batch 12)"``: why a max-batch row's activations are its own."""
    shapes = entry.get("input_shapes") if isinstance(entry, dict) else None
    parts = []
    for shape in shapes if isinstance(shapes, list) else ():
        if isinstance(shape, list) and all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
            parts.append("x".join(str(d) for d in shape) or "()")
    shown = ", ".join(parts[:8]) or "—"
    search = entry.get("max_batch") if isinstance(entry, dict) else None
    batch = search.get("batch") if isinstance(search, dict) else None
    if isinstance(batch, int) and not isinstance(batch, bool):
        return Text("fit.input_at_batch", shapes=shown, batch=f"{batch:,}")
    return shown
