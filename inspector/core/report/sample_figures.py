"""A latency entry's figures, from its own samples: what a report's figures must agree with.

A report file says ``median_ms``, ``p5_ms``, … next to the ``samples_ms`` they came from. A
reader believes the samples, never the figures: ``figures_of`` (``measure.spread``'s, the one
the measurement itself uses) computes them, ``contradiction`` names the first figure a file
states that its samples do not give (the reader refuses such a file), and the comparison
shows and divides only these figures.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

# The figures themselves are the measurement's own code (``measure.spread``): one computation
# for the samples a run takes and for the samples a file holds.
from inspector.core.measure.spread import SampleFigures as SampleFigures, figures_of as figures_of

#: A stated figure may differ from the recomputed one by this fraction of it: the same samples
#: give the same figures to the last bit, but another writer may add in another order.
TOLERANCE = 1e-6
#: Below this (in ms: a hundredth of a nanosecond) two figures are the same whatever the fraction.
_ABSOLUTE_MS = 1e-8


def _agrees(stated: float, actual: float) -> bool:
    return math.isclose(stated, actual, rel_tol=TOLERANCE, abs_tol=_ABSOLUTE_MS)


def _ms(value: float) -> str:
    return f"{value:.6g} ms"


def contradiction(entry: Mapping[str, Any], figures: SampleFigures) -> tuple[str, str] | None:
    """The first figure ``entry`` states that its samples contradict, as (key, the problem in
    words: "says 0.001 ms, but its 20 samples give 17.3 ms"); None when all agree. Absent or
    non-number figures are not judged here (the schema checks their type)."""
    for key, actual in figures.stated().items():
        stated = entry.get(key)
        if isinstance(stated, bool) or not isinstance(stated, (int, float)) or not math.isfinite(stated):
            continue
        if not _agrees(float(stated), actual):
            return key, f"says {_ms(float(stated))}, but its {figures.count:,} samples give {_ms(actual)}"
    interval = entry.get("median_ci_ms")
    if isinstance(interval, list) and len(interval) == 2 and all(isinstance(v, (int, float)) for v in interval):
        actual_interval = figures.median_ci_ms
        if actual_interval is None:
            return "median_ci_ms", f"says [{_ms(interval[0])}, {_ms(interval[1])}], but its {figures.count:,} samples are too few for one"
        if not all(_agrees(float(s), a) for s, a in zip(interval, actual_interval)):
            return "median_ci_ms", (
                f"says [{_ms(interval[0])}, {_ms(interval[1])}], but its {figures.count:,} samples give "
                f"[{_ms(actual_interval[0])}, {_ms(actual_interval[1])}]"
            )
    return None
