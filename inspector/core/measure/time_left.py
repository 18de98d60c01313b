"""How long a measurement has left, from how fast it has gone so far.

Fed the ``progress(done, total)`` calls of a benchmark (or a move): the rate is taken from
the first call on, so a warm-up before it does not count, and a new phase (``done`` going
back, as when a per-module run follows the plain one) starts the estimate again.

A measurement that stops at a time cap (``MAX_MEASURE_SECONDS`` of samples) never has more
left than the cap allows: given ``cap_s``, the estimate is at most the cap less the time the
phase has run. (The cap counts the samples' own time, which trails the clock by the few gaps
between chunks of samples: near the cap the estimate can fall short by those gaps.)
"""

from __future__ import annotations

import math
import time
from typing import Callable

from inspector.core.messages import Text

#: Say nothing until the estimate has this much to go on, or when little is left:
#: a short benchmark needs no countdown, and an early one would jump about.
MIN_ELAPSED_S = 1.0
MIN_LEFT_S = 2.0


class TimeLeft:
    """``update(done, total)`` -> seconds left (None while there is nothing worth saying).

    ``cap_s``: the phase stops by this many seconds after it began (None: no cap); may be
    changed between phases (a benchmark's capped samples, then its per-module run)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, cap_s: float | None = None) -> None:
        self._clock = clock
        self.cap_s = cap_s
        self._start: float | None = None
        self._start_done = 0.0
        self._last_done = 0.0

    def update(self, done: float, total: float) -> float | None:
        now = self._clock()
        if self._start is None or done < self._last_done:
            self._start, self._start_done = now, done
        self._last_done = done
        elapsed, progressed = now - self._start, done - self._start_done
        if total <= 0 or progressed <= 0 or elapsed < MIN_ELAPSED_S:
            return None
        left = elapsed / progressed * max(total - done, 0.0)
        if self.cap_s is not None:
            left = min(left, max(self.cap_s - elapsed, 0.0))
        return left if math.isfinite(left) and left >= MIN_LEFT_S else None


def time_left_text(seconds: float | None) -> str:
    """``75 -> 'about 1 min 15 s left'``; None -> ``''``."""
    if seconds is None:
        return ""
    whole = round(seconds)
    if whole < 60:
        return Text("time_left.seconds", seconds=whole)
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        if minutes < 10 and secs:
            return Text("time_left.minutes_seconds", minutes=minutes, seconds=secs)
        return Text("time_left.minutes", minutes=minutes)
    hours, minutes = divmod(minutes, 60)
    return Text("time_left.hours_minutes", hours=hours, minutes=minutes)
