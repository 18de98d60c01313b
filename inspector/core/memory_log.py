"""A memory timeline: readings of several devices over time, for plots and the report.

The GUI fills one from its sampler thread; the CLI from ``BackgroundSampler``. Readings are
kept in numpy ring buffers so an hour at 20 Hz stays small and appends stay O(1).
"""

from __future__ import annotations

import bisect
import threading
import time
from typing import Any, Iterable

import numpy as np

from inspector.core.devices import MemoryReading, memory_reading

_FIELDS = ("allocated", "reserved", "used", "total")


class _Ring:
    """Fixed-capacity columns (t + the four memory fields); NaN stands for 'unknown'."""

    def __init__(self, capacity: int) -> None:
        self.data = np.full((capacity, 1 + len(_FIELDS)), np.nan)
        self.capacity = capacity
        self.start = 0
        self.size = 0

    def append(self, row: list[float]) -> None:
        end = (self.start + self.size) % self.capacity
        self.data[end] = row
        if self.size < self.capacity:
            self.size += 1
        else:
            self.start = (self.start + 1) % self.capacity

    def view(self, first: int = 0) -> np.ndarray:
        """Rows in time order, from the ``first``-th oldest on (a copy)."""
        idx = (self.start + np.arange(first, self.size)) % self.capacity
        return self.data[idx]

    def first_at_or_after(self, t: float) -> int:
        """How many rows are older than ``t`` (binary search over the time column)."""
        return bisect.bisect_left(range(self.size), t, key=lambda i: self.data[(self.start + i) % self.capacity, 0])


class MemoryTimeline:
    """Readings per device, with time in seconds since the timeline started."""

    def __init__(self, capacity: int = 36_000 * 2, t0: float | None = None) -> None:
        # Default: two hours at 10 Hz (one hour at 20 Hz).
        self.capacity = capacity
        self.t0 = time.time() if t0 is None else t0
        self._rings: dict[str, _Ring] = {}
        self._lock = threading.Lock()

    def add(self, readings: Iterable[MemoryReading]) -> None:
        with self._lock:
            for r in readings:
                ring = self._rings.get(r.device)
                if ring is None:
                    ring = self._rings[r.device] = _Ring(self.capacity)
                ring.append(
                    [r.timestamp - self.t0]
                    + [np.nan if getattr(r, f) is None else float(getattr(r, f)) for f in _FIELDS]
                )

    def devices(self) -> list[str]:
        with self._lock:
            return list(self._rings)

    def series(self, device: str) -> dict[str, np.ndarray]:
        """Columns ``t``, ``allocated``, ``reserved``, ``used``, ``total`` (copies)."""
        with self._lock:
            ring = self._rings.get(device)
            block = ring.view() if ring is not None else np.empty((0, 1 + len(_FIELDS)))
        return {name: block[:, i].copy() for i, name in enumerate(("t",) + _FIELDS)}

    def series_since(self, device: str, since: float) -> dict[str, np.ndarray]:
        """Like ``series``, but only from time ``since`` (seconds) on, plus the reading just
        before it (so a line drawn from it enters at the left edge). Copies only those rows:
        a plot following the last 30 s of an hour-long timeline reads 30 s of data.

        Assumes readings arrive in time order (each device's sampler appends as it reads).
        """
        with self._lock:
            ring = self._rings.get(device)
            if ring is None:
                block = np.empty((0, 1 + len(_FIELDS)))
            else:
                first = max(0, ring.first_at_or_after(since) - 1)
                block = ring.view(first)
        return {name: block[:, i].copy() for i, name in enumerate(("t",) + _FIELDS)}

    def clear(self) -> None:
        with self._lock:
            self._rings.clear()
            self.t0 = time.time()

    def to_report(self) -> dict[str, list[dict[str, Any]]]:
        """The report's ``memory`` section: ``{device: [{t, allocated, reserved, used, total}]}``."""
        out: dict[str, list[dict[str, Any]]] = {}
        for device in self.devices():
            cols = self.series(device)
            # Whole columns through numpy and tolist() (an hour of 9 devices is 324k rows:
            # element-wise Python took 1.3 s); NaN, "unknown", becomes None.
            columns = [np.round(cols["t"], 4).tolist()]
            for f in _FIELDS:
                values = cols[f]
                known = ~np.isnan(values)
                column = np.full(values.shape, None, dtype=object)
                column[known] = values[known].astype(np.int64).tolist()
                columns.append(column.tolist())
            keys = ("t",) + _FIELDS
            out[device] = [dict(zip(keys, row)) for row in zip(*columns)]
        return out


class BackgroundSampler:
    """Reads the given devices every ``1/hz`` seconds on a daemon thread (for the CLI)."""

    def __init__(self, timeline: MemoryTimeline, device_ids: list[str], hz: float = 10.0) -> None:
        self.timeline = timeline
        self.device_ids = list(device_ids)
        self.interval = 1.0 / hz
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="memory-sampler", daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample_once()
            self._stop.wait(self.interval)

    def sample_once(self) -> None:
        readings = []
        for device in list(self.device_ids):
            try:
                readings.append(memory_reading(device))
            except Exception:  # noqa: BLE001 -- a device that cannot be read (gone, driver error): stop asking
                self.device_ids.remove(device)
        self.timeline.add(readings)

    def __enter__(self) -> "BackgroundSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.sample_once()  # the final state after the work
