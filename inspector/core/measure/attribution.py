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
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

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
from inspector.core.measure.model_input import tensors_in
from inspector.core.messages import Text
from inspector.core.units import dtype_name, first_line, format_ms

DEFAULT_RUNS = 20

#: The clock every sample and hook reads (a test puts a fake one here).
_clock = time.perf_counter_ns

#: Per-module figures are flagged when the modules' self times add up to more than this
#: times the forward without hooks, or less than the second figure...
SUM_LIMIT = 1.1
SUM_SHORT = 0.8
#: ...when the hooks make the forward this many times as long as without them...
HOOKS_LIMIT = 1.5
#: ...or when the run's forwards have a p95 this many times their median (``spread.NOISY_TAIL``).
DISTURBED_LIMIT = 2.0
#: The calibration: this many empty children under one parent, timed this many times.
_CALIBRATION_CHILDREN = 8
_CALIBRATION_ROUNDS = 60


@dataclass(frozen=True)
class ModuleStats:
    """One module of the model, over the attribution's samples (times in milliseconds).

    ``name`` is the qualified name (``""`` for the model itself); ``median_ms`` inclusive of
    its children, ``self_ms`` without them; ``flops`` inclusive, from FlopCounterMode;
    ``activation_bytes``: bytes of new output tensors per forward; ``parameters_bytes``:
    its parameters and its children's, each tensor once.
    """

    name: str
    type: str
    device: str
    depth: int
    is_leaf: bool
    calls: int  # calls per forward (a module reused in a loop is called more than once)
    output_shapes: tuple[tuple[int, ...], ...]
    median_ms: float
    self_ms: float
    #: median_ms over the model's own (the root row's median_ms in the same run), 0..1: the model's
    #: row is 1 and a child's never more than its parent's. (Over the plain forward the model's row
    #: read 125.7 % where the hooks' cost was not all taken out; issue 45 item 3.)
    share: float
    flops: int
    flops_per_s: float | None
    activation_bytes: int
    parameters_bytes: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "device": self.device,
            "output_shapes": [list(s) for s in self.output_shapes],
            "median_ms": self.median_ms,
            "self_ms": self.self_ms,
            "share": self.share,
            "flops": self.flops,
            "flops_per_s": self.flops_per_s,
            "activation_bytes": self.activation_bytes,
            "parameters_bytes": self.parameters_bytes,
            "depth": self.depth,
            "is_leaf": self.is_leaf,
            "calls": self.calls,
        }


