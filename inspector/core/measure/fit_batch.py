"""The largest batch that fits: a search over the inputs' first dimension, each try one step
traced on fake tensors (``core.measure.fit``), none allocated.

The search doubles the batch from 1 until a step does not fit, then halves the gap between
the largest that fits and the smallest that does not, until they are next to each other: 2
log2(B) traced steps or so for an answer B. It assumes what holds for the models it is for,
that a step that does not fit at batch b does not fit at any larger batch either.

Costs: one traced step per batch tried (the answer says how many).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

#: The largest batch the search tries: past it, the answer is "at least this".
MOST = 1 << 20


@dataclass(frozen=True)
class BatchSearch:
    """The answer: ``batch``, the largest that fits (0: not even 1), the peak judged at it
    (None for 0), the smallest batch found not to fit and its peak (None where every batch
    up to ``MOST`` fits), how many traced steps the search took, the limit it was judged
    against and which peak was judged ("reserved": the CUDA allocator's segments;
    "allocated": the live tensors)."""

    batch: int
    peak_bytes: int | None
    next_batch: int | None
    next_peak_bytes: int | None
    steps: int
    limit_bytes: int
    judged_by: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "batch": self.batch,
            "peak_bytes": self.peak_bytes,
            "next_batch": self.next_batch,
            "next_peak_bytes": self.next_peak_bytes,
            "steps": self.steps,
            "limit_bytes": self.limit_bytes,
            "judged_by": self.judged_by,
        }


def largest_batch(fits: Callable[[int], bool], *, most: int = MOST) -> tuple[int, int | None]:
    """The largest batch ``b`` with ``fits(b)`` (0 if not even 1), and the smallest batch
    tried that did not fit (None if every batch up to ``most`` did). ``fits`` is called once
    per batch tried."""
    if not fits(1):
        return 0, 1
    good, bad = 1, None
    batch = 2
    while batch <= most:
        if not fits(batch):
            bad = batch
            break
        good = batch
        batch *= 2
    if bad is None:
        return good, None
    while bad - good > 1:
        middle = (good + bad) // 2
        if fits(middle):
            good = middle
        else:
            bad = middle
    return good, bad


def with_batch(templates: list[Any], batch: int) -> list[Any]:
    """The input templates with their first dimension set to ``batch`` (every tensor input:
    a model's inputs share their batch). An example tensor's values no longer apply."""
    out: list[Any] = []
    for t in templates:
        if isinstance(t, tuple) and t[0]:
            out.append(((batch, *t[0][1:]), t[1]))
        else:
            out.append(t)
    return out
