"""Per-module attribution of one forward pass: where the time, the FLOPs and the memory go.

Run apart from the plain benchmark (``timing.measure_latency``), which stays untouched: the
hooks below cost time on every module call, so they never run while the plain figure is
measured. What they cost is stated: the forward's median with hooks is reported next to
the plain median.

- Time: a forward pre-hook and a forward hook on every module take ``perf_counter_ns``,
  synchronising the device first on accelerators so a kernel's time lands on the module
  that launched it. Inclusive time is the module's call; self time is that minus its
  direct children's calls. Medians over the samples.
- The hooks' own cost: calibrated once per run on a module of empty children (the part
  of a hook pair that lands inside a module's own interval, and the part that lands in its
  parent's), and taken out of every sample's inclusive and self times, clamped so a self
  time is never below zero nor above its inclusive time. What is left is checked against
  the forward without hooks; where the hooks dominate, the sum still exceeds the forward,
  or the run was disturbed, ``Attribution.warnings`` says so in words (``reliability``).
- FLOPs: one extra forward under ``torch.utils.flop_counter.FlopCounterMode``, whose
  per-module counts (by its own module tracker) are the reference; nothing hand-written
  (``flop_count``: without the 1.7 s import of ``torch._dynamo`` torch would add).
- Output shapes and activation bytes: read from each module's outputs on the first call;
  an output that shares storage with the module's inputs (a view) produces no new bytes.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any, Callable

import numpy as np
import torch
from torch import nn

from inspector.core import gc_pause
from inspector.core.devices.discovery import device_id
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.files.inputs import InputsLike
from inspector.core.files.models import LoadedModel
from inspector.core.measure import chunk_gate
from inspector.core.measure.flop_count import count_flops
from inspector.core.measure.attribution_hooks import Recorder, hooks_on
from inspector.core.measure.attribution_result import (  # the run's figures, re-exported for its callers
    DISTURBED_LIMIT as DISTURBED_LIMIT,
    HOOKS_LIMIT as HOOKS_LIMIT,
    SUM_LIMIT as SUM_LIMIT,
    SUM_SHORT as SUM_SHORT,
    Attribution as Attribution,
    ModuleStats as ModuleStats,
    reliability as reliability,
)
from inspector.core.messages import Text
from inspector.core.units import dtype_name, first_line

DEFAULT_RUNS = 20

#: The clock every sample and hook reads (a test puts a fake one here).
_clock = time.perf_counter_ns

#: The calibration: this many empty children under one parent, timed this many times.
_CALIBRATION_CHILDREN = 8
_CALIBRATION_ROUNDS = 60


# --------------------------------------------------------------------------- the measurement


def measure_attribution(
    loaded: LoadedModel,
    *,
    runs: int = DEFAULT_RUNS,
    warmup: int = 2,
    input_shape: InputsLike | None = None,
    progress: Callable[[int, int], None] | None = None,
    should_cancel: Callable[[], bool] | None = None,
    phase: Callable[[str], contextlib.AbstractContextManager[Any]] | None = None,
    forward_ms: float | None = None,
) -> Attribution:
    """Time every module over ``runs`` forwards (after ``warmup``), count FLOPs once.

    Runs as the plain forward benchmark does: ``model.eval()`` (every submodule's flag
    restored afterwards) under ``torch.inference_mode()``. Each hooked forward is paired
    with a plain one (no hooks at all), in alternating order, so the hooks' overhead is
    measured against a reference taken at the same moment on a shared machine.

    ``phase(name)``, where given, wraps each step ("counting FLOPs", "the hooks' cost",
    "forwards with and without hooks", "the hooks' cost again"): a trace draws them.
    ``forward_ms``: the forward's time just measured by a plain run (its fastest call), which
    decides whether a front end's gate holds the first per-module forward too (``chunk_gate``).
    """
    from inspector.core.measure.model_input import as_args, input_shapes, make_input, model_device, model_dtype
    from inspector.core.measure.timing import synchronizer

    if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
        raise InspectorError(Text("input.runs_not_whole", value=repr(runs)), kind="input")
    module = loaded.module
    args = as_args(make_input(loaded, input_shape))
    shapes = tuple(input_shapes(args))
    device = device_id(model_device(module))
    sync = synchronizer(module)
    names = {id(m): name for name, m in module.named_modules()}
    recorder = Recorder(sync, _clock)
    recorder.tracked = set(names)
    # Per sample a module ran in: (inclusive, self, calls, direct children's calls, calls below,
    # the sample's index), the hooks' cost still in the times.
    per_module: dict[int, list[tuple[int, int, int, int, int, int]]] = {}
    whole: list[int] = []
    plain: list[int] = []
    leaves = {id(m) for m in module.modules() if not any(True for _ in m.children())}
    calls_per_forward = 0
    notes: list[str] = []
    if loaded.source == "torchscript":
        notes.append(Text("bench.torchscript_whole_only"))

    def step(name: str) -> contextlib.AbstractContextManager[Any]:
        return phase(name) if phase is not None else contextlib.nullcontext()

    flags = [(m, m.training) for m in module.modules()]
    try:
        with contextlib.suppress(NotImplementedError):
            module.eval()
        with torch.inference_mode(), step("counting FLOPs"):
            total_flops, flops_by_name = count_flops(module, args)
        # As timeit does: a collection landing inside a sample is noise, not latency.
        with torch.inference_mode(), gc_pause.paused(), _GatedBatches(forward_ms) as batches:
            with step("the hooks' cost"):
                before = _hook_cost(sync)
            with step("forwards with and without hooks"):
                for i in range(warmup + runs):
                    if should_cancel is not None and should_cancel():
                        raise Cancelled(Text("failure.cancelled_per_module", samples=max(0, i - warmup)))
                    for hooked in ((True, False) if i % 2 else (False, True)):
                        batches.next_iteration()  # per forward: an ungated chunk is one forward
                        if not hooked:
                            elapsed = _timed_forward(module, args, sync)
                            if i >= warmup:
                                plain.append(elapsed)
                            continue
                        recorder.reset()
                        recorder.stack.clear()
                        with hooks_on(recorder):
                            elapsed = _timed_forward(module, args, sync)
                        recorder.first_call = False
                        if i < warmup:
                            continue
                        whole.append(elapsed)
                        calls_per_forward = sum(recorder.calls.values())
                        for key, inclusive in recorder.inclusive.items():
                            per_module.setdefault(key, []).append((
                                inclusive, recorder.self_time[key], recorder.calls[key],
                                recorder.child_calls.get(key, 0), recorder.descendants.get(key, 0), len(whole) - 1,
                            ))  # fmt: skip
                    if progress is not None and i >= warmup:
                        progress(i - warmup + 1, runs)
            # Calibrated again after the samples: a disturbance only ever adds time, so the
            # lesser of the two is the hooks' cost.
            with step("the hooks' cost again"):
                after = _hook_cost(sync)
            per_call = min(sum(before), sum(after))
            inner = min(before[0], after[0], per_call)
            outer = per_call - inner
    except InspectorError:
        raise
    except Exception as exc:  # noqa: BLE001 -- the model's own code can raise anything: one line for the user
        shown = ", ".join(str(s) for s in shapes) or Text("failure.no_tensor")
        raise InspectorError(
            Text("failure.per_module_failed", device=device, shapes=shown, error=first_line(exc)),
            detail=f"{type(exc).__name__}: {exc}",
        ) from None
    finally:
        for m, training in flags:
            m.training = training

    forward_ms = float(np.median(whole)) / 1e6
    plain_ms = float(np.median(plain)) / 1e6
    by_id = {id(m): m for m in module.modules()}
    root_class = type(module).__name__
    corrected = {key: _without_hooks(np.asarray(rows, dtype=np.float64), inner, outer) for key, rows in per_module.items()}
    leaf_sums = np.zeros(len(whole))  # per sample, the leaves' self times that ran in it
    for key in leaves & corrected.keys():
        np.add.at(leaf_sums, np.asarray([row[5] for row in per_module[key]]), corrected[key][:, 1])
    stats = []
    self_sum = raw_self_sum = 0.0
    # The shares' whole: the model's own call in the same hooked samples (the plain forward when
    # the model itself was not hooked), so each share says what part of the model's time it took.
    root = corrected.get(id(module))
    whole_ms = float(np.median(root[:, 0])) / 1e6 if root is not None and len(root) else plain_ms
    for key in recorder.order:
        if key not in per_module:
            continue
        m = by_id[key]
        name = names.get(key, "")
        values = corrected[key] / 1e6
        median_ms = float(np.median(values[:, 0]))
        self_ms = float(np.median(values[:, 1]))
        self_sum += self_ms
        raw_self_sum += float(np.median(values[:, 2]))
        flops = int(flops_by_name.get(f"{root_class}.{name}" if name else root_class, 0))
        stats.append(
            ModuleStats(
                name=name,
                type=type(m).__name__,
                device=device,
                depth=name.count(".") + 1 if name else 0,
                is_leaf=not any(True for _ in m.children()),
                calls=recorder.calls.get(key, 1),
                output_shapes=recorder.shapes.get(key, ()),
                median_ms=median_ms,
                self_ms=self_ms,
                share=min(1.0, median_ms / whole_ms) if whole_ms > 0 else 0.0,
                flops=flops,
                flops_per_s=flops / (median_ms / 1e3) if flops and median_ms > 0 else None,
                activation_bytes=recorder.activation_bytes.get(key, 0),
                parameters_bytes=_parameter_bytes(m),
            )
        )
    never_called = sum(1 for m in module.modules() if id(m) not in per_module)
    if never_called and loaded.source != "torchscript":
        notes.append(Text("bench.modules_never_ran", count=never_called))
    return Attribution(
        device=device,
        dtype=dtype_name(model_dtype(module)),
        input_shapes=shapes,
        samples=len(whole),
        modules=tuple(stats),
        total_flops=total_flops,
        forward_with_hooks_ms=forward_ms,
        forward_without_hooks_ms=plain_ms,
        notes=tuple(notes),
        module_order=tuple(names.values()),
        leaf_self_ms=float(np.median(leaf_sums)) / 1e6,
        hook_inner_ms=inner / 1e6,
        hook_outer_ms=outer / 1e6,
        module_calls=calls_per_forward,
        self_sum_ms=self_sum,
        raw_self_sum_ms=raw_self_sum,
        hooked_tail=_tail(whole),
        plain_tail=_tail(plain),
    )


def _tail(samples: list[int]) -> float:
    """p95 over median (1.0 for a run too short to say, or a median of zero)."""
    median = float(np.median(samples))
    return float(np.percentile(samples, 95)) / median if len(samples) >= 2 and median > 0 else 1.0


def _without_hooks(samples: np.ndarray, inner: float, outer: float) -> np.ndarray:
    """A module's samples (rows of inclusive, self, calls, children's calls, calls below, index) as
    rows of inclusive and self time with the hooks' cost taken out, and the raw self time.
    Its own calls carry ``inner`` each; its direct children's calls put ``outer`` each in its
    self time; every call below it puts both in its inclusive time. Clamped: a self time is
    never below zero nor above the inclusive time."""
    inclusive, raw_self, calls, children, below = samples.T[:5]
    inclusive_c = np.maximum(0.0, inclusive - inner * calls - (inner + outer) * below)
    self_c = np.minimum(np.maximum(0.0, raw_self - inner * calls - outer * children), inclusive_c)
    return np.column_stack((inclusive_c, self_c, raw_self))


class _Empty(nn.Module):
    def forward(self, x: Any) -> Any:
        return x


class _Fan(nn.Module):
    """A parent calling empty children one after another: what the hooks alone cost."""

    def __init__(self, children: int) -> None:
        super().__init__()
        self.parts = nn.ModuleList(_Empty() for _ in range(children))

    def forward(self, x: Any) -> Any:
        for part in self.parts:
            x = part(x)
        return x


def _hook_cost(sync: Callable[[], None] | None) -> tuple[float, float]:
    """Nanoseconds a hook pair costs per module call: the part inside the module's own
    interval (an empty child's self time), and the rest, which lands in its parent's self
    time (the forward's growth per call, with hooks over without, less that part). Measured
    with the run's own device synchronisation, plain and hooked forwards alternated."""
    fan = _Fan(_CALIBRATION_CHILDREN)
    recorder = Recorder(sync, _clock)
    recorder.tracked = {id(m) for m in fan.modules()}
    recorder.first_call = False  # no shapes or bytes to read
    leaves = [id(m) for m in fan.parts]
    hooked: list[int] = []
    plain: list[int] = []
    inside: list[float] = []
    for i in range(_CALIBRATION_ROUNDS + 2):
        elapsed = _timed_forward(fan, (None,), sync)
        recorder.reset()
        recorder.stack.clear()
        with hooks_on(recorder):
            elapsed_hooked = _timed_forward(fan, (None,), sync)
        if i < 2:
            continue  # the first calls warm the hooks' code paths
        plain.append(elapsed)
        hooked.append(elapsed_hooked)
        inside.append(sum(recorder.self_time.get(k, 0) for k in leaves) / len(leaves))
    per_call = max(0.0, float(np.median(hooked)) - float(np.median(plain))) / (_CALIBRATION_CHILDREN + 1)
    inner = min(float(np.median(inside)), per_call)
    return inner, per_call - inner


class _GatedBatches:
    """The per-module forwards in gated chunks of back-to-back iterations (``chunk_gate``: the
    window's threads stop meanwhile), not a gate per forward: a gate per forward left a ~1 ms
    gap before each, so every forward began with torch's intra-op threads asleep (the
    example's fc1 read 187 µs in the window against 4 µs back to back)."""

    def __init__(self, forward_ms: float | None) -> None:
        self._stack = contextlib.ExitStack()
        self._chunk: chunk_gate.Chunk | None = None
        self._start = 0
        self._iterations = 0
        self._forward_ms = forward_ms

    def __enter__(self) -> _GatedBatches:
        if self._forward_ms is not None:  # the plain measurement before this one timed the forward
            chunk_gate.gate_from_the_first(int(self._forward_ms * 1e6))
        return self

    def next_iteration(self) -> None:
        if self._chunk is not None:
            elapsed = chunk_gate._clock() - self._start
            # An ungated chunk is one iteration (a warm-up's): what it took decides the gating.
            budget = self._chunk.budget_ns if self._chunk.gate is not None else 0
            if budget is not None and elapsed < budget:
                self._iterations += 1
                return
            self._close(elapsed)
        self._chunk = self._stack.enter_context(chunk_gate.chunk())
        self._start, self._iterations = chunk_gate._clock(), 1

    def _close(self, elapsed: int) -> None:
        assert self._chunk is not None
        self._chunk.took(elapsed // max(self._iterations, 1))  # an iteration's time: what gating is decided by
        self._chunk = None
        self._stack.close()

    def __exit__(self, *exc: object) -> None:
        if self._chunk is not None:
            self._close(chunk_gate._clock() - self._start)
        self._stack.close()


def _timed_forward(module: nn.Module, args: tuple[Any, ...], sync: Callable[[], None] | None) -> int:
    # Gated by the caller's chunk (_GatedBatches), never one forward at a time.
    if sync is not None:
        sync()
    start = _clock()
    module(*args)
    if sync is not None:
        sync()
    return _clock() - start


def _parameter_bytes(module: nn.Module) -> int:
    return sum(p.nbytes for p in module.parameters())
