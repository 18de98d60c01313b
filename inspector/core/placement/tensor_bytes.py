"""How many bytes a tensor really holds, and what kind of storage holds them.

``numel() * element_size()`` is right only for a dense tensor on a real device. A meta
tensor holds nothing (its dense size is what it *would* take); a sparse tensor holds its
indices and values, not a dense block; a quantized tensor holds its integer storage (plus
per-channel scales and zero points). The placement view shows what this module says.
"""

from __future__ import annotations

import torch

#: ``storage`` values: "dense", "meta", "quantized", or the sparse layout's name.
from inspector.core.placement.texts import DENSE, META, QUANTIZED

_QUANTIZED_DTYPES = frozenset(
    getattr(torch, name) for name in ("qint8", "quint8", "qint32", "quint4x2", "quint2x4") if hasattr(torch, name)
)
_SPARSE_PARTS = {
    torch.sparse_coo: ("_indices", "_values"),
    torch.sparse_csr: ("crow_indices", "col_indices", "values"),
    torch.sparse_bsr: ("crow_indices", "col_indices", "values"),
    torch.sparse_csc: ("ccol_indices", "row_indices", "values"),
    torch.sparse_bsc: ("ccol_indices", "row_indices", "values"),
}


def storage_kind(t: torch.Tensor) -> str:
    """``"meta"`` (nothing allocated), ``"quantized"``, ``"sparse_coo"``/``"sparse_csr"``/…,
    else ``"dense"``."""
    if t.device.type == "meta":
        return META
    if t.layout in _SPARSE_PARTS:
        return str(t.layout).removeprefix("torch.")
    if t.is_quantized:
        return QUANTIZED
    return DENSE


def dense_bytes(t: torch.Tensor) -> int:
    """The bytes of a dense tensor of this shape and dtype: what a meta tensor would take."""
    return t.numel() * t.element_size()


def allocated_bytes(t: torch.Tensor) -> int:
    """The bytes this tensor really holds (0 on the meta device)."""
    kind = storage_kind(t)
    if kind == META:
        return 0
    if t.layout in _SPARSE_PARTS:
        return sum(getattr(t, part)().nbytes for part in _SPARSE_PARTS[t.layout])
    if kind == QUANTIZED:
        extra = 0
        if t.qscheme() in (torch.per_channel_affine, torch.per_channel_symmetric,
                           torch.per_channel_affine_float_qparams):  # fmt: skip
            extra = t.q_per_channel_scales().nbytes + t.q_per_channel_zero_points().nbytes
        return _storage_bytes(t) + extra
    return dense_bytes(t)


def measure(t: torch.Tensor, device_type: str) -> tuple[str, int, int]:
    """``(storage_kind, allocated_bytes, dense_bytes)`` in one go; ``device_type`` is
    ``t.device.type``, which the caller already has (a model of 10,000 tensors asks 10,000
    times, so the common dense case takes the fewest attribute reads)."""
    dense = t.numel() * t.element_size()
    if device_type == META:
        return META, 0, dense
    if t.layout is torch.strided and t.dtype not in _QUANTIZED_DTYPES:  # dtype: cheaper than is_quantized
        return DENSE, dense, dense
    return storage_kind(t), allocated_bytes(t), dense


def _storage_bytes(t: torch.Tensor) -> int:
    try:
        return int(t.untyped_storage().nbytes())
    except (RuntimeError, NotImplementedError):  # a tensor subclass without storage
        return dense_bytes(t)
