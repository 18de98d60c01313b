"""A measurement of several independent runs: each run's samples kept apart, and pooled.

One run's samples cannot show how far the next run will land (``run_noise``), so a
measurement may hold several runs, each with its own warm-up. ``bench --repeat N`` takes
them in N fresh processes, as pyperf does (memory placement and ASLR change between
processes, and not within one); the window and the agent take them one after another in their
measuring process (``measure_runs``), which sees drifts over time but not what a new process
changes. ``combine_runs`` makes the one result either way: ``runs_ms`` holds each run's
samples, ``samples_ms`` all of them pooled, and every figure is the pooled samples' own,
computed as ``timing`` computes them (a report's figures must be its samples').
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

from inspector.core.files.inputs import InputsLike
from inspector.core.files.models import LoadedModel
from inspector.core.measure.run_control import RunControl
from inspector.core.measure.measurement import LatencyResult
from inspector.core.measure.timing import figures_of_samples, measure_latency
from inspector.core.messages import Text
from inspector.core.vocabulary import MAX_REPEAT, MAX_SAMPLES

__all__ = ["MAX_REPEAT", "combine_runs", "measure_runs", "run_share"]


def run_share(repeat: int) -> int:
    """The samples each of ``repeat`` runs may keep: together no more than one measurement."""
    return max(1, MAX_SAMPLES // max(1, repeat))


def combine_runs(
    first: LatencyResult, later_runs_ms: Sequence[Sequence[float]], notes: Sequence[str] = ()
) -> LatencyResult:
    """``first`` with the samples of ``later_runs_ms`` as further runs: ``runs_ms`` every run's
    samples, ``samples_ms`` and every figure those of all of them pooled; ``first``'s warm-up
    and its other fields kept; ``notes`` added (once each), to a lone run too."""
    runs = (tuple(first.samples_ms), *(tuple(float(v) for v in r) for r in later_runs_ms if len(r)))
    if len(runs) == 1:  # a lone run stays as it is, with what is to be said of it
        return dataclasses.replace(first, notes=tuple(dict.fromkeys([*first.notes, *notes]))) if notes else first
    ms = np.asarray([v for run in runs for v in run], dtype=np.float64)
    said = list(dict.fromkeys([*first.notes, *notes, Text("bench.runs_pooled", runs=len(runs))]))
    return dataclasses.replace(first, **figures_of_samples(ms), notes=tuple(said), runs_ms=runs)


def measure_runs(
    loaded: LoadedModel,
    *,
    repeat: int,
    mode: str,
    runs: int | None,
    min_time: float | None,
    input_shape: InputsLike | None,
    control: RunControl = RunControl(),
) -> LatencyResult:
    """``repeat`` runs of ``measure_latency`` one after another in this process, combined.

    Sample indices continue from run to run (a plot shows them in order); ``progress`` counts
    runs in thousandths (each run's own total may be an estimate). ``should_stop()`` True ends
    the run being taken (its samples kept) and leaves out the runs after it. Each run keeps
    its share of the samples one measurement holds (``control.max_samples`` is not read)."""
    share = run_share(repeat)
    on_sample, progress = control.on_sample, control.progress
    results: list[LatencyResult] = []
    for index in range(repeat):
        offset = sum(len(r.samples_ms) for r in results)

        def sample(i: int, ms: float, offset: int = offset) -> None:
            if on_sample is not None:
                on_sample(offset + i, ms)

        def step(done: int, total: int, index: int = index) -> None:
            if progress is not None:
                progress(index * 1000 + (1000 * done // total if total else 0), repeat * 1000)

        this_run = dataclasses.replace(control, on_sample=sample if on_sample is not None else None,
                                       progress=step if progress is not None else None, max_samples=share)  # fmt: skip
        results.append(measure_latency(loaded, mode=mode, runs=runs, min_time=min_time, input_shape=input_shape,
                                       control=this_run))  # fmt: skip
        if control.stop_asked():
            break
    later_notes = [n for r in results[1:] for n in r.notes]
    return combine_runs(results[0], [r.samples_ms for r in results[1:]], later_notes)
