"""The ratio of two medians with an interval that sees run-to-run variation, not only the
spread of samples inside one run.

Each side is a list of runs (``bench --repeat N``: N fresh processes; one run for a report
made without it). A side's level is the mean of its runs' medians; its uncertainty comes from
a **hierarchical bootstrap**: resample the runs with replacement, then the samples within each
chosen run (each chosen run's resampled median drawn directly, ``spread._bootstrap_medians``,
so a run of 100,000 samples costs what one of 100 does). The interval is the 2.5-97.5 %
percentiles of the resampled ratio, centred on the ratio of the pooled medians (the figures
shown), with a fixed seed so a comparison reads the same every time.

Resampling R runs sees (R - 1) / R of their variance, and nothing of it under two runs. So:

- a side of at least ``MIN_RUNS`` runs is resampled as above, its deviations widened by
  √(R / (R - 1)) (the bootstrap's known shrinkage) and by t / z for the runs' degrees of
  freedom (Ra + Rb - 2), as a t-interval would be: without it 3 runs per side gave 16 %
  false differences in simulation, with it 5 % (1, 2, 3 and 5 runs per side alike);
- a side of fewer runs cannot show its run-to-run noise: its samples are resampled within its
  runs, and a run-level term of the stated run-to-run noise (``run_noise.stated_noise``: a
  constant, never what this machine ran before), σ / √R, is added to each resample. With one run per
  side no difference smaller than that noise can come out clear, and the result says so
  (``within_noise``);
- a side whose runs agree more closely than the stated noise says runs do gets the rest
  of that noise as the same kind of term (√(σ² - s²) / √R): under load, runs can all land in
  one state (a quick check of 3 runs a side saw 2 of 4 identical pairs called 4× apart);
- a side of fewer runs whose samples are flagged noisy (``spread.noise_note``: a tail, a wide
  middle half or an unsure median) supports no claim at all (``too_noisy`` names it): under
  load such a run's median lands anywhere between processes, and two separate benches read
  "B 1.5× slower (A and B noisy)" for identical code in 1 pair of 9. Still a function of the
  samples only, so the same two files get the same verdict anywhere.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from inspector.core.measure.run_noise import RunNoise, spread_of_runs
from inspector.core.measure.spread import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    CONFIDENCE,
    MIN_SAMPLES_FOR_INTERVAL,
    RatioEstimate,
    _bootstrap_medians,
    figures_of,
)

#: A side needs this many runs for its own run-to-run variation to be resampled; with fewer,
#: the machine's recorded noise stands in for it.
MIN_RUNS = 3
_Z = 1.959963984540054


@dataclass(frozen=True)
class RunRatio:
    """B's pooled median over A's with an interval from run-level variation."""

    estimate: RatioEstimate
    runs_a: int
    runs_b: int
    #: The run-to-run noise assumed for a side of fewer than ``MIN_RUNS`` runs (None: both
    #: sides had enough runs to show their own), and which side's runs it came from when
    #: those showed more than the machine's record ("" : the machine's record or default).
    noise: RunNoise | None = None
    noise_from: str = ""
    #: The assumed noise as a smallest claimable difference (``0.53`` is ±53 % in log terms):
    #: what the run-level term alone spans at 95 %.
    floor: float | None = None
    #: The samples alone would have given an interval excluding 1; the run-to-run noise did not.
    within_noise: bool = False

    #: The runs were paired (``bench --against``): run i of each side timed turn about, and
    #: the interval is that of the rounds' ratios (``paired_ratio``).
    paired: bool = False
    #: The labels of the sides of fewer than ``MIN_RUNS`` runs whose samples are flagged noisy:
    #: nothing can be claimed from them (the verdict says which, and the command that can tell).
    too_noisy: tuple[str, ...] = ()

    def floor_text(self) -> str:
        """The smallest claimable difference as a verdict says it: ``0.53 -> '±53 %'`` ("" without one)."""
        return "" if self.floor is None else f"±{self.floor:.0%}".replace("%", " %")

    @property
    def runs_agree(self) -> bool:
        """Both sides had enough runs, and the machine's noise still widened the interval: their
        runs agree more closely than this machine's usually do."""
        return self.floor is not None and min(self.runs_a, self.runs_b) >= MIN_RUNS


