"""The Samples view's ranges while a run streams in: steady, so that a new sample redraws
its points and not the axes.

Fitted to every new sample, both ranges moved at each one: pyqtgraph then worked out both
axes' ticks and labels again, and painted the plot twice (an automatic range is settled
inside a paint, which asks for another). That was most of a sample's ~20 ms frame here,
and two to four times as long while the benchmark takes both cores (issue 25: no stall over
50 ms). While a run streams, the x axis spans the samples it was asked for, and the y axis'
top moves in steps; once it ends the view fits its samples exactly again. No widgets here.
"""

from __future__ import annotations

import math

#: The tops the y axis takes while a run streams, per decade: steps of about a quarter, each
#: a round number to read off the axis.
TOP_STEPS = (1.0, 1.25, 1.6, 2.0, 2.5, 3.2, 4.0, 5.0, 6.4, 8.0, 10.0)
#: A top already shown stays while the bulk's own top falls to this share of it, so a bulk
#: that hovers about one step does not flip the axis at every sample.
KEEP_SHARE = 0.6


def streaming_top(bulk_top: float, shown_top: float | None = None) -> float:
    """The y axis' top for a bulk reaching ``bulk_top`` (any unit): the top shown so far
    while it still fits, else the next step at or above ``bulk_top``."""
    if shown_top is not None and KEEP_SHARE * shown_top <= bulk_top <= shown_top:
        return shown_top
    if not (bulk_top > 0 and math.isfinite(bulk_top)):
        return bulk_top
    decade = 10.0 ** math.floor(math.log10(bulk_top))
    # (the last step is the next decade: a rounding error leaves no value above every step)
    return next((step * decade for step in TOP_STEPS if step * decade >= bulk_top * (1 - 1e-12)), 10 * decade)


def streaming_span(count: int, expected: int | None, warmups: int) -> tuple[float, float]:
    """The x range (sample indices) of runs streaming ``count`` samples so far, of
    ``expected`` asked for (None: unknown), after ``warmups`` warm-up calls at negative
    indices: to the last sample asked for, doubled each time a run outgrows it."""
    last = max(int(expected or 0), 1)
    while last < count:
        last *= 2
    return -float(warmups) - 0.75, last - 0.25
