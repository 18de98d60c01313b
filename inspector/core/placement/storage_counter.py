"""Live storage bytes on one device while a step runs, and their peak: the estimate's counter.

A ``TorchDispatchMode`` that sees every operator's outputs, registers each new storage once
(keyed by the storage object, released by a weakref callback when the storage dies) and
keeps the running total and its peak. It counts what
``torch.distributed._tools.mem_tracker.MemTracker`` counts (the same storages, the same
512-byte rounding on CUDA, the peak updated after every operator), without its per-operator
bookkeeping: MemTracker maps every storage through a pytree, classifies it (parameter,
activation, gradient, optimizer state...), deep-copies a category snapshot at each new
peak and walks its module statistics on every operator, which made it half the estimate's
time and its per-module hooks grow with the model. The estimate needs two numbers only: the
peak on the device and what the model's forward adds at its own peak.

``should_cancel`` is polled every few operators, so a long estimate stops within
milliseconds of the user's Cancel (``Cancelled`` raised from inside the step).
"""

from __future__ import annotations

import math
import os
import weakref
from typing import Any, Callable

import torch
from torch import nn
from torch.utils._python_dispatch import TorchDispatchMode, is_traceable_wrapper_subclass

from inspector.core.errors import Cancelled
from inspector.core.messages import Text

# The CUDA caching allocator's smallest block (MemTracker's ``_PYTORCH_MIN_ALLOCATE``).
_CUDA_BLOCK = 1 if int(os.environ.get("PYTORCH_NO_CUDA_MEMORY_CACHING", "0") or 0) else 512
_CANCEL_EVERY = 32  # operators between two polls: well under a millisecond of fake dispatch


_POLLED: dict[Any, bool] = {}


def _may_stop_at(func: Any) -> bool:
    """Whether raising ``Cancelled`` before ``func`` is safe: only before an aten operator that
    returns tensors. Metadata queries (``prim.device``, ``sym_size``...) are also dispatched
    here, from C++ code that cannot pass a Python exception on (it terminates the process)."""
    known = _POLLED.get(func)
    if known is None:
        try:
            returns = func._schema.returns
            known = func.namespace == "aten" and bool(returns) and all(
                "Tensor" in str(r.type) for r in returns
            )
        except AttributeError:
            known = False
        _POLLED[func] = known
    return known


def same_device(a: torch.device, b: torch.device) -> bool:
    if a.type != b.type:
        return False
    return a.type in ("cpu", "meta", "mps") or (a.index or 0) == (b.index or 0)


def _storages(t: Any) -> list[Any]:
    """The untyped storages behind ``t`` (a wrapper subclass may hold several)."""
    if not is_traceable_wrapper_subclass(t):
        try:
            return [t.untyped_storage()]
        except (RuntimeError, NotImplementedError):  # sparse and other storage-less layouts
            return []
    out: list[Any] = []
    names, _ = t.__tensor_flatten__()
    for name in names:
        inner = getattr(t, name)
        if isinstance(inner, torch.Tensor):
            out += _storages(inner)
    return out


class CancelCheck(TorchDispatchMode):
    """Polls ``should_cancel`` every few operators of a real step and raises ``Cancelled``."""

    def __init__(self, should_cancel: Callable[[], bool]) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # torch leaves it unannotated
        self._should_cancel = should_cancel
        self._ops = 0

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if _may_stop_at(func):
            self._ops += 1
            if self._ops % _CANCEL_EVERY == 0 and self._should_cancel():
                raise Cancelled(Text("failure.cancelled_proof"))
        return func(*args, **(kwargs or {}))


class StorageCounter(TorchDispatchMode):
    """Counts the bytes of live storages on ``device`` and their peak while it is active.

    ``track`` registers tensors that exist before the step (parameters, buffers, inputs).
    ``watch_forward(module)`` records the peak inside that module's forward, so that
    ``forward_added`` is what the forward holds at its peak beyond what existed when it began
    (its activations and temporaries).
    """

    def __init__(self, device: torch.device, should_cancel: Callable[[], bool] | None = None) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # torch leaves it unannotated
        self.device = device
        self.current = 0
        self.peak = 0
        self.forward_start: int | None = None
        self.forward_peak: int | None = None
        self._in_forward = False
        self._live: dict[int, tuple[weakref.ref[Any], int]] = {}
        self._should_cancel = should_cancel
        self._ops = 0
        self._hooks: list[Any] = []

    # ----- what exists before the step

    def track(self, *tensors: Any) -> None:
        for t in tensors:
            if isinstance(t, torch.Tensor):
                self._track(t)
        self.peak = max(self.peak, self.current)

    def watch_forward(self, module: nn.Module) -> None:
        self._hooks.append(module.register_forward_pre_hook(self._forward_began))
        self._hooks.append(module.register_forward_hook(self._forward_ended, always_call=True))

    def remove_hooks(self) -> None:
        for handle in self._hooks:
            handle.remove()
        self._hooks.clear()

    @property
    def forward_added(self) -> int | None:
        if self.forward_start is None or self.forward_peak is None:
            return None
        return self.forward_peak - self.forward_start

    # ----- the counting

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        if self._should_cancel is not None and _may_stop_at(func):
            self._ops += 1
            if self._ops % _CANCEL_EVERY == 0 and self._should_cancel():
                raise Cancelled(Text("failure.cancelled_estimate"))
        out = func(*args, **(kwargs or {}))
        if isinstance(out, torch.Tensor):
            self._track(out)
        elif isinstance(out, (tuple, list)):
            for item in out:
                if isinstance(item, torch.Tensor):
                    self._track(item)
                elif isinstance(item, (tuple, list)):  # e.g. a foreach op's list inside a tuple
                    for inner in item:
                        if isinstance(inner, torch.Tensor):
                            self._track(inner)
        if self.current > self.peak:
            self.peak = self.current
        if self._in_forward and self.forward_peak is not None and self.current > self.forward_peak:
            self.forward_peak = self.current
        return out

    def _track(self, t: torch.Tensor) -> None:
        if not same_device(t.device, self.device):
            return
        for storage in _storages(t):
            key = id(storage)
            known = self._live.get(key)
            if known is not None:
                ref, size = known
                if ref() is storage:
                    new_size = self._bytes(storage)
                    if new_size != size:  # resized in place (an out= operator)
                        self.current += new_size - size
                        self._live[key] = (ref, new_size)
                    continue
            size = self._bytes(storage)
            self._live[key] = (weakref.ref(storage, self._released(key)), size)
            self.current += size

    def _released(self, key: int) -> Callable[[Any], None]:
        def release(ref: Any) -> None:
            known = self._live.get(key)
            if known is not None and known[0] is ref:
                del self._live[key]
                self.current -= known[1]

        return release

    def _bytes(self, storage: Any) -> int:
        size = int(storage.nbytes())
        if self.device.type == "cuda":
            return math.ceil(size / _CUDA_BLOCK) * _CUDA_BLOCK
        return size

    def _forward_began(self, module: nn.Module, args: Any) -> None:
        if not self._in_forward and self.forward_start is None:  # the first call is the step's
            self._in_forward = True
            self.forward_start = self.forward_peak = self.current

    def _forward_ended(self, module: nn.Module, args: Any, output: Any) -> None:
        self._in_forward = False
