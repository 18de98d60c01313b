"""The sample loop: warm-up calls, then back-to-back timed calls in chunks.

The timed region is as thin as Python allows: ``perf_counter_ns()`` right around the call
on the CPU, with the clock's own cost (the median of back-to-back reads, measured before
the samples; ~60 ns on a VM, 0.3 % of a 20 µs call) taken off each host-clock sample, so a
sample is the call as ``torch.utils.benchmark`` sees it inside its loop-timed blocks. On
CUDA and XPU each sample is timed by two device events recorded around the call
(``core.devices.device_events``): the device's work is asynchronous, and a host clock would
need a full synchronisation on both sides whose cost lands in the figure. Other
accelerators (MPS), and models spread over several devices, keep the host clock with the
devices synchronised around the call. Warm-up calls are always timed by the host clock, so
the first call's cost includes host-side work (lazy initialisation, kernel selection); the
warm-up goes on past the calls asked for while they are not yet steady (``warm_up``).
Everything else — callbacks, the cancel check, bookkeeping — happens between chunks of
back-to-back samples (at most CHUNK_SAMPLES samples or CHUNK_SECONDS each), so one call's
figure does not carry the cost of the app's own code having run just before it.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from inspector.core import gc_pause
from inspector.core.devices.device_events import DeviceEvents
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.measure import chunk_gate, warm_up
from inspector.core.measure.machine_noise import MachineWatch
from inspector.core.measure.measurement import SampleTimeline
from inspector.core.measure.run_control import RunControl
from inspector.core.measure.step_errors import StepFailed
from inspector.core.messages import Text
from inspector.core.vocabulary import MAX_MEASURE_SECONDS

_MAX_MEASURE_NS = int(MAX_MEASURE_SECONDS * 1e9)
#: Samples are timed in chunks of back-to-back calls; ``on_sample``, ``progress`` and the
#: cancel check run between chunks. A chunk ends after this many samples or this much
#: measured time, so a cancel is seen within about CHUNK_SECONDS (or one slow call).
#: The first call of a chunk finds the callbacks' code and data in the caches (~4-8 µs
#: slower on a 20 µs model): chunks are long (CHUNK_SECONDS for any call over 10 µs), so
#: that cost is ~0.02 % of a chunk's time, not the +0.2 % chunks of 100 samples gave.
CHUNK_SAMPLES = 5000
CHUNK_SECONDS = 0.05
_CHUNK_NS = int(CHUNK_SECONDS * 1e9)
#: The host clock the samples are read from (a module attribute, so a test can give a fake one).
_clock: Callable[[], int] = time.perf_counter_ns
_CLOCK_COST_READS = 101


@dataclass(frozen=True)
class Sampling:
    """How one run's calls are made and timed, and what watches them.

    ``target``: (at most this many samples, at least this many measured nanoseconds or None).
    ``warming``: the warm-up (``warm_up.WarmUp``): the calls asked for, and more while they are
    not yet steady; a slow start of the run's first chunk goes to it too, unless the sampling
    threads were preempted meanwhile. ``sync``: waits for the model's devices (None on a CPU).
    ``events``: device events timing each sample (else the host clock). ``machine`` watches
    what the machine does from the first timed sample to the last (its ``result`` says it
    afterwards); ``timeline`` is filled with when the calls ran."""

    target: tuple[int, int | None]
    warming: warm_up.WarmUp
    sync: Callable[[], None] | None = None
    events: DeviceEvents | None = None
    machine: MachineWatch | None = None
    timeline: SampleTimeline | None = None


def take_samples(
    step: Callable[[], object], how: Sampling, control: RunControl, notes: list[str]
) -> tuple[list[int], list[int]]:
    """Warm-up samples (host clock) and timed samples (``how.events`` where given), in nanoseconds.

    ``control`` steers the run between chunks (``RunControl``: the sample sink, progress, the
    cancel and stop checks); a run stopped early keeps its samples, with a note in ``notes``
    saying so, as does one that met a cap."""
    sync, events, machine, timeline, warming = how.sync, how.events, how.machine, how.timeline, how.warming
    on_sample, progress = control.on_sample, control.progress
    max_samples, min_ns = how.target
    clock = _clock
    # Each host-timed call's start, for a trace: the timeline's, or thrown away without one.
    call_starts: list[int] = timeline.call_starts_ns if timeline is not None else []
    # As timeit does: a garbage-collector pass landing inside one sample is noise, not latency.
    with gc_pause.paused():
        cost = clock_cost_ns(clock)
        warm: list[int] = []
        while warming.wants_more(warm):  # the calls asked for, then until they are steady
            if control.cancelled():
                raise Cancelled(Text("failure.cancelled_warmup"))
            with chunk_gate.call():
                if timeline is not None:
                    timeline.warmup_starts_ns.append(clock())
                warm.append(_timed_call(step, sync, clock, cost))
        if machine is not None:
            machine.start()

        samples: list[int] = []
        measured = 0
        total = max_samples if min_ns is None else _estimate_total(min_ns, warm_up.steady_tail(warm), max_samples)
        if progress is not None:
            progress(0, total)
        # A run count that would take hours stops at the time cap (min_ns is already capped);
        # at least one sample, however small the minimum time (1e-300 s is 0 ns).
        stop_ns = min_ns if min_ns is not None else _MAX_MEASURE_NS
        stopped = False
        while len(samples) < max_samples and (measured < stop_ns or not samples):
            if control.cancelled():
                raise Cancelled(Text("failure.cancelled_benchmark", samples=len(samples)))
            if samples and control.stop_asked():
                stopped = True  # asked to end now and keep what was measured
                break
            # A chunk of back-to-back calls with nothing in between, as torch.utils.benchmark
            # times them: callbacks run per sample put their own code and data in the caches
            # the next call then finds cold (+3.6 % on a 20 µs model with the window's
            # callbacks, benchmarks/latency_fidelity.py). Callbacks and the cancel check run
            # between chunks: every CHUNK_SAMPLES samples or CHUNK_SECONDS measured.
            first = len(samples)
            count = min(max_samples, first + CHUNK_SAMPLES) - first
            with chunk_gate.chunk() as gated:  # the app's own threads stop meanwhile (a window's)
                budget = min(stop_ns, measured + (gated.budget_ns or _CHUNK_NS)) - measured
                began = clock()
                if sync is None and events is None:
                    chunk = _host_chunk(step, clock, cost, count, budget, call_starts)
                else:
                    chunk = _device_chunk(step, sync, clock, cost, events, count, budget)
                if timeline is not None:
                    timeline.chunks.append((began, clock(), len(chunk)))
                gated.took(min(chunk))
            if warming.looking:  # the run's first chunk: did it start slow? (then it was warming up)
                slow = warming.absorb(warm, chunk, machine.preempted() if machine is not None else None)
                if timeline is not None:
                    timeline.absorbed = slow
                warm += chunk[:slow]
                chunk = chunk[slow:]
            samples += chunk
            measured += sum(chunk)
            if on_sample is not None:
                for index in range(first, len(samples)):
                    on_sample(index, samples[index] / 1e6)
            if progress is not None:
                if min_ns is not None:
                    total = _remaining_estimate(len(samples), measured, min_ns, max_samples)
                progress(len(samples), total)
        if machine is not None:
            machine.stop(len(samples))
        if stopped:
            notes.append(Text("bench.stopped_early", runs=f"{len(samples):,}", seconds=f"{measured / 1e9:.3g}"))
        elif min_ns is not None and measured < min_ns:
            notes.append(Text("bench.stopped_at_sample_cap", cap=f"{max_samples:,}", seconds=f"{measured / 1e9:.3g}",
                              min_time=f"{min_ns / 1e9:.3g}"))  # fmt: skip
        elif min_ns is None and len(samples) < max_samples:
            notes.append(Text("bench.stopped_at_time_cap", runs=f"{len(samples):,}", of=f"{max_samples:,}",
                              cap=f"{MAX_MEASURE_SECONDS:,g}"))  # fmt: skip
        return warm, samples


def clock_cost_ns(clock: Callable[[], int] = time.perf_counter_ns) -> int:
    """The clock's own cost in a sample: the median gap between two back-to-back reads.

    A sample is ``clock()`` read before and after the call, so it also holds the end of the
    first read and the start of the second: exactly one such gap. The median, so a
    preemption between two reads does not count.
    """
    gaps = []
    for _ in range(_CLOCK_COST_READS):
        start = clock()
        gaps.append(clock() - start)
    return max(0, int(np.median(gaps)))


def _host_chunk(
    step: Callable[[], object],
    clock: Callable[[], int],
    clock_cost: int,
    count: int,
    budget_ns: int,
    starts: list[int],
) -> list[int]:
    """Up to ``count`` back-to-back calls of ``step`` (at least one, until ``budget_ns`` are
    measured), each timed by the host clock less its own cost: a model on the CPU.

    Between two calls only two appends and a sum run, as lean as ``timeit``'s loop: a helper
    called per sample (its frame, its branches) made a 20 µs model's calls ~0.7 % slower
    than in a bare loop, by the interpreter's caches and branch predictors. ``starts`` gets
    each call's start clock reading (for a trace), appended after the call's end is read,
    outside the figure. Raises as ``_timed_call`` does.
    """
    # The model itself, called straight (a forward's step is partial(model, *inputs)): the
    # partial's extra hop is inside the sample. ``itertools.repeat`` as ``timeit``'s loop.
    # Together ~1 % on a 20 µs forward against ``partial`` over ``range``.
    fn, args = (step.func, step.args) if isinstance(step, functools.partial) and not step.keywords else (step, ())
    samples: list[int] = []
    append = samples.append
    measured = 0
    try:
        began = starts.append
        for _ in itertools.repeat(None, count):
            start = clock()
            fn(*args)
            elapsed = clock() - start - clock_cost
            append(elapsed)
            began(start)
            measured += elapsed
            if measured >= budget_ns:
                break
    except (InspectorError, StepFailed, KeyboardInterrupt):
        raise
    except BaseException as exc:  # the model's code may raise anything, even SystemExit
        raise StepFailed(exc, in_forward=True) from exc
    return [e if e > 0 else 0 for e in samples]  # never below zero, as _timed_call


def _device_chunk(
    step: Callable[[], object],
    sync: Callable[[], None] | None,
    clock: Callable[[], int],
    clock_cost: int,
    events: DeviceEvents | None,
    count: int,
    budget_ns: int,
) -> list[int]:
    """``_host_chunk`` for a model on an accelerator: each call between device events, or
    by the host clock with the devices synchronised around it."""
    samples: list[int] = []
    measured = 0
    while len(samples) < count and (measured < budget_ns or not samples):
        elapsed = _timed_call(step, sync, clock, clock_cost) if events is None else _event_timed_call(step, events)
        samples.append(elapsed)
        measured += elapsed
    return samples


def _timed_call(
    step: Callable[[], object], sync: Callable[[], None] | None, clock: Callable[[], int], clock_cost: int = 0
) -> int:
    """One call of ``step`` in nanoseconds, the device synchronised on both sides, less the
    clock's own cost (``clock_cost_ns``; never below zero).

    What ``step`` raises comes out as ``StepFailed``, blamed on the forward call unless
    the step already said otherwise (a ``try`` costs nothing until something is raised).
    """
    if sync is not None:
        sync()
    start = clock()
    try:
        step()
    except (InspectorError, StepFailed, KeyboardInterrupt):
        raise
    except BaseException as exc:  # the model's code may raise anything, even SystemExit
        raise StepFailed(exc, in_forward=True) from exc
    if sync is not None:
        sync()
    return max(0, clock() - start - clock_cost)


def _event_timed_call(step: Callable[[], object], events: DeviceEvents) -> int:
    """One call of ``step`` in nanoseconds of device time, between two events on its stream.

    The previous sample waited for its end event, so the stream is idle when this starts;
    the wait for this sample's end event is not in its figure.
    """
    events.start()
    try:
        step()
    except (InspectorError, StepFailed, KeyboardInterrupt):
        raise
    except BaseException as exc:  # the model's code may raise anything, even SystemExit
        raise StepFailed(exc, in_forward=True) from exc
    return events.stop()


def _estimate_total(min_ns: int, warm_ns: list[int], cap: int) -> int:
    per_call = max(float(np.median(warm_ns)), 1.0)
    return max(1, min(cap, math.ceil(min_ns / per_call)))


def _remaining_estimate(done: int, measured: int, min_ns: int, cap: int) -> int:
    if measured >= min_ns:
        return done
    per_call = max(measured / done, 1.0)
    return min(cap, done + math.ceil((min_ns - measured) / per_call))
