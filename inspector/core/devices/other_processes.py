"""Other processes' memory on each NVIDIA GPU, from NVML, for the memory timeline.

The driver's "used" figure counts every process on a GPU; NVML lists them, so the memory
view can draw what other processes hold apart from this one's. NVML is asked at most once a
``interval`` (a reading starts and stops NVML: too slow for every 10 Hz sample), and never
again once it says it is missing (no ``nvml`` extra, no driver).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import replace

import torch

from inspector.core.devices.discovery import MemoryReading
from inspector.core.devices.nvml import read_nvml

#: Seconds between two NVML readings (the figure changes when another process starts or ends).
DEFAULT_INTERVAL_S = 1.0


class OtherProcessesMemory:
    """Adds ``other_processes`` (bytes) to the readings of CUDA devices where NVML knows it."""

    def __init__(self, interval: float = DEFAULT_INTERVAL_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self._clock = clock
        self._last: float | None = None
        self._bytes: dict[str, int] = {}
        self._uuids: dict[str, str | None] = {}
        self.unavailable = False  # NVML is missing: stop asking

    def annotate(self, readings: Iterable[MemoryReading]) -> tuple[MemoryReading, ...]:
        """``readings`` with each CUDA device's other-process bytes, where NVML tells them."""
        readings = tuple(readings)
        cuda = [r.device for r in readings if r.device.startswith("cuda")]
        if not cuda or self.unavailable:
            return readings
        now = self._clock()
        if self._last is None or now - self._last >= self.interval:
            self._last = now
            self._refresh(cuda)
        return tuple(
            replace(r, other_processes=self._bytes[r.device]) if r.device in self._bytes else r for r in readings
        )

    def _refresh(self, devices: list[str]) -> None:
        uuids = {device: self._uuid(device) for device in devices}
        known = [u for u in uuids.values() if u]
        if not known:
            return
        reading = read_nvml(known)
        if not reading.figures and reading.notes:
            self.unavailable = True  # no pynvml or no driver: it will not come back
            return
        self._bytes = {}
        for device, uuid in uuids.items():
            figure = reading.figures.get(uuid or "", {}).get("other_processes_bytes")
            if isinstance(figure, int):
                self._bytes[device] = figure

    def _uuid(self, device: str) -> str | None:
        if device not in self._uuids:
            try:
                index = torch.device(device).index or 0
                uuid = getattr(torch.cuda.get_device_properties(index), "uuid", None)
            except (RuntimeError, AssertionError, ValueError):
                uuid = None
            self._uuids[device] = str(uuid) if uuid is not None else None
        return self._uuids[device]
