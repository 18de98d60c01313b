"""Latency measurement: how long one forward pass (or one training step) takes on a device.

The timed region is as thin as Python allows: ``perf_counter_ns()`` right around the call
on the CPU, with the clock's own cost (the median of back-to-back reads, measured before
the samples; ~60 ns on a VM, 0.3 % of a 20 µs call) taken off each host-clock sample, so a
sample is the call as ``torch.utils.benchmark`` sees it inside its loop-timed blocks. On
CUDA and XPU each sample is timed by two device events recorded around the call
(``core.devices.device_events``): the device's work is asynchronous, and a host clock would need a
full synchronisation on both sides whose cost lands in the figure. Other
accelerators (MPS), and models spread over several devices, keep the host clock with the
devices synchronised around the call. Warm-up calls are always timed by the host clock, so
the first call's cost includes host-side work (lazy initialisation, kernel selection).
Everything else — callbacks, the cancel check, bookkeeping — happens between chunks of
back-to-back samples (at most CHUNK_SAMPLES samples or CHUNK_SECONDS each), so one call's
figure does not carry the cost of the app's own code having run just before it.

Every result carries its spread (``core.measure.spread``): IQR, the 95 % interval of the median and
a noise flag.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import itertools
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import numpy as np
import torch
from torch import nn

from inspector.core import gc_pause
from inspector.core.devices.device_events import DeviceEvents, device_events
from inspector.core.devices.discovery import device_id, is_out_of_memory, synchronize
from inspector.core.errors import Cancelled, InputError, InspectorError
from inspector.core.files.inputs import InputsLike, as_specs, make_tensors
from inspector.core.files.models import LoadedModel
from inspector.core.measure.spread import spread_of
from inspector.core.units import dtype_name, first_line
from inspector.core.vocabulary import DEFAULT_RUNS, MAX_MEASURE_SECONDS, MAX_SAMPLES, BenchMode, FailureKind

MODES = tuple(m.value for m in BenchMode)
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
_INPUT_SHAPE_HINT = "--input-shape 1,3,224,224 on the command line, or the input-shape field in the window"


@dataclass(frozen=True)
class LatencyResult:
    """Every sample of one measurement, and its statistics, in milliseconds."""

    device: str
    dtype: str
    input_shape: tuple[int, ...]
    mode: str  # "forward" | "train-step"
    warmup_ms: float  # the first call's cost (allocations, kernel selection, lazy init)
    warmup_samples_ms: tuple[float, ...]  # every warm-up call, the first included
    samples_ms: tuple[float, ...]
    median_ms: float
    mean_ms: float
    p5_ms: float
    p95_ms: float
    min_ms: float
    max_ms: float
    std_ms: float  # sample standard deviation (ddof=1); 0.0 for a single sample
    #: Things the reader should know (e.g. "train-step used SGD(lr=0.01) on a copy").
    notes: tuple[str, ...] = field(default=())
    #: Every positional input's shape (``input_shape`` is the first one's): a Transformer has two.
    input_shapes: tuple[tuple[int, ...], ...] = field(default=())
    input_dtypes: tuple[str, ...] = field(default=())  # each input's dtype, in the same order
    iqr_ms: float = 0.0  # p75 - p25
    #: The 95 % interval of the median (order statistics, ``core.measure.spread``); None under 6 samples.
    median_ci_ms: tuple[float, float] | None = None
    #: "noisy: p95 is 84× the median; results may not be repeatable", or None.
    noise: str | None = None
    #: What timed the samples: "host clock" or "cuda events" / "xpu events".
    timer: str = "host clock"
    #: How the measurement was asked for: ``runs`` samples, or samples for ``min_time`` seconds.
    runs: int | None = None
    min_time: float | None = None
    warmup: int = 0  # warm-up calls made before timing

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
            "timer": self.timer,
            "runs": self.runs,
            "min_time": self.min_time,
            "warmup": self.warmup,
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- input


def model_device(module: nn.Module) -> torch.device:
    """The device of the first floating parameter (else any parameter/buffer, else the CPU)."""
    first = _first_floating_tensor(module)
    if first is not None:
        return first.device
    for t in _tensors(module):
        return t.device
    return torch.device("cpu")


def model_dtype(module: nn.Module) -> torch.dtype:
    """The dtype of the first floating or complex parameter (else buffer); PyTorch's default
    otherwise. A complex64 model is complex64 here, not the default float32."""
    first = _first_floating_tensor(module)
    return first.dtype if first is not None else torch.get_default_dtype()


def _tensors(module: nn.Module) -> Iterator[torch.Tensor]:
    yield from module.parameters()
    yield from (b for b in module.buffers() if b is not None)


def _first_floating_tensor(module: nn.Module) -> torch.Tensor | None:
    for p in module.parameters():
        if p.is_floating_point() or p.is_complex():
            return p
    for b in module.buffers():
        if b is not None and (b.is_floating_point() or b.is_complex()):
            return b
    return None


def make_input(loaded: LoadedModel, input_shape: InputsLike | None = None) -> Any:
    """The input to time with: random tensors for ``input_shape`` (input specs, see
    ``core.files.inputs``, or one bare shape), else the model's example input.

    Both end up on the model's device and, for floating tensors without a dtype of their
    own, in its floating dtype. Returns a tensor for one input, a tuple of positional
    arguments for several (or when the example input is one).
    """
    device, dtype = model_device(loaded.module), model_dtype(loaded.module)
    specs = as_specs(input_shape)
    if specs is not None:
        try:
            tensors = make_tensors(specs, loaded.module, device, dtype)
        except RuntimeError as exc:
            shown = "; ".join(s.text() for s in specs)
            raise InputError(
                f"could not create inputs {shown} ({dtype_name(dtype)}) on {device_id(device)}: {first_line(exc)}",
                detail=str(exc),
            ) from None
        return tensors[0] if len(tensors) == 1 else tensors
    if loaded.example_input is None:
        raise InputError(
            f"this model brings no example input: give an input shape ({_INPUT_SHAPE_HINT})"
        )
    return _to_model(loaded.example_input, device, dtype)


def _to_model(value: Any, device: torch.device, dtype: torch.dtype) -> Any:
    if isinstance(value, torch.Tensor):
        # Real inputs follow a real dtype, complex ones a complex dtype; a real input to a
        # complex model stays real (casting would drop or invent imaginary parts).
        same_kind = (value.is_floating_point() and dtype.is_floating_point) or (value.is_complex() and dtype.is_complex)
        return value.to(device, dtype) if same_kind else value.to(device)
    if isinstance(value, (tuple, list)):
        return tuple(_to_model(v, device, dtype) for v in value)
    return value


def _as_args(inputs: Any) -> tuple[Any, ...]:
    return inputs if isinstance(inputs, tuple) else (inputs,)


def _input_shapes(args: tuple[Any, ...]) -> list[tuple[int, ...]]:
    return [tuple(a.shape) for a in args if isinstance(a, torch.Tensor)]


# --------------------------------------------------------------------------- errors

_MATMUL = re.compile(r"mat1 and mat2 shapes cannot be multiplied \((\d+)x(\d+) and (\d+)x(\d+)\)")
_MISSING = re.compile(r"missing (\d+) required positional arguments?: (.+)$")
_TOO_MANY = re.compile(r"takes (\d+) positional arguments? but (\d+) (?:were|was) given")


class _StepFailed(Exception):
    """What a timed step raised, and whether the model's forward call itself raised it.

    Only a failing forward call is blamed on the input's shape; a backward pass, an
    optimizer step or the device failing is reported as what it is.
    """

    def __init__(self, cause: BaseException, *, in_forward: bool):
        super().__init__(str(cause))
        self.cause = cause
        self.in_forward = in_forward


def _expected_shape_hint(message: str) -> str:
    """What PyTorch says the model expected, in words, where its message says it."""
    m = _MATMUL.search(message)
    if m:
        got, wanted = m.group(2), m.group(3)
        return f" (the model expects the last dimension to be {wanted}, not {got})"
    m = _MISSING.search(message)
    if m:
        return f" (the model takes {m.group(1)} more input(s), {m.group(2)}: separate inputs with ';', e.g. 10,32,512; 20,32,512)"
    m = _TOO_MANY.search(message)
    if m:
        return f" (the forward takes {int(m.group(1)) - 1} input(s))"
    return ""


def _run_failed(
    exc: BaseException, shapes: list[tuple[int, ...]], device: str, what: str, *, blame_input: bool
) -> InspectorError:
    """Turn an exception from the measurement into a one-line error a user can act on.

    ``blame_input``: the model's forward call raised it, so the input's shape is the likely
    cause (an InputError naming it); otherwise it is an operation that failed.
    """
    shown = ", ".join(str(s) for s in shapes) or "(no tensor)"
    noun = "shape" if len(shapes) <= 1 else "shapes"
    if is_out_of_memory(exc):
        return InspectorError(
            f"ran out of memory on {device} during the {what} with input {noun} {shown}: "
            "try a smaller input shape or another device",
            detail=str(exc),
            kind=FailureKind.OOM,
        )
    message = first_line(exc)
    if not blame_input:
        return InspectorError(
            f"the {what} failed on {device}: {message}",
            detail=f"{type(exc).__name__}: {exc}",
        )
    return InputError(
        f"the model's {what} failed on an input of {noun} {shown}: {message}{_expected_shape_hint(message)}",
        detail=f"{type(exc).__name__}: {exc}",
    )


# --------------------------------------------------------------------------- the measurement


def measure_latency(
    loaded: LoadedModel,
    *,
    mode: str = BenchMode.FORWARD.value,
    runs: int | None = None,
    min_time: float | None = None,
    warmup: int = 3,
    input_shape: InputsLike | None = None,
    on_sample: Callable[[int, float], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> LatencyResult:
    """Time ``warmup`` calls, then ``runs`` calls (or calls until ``min_time`` seconds are measured).

    ``mode="forward"``: ``model(x)`` in eval mode under ``torch.inference_mode()``; the
    train/eval flag of every submodule is restored afterwards. ``mode="train-step"``:
    forward + backward + optimizer step on a deep copy of the model and its optimizer, so the
    user's parameters, grads and optimizer state stay bitwise what they were.

    Callbacks run between chunks of samples (every CHUNK_SAMPLES samples or CHUNK_SECONDS
    measured, whichever comes first): ``on_sample(index, ms)`` once for each sample, in
    order; ``progress(done, total)`` (total is an estimate under ``min_time``) and
    ``should_cancel()`` (True -> ``Cancelled``) once per chunk.
    """
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r}: use forward or train-step")
    target = _sample_target(runs, min_time)
    notes: list[str] = list(request_caps(runs, min_time))
    if warmup < 1:
        raise InputError("warm-up needs at least one call: its cost is reported separately")

    module = loaded.module
    device = model_device(module)
    dtype = model_dtype(module)
    args = _as_args(make_input(loaded, input_shape))
    shapes = _input_shapes(args)
    if len(shapes) > 1:
        notes.append("inputs of shapes " + ", ".join(str(s) for s in shapes))
    sync = _synchronizer(module)
    what = "forward pass" if mode == "forward" else "training step"

    events = _sample_events(module)
    step: Callable[[], object]
    try:
        if mode == "forward":
            with _eval_mode(loaded, notes), _buffers_kept(loaded), torch.inference_mode():
                step = functools.partial(module, *args)
                warm, samples = _sample(step, warmup, target, sync, on_sample, progress, should_cancel, notes, events)
        else:
            # Gradients on even when the caller runs us under no_grad (a worker, a notebook cell).
            with torch.inference_mode(False), torch.enable_grad():
                step = _train_step(loaded, args, notes)
                warm, samples = _sample(step, warmup, target, sync, on_sample, progress, should_cancel, notes, events)
    except _StepFailed as failed:
        raise _run_failed(failed.cause, shapes, device_id(device), what, blame_input=failed.in_forward) from None
    except InspectorError:
        raise
    except Exception as exc:  # noqa: BLE001 -- setting up, synchronising: the input is not to blame
        raise _run_failed(exc, shapes, device_id(device), what, blame_input=False) from None

    return _result(
        device=device_id(device),
        dtype=dtype_name(dtype),
        input_shape=shapes[0] if shapes else (),
        input_shapes=tuple(shapes),
        input_dtypes=tuple(dtype_name(a.dtype) for a in args if isinstance(a, torch.Tensor)),
        mode=mode,
        warmup_ns=warm,
        samples_ns=samples,
        notes=tuple(notes),
        timer=events.kind if events is not None else "host clock",
        runs=None if min_time is not None else target[0],
        min_time=min(float(min_time), MAX_MEASURE_SECONDS) if min_time is not None else None,
    )


def request_caps(runs: int | None, min_time: float | None) -> tuple[str, ...]:
    """Notes saying how ``runs`` / ``min_time`` are capped (none when within the caps).

    Front ends print them before measuring; ``measure_latency`` keeps them in its result.
    """
    notes = []
    if isinstance(runs, int) and runs > MAX_SAMPLES:
        notes.append(f"{runs:,} runs asked for: capped at {MAX_SAMPLES:,} samples per measurement")
    if isinstance(min_time, (int, float)) and min_time > MAX_MEASURE_SECONDS:  # inf included
        notes.append(
            f"a minimum time of {min_time:g} s asked for: capped at {MAX_MEASURE_SECONDS:,g} s per measurement"
        )
    return tuple(notes)


def _sample_target(runs: int | None, min_time: float | None) -> tuple[int, int | None]:
    """(max number of samples, minimum measured nanoseconds or None)."""
    if runs is not None and min_time is not None:
        raise InputError("give a number of runs or a minimum time, not both")
    if min_time is not None:
        if not (isinstance(min_time, (int, float)) and not math.isnan(min_time) and min_time > 0):
            raise InputError(f"the minimum time must be a positive number of seconds, not {min_time!r}")
        return MAX_SAMPLES, int(min(min_time, MAX_MEASURE_SECONDS) * 1e9)
    runs = DEFAULT_RUNS if runs is None else runs
    if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
        raise InputError(f"the number of runs must be a whole number of at least 1, not {runs!r}")
    return min(runs, MAX_SAMPLES), None


def _accelerators(module: nn.Module) -> set[torch.device]:
    return {t.device for t in _tensors(module) if t.device.type not in ("cpu", "meta")}


def _sample_events(module: nn.Module) -> DeviceEvents | None:
    """Device events to time each sample with: a model on one CUDA/XPU device only (events
    on one stream would miss the work of a second device)."""
    accelerators = _accelerators(module)
    return device_events(next(iter(accelerators))) if len(accelerators) == 1 else None


def _synchronizer(module: nn.Module) -> Callable[[], None] | None:
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


_EXPORTED_MODE_NOTE = (
    "model.{method}() does not apply to an exported program: "
    "an exported program runs in the mode it was exported in"
)


def _set_mode(loaded: LoadedModel, module: nn.Module, method: str, notes: list[str]) -> None:
    """``module.eval()`` / ``module.train()``, where the model has such a mode to set.

    A torch.export program has its mode baked into its graph, and the module that
    ``ExportedProgram.module()`` returns raises NotImplementedError from both calls.
    """
    if loaded.source == "export":
        notes.append(_EXPORTED_MODE_NOTE.format(method=method))
        return
    try:
        getattr(module, method)()
    except NotImplementedError:
        notes.append(f"model.{method}() is not supported by this model: it ran in the mode it is in")


@contextlib.contextmanager
def _eval_mode(loaded: LoadedModel, notes: list[str]) -> Iterator[None]:
    """``model.eval()`` for the block, then every submodule's own train/eval flag back."""
    # Per submodule, not just the root: a user may keep e.g. a frozen BatchNorm in eval.
    flags = [(m, m.training) for m in loaded.module.modules()]
    try:
        _set_mode(loaded, loaded.module, "eval", notes)
        yield
    finally:
        for m, training in flags:
            m.training = training