@dataclass(frozen=True)
class Attribution:
    """Every module that ran, in call order, and what the hooks cost."""

    device: str
    dtype: str
    input_shapes: tuple[tuple[int, ...], ...]
    samples: int
    modules: tuple[ModuleStats, ...]
    total_flops: int  # FlopCounterMode's total for one forward
    forward_with_hooks_ms: float  # median of whole forwards with the hooks on
    forward_without_hooks_ms: float  # median of plain forwards, alternated with the hooked ones
    notes: tuple[str, ...] = field(default=())
    #: Every module's name in the model's own order (``named_modules``), called or not.
    module_order: tuple[str, ...] = field(default=())

    @property
    def overhead_ratio(self) -> float | None:
        """With hooks over without (1.0: the attribution cost nothing)."""
        if self.forward_without_hooks_ms <= 0:
            return None
        return self.forward_with_hooks_ms / self.forward_without_hooks_ms

    #: Median over the samples of each sample's summed leaf self times: the forward's time
    #: spent inside leaf modules (a median of sums, comparable with the forward's median).
    leaf_self_ms: float = 0.0
    #: The hooks' own cost per module call, measured on empty modules and taken out of every
    #: time above: the part inside the module's own interval, and the part in its parent's.
    hook_inner_ms: float = 0.0
    hook_outer_ms: float = 0.0
    #: Module calls per forward (a module called twice counts twice).
    module_calls: int = 0
    #: The modules' self times (medians) summed, after and before the hooks' cost is taken out.
    self_sum_ms: float = 0.0
    raw_self_sum_ms: float = 0.0
    #: p95 over median of the run's forwards, with hooks and without (how disturbed it was).
    hooked_tail: float = 1.0
    plain_tail: float = 1.0

    @property
    def sum_ratio(self) -> float | None:
        """The modules' self times summed over the forward without hooks (1.0: they add up)."""
        if self.forward_without_hooks_ms <= 0:
            return None
        return self.self_sum_ms / self.forward_without_hooks_ms

    @property
    def hook_cost_per_call_ms(self) -> float | None:
        """What the hooks added per module call in this run: (with - without) / calls."""
        if self.module_calls <= 0:
            return None
        return max(0.0, self.forward_with_hooks_ms - self.forward_without_hooks_ms) / self.module_calls

    @property
    def warnings(self) -> tuple[Text, ...]:
        """Why the per-module figures are not to be trusted, in words; () when they are."""
        return reliability(self)

    def top(self, n: int = 5, *, leaves_only: bool = False) -> list[ModuleStats]:
        """The ``n`` modules with the most self time. Self times never overlap, so parents
        and children rank fairly: a MultiheadAttention whose own code does the work (its
        out_proj child never runs as a module) ranks by that work, a container by its glue."""
        pool = [m for m in self.modules if m.is_leaf or not leaves_only]
        return sorted(pool, key=lambda m: m.self_ms, reverse=True)[:n]

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "dtype": self.dtype,
            "input_shapes": [list(s) for s in self.input_shapes],
            "samples": self.samples,
            "total_flops": self.total_flops,
            "forward_with_hooks_ms": self.forward_with_hooks_ms,
            "forward_without_hooks_ms": self.forward_without_hooks_ms,
            "overhead_ratio": self.overhead_ratio,
            "leaf_self_ms": self.leaf_self_ms,
            "hook_inner_ms": self.hook_inner_ms,
            "hook_outer_ms": self.hook_outer_ms,
            "module_calls": self.module_calls,
            "self_sum_ms": self.self_sum_ms,
            "raw_self_sum_ms": self.raw_self_sum_ms,
            "sum_ratio": self.sum_ratio,
            "hooked_tail": self.hooked_tail,
            "plain_tail": self.plain_tail,
            "warnings": list(self.warnings),
            "notes": list(self.notes),
        }


def reliability(run: Attribution) -> tuple[Text, ...]:
    """The reasons, in words, why ``run``'s per-module figures are rough; () when none holds.

    Worked out from the run's figures (not stored), so a remote run's are said in the
    window's language too."""
    reasons: list[Text] = []
    tail = max(run.hooked_tail, run.plain_tail)
    if tail >= DISTURBED_LIMIT:
        reasons.append(Text("modules.disturbed", factor=f"{tail:.1f}×"))
    ratio, per_call = run.overhead_ratio, run.hook_cost_per_call_ms
    if ratio is not None and per_call is not None and ratio > HOOKS_LIMIT:
        own = run.forward_without_hooks_ms / run.module_calls
        key = "modules.hooks_dominate" if per_call > own else "modules.hooks_large"
        reasons.append(Text(key, per_call=format_ms(per_call), ratio=f"{ratio:.2f}×",
                            calibrated=format_ms(run.hook_inner_ms + run.hook_outer_ms)))  # fmt: skip
    share = run.sum_ratio
    if share is not None and share > SUM_LIMIT:
        reasons.append(Text("modules.sum_exceeds", factor=f"{share:.2f}×"))
    elif share is not None and share < SUM_SHORT:
        reasons.append(Text("modules.sum_short", factor=f"{share:.2f}×"))
    return tuple(reasons)


# --------------------------------------------------------------------------- hooks


