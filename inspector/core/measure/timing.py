"""Latency measurement: how long one forward pass (or one training step) takes on a device.

``measure_latency`` checks the request, makes the input (``core.measure.model_input``), picks
the timer (device events for a model on one CUDA/XPU device, else the host clock with the
devices synchronised around each call), sets the model's mode (``core.measure.model_mode``)
or builds a training step on a copy (``core.measure.train_on_copy``), runs the sample loop
(``core.measure.sampling``, which says how the timed region is kept thin) and turns what a
failing step raised into words (``core.measure.step_errors``).

Every result carries its spread (``core.measure.spread``): IQR, the 95 % interval of the median and
a noise flag.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import torch
from torch import nn

from inspector.core.devices.device_events import DeviceEvents, device_events
from inspector.core.devices.discovery import device_id, synchronize
from inspector.core.errors import InputError, InspectorError
from inspector.core.files.inputs import InputsLike
from inspector.core.files.models import LoadedModel
from inspector.core.measure import warm_up
from inspector.core.measure.machine_noise import MachineNoise, MachineWatch, blamed
from inspector.core.measure.model_input import as_args, input_shapes, make_input, model_device, model_dtype, model_tensors
from inspector.core.measure.model_mode import buffers_kept, eval_mode
from inspector.core.measure.run_control import RunControl
from inspector.core.measure.sampling import Sampling, SampleTimeline, take_samples
from inspector.core.measure.spread import SampleFigures, figures_of, spread_of
from inspector.core.measure.step_errors import StepFailed, run_failed
from inspector.core.measure.train_on_copy import train_step_on_copy
from inspector.core.messages import Text
from inspector.core.units import dtype_name
from inspector.core.vocabulary import DEFAULT_RUNS, MAX_MEASURE_SECONDS, MAX_SAMPLES, BenchMode

MODES = tuple(m.value for m in BenchMode)


@dataclass(frozen=True)
class LatencyResult:
    """Every sample of one measurement, in milliseconds, and what they say.

    The statistics (``median_ms``, ``p95_ms``, ``iqr_ms``...) are properties of ``samples_ms``,
    computed once when first read, as ``torch.utils.benchmark.Measurement`` derives its from
    ``raw_times``: a result cannot hold a median its samples do not have, and a result joined
    from runs or slices (``dataclasses.replace(samples_ms=...)``) has its figures by construction.
    """

    #: Sent on the agent's wire beside the fields, for clients that read them as fields (protocol ≤ 1.2).
    __wire_also__ = ("median_ms", "mean_ms", "p5_ms", "p95_ms", "min_ms", "max_ms", "std_ms", "iqr_ms", "median_ci_ms")

    device: str
    dtype: str
    input_shape: tuple[int, ...]
    mode: str  # "forward" | "train-step"
    warmup_ms: float  # the first call's cost (allocations, kernel selection, lazy init)
    warmup_samples_ms: tuple[float, ...]  # every warm-up call, the first included
    samples_ms: tuple[float, ...]
    #: Things the reader should know (e.g. "train-step used SGD(lr=0.01) on a copy").
    notes: tuple[str, ...] = field(default=())
    #: Every positional input's shape (``input_shape`` is the first one's): a Transformer has two.
    input_shapes: tuple[tuple[int, ...], ...] = field(default=())
    input_dtypes: tuple[str, ...] = field(default=())  # each input's dtype, in the same order
    #: "noisy: p95 is 84× the median; results may not be repeatable", or None.
    noise: str | None = None
    #: What the machine did during the timed samples (``core.measure.machine_noise``): other
    #: processes' CPU, the hypervisor's steal, preemptions of the sampling threads; None: not watched.
    machine: MachineNoise | None = None
    #: The warm-up (``core.measure.warm_up``): the calls asked for (``warmup`` is those made),
    #: why it stopped there ("as asked", "steady", "slow start", "call cap", "time cap"), and what
    #: it absorbed: its calls' time beyond as many calls at the run's median (the first calls' cost).
    warmup_asked: int = 0
    warmup_reason: str | None = None
    first_calls_ms: float | None = None
    #: What timed the samples: "host clock" or "cuda events" / "xpu events".
    timer: str = "host clock"
    #: How the measurement was asked for: ``runs`` samples, or samples for ``min_time`` seconds.
    runs: int | None = None
    min_time: float | None = None
    warmup: int = 0  # warm-up calls made before timing
    #: Each independent run's samples, in order, when the measurement holds several
    #: (``core.measure.repeats``); ``samples_ms`` is then all of them pooled. () for one run.
    runs_ms: tuple[tuple[float, ...], ...] = ()
    #: Set on both sides of an interleaved comparison (``bench --against``, ``measure.interleaved``):
    #: run i here and run i of the entry with the same ``pair_id`` were timed turn about.
    pair_id: str | None = None
    #: Per run (``runs_ms``): the machine stalled the sampling threads in at least half its samples
    #: (``MachineNoise.spoils_median``), so that run's median is the machine's. Kept per round by
    #: ``bench --against``, so ``compare`` of its two reports says what ``bench`` said; () when not watched.
    runs_spoiled: tuple[bool, ...] = ()
    #: ``torch.get_num_threads()`` while it ran: on a CPU, 1 thread against 2 moved one forward
    #: from 13 ms to 250 ms on the development VM. None: not recorded (an older report).
    threads: int | None = None
    #: When the calls ran (for a trace; not written to the report, nor sent over the wire).
    timeline: SampleTimeline | None = field(default=None, compare=False, repr=False, metadata={"wire": False})

    @functools.cached_property
    def figures(self) -> SampleFigures:
        """``measure.spread.figures_of`` the samples: the same code a report's reader holds them to."""
        figures = figures_of(self.samples_ms)
        if figures is None:
            raise ValueError("a latency result without a finite sample has no figures")
        return figures

    @property
    def median_ms(self) -> float:
        return self.figures.median_ms

    @property
    def mean_ms(self) -> float:
        return self.figures.mean_ms

    @property
    def p5_ms(self) -> float:
        return self.figures.p5_ms

    @property
    def p95_ms(self) -> float:
        return self.figures.p95_ms

    @property
    def min_ms(self) -> float:
        return self.figures.min_ms

    @property
    def max_ms(self) -> float:
        return self.figures.max_ms

    @property
    def std_ms(self) -> float:
        return self.figures.std_ms

    @property
    def iqr_ms(self) -> float:
        return self.figures.iqr_ms

    @property
    def median_ci_ms(self) -> tuple[float, float] | None:
        return self.figures.median_ci_ms

    @property
    def noisy(self) -> bool:
        return self.noise is not None

    @property
    def inputs(self) -> tuple[tuple[tuple[int, ...], str], ...]:
        """Each positional tensor input's (shape, dtype): what the code view's snippet rebuilds."""
        return tuple(zip(self.input_shapes, self.input_dtypes))

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "dtype": self.dtype,
            "input_shape": list(self.input_shape),
            "input_shapes": [list(s) for s in self.input_shapes],
            "input_dtypes": list(self.input_dtypes),
            "mode": self.mode,
            "warmup_ms": self.warmup_ms,
            "warmup_samples_ms": list(self.warmup_samples_ms),
            "samples_ms": list(self.samples_ms),
            "median_ms": self.median_ms,
            "mean_ms": self.mean_ms,
            "p5_ms": self.p5_ms,
            "p95_ms": self.p95_ms,
            "min_ms": self.min_ms,
            "max_ms": self.max_ms,
            "std_ms": self.std_ms,
            "iqr_ms": self.iqr_ms,
            "median_ci_ms": list(self.median_ci_ms) if self.median_ci_ms is not None else None,
            "noisy": self.noisy,
            "noise": self.noise,
            "machine": self.machine.to_dict() if self.machine is not None else None,
            "warmup_asked": self.warmup_asked,
            "warmup_reason": self.warmup_reason,
            "first_calls_ms": self.first_calls_ms,
            "timer": self.timer,
            "runs": self.runs,
            "min_time": self.min_time,
            "warmup": self.warmup,
            "notes": list(self.notes),
            **({"runs_ms": [list(r) for r in self.runs_ms]} if len(self.runs_ms) > 1 else {}),
            **({"pair_id": self.pair_id} if self.pair_id else {}),
            **({"runs_spoiled": list(self.runs_spoiled)} if len(self.runs_ms) > 1 and len(self.runs_spoiled) == len(self.runs_ms) else {}),
            **({"threads": self.threads} if self.threads is not None else {}),
        }


