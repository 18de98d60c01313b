"""How far to trust a latency figure: its spread, a confidence interval of its median, a
noise flag, and the ratio of two medians with a confidence interval.

Two intervals, chosen for what each must do:

- The median's own interval is the **order-statistic** (distribution-free) interval: the
  ranks ``j`` and ``n + 1 - j`` of the sorted samples, with ``j`` from the Binomial(n, ½)
  distribution, cover the true median with at least 95 % probability whatever the shape of
  the distribution (latencies are skewed and heavy-tailed, so no normal approximation of
  the values). It is exact, costs one sort, and has no randomness: the same samples always
  give the same interval.
- A ratio of two medians has no such closed form, so it gets a **bootstrap** percentile
  interval: each side is resampled with replacement and the ratio of the resampled medians
  taken, 2,000 times, with a fixed seed so a comparison reads the same every time. The
  median of a resample is drawn directly (see ``_bootstrap_medians``), so this costs O(2,000)
  after a sort even for 100,000 samples.

Both treat the samples as independent draws. Samples of one run on a shared machine are
not quite that (a burst of contention spoils neighbours together), and a drift between two
runs is not in either interval: the noise flag is there to say when a figure is shaky.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from inspector.core.messages import Text
from inspector.core.units import format_ratio

#: The confidence of every interval here.
CONFIDENCE = 0.95
_Z = 1.959963984540054  # the normal quantile of 0.975
#: With fewer samples no pair of order statistics covers the median with 95 %
#: (five samples: even (min, max) misses it with 2 / 32 = 6.25 %).
MIN_SAMPLES_FOR_INTERVAL = 6
#: Exact binomial ranks up to here; the normal approximation beyond (it is then exact to a rank).
_EXACT_UP_TO = 1000
#: Noise flags: a tail this many times the median, a middle half this wide relative to the
#: median, or a median known only to within this fraction of itself.
NOISY_TAIL = 2.0
NOISY_IQR = 0.5
NOISY_INTERVAL = 0.10
#: A ratio whose interval excludes 1 but lies within this fraction of it reads "about the
#: same": with thousands of samples the interval is narrow, and a 1 % shift is smaller than
#: what changes between two runs on one machine (the latency fidelity target is 3 %: docs/performance.md).
SAME_WITHIN = 0.03
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0


@dataclass(frozen=True)
class Spread:
    """The spread of one run's samples (milliseconds)."""

    iqr_ms: float  # p75 - p25
    #: The 95 % interval of the median (order statistics); None under 6 samples.
    median_ci_ms: tuple[float, float] | None
    #: "noisy: p95 is 84× the median; results may not be repeatable", or None.
    noise: str | None

    @property
    def noisy(self) -> bool:
        return self.noise is not None


def factor_text(value: float) -> str:
    """``84.3 -> '84×'``, ``2.345 -> '2.3×'``, ``1.234 -> '1.23×'``."""
    if value >= 10:
        return f"{format_ratio(value, 0)}×"
    return f"{value:.1f}×" if value >= 2 else f"{value:.2f}×"


def _clean(samples_ms: Sequence[float] | np.ndarray) -> np.ndarray:
    values = np.asarray(samples_ms, dtype=np.float64)
    return np.sort(values[np.isfinite(values)])


def median_interval(samples_ms: Sequence[float] | np.ndarray) -> tuple[float, float] | None:
    """The distribution-free 95 % interval of the median, or None under 6 samples."""
    ordered = _clean(samples_ms)
    n = ordered.size
    if n < MIN_SAMPLES_FOR_INTERVAL:
        return None
    j = _lower_rank(n)
    return float(ordered[j - 1]), float(ordered[n - j])


def _lower_rank(n: int) -> int:
    """The largest 1-based rank j with P(Binomial(n, ½) < j) <= 2.5 %."""
    alpha = (1 - CONFIDENCE) / 2
    if n > _EXACT_UP_TO:
        return max(1, math.floor((n - _Z * math.sqrt(n)) / 2))
    total, cumulative, j = 2**n, 0, 0
    while True:
        cumulative += math.comb(n, j)  # P(X <= j), times 2**n
        if cumulative > alpha * total:
            return max(1, j)
        j += 1


def spread_of(samples_ms: Sequence[float] | np.ndarray) -> Spread:
    """IQR, the median's interval and the noise flag of one run's samples (``figures_of``'s)."""
    figures = figures_of(samples_ms)
    if figures is None:
        return Spread(0.0, None, None)
    return Spread(iqr_ms=figures.iqr_ms, median_ci_ms=figures.median_ci_ms, noise=figures.noise)


