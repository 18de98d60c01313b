"""How long to warm up: until the calls are steady, not a fixed count.

The first calls of a run can be slower than the rest for reasons that are not noise: lazy
set-up of a dtype's kernels (the example in float16 on a CPU: 419 µs, then 25, 21, 18, 16 µs),
allocator growth, caches filling. Timed, they would be a tail of outliers at the start of
every run. So the warm-up makes the calls asked for (3 by default), then keeps going while
the last ``STEADY_CALLS`` calls after the first (whose cost is the first call's, expected)
are not steady: each within ``TOLERANCE`` of their median (or ``SLACK_NS``, for calls too
short for a fraction to mean much), and their median no slower than that of the calls before
them. It stops at ``MAX_CALLS`` calls or ``MAX_SECONDS`` of warm-up time, whichever comes
first, and says so. A steady model warms up exactly the calls asked for.

A run of steady slow calls is not absorbed: the warm-up cannot know they will end. On a
shared machine they are rather the machine's (the example's float16 forward runs a parallel
region on 2 intra-op threads; when another process holds the second core, every call waits
~16 ms for the preempted thread, with 4 involuntary switches per call, in bursts anywhere in
a run): ``machine_noise`` names that cause next to the figure instead.

What the warm-up absorbed is the first calls' cost: the time its calls took beyond as many
steady calls (``absorbed_ns``), reported next to the first call's own time.

The decision depends on the warm-up's own samples only, so ``outcome`` can say afterwards,
from the samples a result holds, why the warm-up stopped where it did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from inspector.core.messages import Text
from inspector.core.units import format_ms

#: The last this many warm-up calls must be steady (and, with as many before them, no slower).
STEADY_CALLS = 3
#: Steady: each of them within this fraction of their median ...
TOLERANCE = 0.25
#: ... or within this many nanoseconds of it (a 5 µs call's jitter is a large fraction of it).
SLACK_NS = 2_000
#: The warm-up never makes more calls than this, nor goes on past this much warm-up time
#: (a model whose calls always vary, or a machine that keeps disturbing them).
MAX_CALLS = 1000
MAX_SECONDS = 2.0
_MAX_NS = int(MAX_SECONDS * 1e9)

#: A run whose first samples are each more than this many times the rest's median (plus
#: SLACK_NS), followed by STEADY_CALLS at the rest's level, started slow (``slow_start``).
SLOW_FACTOR = 2.0
#: ... and at least this many of them: one slow sample is an outlier like any other (an
#: interrupt, the chunk's first call finding the caches cold), not a start.
SLOW_AT_LEAST = 2

#: Why the warm-up stopped where it did.
AS_ASKED = "as asked"  # the calls asked for were already steady
STEADY = "steady"  # it went on until the calls were steady
SLOW_START = "slow start"  # the run's first samples were still slow: they went to the warm-up
CALL_CAP = "call cap"  # it stopped at MAX_CALLS before they were steady
TIME_CAP = "time cap"  # it stopped at MAX_SECONDS before they were steady


def _steady(calls: Sequence[int]) -> bool:
    """The last STEADY_CALLS calls after the first (whose cost is expected: it is the first
    call's) are within TOLERANCE (or SLACK_NS) of their median, and their median is no slower
    than that of the calls before them, after the first (where there are such)."""
    later = calls[1:]
    if len(later) < 2:
        return True  # fewer calls asked for than two after the first: nothing to judge them by
    last = later[-STEADY_CALLS:]
    median = _median(last)
    if any(abs(c - median) > max(TOLERANCE * median, SLACK_NS) for c in last):
        return False
    before = later[-2 * STEADY_CALLS : -len(last)]
    if not before:
        return True
    return median <= _median(before) * (1 + TOLERANCE) + SLACK_NS


def _median(calls: Sequence[int]) -> float:
    """The median, without NumPy's per-call cost: it runs between warm-up calls."""
    ordered = sorted(calls)
    mid = len(ordered) // 2
    return float(ordered[mid]) if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def steady_tail(calls: Sequence[int]) -> list[int]:
    """The warm-up calls that tell what a timed call will take: the last steady window (all
    but the first call of a short warm-up)."""
    if len(calls) > STEADY_CALLS:
        return list(calls[-STEADY_CALLS:])
    return list(calls[1:] or calls)


def _capped(calls: Sequence[int], more: Sequence[int] = ()) -> bool:
    return len(calls) + len(more) >= MAX_CALLS or sum(calls) + sum(more) >= _MAX_NS


def slow_start(chunk: Sequence[int]) -> int:
    """How many of a run's first samples are slow: each over SLOW_FACTOR times the median of
    the chunk's second half (plus SLACK_NS), at least SLOW_AT_LEAST of them, then STEADY_CALLS
    at that level. 0 when the chunk does not start so, or is too short to tell (under 2 · STEADY_CALLS samples), or when the
    slow ones are half of it or more (the slow level may be the run's own)."""
    if len(chunk) < 2 * STEADY_CALLS:
        return 0
    ceiling = SLOW_FACTOR * _median(chunk[len(chunk) // 2 :]) + SLACK_NS
    slow = 0
    while slow < len(chunk) and chunk[slow] > ceiling:
        slow += 1
    after = chunk[slow : slow + STEADY_CALLS]
    if slow < SLOW_AT_LEAST or 2 * slow >= len(chunk) or len(after) < STEADY_CALLS or any(c > ceiling for c in after):
        return 0
    return slow


@dataclass(frozen=True)
class WarmUpOutcome:
    """Why the warm-up stopped (``AS_ASKED``, ``STEADY``, ``SLOW_START``, ``CALL_CAP``,
    ``TIME_CAP``), and what it absorbed: its calls' time beyond as many calls at the run's median."""

    reason: str
    calls: int
    asked: int
    absorbed_ns: int
    #: A slow start left in the samples because the sampling threads were preempted meanwhile
    #: (the machine's, not the model's): how many samples, and the preemptions; (0, 0) if none.
    kept_slow: tuple[int, int] = (0, 0)

    @property
    def extended(self) -> bool:
        return self.calls > self.asked


class WarmUp:
    """One run's warm-up, as ``sampling.take_samples`` makes it: the calls asked for, then
    calls until they are steady (``wants_more``), then the run's first chunk is looked at for a
    slow start (``absorb``)."""

    def __init__(self, asked: int) -> None:
        self.asked = asked
        self.reason = AS_ASKED
        self.looking = True  # at the run's first chunk: a slow start may still be absorbed
        self._kept_slow = (0, 0)

    def wants_more(self, calls: Sequence[int]) -> bool:
        """Whether the warm-up makes another call after ``calls`` (nanoseconds each)."""
        if len(calls) < self.asked:
            return True
        if _steady(calls):
            return False
        if _capped(calls):
            if len(calls) > self.asked:
                self.reason = CALL_CAP if len(calls) >= MAX_CALLS else TIME_CAP
            return False
        self.reason = STEADY  # (once it stops)
        return True

    def absorb(self, calls: Sequence[int], chunk: Sequence[int], preempted: int | None) -> int:
        """How many of the run's first samples (``chunk``, the first chunk) go to the warm-up:
        a slow start (``slow_start``), unless the sampling threads were preempted at least once
        per slow sample meanwhile (``preempted``; None: not known): then the slowness is the
        machine's, and stays in the samples for ``machine_noise`` to name."""
        self.looking = False
        slow = slow_start(chunk)
        if not slow or self.reason in (CALL_CAP, TIME_CAP) or _capped(calls, chunk[:slow]):
            return 0
        if preempted is not None and preempted >= slow:
            self._kept_slow = (slow, preempted)
            return 0
        self.reason = SLOW_START
        return slow

    def outcome(self, calls: Sequence[int], samples: Sequence[int]) -> WarmUpOutcome:
        """What this warm-up of ``calls`` did, judged against the run's ``samples``."""
        level = _median(samples) if samples else (_median(steady_tail(calls)) if calls else 0.0)
        absorbed = int(sum(max(0.0, c - level) for c in calls))
        return WarmUpOutcome(self.reason, len(calls), self.asked, absorbed, self._kept_slow)


def notes(warmed: WarmUpOutcome) -> tuple[str, ...]:
    """The warm-up in words, where it was not the calls asked for: how many it took and why."""
    said: list[str] = []
    if warmed.reason in (STEADY, SLOW_START):
        said.append(Text("bench.warmup_extended", calls=f"{warmed.calls:,}", asked=f"{warmed.asked:,}",
                         absorbed=format_ms(warmed.absorbed_ns / 1e6, compact=True)))  # fmt: skip
    elif warmed.reason == CALL_CAP:
        said.append(Text("bench.warmup_capped_calls", calls=f"{warmed.calls:,}", tolerance=f"{TOLERANCE:.0%}"))
    elif warmed.reason == TIME_CAP:
        said.append(Text("bench.warmup_capped_time", seconds=f"{MAX_SECONDS:g}", calls=f"{warmed.calls:,}",
                         tolerance=f"{TOLERANCE:.0%}"))  # fmt: skip
    if warmed.kept_slow[0]:
        slow, preempted = warmed.kept_slow
        said.append(Text("bench.slow_start_preempted", count=f"{slow:,}", switches=f"{preempted:,}"))
    return tuple(said)