# --------------------------------------------------------------------------- the measurement


def measure_latency(
    loaded: LoadedModel,
    *,
    mode: str = BenchMode.FORWARD.value,
    runs: int | None = None,
    min_time: float | None = None,
    warmup: int = 3,
    input_shape: InputsLike | None = None,
    control: RunControl = RunControl(),
) -> LatencyResult:
    """Time ``warmup`` calls, then ``runs`` calls (or calls until ``min_time`` seconds are measured).

    ``mode="forward"``: ``model(x)`` in eval mode under ``torch.inference_mode()``; the
    train/eval flag of every submodule is restored afterwards. ``mode="train-step"``:
    forward + backward + optimizer step on a deep copy of the model and its optimizer, so the
    user's parameters, grads and optimizer state stay bitwise what they were.

    ``control`` (``run_control.RunControl``) steers the run between chunks of samples (every
    CHUNK_SAMPLES samples or CHUNK_SECONDS measured, whichever comes first): each sample to its
    ``on_sample``, in order; ``progress`` and ``should_cancel`` (True -> ``Cancelled``) once per
    chunk; ``should_stop`` (True: the run ends there, a result of the samples taken, with a
    note) once per chunk after the first. Its ``max_samples``: this run's share of the samples
    one measurement keeps, when it is one of several runs (``core.measure.repeats``); a request
    for more is capped, with a note.
    """
    if mode not in MODES:
        raise InputError(Text("input.unknown_mode", name=repr(mode)))
    target = _sample_target(runs, min_time)
    notes: list[str] = list(request_caps(runs, min_time))
    if control.max_samples < target[0]:  # one of several runs: its share of the cap
        target = (max(1, control.max_samples), target[1])
        if runs is not None:
            notes.append(Text("bench.runs_capped", runs=f"{runs:,}", cap=f"{target[0]:,}"))
    if warmup < 1:
        raise InputError(Text("input.warmup_at_least_one"))

    module = loaded.module
    device = model_device(module)
    dtype = model_dtype(module)
    args = as_args(make_input(loaded, input_shape))
    shapes = input_shapes(args)
    if len(shapes) > 1:
        notes.append(Text("bench.input_shapes", shapes=", ".join(str(s) for s in shapes)))
    what = "forward pass" if mode == "forward" else "training step"

    how = Sampling(target, warm_up.WarmUp(warmup), synchronizer(module), _sample_events(module), MachineWatch(),
                   SampleTimeline())  # fmt: skip
    step: Callable[[], object]
    ran = module  # what the samples ran on: the model, or its copy for a training step
    try:
        if mode == "forward":
            with eval_mode(loaded, notes), buffers_kept(loaded), torch.inference_mode():
                step = functools.partial(module, *args)
                warm, samples = take_samples(step, how, control, notes)
        else:
            # Gradients on even when the caller runs us under no_grad (a worker, a notebook cell).
            with torch.inference_mode(False), torch.enable_grad():
                step, ran = train_step_on_copy(loaded, args, notes)
                warm, samples = take_samples(step, how, control, notes)
    except StepFailed as failed:
        raise run_failed(failed.cause, shapes, device_id(device), what, blame_input=failed.in_forward) from None
    except InspectorError:
        raise
    except Exception as exc:  # noqa: BLE001 -- setting up, synchronising: the input is not to blame
        raise run_failed(exc, shapes, device_id(device), what, blame_input=False) from None

    warmed = how.warming.outcome(warm, samples)
    notes += warm_up.notes(warmed)
    ran_in = model_dtype(ran)  # a model may cast itself as it runs: report what it ran in
    if ran_in != dtype:
        notes.append(Text("bench.dtype_changed", before=dtype_name(dtype), after=dtype_name(ran_in)))
    described = LatencyResult(
        device=device_id(device),
        dtype=dtype_name(ran_in),
        input_shape=shapes[0] if shapes else (),
        input_shapes=tuple(shapes),
        input_dtypes=tuple(dtype_name(a.dtype) for a in args if isinstance(a, torch.Tensor)),
        mode=mode,
        warmup_ms=0.0,
        warmup_samples_ms=(),
        samples_ms=(),
        notes=tuple(notes),
        timer=how.events.kind if how.events is not None else "host clock",
        runs=None if min_time is not None else target[0],
        min_time=min(float(min_time), MAX_MEASURE_SECONDS) if min_time is not None else None,
    )
    return _result(described, _Taken(warm, samples, warmed, how.machine, how.timeline))