@dataclass(frozen=True)
class SampleFigures:
    """What one run's samples say, in ms (``count`` samples, at least one): a ``LatencyResult``'s
    figures, and what a report's reader holds a file's stated figures to."""

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

    NumPy's linear percentiles, ``std`` with ddof 1, the mean and the standard deviation over
    the samples in their own order; in one sort."""
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


def noise_note(median: float, p95: float, iqr: float, interval: tuple[float, float] | None) -> str | None:
    """Why these figures may not repeat, in words; None when they look steady."""
    if median <= 0:
        return None
    if p95 >= NOISY_TAIL * median:
        return Text("noise.tail", factor=factor_text(p95 / median))
    if iqr >= NOISY_IQR * median:
        return Text("noise.middle_half", share=f"{iqr / median:.0%}")
    if interval is not None:
        half = max(median - interval[0], interval[1] - median) / median
        if half > NOISY_INTERVAL:
            return Text("noise.median_unsure", share=f"{half:.0%}")
    return None


# --------------------------------------------------------------------------- ratios


@dataclass(frozen=True)
class RatioEstimate:
    """``b / a`` of two medians, with its 95 % bootstrap interval (None: too few samples)."""

    ratio: float
    low: float | None = None
    high: float | None = None

    @property
    def has_interval(self) -> bool:
        return self.low is not None and self.high is not None

    @property
    def clear(self) -> bool:
        """The interval excludes 1: one is really slower than the other."""
        return self.low is not None and self.high is not None and (self.high < 1 or self.low > 1)

    def interval_text(self) -> str:
        if self.low is None or self.high is None:
            return "—"
        return f"{format_ratio(self.low)}–{format_ratio(self.high)}×"


def _bootstrap_medians(ordered: np.ndarray, rng: np.random.Generator, resamples: int) -> np.ndarray:
    """Medians of ``resamples`` bootstrap resamples of ``ordered`` (sorted), without drawing them.

    A resample is n draws ``F⁻¹(U)`` from the samples' own distribution, and ``F⁻¹`` is
    monotone, so its k-th smallest value is ``F⁻¹(U₍ₖ₎)``: the k-th order statistic of n
    uniforms, which is Beta(k, n - k + 1). For an even n the next one up is
    ``U₍ₖ₎ + (1 - U₍ₖ₎) · Beta(1, n - k)``. Same distribution as resampling, O(1) per resample.
    """
    n = ordered.size
    k = (n + 1) // 2
    lower = rng.beta(k, n - k + 1, size=resamples)

    def pick(u: np.ndarray) -> np.ndarray:  # F⁻¹(u) = the ⌈n·u⌉-th smallest sample
        picked: np.ndarray = ordered[np.clip(np.ceil(u * n).astype(np.int64) - 1, 0, n - 1)]
        return picked

    if n % 2:
        return pick(lower)
    upper = lower + (1 - lower) * rng.beta(1, n - k, size=resamples)
    both: np.ndarray = (pick(lower) + pick(upper)) / 2
    return both


def ratio_of_medians(
    a_ms: Sequence[float] | np.ndarray,
    b_ms: Sequence[float] | np.ndarray,
    *,
    median_a: float | None = None,
    median_b: float | None = None,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> RatioEstimate | None:
    """B's median over A's, with a seeded bootstrap interval; None when either median is 0
    or missing. ``median_a``/``median_b``: the medians as reported (else from the samples);
    the interval is centred on them, with the relative spread the samples show (a report's
    median is its samples' median, unless someone edited one and not the other)."""
    a, b = _clean(a_ms), _clean(b_ms)
    sample_median_a = float(np.median(a)) if a.size else None
    sample_median_b = float(np.median(b)) if b.size else None
    if median_a is None:
        median_a = sample_median_a
    if median_b is None:
        median_b = sample_median_b
    if not median_a or not median_b or median_a <= 0 or median_b <= 0:
        return None
    ratio = median_b / median_a
    if not math.isfinite(ratio):
        return None
    if a.size < MIN_SAMPLES_FOR_INTERVAL or b.size < MIN_SAMPLES_FOR_INTERVAL:
        return RatioEstimate(ratio)
    rng = np.random.default_rng(seed)
    boot_a = _bootstrap_medians(a, rng, resamples)
    boot_b = _bootstrap_medians(b, rng, resamples)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = ratio * (boot_b / (sample_median_b or np.nan)) / (boot_a / (sample_median_a or np.nan))
    ratios = ratios[np.isfinite(ratios)]
    if ratios.size < resamples // 2:  # medians of 0 in most resamples: no interval to speak of
        return RatioEstimate(ratio)
    low, high = np.percentile(ratios, [100 * (1 - CONFIDENCE) / 2, 100 * (1 + CONFIDENCE) / 2])
    return RatioEstimate(ratio, float(low), float(high))


def ratio_verdict(estimate: RatioEstimate | None, label: str) -> str:
    """The estimate in words from B's side: "B 2.10× slower", "no clear difference", or
    "B 1.37× slower? too few samples to tell"."""
    if estimate is None:
        return ""
    ratio = estimate.ratio
    factor = format_ratio(ratio if ratio >= 1 else 1 / ratio)
    slower = ratio >= 1
    if not estimate.has_interval:
        return Text("verdict.slower_unsure" if slower else "verdict.faster_unsure", label=label, factor=factor)
    if not estimate.clear:
        return Text("verdict.unclear")
    if abs(ratio - 1) <= SAME_WITHIN:
        return Text("verdict.same_within", within=f"{SAME_WITHIN:.0%}")
    return Text("verdict.slower" if slower else "verdict.faster", label=label, factor=factor)
