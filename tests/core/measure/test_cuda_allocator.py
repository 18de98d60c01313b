"""CUDA's caching allocator replayed: its rules written out in closed form, one case each."""

import pytest

from inspector.core.measure import cuda_allocator as ca
from inspector.core.measure.cuda_allocator import CachingAllocator, replay

MiB = 1 << 20


def test_the_allocators_constants_are_pytorchs():
    # c10/cuda/CUDACachingAllocator.cpp (kLargeBuffer sits in the same file's namespace).
    assert (ca.K_MIN_BLOCK_SIZE, ca.K_SMALL_SIZE, ca.K_SMALL_BUFFER) == (512, 1048576, 2097152)
    assert (ca.K_LARGE_BUFFER, ca.K_MIN_LARGE_ALLOC, ca.K_ROUND_LARGE) == (20971520, 10485760, 2097152)


@pytest.mark.parametrize(("request_bytes", "block", "segment"), [
    (1, 512, 2 * MiB),  # under 512 B: 512
    (513, 1024, 2 * MiB),  # a multiple of 512
    (MiB, MiB, 2 * MiB),  # the largest small request
    (MiB + 1, MiB + 512, 20 * MiB),  # large, under 10 MiB: a 20 MiB segment
    (10 * MiB - 512, 10 * MiB - 512, 20 * MiB),
    (10 * MiB, 10 * MiB, 10 * MiB),  # from 10 MiB: rounded up to 2 MiB
    (10 * MiB + 1, 10 * MiB + 512, 12 * MiB),
])  # fmt: skip
def test_a_request_is_rounded_and_gets_its_segment(request_bytes, block, segment):
    assert ca.round_size(request_bytes) == block
    assert ca.allocation_size(block) == segment
    result = replay([("alloc", 0, request_bytes)])
    assert (result.peak_allocated, result.peak_reserved, result.segments) == (block, segment, 1)


def test_small_requests_share_two_mebibyte_segments():
    # 600,000 B rounds to 600,064 B: three fit in 2 MiB (the rest, 296,960 B, is split off but too small).
    events = [("alloc", i, 600_000) for i in range(100)]
    result = replay(events)
    assert result.segments == 34 and result.peak_reserved == 34 * 2 * MiB
    assert result.peak_allocated == 100 * 600_064


def test_requests_between_one_and_ten_mebibytes_are_carved_from_twenty():
    result = replay([("alloc", i, 5 * MiB) for i in range(5)])
    # Four 5 MiB blocks split one 20 MiB segment (the last takes the rest whole), the fifth needs another.
    assert result.segments == 2 and result.peak_reserved == 40 * MiB


def test_a_freed_block_is_reused_best_fit_and_split():
    events = [("alloc", 0, 30 * MiB), ("alloc", 1, 40 * MiB), ("free", 0, 0), ("free", 1, 0), ("alloc", 2, 12 * MiB)]
    allocator_view = replay(events)
    # 12 MiB takes the smallest free block that holds it (30 MiB, not 40), no new segment.
    assert allocator_view.peak_reserved == 70 * MiB and allocator_view.segments == 2


def test_a_large_remainder_of_one_mebibyte_or_less_is_not_split_off():
    allocator = CachingAllocator()
    block = allocator.malloc(12 * MiB)
    allocator.free(block)
    again = allocator.malloc(11 * MiB)  # 1 MiB left: not more than kSmallSize, so the whole block
    assert again.size == 12 * MiB and allocator.allocated == 12 * MiB


def test_freed_neighbours_merge():
    allocator = CachingAllocator()
    a, b, c = (allocator.malloc(400_000) for _ in range(3))  # 400,384 B each, in one 2 MiB segment
    allocator.free(b)
    allocator.free(a)
    # a and b merged (800,768 B) are the best fit for 700,416 B; the segment's tail (896,000 B) is larger.
    merged = allocator.malloc(700_000)
    assert merged.addr == a.addr and allocator.segments == 1
    assert c.allocated


def test_cached_segments_are_released_before_a_request_fails():
    # Under a 40 MiB limit: a free, cached 30 MiB segment goes back so a 32 MiB one fits.
    events = [("alloc", 0, 30 * MiB), ("free", 0, 0), ("alloc", 1, 32 * MiB)]
    assert replay(events).peak_reserved == 62 * MiB  # without a limit, both are held
    limited = replay(events, 40 * MiB)
    assert limited.fits and limited.peak_reserved == 32 * MiB


def test_a_split_segment_in_use_is_not_released_and_the_step_fails():
    events = [("alloc", 0, 20 * MiB), ("alloc", 1, 12 * MiB)]
    result = replay(events, 30 * MiB)
    assert not result.fits and result.failed_request == 12 * MiB and result.segment_asked == 12 * MiB
    assert replay(events, 32 * MiB).fits


def test_first_requests_are_held_through_the_step():
    result = replay([("alloc", 0, 10 * MiB)], first=(32 * MiB,))
    assert result.peak_reserved == 42 * MiB
    assert not replay([("alloc", 0, 10 * MiB)], 41 * MiB, first=(32 * MiB,)).fits


def test_a_zero_byte_request_takes_nothing_and_an_unknown_free_is_ignored():
    result = replay([("alloc", 0, 0), ("free", 7, 0), ("free", 0, 0)])
    assert result.peak_reserved == 0 and result.fits
