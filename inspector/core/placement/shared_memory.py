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

from dataclasses import dataclass
from typing import Any, Sequence

import torch


@dataclass(frozen=True)
class Block:
    """One allocation, by the tensors' positions in the list given to ``memory_blocks``."""

    first: int  # the first tensor in the list that lies in it: the one it is counted on
    #: The block's bytes (the union of its storages' ranges); None for a tensor without an
    #: address, whose own measured size counts.
    bytes: int | None


def _address_range(t: torch.Tensor) -> tuple[str, int, int] | None:
    """(device, start, end) of the storage behind a dense tensor; None when it has none."""
    if t.device.type == "meta" or t.layout is not torch.strided or t.is_quantized:
        return None
    try:
        storage = t.untyped_storage()
        start, size = int(storage.data_ptr()), int(storage.nbytes())
    except (RuntimeError, NotImplementedError, TypeError):  # wrapper subclasses, functional tensors
        return None
    if start == 0 or size <= 0:  # an empty or unaddressable storage: nothing to share
        return None
    return str(t.device), start, start + size


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

    Sorting the ranges makes this O(n log n): a model of 10,000 tensors is one sort."""
    blocks: list[Block | None] = [None] * len(tensors)
    ranges: list[tuple[str, int, int, int]] = []
    by_view: dict[tuple[Any, ...], Block] = {}
    for i, t in enumerate(tensors):
        where = _address_range(t)
        if where is not None:
            ranges.append((*where, i))
            continue
        key = view_key(t)
        block = by_view.get(key)
        if block is None:
            block = by_view[key] = Block(i, None)
        blocks[i] = block
    ranges.sort()
    group: list[int] = []
    device, start, end = "", 0, 0
    for dev, begin, stop, i in ranges:
        if group and dev == device and begin < end:  # overlaps the block so far
            group.append(i)
            end = max(end, stop)
            continue
        if group:
            _close(group, start, end, blocks)
        group, device, start, end = [i], dev, begin, stop
    if group:
        _close(group, start, end, blocks)
    return [b for b in blocks if b is not None]


def _close(group: list[int], start: int, end: int, blocks: list[Block | None]) -> None:
    # Ranges joined only when they overlap, so the union is one stretch: end - start.
    block = Block(min(group), end - start)
    for i in group:
        blocks[i] = block