@contextlib.contextmanager
def _buffers_kept(loaded: LoadedModel) -> Iterator[None]:
    """An exported program keeps its export-time mode: one exported in training mode updates
    its buffers (BatchNorm's running statistics) on every forward. Put them back afterwards,
    as ``model.eval()`` would have kept them, so a forward benchmark leaves the model as it was."""
    if loaded.source != "export":
        yield
        return
    kept = [(b, b.clone()) for b in loaded.module.buffers() if b is not None]
    try:
        yield
    finally:
        with torch.no_grad():
            for buffer, value in kept:
                buffer.copy_(value)


def _sample(
    step: Callable[[], object],
    warmup: int,
    target: tuple[int, int | None],
    sync: Callable[[], None] | None,
    on_sample: Callable[[int, float], None] | None,
    progress: Callable[[int, int], None] | None,
    should_cancel: Callable[[], bool] | None,
    notes: list[str],
    events: DeviceEvents | None = None,
) -> tuple[list[int], list[int]]:
    """Warm-up samples (host clock) and timed samples (``events`` where given), in nanoseconds."""
    max_samples, min_ns = target
    clock = _clock
    # As timeit does: a garbage-collector pass landing inside one sample is noise, not latency.
    with gc_pause.paused():
        cost = clock_cost_ns(clock)
        warm: list[int] = []
        for _ in range(warmup):
            if should_cancel is not None and should_cancel():
                raise Cancelled("benchmark cancelled during warm-up; the model is unchanged")
            warm.append(_timed_call(step, sync, clock, cost))

        samples: list[int] = []
        measured = 0
        total = max_samples if min_ns is None else _estimate_total(min_ns, warm[1:] or warm, max_samples)
        if progress is not None:
            progress(0, total)
        # A run count that would take hours stops at the time cap (min_ns is already capped);
        # at least one sample, however small the minimum time (1e-300 s is 0 ns).
        stop_ns = min_ns if min_ns is not None else _MAX_MEASURE_NS
        while len(samples) < max_samples and (measured < stop_ns or not samples):
            if should_cancel is not None and should_cancel():
                raise Cancelled(
                    f"benchmark cancelled after {len(samples)} samples; the model is unchanged"
                )
            # A chunk of back-to-back calls with nothing in between, as torch.utils.benchmark
            # times them: callbacks run per sample put their own code and data in the caches
            # the next call then finds cold (+3.6 % on a 20 µs model with the window's
            # callbacks, benchmarks/latency_fidelity.py). Callbacks and the cancel check run
            # between chunks: every CHUNK_SAMPLES samples or CHUNK_SECONDS measured.
            first = len(samples)
            count = min(max_samples, first + CHUNK_SAMPLES) - first
            budget = min(stop_ns, measured + _CHUNK_NS) - measured
            if sync is None and events is None:
                chunk = _host_chunk(step, clock, cost, count, budget)
            else:
                chunk = _device_chunk(step, sync, clock, cost, events, count, budget)
            samples += chunk
            measured += sum(chunk)
            if on_sample is not None:
                for index in range(first, len(samples)):
                    on_sample(index, samples[index] / 1e6)
            if progress is not None:
                if min_ns is not None:
                    total = _remaining_estimate(len(samples), measured, min_ns, max_samples)
                progress(len(samples), total)
        if min_ns is not None and measured < min_ns:
            notes.append(
                f"stopped at the cap of {max_samples:,} samples after {measured / 1e9:.3g} s, "
                f"before the minimum time of {min_ns / 1e9:.3g} s was reached"
            )
        elif min_ns is None and len(samples) < max_samples:
            notes.append(
                f"stopped after {len(samples):,} of {max_samples:,} runs: "
                f"the cap of {MAX_MEASURE_SECONDS:,g} s per measurement was reached"
            )
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
    step: Callable[[], object], clock: Callable[[], int], clock_cost: int, count: int, budget_ns: int
) -> list[int]:
    """Up to ``count`` back-to-back calls of ``step`` (at least one, until ``budget_ns`` are
    measured), each timed by the host clock less its own cost: a model on the CPU.

    Between two calls only an append and a sum run, as lean as ``timeit``'s loop: a helper
    called per sample (its frame, its branches) made a 20 µs model's calls ~0.7 % slower
    than in a bare loop, by the interpreter's caches and branch predictors. Raises as
    ``_timed_call`` does.
    """
    # The model itself, called straight (a forward's step is partial(model, *inputs)): the
    # partial's extra hop is inside the sample. ``itertools.repeat`` as ``timeit``'s loop.
    # Together ~1 % on a 20 µs forward against ``partial`` over ``range``.
    fn, args = (step.func, step.args) if isinstance(step, functools.partial) and not step.keywords else (step, ())
    samples: list[int] = []
    append = samples.append
    measured = 0
    try:
        for _ in itertools.repeat(None, count):
            start = clock()
            fn(*args)
            elapsed = clock() - start - clock_cost
            append(elapsed)
            measured += elapsed
            if measured >= budget_ns:
                break
    except (InspectorError, _StepFailed, KeyboardInterrupt):
        raise
    except BaseException as exc:  # the model's code may raise anything, even SystemExit
        raise _StepFailed(exc, in_forward=True) from exc
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

    What ``step`` raises comes out as ``_StepFailed``, blamed on the forward call unless
    the step already said otherwise (a ``try`` costs nothing until something is raised).
    """
    if sync is not None:
        sync()
    start = clock()
    try:
        step()
    except (InspectorError, _StepFailed, KeyboardInterrupt):
        raise
    except BaseException as exc:  # the model's code may raise anything, even SystemExit
        raise _StepFailed(exc, in_forward=True) from exc
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
    except (InspectorError, _StepFailed, KeyboardInterrupt):
        raise
    except BaseException as exc:  # the model's code may raise anything, even SystemExit
        raise _StepFailed(exc, in_forward=True) from exc
    return events.stop()


def _estimate_total(min_ns: int, warm_ns: list[int], cap: int) -> int:
    per_call = max(float(np.median(warm_ns)), 1.0)
    return max(1, min(cap, math.ceil(min_ns / per_call)))


def _remaining_estimate(done: int, measured: int, min_ns: int, cap: int) -> int:
    if measured >= min_ns:
        return done
    per_call = max(measured / done, 1.0)
    return min(cap, done + math.ceil((min_ns - measured) / per_call))


# --------------------------------------------------------------------------- train-step


def _train_step(loaded: LoadedModel, args: tuple[Any, ...], notes: list[str]) -> Callable[[], None]:
    """One forward + backward + optimizer step on a copy of the model and its optimizer."""
    loaded.ensure_optimizer()
    module_copy, optimizer_copy = _copy_for_training(loaded)
    if optimizer_copy is None:
        trainable = [p for p in module_copy.parameters() if p.requires_grad]
        if not trainable:
            raise InputError("train-step needs trainable parameters, and this model has none requiring grad")
        optimizer_copy = torch.optim.SGD(trainable, lr=0.01)
        notes.append("the model has no optimizer: train-step used SGD(lr=0.01) on a copy of the model")
    else:
        notes.append(f"train-step ran {type(optimizer_copy).__name__} on a copy of the model and its state")
    _set_mode(loaded, module_copy, "train", notes)

    def step() -> None:
        # Only the forward call may raise unmarked (the sampler blames it on the input).
        try:
            optimizer_copy.zero_grad(set_to_none=True)
        except Exception as exc:
            raise _StepFailed(exc, in_forward=False) from exc
        output = module_copy(*args)
        try:
            _scalar_loss(output).backward()
            optimizer_copy.step()
        except InspectorError:
            raise
        except Exception as exc:
            raise _StepFailed(exc, in_forward=False) from exc

    return step


def _copy_for_training(loaded: LoadedModel) -> tuple[nn.Module, torch.optim.Optimizer | None]:
    """Deep-copy model and optimizer together, so the copied optimizer points at the copied
    parameters (one shared deepcopy memo) and its state is a copy, never the user's tensors."""
    try:
        # Under no_grad: a TorchScript module's deepcopy clones its parameters with autograd
        # on, into non-leaf tensors no optimizer accepts ("can't optimize a non-leaf Tensor").
        with torch.no_grad():
            module_copy, optimizer_copy = copy.deepcopy((loaded.module, loaded.optimizer))
    except Exception as exc:  # noqa: BLE001 -- re-raised as a message the user can act on
        if is_out_of_memory(exc):
            raise InspectorError(
                "train-step needs a second copy of the model and it does not fit in memory",
                detail=str(exc),
                kind=FailureKind.OOM,
            ) from None
        raise InspectorError(
            f"train-step works on a copy of the model, and this model cannot be copied: {first_line(exc)}",
            detail=f"{type(exc).__name__}: {exc}",
        ) from None
    # ...and those clones come out not requiring grad: give each the original's flag back.
    for original, copied in zip(loaded.module.parameters(), module_copy.parameters()):
        if original.requires_grad and not copied.requires_grad:
            copied.requires_grad_(True)
    return module_copy, optimizer_copy