def _clean(run: Sequence[float] | np.ndarray) -> np.ndarray:
    values = np.asarray(run, dtype=np.float64)
    return np.sort(values[np.isfinite(values)])


def _side(
    runs: list[np.ndarray], rng: np.random.Generator, resamples: int, sigma: float, widen: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """(log deviations of the resampled level from the observed one with a run-level term
    of ``sigma`` per run, the same without it), each ``resamples`` long."""
    count = len(runs)
    medians = np.array([float(np.median(r)) for r in runs])
    observed = float(medians.mean())
    if count >= MIN_RUNS:
        chosen = rng.integers(count, size=(resamples, count))
        drawn = np.empty((resamples, count))
        for j, run in enumerate(runs):  # each chosen run's resampled median, drawn directly
            mask = chosen == j
            drawn[mask] = _bootstrap_medians(run, rng, int(mask.sum()))
        with np.errstate(divide="ignore", invalid="ignore"):
            within = np.log(drawn.mean(axis=1) / observed) * math.sqrt(count / (count - 1)) * widen
    else:
        drawn = np.stack([_bootstrap_medians(run, rng, resamples) for run in runs], axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            within = np.log(drawn.mean(axis=1) / observed)
    if sigma == 0:
        return within, within
    return within + rng.standard_normal(resamples) * sigma / math.sqrt(count), within


def ratio_over_runs(
    runs_a: Sequence[Sequence[float]],
    runs_b: Sequence[Sequence[float]],
    noise: RunNoise,
    *,
    labels: tuple[str, str] = ("A", "B"),
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> RunRatio | None:
    """B's pooled median over A's, with the hierarchical interval; None when either median
    is 0 or missing. ``noise``: the machine's run-to-run noise, for a side of few runs."""
    sides = [[c for run in side if (c := _clean(run)).size] for side in (runs_a, runs_b)]
    if not sides[0] or not sides[1]:
        return None
    pooled = [np.concatenate(side) for side in sides]
    median_a, median_b = (float(np.median(p)) for p in pooled)
    if not median_a > 0 or not median_b > 0 or not math.isfinite(median_b / median_a):
        return None
    ratio = median_b / median_a
    count_a, count_b = len(sides[0]), len(sides[1])
    if min(p.size for p in pooled) < MIN_SAMPLES_FOR_INTERVAL or any(
        float(np.median(r)) <= 0 for side in sides for r in side
    ):
        return RunRatio(RatioEstimate(ratio), count_a, count_b)
    # A side of two runs shows some of its noise: the larger of that and the machine's stands in.
    sigma, noise_from = noise.sigma, ""
    for label, side in zip(labels, sides):
        own = spread_of_runs(side) if len(side) == 2 else None
        if own is not None and own[0] > sigma:
            sigma, noise_from = own[0], label
    extra = [_unseen(side, sigma, noise.sigma) for side in sides]
    variance = sum(e**2 / len(side) for e, side in zip(extra, sides))
    rng = np.random.default_rng(seed)
    widen = _t_quantile(count_a + count_b - 2) / _Z
    dev_a, within_a = _side(sides[0], rng, resamples, extra[0], widen)
    dev_b, within_b = _side(sides[1], rng, resamples, extra[1], widen)
    tail = 100 * (1 - CONFIDENCE) / 2
    interval = _interval(ratio, dev_b - dev_a, tail, resamples)
    if interval is None:
        return RunRatio(RatioEstimate(ratio), count_a, count_b)
    estimate = RatioEstimate(ratio, *interval)
    noisy = tuple(label for label, side, p in zip(labels, sides, pooled) if len(side) < MIN_RUNS and _flagged(p))
    if variance == 0:
        return RunRatio(estimate, count_a, count_b, too_noisy=noisy)
    samples_only = _interval(ratio, within_b - within_a, tail, resamples)
    within = samples_only is not None and not estimate.clear and (samples_only[1] < 1 or samples_only[0] > 1)
    floor = math.expm1(_Z * math.sqrt(variance))
    used = noise if not noise_from else RunNoise(sigma, runs=2)
    return RunRatio(estimate, count_a, count_b, noise=used, noise_from=noise_from, floor=floor, within_noise=within,
                    too_noisy=noisy)  # fmt: skip


def _flagged(samples: np.ndarray) -> bool:
    """The samples' own noise flag (``spread.noise_note``, the one a report and compare show)."""
    figures = figures_of(samples)
    return figures is not None and figures.noise is not None


def paired_ratio(runs_a: Sequence[Sequence[float]], runs_b: Sequence[Sequence[float]]) -> RunRatio | None:
    """B over A from rounds timed turn about (``measure.interleaved``): run i of A and run i of
    B shared a process and its drifts, so each round's ratio of medians is one observation of
    the difference, and the rounds are independent (fresh processes). The ratio is the
    rounds' geometric mean, its interval Student's t over the rounds' log ratios (as pyperf
    tests across worker processes). Under two usable rounds, or with a median of 0: the
    ratio alone. None when the sides hold different numbers of runs (then they are no pair)."""
    if len(runs_a) != len(runs_b) or not runs_a:
        return None
    logs = []
    for run_a, run_b in zip(runs_a, runs_b):
        a, b = _clean(run_a), _clean(run_b)
        if not a.size or not b.size:
            return None
        median_a, median_b = float(np.median(a)), float(np.median(b))
        if not median_a > 0 or not median_b > 0:
            return None
        logs.append(math.log(median_b / median_a))
    values = np.asarray(logs)
    ratio = math.exp(float(values.mean()))
    count = len(logs)
    if count < 2 or not math.isfinite(ratio):
        return RunRatio(RatioEstimate(ratio), count, count, paired=True)
    half = _t_quantile(count - 1) * float(values.std(ddof=1)) / math.sqrt(count)
    return RunRatio(RatioEstimate(ratio, ratio * math.exp(-half), ratio * math.exp(half)), count, count, paired=True)


#: Student's t at 97.5 % for 1-30 degrees of freedom (no SciPy here); the normal's beyond.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
         2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)  # fmt: skip


def _unseen(side: list[np.ndarray], sigma: float, machine: float) -> float:
    """The run-level noise a side's own runs cannot show, per run: all of ``sigma`` under
    ``MIN_RUNS`` runs; else what the machine's record has beyond their own spread (runs that
    agree more closely than this machine's usually do may all have landed in one state: five
    runs in one process all at 39.98 ms while fresh processes spread from 6 to 40 ms)."""
    if len(side) < MIN_RUNS:
        return sigma
    own = spread_of_runs(side)
    return math.sqrt(max(0.0, machine**2 - (own[0] if own else 0.0) ** 2))


def _t_quantile(df: int) -> float:
    """Student's t at 97.5 % for ``df`` degrees of freedom (the normal's beyond 30)."""
    return _T975[df - 1] if 1 <= df <= len(_T975) else _Z


def _interval(ratio: float, log_ratios: np.ndarray, tail: float, resamples: int) -> tuple[float, float] | None:
    finite = log_ratios[np.isfinite(log_ratios)]
    if finite.size < resamples // 2:  # medians of 0 in most resamples: no interval to speak of
        return None
    low, high = np.percentile(finite, [tail, 100 - tail])
    return ratio * math.exp(float(low)), ratio * math.exp(float(high))
