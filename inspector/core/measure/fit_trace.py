"""The estimate's counter, also keeping the order of the step's allocations and frees, so the
caching allocator of a device that is not here can be replayed over them
(``core.measure.cuda_allocator``).

``AllocationLog`` is ``placement.storage_counter.StorageCounter`` (same storages, same
peak), plus one event per storage created (its exact byte size, before any device's
rounding) and per storage freed. Costs: one tuple per event (a step of an 8B model makes a
few tens of thousands).
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

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

    def _event_alloc(self, key: int, size: int) -> None:
        serial = next(self._serial)
        self._ids[key] = serial
        self.events.append(("alloc", serial, size))

    def _event_free(self, key: int) -> None:
        serial = self._ids.pop(key, None)
        if serial is not None:
            self.events.append(("free", serial, 0))

