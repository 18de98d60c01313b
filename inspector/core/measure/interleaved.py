"""Two models timed turn about in one process: the round of an A/B comparison.

Runs of one model a minute apart land ±10-40 % apart on a shared machine (CPU frequency,
neighbours, memory placement: ``run_noise``), so two runs made one after the other differ by
that much whatever the code does. Timed in alternating slices of ``SLICE_SECONDS`` each (A,
B, A, B, …), both models see the same drift, and the ratio of their medians in one round
moves far less: on the development VM, 5 rounds of a 1.8 ms MLP against itself gave round
ratios with a log sd of 0.005-0.013, where runs made apart spread 0.14
(``benchmarks/verdict_truth.py``). ``bench A --against B`` takes its rounds in fresh
processes, as ``bench --repeat`` takes its runs, and ``run_ratio.paired_ratio`` reads the
rounds' ratios.

Each slice is a ``measure_latency`` call of its own (with its own short warm-up), so a
round's figures are made exactly as a plain run's are; a round joins its slices into one run.
"""

from __future__ import annotations

import dataclasses
import uuid
from typing import Callable, Sequence

import numpy as np

from inspector.core.files.inputs import InputsLike
from inspector.core.files.models import LoadedModel
from inspector.core.measure.machine_noise import MachineNoise, MachineWatch
from inspector.core.measure.repeats import combine_runs
from inspector.core.measure.run_control import RunControl
from inspector.core.measure.measurement import LatencyResult
from inspector.core.measure.timing import figures_of_samples, measure_latency
from inspector.core.messages import Text
from inspector.core.vocabulary import MAX_SAMPLES

#: How long each model is timed before the other takes its turn: short, so that whatever
#: disturbs the machine for more than a few slices (another process starting, a frequency
#: step) lands on both models alike. With 50 ms slices, one round in ten of a loaded VM saw
#: one side's median moved by ~30 % and the other's not. Each slice after a side's first
#: makes one warm-up call (the model is warm by then), ~2 ms of set-up around it.
SLICE_SECONDS = 0.02
#: The rounds ``bench --against`` takes by default: each in a fresh process.
DEFAULT_ROUNDS = 5
#: Each side's measuring time in one round, by default (seconds).
DEFAULT_ROUND_SECONDS = 0.2


def new_pair_id() -> str:
    """The token both sides of one interleaved comparison carry (``pair_id``)."""
    return uuid.uuid4().hex


def measure_round(
    a: LoadedModel,
    b: LoadedModel,
    *,
    seconds: float = DEFAULT_ROUND_SECONDS,
    b_first: bool = False,
    mode: str = "forward",
    input_shape: InputsLike | None = None,
    input_shape_b: InputsLike | None = None,
    max_samples: int | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> tuple[LatencyResult, LatencyResult]:
    """One round: A and B timed in alternating slices, ``seconds`` of samples for each
    (``b_first``: B takes the first slice; rounds alternate it so neither side always starts).
    Returns each side's slices joined into one run, each carrying what the machine did over
    the whole round (``machine``: other processes' CPU, steal, preemptions), which names the
    cause when a busy machine widens the comparison's interval."""
    slices = max(1, round(seconds / SLICE_SECONDS))
    per_slice = seconds / slices
    cap = MAX_SAMPLES if max_samples is None else max(1, max_samples // slices)
    taken: dict[str, list[LatencyResult]] = {"a": [], "b": []}
    order = [("b", b, input_shape_b), ("a", a, input_shape)] if b_first else [("a", a, input_shape), ("b", b, input_shape_b)]
    control = RunControl(should_cancel=should_cancel, max_samples=cap)
    watch = MachineWatch()
    watch.start()
    for index in range(slices):
        for side, loaded, shape in order:
            warmup = 3 if index == 0 else 1  # the first slice warms the model up; later ones find it warm
            taken[side].append(measure_latency(loaded, mode=mode, min_time=per_slice, input_shape=shape, warmup=warmup,
                                               control=control))  # fmt: skip
    machine = watch.stop(sum(len(r.samples_ms) for side in taken.values() for r in side))
    return join_slices(taken["a"], seconds, machine), join_slices(taken["b"], seconds, machine)


def join_slices(slices: Sequence[LatencyResult], seconds: float, machine: MachineNoise | None = None) -> LatencyResult:
    """One run made of a round's slices: their samples in order, figures computed from them;
    the first slice's warm-up (the model's first calls) and its description kept; ``machine``:
    what the machine did over the whole round (each slice watched only itself)."""
    first = slices[0]
    ms = np.asarray([v for s in slices for v in s.samples_ms], dtype=np.float64)
    notes = list(dict.fromkeys(n for s in slices for n in s.notes))
    notes.append(Text("bench.interleaved_slices", slices=len(slices)))
    return dataclasses.replace(first, **figures_of_samples(ms), notes=tuple(notes), machine=machine, min_time=seconds,
                               runs=None)  # fmt: skip


def with_rounds(
    first: LatencyResult, later_rounds_ms: Sequence[Sequence[float]], pair_id: str, spoiled: Sequence[bool] = ()
) -> LatencyResult:
    """``first`` (round 1) with the later rounds' samples as further runs, marked with ``pair_id``:
    round i of A and round i of B were taken turn about, in the same process. ``spoiled``: per
    round, whether the machine stalled it (``runs_spoiled``; kept only when one per round)."""
    joined = combine_runs(first, later_rounds_ms)
    rounds = len(joined.runs_ms)
    kept = tuple(bool(s) for s in spoiled) if rounds > 1 and len(spoiled) == rounds else ()
    return dataclasses.replace(joined, pair_id=pair_id, runs_spoiled=kept)
