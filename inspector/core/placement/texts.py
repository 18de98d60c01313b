"""How a placement's sizes read: a row's size, the meta tensors' note, a device's bytes.

Torch-free (the window's parameter panel shows these before torch is imported); the kinds
of storage a row can have are named here, and ``tensor_bytes`` measures them.
"""

from __future__ import annotations

from typing import Any

from inspector.core.messages import Text
from inspector.core.units import format_bytes

#: What holds a tensor's data (``TensorRow.storage``; sparse layouts are named by PyTorch's layout).
DENSE, META, QUANTIZED = "dense", "meta", "quantized"


def size_text(row: Any) -> str:
    """A row's size as users should read it: what is allocated, and what kind of storage
    holds it where that changes the figure ("0 B (would be 39.1 KiB)" on the meta device)."""
    size = format_bytes(row.bytes)
    if row.storage == META:  # the row's device says "meta" next to it
        return Text("placement.would_be", size=size, dense=format_bytes(row.dense_bytes))
    if row.storage == QUANTIZED:
        return Text("placement.quantized", size=size)
    if row.storage != DENSE:  # sparse layouts
        return Text("placement.sparse", size=size, layout=row.storage.replace("_", " "),
                    dense=format_bytes(row.dense_bytes))  # fmt: skip
    return size


def meta_text(totals: Any) -> str:
    """"" or a note on the meta tensors' would-be size, for the end of a totals line."""
    if not totals.meta_bytes:
        return ""
    return Text("placement.meta_note", size=format_bytes(totals.meta_bytes))


def device_bytes_text(totals: Any, device: str) -> str:
    """A device's allocated bytes; the meta device's with what its tensors would take."""
    text = format_bytes(totals.by_device.get(device, 0))
    if device == META and totals.meta_bytes:
        return Text("placement.would_be", size=text, dense=format_bytes(totals.meta_bytes))
    return text
