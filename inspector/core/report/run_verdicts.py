"""The runs of one session compared like with like (the window's Summary tab): each run
against the fastest run of the same dtype, mode and input shape, its ratio with a 95 %
interval, and a sentence naming what differs where no run is alike."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from inspector.core.measure.spread import ratio_of_medians, ratio_verdict
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


@dataclass(frozen=True)
class RunVerdict:
    """How one run compares with the others: ``short`` for its bar ("fastest", "2.10×
    slower", "no clear difference"), ``sentence`` for the line under the plot ("" if none)."""

    short: str
    sentence: str


def _like(run: Run) -> tuple[str, str, tuple[int, ...] | None]:
    return run.dtype, run.mode, run.input_shape


def _run_differences(run: Run, other: Run) -> str:
    parts = []
    if run.mode != other.mode:
        parts.append(f"mode: {run.mode} vs {other.mode}")
    if run.dtype != other.dtype:
        parts.append(f"dtype: {run.dtype} vs {other.dtype}")
    if run.input_shape != other.input_shape and run.input_shape is not None and other.input_shape is not None:
        parts.append(f"input: {read.shape_words(run.input_shape)} vs {read.shape_words(other.input_shape)}")
    return "; ".join(parts) or "not alike"


def run_verdicts(runs: Sequence[Run]) -> list[RunVerdict]:
    """Compare like with like: runs of the same dtype, mode and input shape against the
    fastest of them (the device is what differs), each ratio with its 95 % interval; a run
    with no alike run gets no ratio, and a sentence saying what it differs in."""
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
                nearest = min(others, key=lambda r: len(_run_differences(runs[i], r).split(";")))
                pair = frozenset((runs[i].label, nearest.label))
                sentence = "" if pair in said else (
                    f"{runs[i].label}: not compared with {nearest.label} ({_run_differences(runs[i], nearest)}): "
                    "only runs alike in mode, dtype and input shape are compared")  # fmt: skip
                said.add(pair)
                out[i] = RunVerdict("not compared", sentence)
            continue
        fastest = min(members, key=lambda k: runs[k].median_ms)
        reference = runs[fastest]
        out[fastest] = RunVerdict("fastest", "")
        for i in members:
            if i == fastest:
                continue
            run = runs[i]
            estimate = ratio_of_medians(reference.samples_ms, run.samples_ms,
                                        median_a=reference.median_ms, median_b=run.median_ms)  # fmt: skip
            if estimate is None:
                continue
            words = ratio_verdict(estimate, "", than=f" than {reference.label}").strip()
            interval = f" (95 % CI {estimate.interval_text()})" if estimate.has_interval else ""
            if words == "no clear difference" or words.startswith("about the same"):
                sentence = f"{run.label}: {words} from {reference.label}{interval}"
            else:
                sentence = f"{run.label}: {words}{interval}"
            short = words.split(" than ")[0] if " than " in words else words
            out[i] = RunVerdict(short, sentence)
    return out
