"""The estimate's counter, also keeping the order of the step's allocations and frees, so the
caching allocator of a device that is not here can be replayed over them
(``core.measure.cuda_allocator``).

``AllocationLog`` is ``placement.storage_counter.StorageCounter`` (same storages, same
peak), plus one event per storage created (its exact byte size, before any device's
rounding) and per storage freed. Costs: one tuple per event (a step of an 8B model makes a
few tens of thousands).
"""

from __future__ import annotations

import contextlib
import itertools
from typing import Any, Callable, Iterable, Iterator

import torch

from inspector.core.measure.cuda_allocator import Event
from inspector.core.placement.storage_counter import StorageCounter, _storages, same_device


class AllocationLog(StorageCounter):
    """A ``StorageCounter`` that records ``events``: ("alloc", id, bytes) and ("free", id, 0)."""

    def __init__(self, device: torch.device, should_cancel: Callable[[], bool] | None = None) -> None:
        super().__init__(device, should_cancel)
        self.events: list[Event] = []
        self._ids: dict[int, int] = {}  # the counter's key (id of the storage) -> event id
        self._serial = itertools.count()
        #: How many events there were when the model's forward returned (None before it did).
        self.forward_end: int | None = None

    def _forward_ended(self, module: Any, args: Any, output: Any) -> None:
        if self.forward_end is None:
            self.forward_end = len(self.events)
        super()._forward_ended(module, args, output)

    def _track(self, t: torch.Tensor) -> None:
        if not same_device(t.device, self.device):
            return
        for storage in _storages(t):
            key = id(storage)
            size = int(storage.nbytes())
            known = self._live.get(key)
            if known is not None and known[0]() is storage:
                if self._bytes(storage) != known[1]:  # resized in place (out=): a new block on a GPU
                    self._event_free(key)
                    self._event_alloc(key, size)
            else:
                self._event_free(key)  # an id reused before the dead storage's callback ran
                self._event_alloc(key, size)
        super()._track(t)

    def _released(self, key: int) -> Callable[[Any], None]:
        release = super()._released(key)

        def released(ref: Any) -> None:
            known = self._live.get(key)
            if known is not None and known[0] is ref:
                self._event_free(key)
            release(ref)

        return released

    def resized(self, storage: Any) -> None:
        """``storage`` (tracked or not) changed size in place: counted at its new size."""
        key, raw = id(storage), int(storage.nbytes())
        known = self._live.get(key)
        if known is None or known[0]() is not storage:
            return  # not the step's (or not on the device): nothing counted to change
        size = self._bytes(storage)
        if size != known[1]:
            self._event_free(key)
            self._event_alloc(key, raw)
            self.current += size - known[1]
            self._live[key] = (known[0], size)
            self.peak = max(self.peak, self.current)

    def serials_of(self, tensors: Iterable[torch.Tensor | None]) -> list[int]:
        """The event ids of the live storages behind ``tensors`` (each once)."""
        found: dict[int, None] = {}
        for t in tensors:
            if t is None:
                continue
            for storage in _storages(t):
                serial = self._ids.get(id(storage))
                if serial is not None:
                    found[serial] = None
        return list(found)

    def _event_alloc(self, key: int, size: int) -> None:
        serial = next(self._serial)
        self._ids[key] = serial
        self.events.append(("alloc", serial, size))

    def _event_free(self, key: int) -> None:
        serial = self._ids.pop(key, None)
        if serial is not None:
            self.events.append(("free", serial, 0))



def later_step(events: list[Event], body_start: int, state: Iterable[int], grads: Iterable[int],
               held: Iterable[int] = (), forward_end: int | None = None) -> list[Event]:  # fmt: skip
    """The events of the training step after the traced one, in a loop that sets gradients to
    None between steps (``zero_grad()``'s default): the gradients go first, then the same step
    again, except that the optimizer's state, made by the first step, is there already and
    stays (its allocations are left out). ``events[body_start:]`` is the traced step itself
    (before it: the parameters, buffers and inputs, which stay). Ids made in the step are
    renumbered, so both steps can be replayed one after the other.

    ``held``: the storages of an output the loop holds (``out = model(x)``): the traced step's
    are freed only when the next forward returns (``events[forward_end]``), as assigning
    ``out`` again frees them; the next step's own stay held."""
    body = events[body_start:]
    kept = set(state)
    offset = 1 + max((key for _, key, _ in events), default=0)
    made = {key for kind, key, _ in body if kind == "alloc"}
    release = [("free", key, 0) for key in held]
    at = None if forward_end is None or not release else forward_end - body_start
    out: list[Event] = [("free", key, 0) for key in grads]
    for n, (kind, key, size) in enumerate(body):
        if n == at:
            out += release
        if key in kept:
            continue
        out.append((kind, key + offset if key in made else key, size))
    if at is not None and at >= len(body):
        out += release
    return out


def live_peak(events: Iterable[Event], start: int = 0) -> int:
    """The most bytes live at once over ``events``, from event ``start`` on (everything before
    counted as live as it stands)."""
    sizes: dict[int, int] = {}
    live = peak = 0
    for n, (kind, key, size) in enumerate(events):
        if kind == "alloc":
            sizes[key] = size
            live += size
        else:
            live -= sizes.pop(key, 0)
        if n >= start:
            peak = max(peak, live)
    return peak


@contextlib.contextmanager
def following_resizes(log: AllocationLog) -> Iterator[None]:
    """While open, a storage resized in place through ``UntypedStorage.resize_`` is counted at
    its new size (a free then an allocation in ``log.events``). FSDP2 frees its unsharded
    parameters by ``storage.resize_(0)`` and brings them back by ``resize_(size)``
    (``torch.distributed.fsdp._fully_shard._fsdp_param.free_storage``), which no operator
    reports: without this, every layer's all-gathered copy would count as live to the end.
    Class-wide while open: use it on the thread that traces, for the trace only."""
    original = torch.UntypedStorage.resize_

    def resize_(storage: Any, size: int) -> Any:
        out = original(storage, size)
        log.resized(storage)
        return out

    torch.UntypedStorage.resize_ = resize_  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        torch.UntypedStorage.resize_ = original  # type: ignore[method-assign]
