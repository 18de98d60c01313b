"""Per-module attribution of one forward pass: where the time, the FLOPs and the memory go.

Run apart from the plain benchmark (``timing.measure_latency``), which stays untouched: the
hooks below cost time on every module call, so they never run while the plain figure is
measured. What they cost is stated: the forward's median with hooks is reported next to
the plain median.

- Time: a forward pre-hook and a forward hook on every module take ``perf_counter_ns``,
  synchronising the device first on accelerators so a kernel's time lands on the module
  that launched it. Inclusive time is the module's call; self time is that minus its
  direct children's calls. Medians over the samples.
- FLOPs: one extra forward under ``torch.utils.flop_counter.FlopCounterMode``, whose
  per-module counts (by its own module tracker) are the reference; nothing hand-written.
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
from torch.utils.flop_counter import FlopCounterMode

from inspector.core import gc_pause
from inspector.core.devices.discovery import device_id
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.files.inputs import InputsLike
from inspector.core.files.models import LoadedModel
from inspector.core.measure.model_input import tensors_in
from inspector.core.messages import Text
from inspector.core.units import dtype_name, first_line

DEFAULT_RUNS = 20


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
    share: float  # median_ms over the whole forward's median (with hooks), 0..1
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
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- hooks


class _Recorder:
    """The hooks' shared state: a stack of open calls, and per-module nanoseconds this sample."""

    def __init__(self, sync: Callable[[], None] | None) -> None:
        self.sync = sync
        self.tracked: set[int] = set()  # ids of the model's modules: the hooks are global
        self.stack: list[list[Any]] = []  # [module, start_ns, children_ns]
        self.inclusive: dict[int, int] = {}
        self.self_time: dict[int, int] = {}
        self.calls: dict[int, int] = {}
        self.order: list[int] = []  # first-call order, for the report
        self.shapes: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.activation_bytes: dict[int, int] = {}
        self.first_call = True

    def reset(self) -> None:
        self.inclusive, self.self_time, self.calls = {}, {}, {}

    def pre(self, module: nn.Module, args: Any) -> None:
        if id(module) not in self.tracked:
            return
        if self.first_call and id(module) not in self.shapes:
            self.order.append(id(module))  # call order: a parent before its children
            self.shapes[id(module)] = ()
        if self.sync is not None:
            self.sync()
        self.stack.append([module, time.perf_counter_ns(), 0])

    def post(self, module: nn.Module, args: Any, output: Any) -> None:
        if id(module) not in self.tracked:
            return
        if self.sync is not None:
            self.sync()
        now = time.perf_counter_ns()
        if not self.stack or self.stack[-1][0] is not module:
            return  # a hook of a call that raised half-way: the sample is abandoned anyway
        _, start, children = self.stack.pop()
        elapsed = now - start
        key = id(module)
        self.inclusive[key] = self.inclusive.get(key, 0) + elapsed
        self.self_time[key] = self.self_time.get(key, 0) + elapsed - children
        self.calls[key] = self.calls.get(key, 0) + 1
        if self.stack:
            self.stack[-1][2] += elapsed
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
) -> Attribution:
    """Time every module over ``runs`` forwards (after ``warmup``), count FLOPs once.

    Runs as the plain forward benchmark does: ``model.eval()`` (every submodule's flag
    restored afterwards) under ``torch.inference_mode()``. Each hooked forward is paired
    with a plain one (no hooks at all), in alternating order, so the hooks' overhead is
    measured against a reference taken at the same moment on a shared machine.
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
    per_module: dict[int, list[tuple[int, int]]] = {}
    whole: list[int] = []
    plain: list[int] = []
    leaves = {id(m) for m in module.modules() if not any(True for _ in m.children())}
    leaf_sums: list[int] = []
    notes: list[str] = []
    if loaded.source == "torchscript":
        notes.append(Text("bench.torchscript_whole_only"))

    flags = [(m, m.training) for m in module.modules()]
    try:
        with contextlib.suppress(NotImplementedError):
            module.eval()
        with torch.inference_mode():
            total_flops, flops_by_name = _count_flops(module, args, type(module).__name__)
        # As timeit does: a collection landing inside a sample is noise, not latency.
        with torch.inference_mode(), gc_pause.paused():
            for i in range(warmup + runs):
                if should_cancel is not None and should_cancel():
                    raise Cancelled(Text("failure.cancelled_per_module", samples=max(0, i - warmup)))
                for hooked in ((True, False) if i % 2 else (False, True)):
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
                    leaf_sums.append(sum(v for k, v in recorder.self_time.items() if k in leaves))
                    for key, inclusive in recorder.inclusive.items():
                        per_module.setdefault(key, []).append((inclusive, recorder.self_time[key]))
                if progress is not None and i >= warmup:
                    progress(i - warmup + 1, runs)
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
    by_id = {id(m): m for m in module.modules()}
    root_class = type(module).__name__
    stats = []
    for key in recorder.order:
        if key not in per_module:
            continue
        m = by_id[key]
        name = names.get(key, "")
        values = np.asarray(per_module[key], dtype=np.float64) / 1e6
        median_ms = float(np.median(values[:, 0]))
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
                self_ms=float(np.median(values[:, 1])),
                share=median_ms / forward_ms if forward_ms > 0 else 0.0,
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
        forward_without_hooks_ms=float(np.median(plain)) / 1e6,
        notes=tuple(notes),
        module_order=tuple(names.values()),
        leaf_self_ms=float(np.median(leaf_sums)) / 1e6,
    )


def _timed_forward(module: nn.Module, args: tuple[Any, ...], sync: Callable[[], None] | None) -> int:
    if sync is not None:
        sync()
    start = time.perf_counter_ns()
    module(*args)
    if sync is not None:
        sync()
    return time.perf_counter_ns() - start


def _count_flops(module: nn.Module, args: tuple[Any, ...], root: str) -> tuple[int, dict[str, int]]:
    """FlopCounterMode's total and its inclusive per-module counts (keys ``Root.child...``)."""
    with FlopCounterMode(display=False) as counter:
        module(*args)
    by_module = {str(name): int(sum(ops.values())) for name, ops in counter.get_flop_counts().items()}
    return int(counter.get_total_flops()), by_module


def _parameter_bytes(module: nn.Module) -> int:
    return sum(p.nbytes for p in module.parameters())
