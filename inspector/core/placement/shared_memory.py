"""Which tensors lie in the same memory, and how much memory that is: each allocation once.

A tied weight is one tensor under two names; a view (``.view(-1)``, ``.t()``, ``[:512]``)
is another tensor over the same storage; two storages can even overlap (``torch.from_numpy``
of two views of one array). Adding ``numel × element size`` per tensor counts such memory
once per tensor (a 4 MiB weight with three views of it read as 14 MiB). Here each tensor's
memory is the address range of its storage, ranges that overlap on a device are one block,
and a block's bytes are the length of its ranges' union: what the allocator really holds.

Tensors with no address (meta, sparse, wrapper subclasses, empty ones) are blocks of their
own, except that the very same view under two names (tied) is still one.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

import torch

_QUANTIZED_DTYPES = frozenset(
    getattr(torch, name) for name in ("qint8", "quint8", "qint32", "quint4x2", "quint2x4") if hasattr(torch, name)
)


class Block(NamedTuple):
    """One allocation, by the tensors' positions in the list given to ``memory_blocks``.

    (A tuple, not a frozen dataclass: one is made per tensor, and a snapshot of 10,000
    tensors is taken after every move.)"""

    first: int  # the first tensor in the list that lies in it: the one it is counted on
    #: The block's bytes (the union of its storages' ranges); None for a tensor without an
    #: address, whose own measured size counts.
    bytes: int | None


def _address_range(t: torch.Tensor) -> tuple[torch.device, int, int] | None:
    """(device, start, end) of the storage behind a dense tensor; None when it has none."""
    device = t.device
    if device.type == "meta" or t.layout is not torch.strided or t.dtype in _QUANTIZED_DTYPES:
        return None
    try:
        storage = t.untyped_storage()
        start, size = storage.data_ptr(), storage.nbytes()
    except (RuntimeError, NotImplementedError, TypeError):  # wrapper subclasses, functional tensors
        return None
    if not start or size <= 0:  # an empty or unaddressable storage: nothing to share
        return None
    return device, start, start + size


def view_key(t: torch.Tensor) -> tuple[Any, ...]:
    """The exact view a tensor is (memory, offset, shape, stride, dtype): the same for a tied
    weight's two names, different for a view of it."""
    if t.numel() == 0 or t.device.type == "meta":
        return ("id", id(t))
    try:
        ptr = t.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError, TypeError):  # tensor subclasses without storage
        return ("id", id(t))
    return (str(t.device), ptr, t.storage_offset(), tuple(t.shape), tuple(t.stride()), t.dtype)


def memory_blocks(tensors: Sequence[torch.Tensor]) -> list[Block]:
    """The block each tensor lies in (``result[i]`` for ``tensors[i]``; tensors of one block
    share one ``Block`` object).

    Sorting each device's ranges makes this O(n log n): a model of 10,000 tensors is one sort."""
    blocks: list[Block | None] = [None] * len(tensors)
    per_device: dict[torch.device, list[tuple[int, int, int]]] = {}
    by_view: dict[tuple[Any, ...], Block] = {}
    for i, t in enumerate(tensors):
        where = _address_range(t)
        if where is not None:
            device, start, end = where
            per_device.setdefault(device, []).append((start, end, i))
            continue
        key = view_key(t)
        block = by_view.get(key)
        if block is None:
            block = by_view[key] = Block(i, None)
        blocks[i] = block
    for ranges in per_device.values():
        ranges.sort()
        group: list[int] = []
        start = end = 0
        for begin, stop, i in ranges:
            if group and begin < end:  # overlaps the block so far
                group.append(i)
                end = max(end, stop)
                continue
            if group:
                _close(group, start, end, blocks)
            group, start, end = [i], begin, stop
        if group:
            _close(group, start, end, blocks)
    return [b for b in blocks if b is not None]


def _close(group: list[int], start: int, end: int, blocks: list[Block | None]) -> None:
    # Ranges joined only when they overlap, so the union is one stretch: end - start.
    if len(group) == 1:
        blocks[group[0]] = Block(group[0], end - start)
        return
    block = Block(min(group), end - start)
    for i in group:
        blocks[i] = block
