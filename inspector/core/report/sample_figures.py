"""A latency entry's figures, from its own samples: what a report's figures must agree with.

A report file says ``median_ms``, ``p5_ms``, … next to the ``samples_ms`` they came from. A
reader believes the samples, never the figures: ``figures_of`` computes them as the
measurement did (``measure.timing``: NumPy's linear percentiles, ``std`` with ddof 1, and
``measure.spread``), ``contradiction`` names the first figure a file states that its samples
do not give (the reader refuses such a file), and the comparison shows and divides only
these figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from inspector.core.measure.spread import median_interval, noise_note

#: A stated figure may differ from the recomputed one by this fraction of it: the same samples
#: give the same figures to the last bit, but another writer may add in another order.
TOLERANCE = 1e-6
#: Below this (in ms: a hundredth of a nanosecond) two figures are the same whatever the fraction.
_ABSOLUTE_MS = 1e-8


@dataclass(frozen=True)
class SampleFigures:
    """The figures of one entry's samples, in ms (``count`` samples, at least one)."""

    count: int
    median_ms: float
    mean_ms: float
    p5_ms: float
    p95_ms: float
    min_ms: float
    max_ms: float
    std_ms: float
    iqr_ms: float
    median_ci_ms: tuple[float, float] | None
    noise: str | None  # a ``Text`` ("noisy: p95 is 84× the median; …"), or None

    def stated(self) -> dict[str, float]:
        """The single-number figures by the report key that states them."""
        return {
            "median_ms": self.median_ms, "mean_ms": self.mean_ms, "p5_ms": self.p5_ms, "p95_ms": self.p95_ms,
            "min_ms": self.min_ms, "max_ms": self.max_ms, "std_ms": self.std_ms, "iqr_ms": self.iqr_ms,
        }  # fmt: skip


def figures_of(samples_ms: Sequence[float] | np.ndarray) -> SampleFigures | None:
    """The figures of ``samples_ms`` (finite values only); None without a sample.

    As ``measure.timing`` and ``measure.spread`` compute them, to the bit (the mean and the
    standard deviation over the samples in their own order), in one sort."""
    values = np.asarray(samples_ms, dtype=np.float64)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return None
    ordered = np.sort(values)
    p5, p25, p50, p75, p95 = (float(v) for v in _percentiles(ordered))
    interval = median_interval(ordered)
    return SampleFigures(
        count=int(values.size),
        median_ms=p50,
        mean_ms=float(values.mean()),
        p5_ms=p5,
        p95_ms=p95,
        min_ms=float(ordered[0]),
        max_ms=float(ordered[-1]),
        std_ms=float(values.std(ddof=1)) if values.size > 1 else 0.0,
        iqr_ms=p75 - p25,
        median_ci_ms=interval,
        noise=noise_note(p50, p95, p75 - p25, interval),
    )


_QUANTILES = np.array([5, 25, 50, 75, 95], dtype=np.float64) / 100


def _percentiles(ordered: np.ndarray) -> np.ndarray:
    """``np.percentile(ordered, [5, 25, 50, 75, 95])`` (its default, linear method) of sorted
    values, computed as NumPy does, without its per-call cost (a hundred µs, most of the work
    of reading a small entry; ``tests/core/report`` holds the two equal)."""
    n = ordered.size
    index = (n - 1) * _QUANTILES
    low = np.floor(index).astype(np.intp)
    high = np.minimum(low + 1, n - 1)
    t = index - low
    a, b = ordered[low], ordered[high]
    step = b - a
    lerp: np.ndarray = np.where(t >= 0.5, b - step * (1 - t), a + step * t)
    return lerp


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
