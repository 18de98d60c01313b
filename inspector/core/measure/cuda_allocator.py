"""CUDA's caching allocator, replayed: what a step's allocations reserve on a GPU that is not here.

A step traced on fake tensors gives the order in which storages are created and freed, each
with its size (``AllocationLog``). On a real GPU these requests go to PyTorch's caching
allocator (``c10/cuda/CUDACachingAllocator.cpp``), which hands out blocks carved from
segments it got with ``cudaMalloc``, and keeps freed blocks for reuse instead of returning
them. What the device must hold is therefore its segments (``memory_reserved``), not the sum
of live tensors (``memory_allocated``), and a step fails when a new segment does not fit.
``replay`` applies the allocator's rules, as written in that file (PyTorch 2.x, default
``PYTORCH_CUDA_ALLOC_CONF``: no ``max_split_size_mb``, no ``roundup_power2_divisions``, no
``expandable_segments``, no garbage collection threshold, one stream), to the traced sequence:

- ``round_size``: a request is rounded up to a multiple of 512 bytes (``kMinBlockSize``);
  a request under 512 bytes takes 512.
- ``get_pool``: requests of at most 1 MiB (``kSmallSize``) are served from the small pool,
  larger ones from the large pool; a block never moves between pools.
- ``get_free_block``: the smallest cached free block of the pool that is large enough (best
  fit; among equal sizes the lowest address).
- ``get_allocation_size``: without such a block, a new segment is ``cudaMalloc``-ed: 2 MiB
  (``kSmallBuffer``) for a small request, 20 MiB (``kLargeBuffer``) for a request under
  10 MiB (``kMinLargeAlloc``), else the request rounded up to 2 MiB (``kRoundLarge``).
- ``should_split``: the rest of a block is split off as a free block when it is at least
  512 bytes (small pool), or more than 1 MiB (large pool); otherwise the request takes the
  whole block.
- ``free_block``: a freed block merges with free neighbours of its segment.
- when ``cudaMalloc`` fails (here: the segment would pass ``limit``), every cached segment
  that is wholly free is released (``release_cached_blocks``) and the call is tried again;
  if it fails again, the step is out of memory.

Addresses are made up (each new segment after the last), which only decides between free
blocks of equal size. Costs: O(log n) per event for the search, O(n) for an insertion into
the sorted free lists (n: free blocks, a few hundred in a real step).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Iterable

#: The allocator's constants (``c10/cuda/CUDACachingAllocator.cpp``, the same in 2.0 to 2.9).
K_MIN_BLOCK_SIZE = 512  # all sizes are rounded to at least 512 bytes
K_SMALL_SIZE = 1 << 20  # largest "small" allocation is 1 MiB
K_SMALL_BUFFER = 2 << 20  # "small" allocations are packed in 2 MiB blocks
K_LARGE_BUFFER = 20 << 20  # "large" allocations may be packed in 20 MiB blocks
K_MIN_LARGE_ALLOC = 10 << 20  # allocations between 1 and 10 MiB may use kLargeBuffer
K_ROUND_LARGE = 2 << 20  # round up large allocations to 2 MiB

#: Where the rules come from, said with every plan that uses them.
SOURCE = "c10/cuda/CUDACachingAllocator.cpp"

#: One traced event: ("alloc", id, bytes) or ("free", id, 0).
Event = tuple[str, int, int]


def round_size(size: int) -> int:
    """``round_size``: the block size a request of ``size`` bytes takes."""
    if size < K_MIN_BLOCK_SIZE:
        return K_MIN_BLOCK_SIZE
    return K_MIN_BLOCK_SIZE * ((size + K_MIN_BLOCK_SIZE - 1) // K_MIN_BLOCK_SIZE)


def allocation_size(size: int) -> int:
    """``get_allocation_size``: the segment ``cudaMalloc``-ed for a (rounded) request."""
    if size <= K_SMALL_SIZE:
        return K_SMALL_BUFFER
    if size < K_MIN_LARGE_ALLOC:
        return K_LARGE_BUFFER
    return K_ROUND_LARGE * ((size + K_ROUND_LARGE - 1) // K_ROUND_LARGE)


class _Block:
    __slots__ = ("addr", "size", "small", "allocated", "prev", "next")

    def __init__(self, addr: int, size: int, small: bool) -> None:
        self.addr = addr
        self.size = size
        self.small = small
        self.allocated = False
        self.prev: _Block | None = None
        self.next: _Block | None = None


@dataclass(frozen=True)
class Replay:
    """What the allocator did with one step's requests.

    ``fits``: no request failed under ``limit`` (always True without one). ``peak_allocated``:
    the most bytes of blocks handed out at once (``max_memory_allocated``: requests rounded to
    512 B). ``peak_reserved``: the most bytes of segments held at once (``max_memory_reserved``).
    ``failed_request``: the request (bytes) that found no room, and ``segment_asked`` the
    segment it needed; both None when it fits.
    """

    fits: bool
    peak_allocated: int
    peak_reserved: int
    segments: int
    failed_request: int | None = None
    segment_asked: int | None = None


class CachingAllocator:
    """The allocator's bookkeeping for one device and one stream (see the module doc)."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self.allocated = 0
        self.reserved = 0
        self.peak_allocated = 0
        self.peak_reserved = 0
        self.segments = 0
        self._next_address = 0
        # Free blocks per pool, sorted by (size, address), as ``BlockComparatorSize``.
        self._free: dict[bool, list[tuple[int, int]]] = {True: [], False: []}
        self._by_address: dict[int, _Block] = {}

    # ----- the allocator's calls

    def malloc(self, request: int) -> _Block | None:
        """A block for ``request`` bytes, or None when the device is out of memory."""
        size = round_size(request)
        small = size <= K_SMALL_SIZE
        block = self._take_free(small, size)
        if block is None:
            segment = allocation_size(size)
            if not self._room_for(segment):
                self._release_cached()  # release_cached_blocks, then one more try
                if not self._room_for(segment):
                    return None
            block = _Block(self._next_address, segment, small)
            self._next_address += segment
            self.reserved += segment
            self.segments += 1
            self.peak_reserved = max(self.peak_reserved, self.reserved)
        remaining = block.size - size
        if (remaining >= K_MIN_BLOCK_SIZE) if small else (remaining > K_SMALL_SIZE):
            rest = _Block(block.addr + size, remaining, small)
            rest.prev, rest.next = block, block.next
            if block.next is not None:
                block.next.prev = rest
            block.next = rest
            block.size = size
            self._insert_free(rest)
        block.allocated = True
        self.allocated += block.size
        self.peak_allocated = max(self.peak_allocated, self.allocated)
        return block

    def free(self, block: _Block) -> None:
        block.allocated = False
        self.allocated -= block.size
        for neighbour in (block.prev, block.next):
            if neighbour is None or neighbour.allocated:
                continue
            self._remove_free(neighbour)
            if neighbour is block.prev:  # [neighbour block]
                block.addr = neighbour.addr
                block.prev = neighbour.prev
                if block.prev is not None:
                    block.prev.next = block
            else:  # [block neighbour]
                block.next = neighbour.next
                if block.next is not None:
                    block.next.prev = block
            block.size += neighbour.size
        self._insert_free(block)

    # ----- the pools

    def _room_for(self, segment: int) -> bool:
        return self.limit is None or self.reserved + segment <= self.limit

    def _take_free(self, small: bool, size: int) -> _Block | None:
        pool = self._free[small]
        index = bisect.bisect_left(pool, (size, -1))
        if index == len(pool):
            return None
        _, addr = pool.pop(index)
        return self._by_address.pop(addr)

    def _insert_free(self, block: _Block) -> None:
        bisect.insort(self._free[block.small], (block.size, block.addr))
        self._by_address[block.addr] = block

    def _remove_free(self, block: _Block) -> None:
        pool = self._free[block.small]
        index = bisect.bisect_left(pool, (block.size, block.addr))
        del pool[index]
        del self._by_address[block.addr]

    def _release_cached(self) -> None:
        """``release_cached_blocks``: every free block that is a whole segment goes back."""
        for small in (False, True):
            for size, addr in list(self._free[small]):
                block = self._by_address[addr]
                if block.prev is None and block.next is None:
                    self._remove_free(block)
                    self.reserved -= size
                    self.segments -= 1


def replay(events: Iterable[Event], limit: int | None = None, *, first: Iterable[int] = ()) -> Replay:
    """Run ``events`` through the allocator, with ``limit`` bytes of segments at most.

    ``first``: requests made before the step and never freed (the math libraries'
    workspaces). A free of an id never allocated (a storage made before recording began) is
    ignored; a zero-byte request takes no block, as on a GPU.
    """
    allocator = CachingAllocator(limit)
    live: dict[int, _Block] = {}
    for size in first:  # held for the whole step: never freed
        if allocator.malloc(size) is None:
            return _failed(allocator, size)
    for kind, key, size in events:
        if kind == "alloc":
            if size <= 0:
                continue
            block = allocator.malloc(size)
            if block is None:
                return _failed(allocator, size)
            live[key] = block
        else:
            gone = live.pop(key, None)
            if gone is not None:
                allocator.free(gone)
    return Replay(True, allocator.peak_allocated, allocator.peak_reserved, allocator.segments)


def _failed(allocator: CachingAllocator, request: int) -> Replay:
    return Replay(False, allocator.peak_allocated, allocator.peak_reserved, allocator.segments,
                  failed_request=request, segment_asked=allocation_size(round_size(request)))  # fmt: skip