class _Recorder:
    """The hooks' shared state: a stack of open calls, and per-module nanoseconds this sample."""

    def __init__(self, sync: Callable[[], None] | None) -> None:
        self.sync = sync
        self.tracked: set[int] = set()  # ids of the model's modules: the hooks are global
        self.stack: list[list[Any]] = []  # [module, start_ns, children_ns, child_calls, descendant_calls]
        self.inclusive: dict[int, int] = {}
        self.self_time: dict[int, int] = {}
        self.calls: dict[int, int] = {}
        self.child_calls: dict[int, int] = {}  # calls of direct children, whose hooks' outer part is in self time
        self.descendants: dict[int, int] = {}  # calls of every module below, whose whole hook cost is inside
        self.order: list[int] = []  # first-call order, for the report
        self.shapes: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.activation_bytes: dict[int, int] = {}
        self.first_call = True

    def reset(self) -> None:
        self.inclusive, self.self_time, self.calls = {}, {}, {}
        self.child_calls, self.descendants = {}, {}

    def pre(self, module: nn.Module, args: Any) -> None:
        if id(module) not in self.tracked:
            return
        if self.first_call and id(module) not in self.shapes:
            self.order.append(id(module))  # call order: a parent before its children
            self.shapes[id(module)] = ()
        if self.sync is not None:
            self.sync()
        self.stack.append([module, _clock(), 0, 0, 0])

    def post(self, module: nn.Module, args: Any, output: Any) -> None:
        if id(module) not in self.tracked:
            return
        if self.sync is not None:
            self.sync()
        now = _clock()
        if not self.stack or self.stack[-1][0] is not module:
            return  # a hook of a call that raised half-way: the sample is abandoned anyway
        _, start, children, child_calls, descendants = self.stack.pop()
        elapsed = now - start
        key = id(module)
        self.inclusive[key] = self.inclusive.get(key, 0) + elapsed
        self.self_time[key] = self.self_time.get(key, 0) + elapsed - children
        self.calls[key] = self.calls.get(key, 0) + 1
        self.child_calls[key] = self.child_calls.get(key, 0) + child_calls
        self.descendants[key] = self.descendants.get(key, 0) + descendants
        if self.stack:
            parent = self.stack[-1]
            parent[2] += elapsed
            parent[3] += 1
            parent[4] += 1 + descendants
        if self.first_call and key not in self.activation_bytes:
            outputs = list(tensors_in(output))
            self.shapes[key] = tuple(tuple(int(d) for d in t.shape) for t in outputs)
            self.activation_bytes[key] = _new_bytes(outputs, list(tensors_in(args)))


def _storage_key(t: torch.Tensor) -> int:
    try:
        return int(t.untyped_storage().data_ptr())
    except (RuntimeError, NotImplementedError):
        return id(t)


def _new_bytes(outputs: list[torch.Tensor], inputs: list[torch.Tensor]) -> int:
    """Bytes of output storages that are not the inputs' (a view or an identity is free)."""
    taken = {_storage_key(t) for t in inputs}
    total = 0
    for t in outputs:
        key = _storage_key(t)
        if key in taken:
            continue
        taken.add(key)
        total += t.untyped_storage().nbytes()
    return total


@contextlib.contextmanager
def _hooks_on(recorder: _Recorder) -> Iterator[None]:
    """Global module hooks: two registrations whatever the model's size, so they can come
    and go between samples (the plain samples run with no hook at all)."""
    from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

    pre = register_module_forward_pre_hook(recorder.pre)
    try:
        post = register_module_forward_hook(recorder.post, always_call=True)
    except BaseException:
        pre.remove()
        raise
    try:
        yield
    finally:
        pre.remove()
        post.remove()


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
) -> Attribution:
    """Time every module over ``runs`` forwards (after ``warmup``), count FLOPs once.

    Runs as the plain forward benchmark does: ``model.eval()`` (every submodule's flag
    restored afterwards) under ``torch.inference_mode()``. Each hooked forward is paired
    with a plain one (no hooks at all), in alternating order, so the hooks' overhead is
    measured against a reference taken at the same moment on a shared machine.

    ``phase(name)``, where given, wraps each step ("counting FLOPs", "the hooks' cost",
    "forwards with and without hooks", "the hooks' cost again"): a trace draws them.
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
    recorder = _Recorder(sync)
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
        with torch.inference_mode(), gc_pause.paused(), _GatedBatches() as batches:
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
                        with _hooks_on(recorder):
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
    recorder = _Recorder(sync)
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
        with _hooks_on(recorder):
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

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()
        self._chunk: chunk_gate.Chunk | None = None
        self._start = 0
        self._iterations = 0

    def __enter__(self) -> _GatedBatches:
        chunk_gate.gate_from_the_first()  # the plain measurement before this one timed the forward
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
