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
from dataclasses import dataclass
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
from inspector.core.measure.batch_dim import batch_size
from inspector.core.measure.machine_noise import MachineWatch, blamed
from inspector.core.measure.model_input import as_args, input_shapes, make_input, model_device, model_dtype, model_tensors
from inspector.core.measure.model_mode import buffers_kept, eval_mode
from inspector.core.measure.run_control import RunControl
from inspector.core.measure.measurement import LatencyResult, SampleTimeline
from inspector.core.measure.sampling import Sampling, take_samples
from inspector.core.measure.spread import spread_of
from inspector.core.measure.step_errors import StepFailed, run_failed
from inspector.core.measure.train_on_copy import train_step_on_copy
from inspector.core.messages import Text
from inspector.core.units import dtype_name
from inspector.core.vocabulary import DEFAULT_RUNS, MAX_MEASURE_SECONDS, MAX_SAMPLES, BenchMode

MODES = tuple(m.value for m in BenchMode)


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
        batch=batch_size(module, shapes[0]) if shapes else None,
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