def _scalar_loss(output: Any) -> torch.Tensor:
    """A stand-in loss: the sum of every output tensor that depends on trainable parameters."""
    parts = [t.float().sum() for t in _output_tensors(output) if t.requires_grad and t.is_floating_point()]
    if not parts:
        raise InputError(
            "train-step needs an output that depends on trainable parameters, and this model's "
            "output does not (are all its parameters frozen?)"
        )
    return functools.reduce(torch.add, parts)


def _output_tensors(output: Any) -> Iterator[torch.Tensor]:
    if isinstance(output, torch.Tensor):
        yield output
    elif isinstance(output, dict):
        for value in output.values():
            yield from _output_tensors(value)
    elif isinstance(output, (tuple, list)):
        for value in output:
            yield from _output_tensors(value)


# --------------------------------------------------------------------------- statistics


def _result(
    *,
    device: str,
    dtype: str,
    input_shape: tuple[int, ...],
    mode: str,
    warmup_ns: list[int],
    samples_ns: list[int],
    notes: tuple[str, ...],
    input_shapes: tuple[tuple[int, ...], ...] = (),
    input_dtypes: tuple[str, ...] = (),
    timer: str = "host clock",
    runs: int | None = None,
    min_time: float | None = None,
) -> LatencyResult:
    ms = np.asarray(samples_ns, dtype=np.float64) / 1e6
    warm_ms = tuple(float(v) / 1e6 for v in warmup_ns)
    p5, p50, p95 = np.percentile(ms, [5, 50, 95])
    spread = spread_of(ms)
    return LatencyResult(
        device=device,
        dtype=dtype,
        input_shape=tuple(int(d) for d in input_shape),
        input_shapes=tuple(tuple(int(d) for d in s) for s in input_shapes),
        input_dtypes=input_dtypes,
        mode=mode,
        warmup_ms=warm_ms[0],
        warmup_samples_ms=warm_ms,
        samples_ms=tuple(ms.tolist()),
        median_ms=float(p50),
        mean_ms=float(ms.mean()),
        p5_ms=float(p5),
        p95_ms=float(p95),
        min_ms=float(ms.min()),
        max_ms=float(ms.max()),
        std_ms=float(ms.std(ddof=1)) if ms.size > 1 else 0.0,
        notes=notes,
        iqr_ms=spread.iqr_ms,
        median_ci_ms=spread.median_ci_ms,
        noise=spread.noise,
        timer=timer,
        runs=runs,
        min_time=min_time,
        warmup=len(warmup_ns),
    )