def request_caps(runs: int | None, min_time: float | None) -> tuple[str, ...]:
    """Notes saying how ``runs`` / ``min_time`` are capped (none when within the caps).

    Front ends print them before measuring; ``measure_latency`` keeps them in its result.
    """
    notes = []
    if isinstance(runs, int) and runs > MAX_SAMPLES:
        notes.append(Text("bench.runs_capped", runs=f"{runs:,}", cap=f"{MAX_SAMPLES:,}"))
    if isinstance(min_time, (int, float)) and min_time > MAX_MEASURE_SECONDS:  # inf included
        notes.append(Text("bench.min_time_capped", seconds=f"{min_time:g}", cap=f"{MAX_MEASURE_SECONDS:,g}"))
    return tuple(notes)


def _sample_target(runs: int | None, min_time: float | None) -> tuple[int, int | None]:
    """(max number of samples, minimum measured nanoseconds or None)."""
    if runs is not None and min_time is not None:
        raise InputError(Text("input.runs_or_min_time"))
    if min_time is not None:
        if not (isinstance(min_time, (int, float)) and not math.isnan(min_time) and min_time > 0):
            raise InputError(Text("input.min_time_not_positive", value=repr(min_time)))
        return MAX_SAMPLES, int(min(min_time, MAX_MEASURE_SECONDS) * 1e9)
    runs = DEFAULT_RUNS if runs is None else runs
    if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
        raise InputError(Text("input.runs_not_whole", value=repr(runs)))
    return min(runs, MAX_SAMPLES), None


