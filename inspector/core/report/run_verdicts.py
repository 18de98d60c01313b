"""The runs of one session compared like with like (the window's Summary tab): each run
against the fastest run of the same dtype, mode and input shape, its ratio with a 95 %
interval, and a sentence naming what differs where no run is alike.

The interval sees how runs differ, as ``compare``'s does (``measure.run_ratio``): a run of
several (the window's repeat setting) shows its own run-to-run noise; a single run is given
the stated constant (``measure.run_noise.stated_noise``, never this machine's record of what
ran before), so two single runs a few percent apart are "within run-to-run noise", never
"1.05× slower" on the strength of their samples alone: a rerun a minute later lands further
apart than that on a shared machine. A run of fewer than three whose samples are flagged noisy
gets no verdict ("too noisy to tell"), as in ``compare``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from inspector.core.measure.run_noise import RunNoise, stated_noise
from inspector.core.measure.run_ratio import MIN_RUNS, RunRatio, ratio_over_runs
from inspector.core.measure.spread import SAME_WITHIN
from inspector.core.messages import Text, joined
from inspector.core.units import format_ratio
from inspector.core.report import lenient_read as read


@dataclass(frozen=True)
class Run:
    """One latency run of a session (the window's Summary tab): what it measured and its samples."""

    label: str  # "cpu · float32", "cuda:0 · bfloat16 · train-step"
    dtype: str
    mode: str
    input_shape: tuple[int, ...] | None  # None: not known yet (samples still streaming)
    median_ms: float
    samples_ms: tuple[float, ...] = ()
    #: Its independent runs (the window's repeat setting), each its samples; () for one run.
    runs_ms: tuple[tuple[float, ...], ...] = ()

    def runs(self) -> list[list[float]]:
        return [list(r) for r in self.runs_ms] if len(self.runs_ms) > 1 else [list(self.samples_ms)]


@dataclass(frozen=True)
class RunVerdict:
    """How one run compares with the others: ``short`` for its bar ("fastest", "2.10×
    slower", "no clear difference"), ``sentence`` for the line under the plot ("" if none)."""

    short: str
    sentence: str


def _like(run: Run) -> tuple[str, str, tuple[int, ...] | None]:
    return run.dtype, run.mode, run.input_shape


def _run_differences(run: Run, other: Run) -> list[str]:
    parts: list[str] = []
    if run.mode != other.mode:
        parts.append(Text("verdict.run_differs_mode", mine=run.mode, theirs=other.mode))
    if run.dtype != other.dtype:
        parts.append(Text("verdict.run_differs_dtype", mine=run.dtype, theirs=other.dtype))
    if run.input_shape != other.input_shape and run.input_shape is not None and other.input_shape is not None:
        parts.append(Text("verdict.run_differs_input", mine=read.shape_words(run.input_shape),
                          theirs=read.shape_words(other.input_shape)))  # fmt: skip
    return parts


def _differences_text(run: Run, other: Run) -> str:
    """``"mode: forward vs train-step; dtype: float32 vs bfloat16"``, or ``"not alike"``."""
    return joined(_run_differences(run, other), "list.semicolon") or Text("verdict.run_not_alike")


def _verdict(run: Run, reference: Run, found: RunRatio) -> RunVerdict:
    """``run`` against the fastest alike ``reference``: its bar's words and its line."""
    estimate = found.estimate
    ratio = estimate.ratio
    factor = format_ratio(ratio if ratio >= 1 else 1 / ratio)
    names = {"run": run.label, "reference": reference.label}
    way = "slower" if ratio >= 1 else "faster"
    if not estimate.has_interval:
        return RunVerdict(Text(f"verdict.factor_{way}", factor=factor),
                          Text(f"verdict.run_{way}_unsure", factor=factor, **names))  # fmt: skip
    interval = estimate.interval_text()
    if found.too_noisy:  # a noisy run of fewer than 3: its median may land anywhere on a rerun
        labels = joined(list(found.too_noisy), "list.and")
        return RunVerdict(Text("verdict.too_noisy"),
                          Text("verdict.run_too_noisy", labels=labels, least=MIN_RUNS, **names))  # fmt: skip
    if found.within_noise and found.floor is not None:  # the samples alone would have claimed one
        floor = found.floor_text()
        return RunVerdict(Text("verdict.within_run_noise", floor=floor),
                          Text("verdict.run_within_noise", floor=floor, interval=interval, **names))  # fmt: skip
    if not estimate.clear:
        return RunVerdict(Text("verdict.unclear"), Text("verdict.run_unclear", interval=interval, **names))
    if abs(ratio - 1) <= SAME_WITHIN:
        within = f"{SAME_WITHIN:.0%}"
        return RunVerdict(Text("verdict.same_within", within=within),
                          Text("verdict.run_same_within", within=within, interval=interval, **names))  # fmt: skip
    return RunVerdict(Text(f"verdict.factor_{way}", factor=factor),
                      Text(f"verdict.run_{way}", factor=factor, interval=interval, **names))  # fmt: skip


def run_verdicts(runs: Sequence[Run], noise: RunNoise | None = None) -> list[RunVerdict]:
    """Compare like with like: runs of the same dtype, mode and input shape against the
    fastest of them (the device is what differs), each ratio with its 95 % interval from
    how runs differ (``noise``: the run-to-run noise assumed for single runs; the stated
    constant when not given); a run with no alike run gets no ratio, and a sentence
    saying what it differs in."""
    assumed = noise if noise is not None else stated_noise()

    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, run in enumerate(runs):
        groups.setdefault(_like(run), []).append(i)
    out = [RunVerdict("", "")] * len(runs)
    said: set[frozenset[str]] = set()  # pairs already named: "A not compared with B" says it for B too
    for members in groups.values():
        if len(members) == 1:
            [i] = members
            others = [r for j, r in enumerate(runs) if j != i]
            if others:
                nearest = min(others, key=lambda r: max(1, len(_run_differences(runs[i], r))))
                pair = frozenset((runs[i].label, nearest.label))
                sentence = "" if pair in said else Text(
                    "verdict.run_not_compared", run=runs[i].label, other=nearest.label,
                    differences=_differences_text(runs[i], nearest))  # fmt: skip
                said.add(pair)
                out[i] = RunVerdict(Text("verdict.not_compared"), sentence)
            continue
        fastest = min(members, key=lambda k: runs[k].median_ms)
        reference = runs[fastest]
        out[fastest] = RunVerdict(Text("verdict.fastest"), "")
        for i in members:
            if i == fastest:
                continue
            run = runs[i]
            found = ratio_over_runs(reference.runs(), run.runs(), assumed,
                                    labels=(reference.label, run.label))  # fmt: skip
            if found is None:  # a median of 0 (calls shorter than the clock shows): say so, not nothing
                zero = joined([r.label for r in (reference, run) if not r.median_ms > 0], "list.and")
                why = Text("verdict.zero_median", labels=zero) if zero else Text("verdict.no_ratio")
                out[i] = RunVerdict(Text("verdict.not_compared"), why)
                continue
            out[i] = _verdict(run, reference, found)
    return out