def _accelerators(module: nn.Module) -> set[torch.device]:
    return {t.device for t in model_tensors(module) if t.device.type not in ("cpu", "meta")}


def _sample_events(module: nn.Module) -> DeviceEvents | None:
    """Device events to time each sample with: a model on one CUDA/XPU device only (events
    on one stream would miss the work of a second device)."""
    accelerators = _accelerators(module)
    return device_events(next(iter(accelerators))) if len(accelerators) == 1 else None


def synchronizer(module: nn.Module) -> Callable[[], None] | None:
    """A call that waits for every accelerator the model lives on; None on a CPU-only model."""
    accelerators = _accelerators(module)
    if not accelerators:
        return None
    devices = tuple(accelerators)
    if len(devices) == 1:
        return functools.partial(synchronize, devices[0])

    def sync_all() -> None:
        for d in devices:
            synchronize(d)

    return sync_all


# --------------------------------------------------------------------------- statistics


def figures_of_samples(ms: np.ndarray) -> dict[str, Any]:
    """What a result takes from its samples (ms): the samples and the noise flag (before any
    cause is named); its statistics are properties of the samples (``LatencyResult.figures``)."""
    return {"samples_ms": tuple(ms.tolist()), "noise": spread_of(ms).noise}


@dataclass(frozen=True)
class _Taken:
    """What one run's sample loop gave: its calls in nanoseconds, how its warm-up ended, what the
    machine did and when the calls ran."""

    warm_ns: list[int]
    samples_ns: list[int]
    warmed: warm_up.WarmUpOutcome
    machine: MachineWatch | None
    timeline: SampleTimeline | None


def _result(described: LatencyResult, taken: _Taken) -> LatencyResult:
    """``described`` (what was measured, how it was asked for, its notes; no sample yet) with
    ``taken``'s samples, warm-up and machine: the result."""
    warm_ms = tuple(float(v) / 1e6 for v in taken.warm_ns)
    figures = figures_of_samples(np.asarray(taken.samples_ns, dtype=np.float64) / 1e6)
    machine = taken.machine.result if taken.machine is not None else None
    noise = blamed(figures.pop("noise"), machine)  # the machine's doing, when it was
    return dataclasses.replace(
        described,
        input_shape=tuple(int(d) for d in described.input_shape),
        input_shapes=tuple(tuple(int(d) for d in s) for s in described.input_shapes),
        warmup_ms=warm_ms[0],
        warmup_samples_ms=warm_ms,
        **figures,
        noise=noise,
        machine=machine,
        warmup_asked=taken.warmed.asked,
        warmup_reason=taken.warmed.reason,
        first_calls_ms=taken.warmed.absorbed_ns / 1e6,
        warmup=len(taken.warm_ns),
        timeline=taken.timeline,
        threads=torch.get_num_threads(),
    )
