"""A memory timeline: readings of several devices over time, for plots and the report.

The GUI fills one from its sampler thread; the CLI from ``BackgroundSampler``. Readings are
kept in numpy ring buffers so an hour at 20 Hz stays small and appends stay O(1).
"""

from __future__ import annotations

import bisect
import math
import threading
import time
from typing import Any, Iterable

import numpy as np

from inspector.core.devices.discovery import MemoryReading, memory_reading
from inspector.core.devices.other_processes import OtherProcessesMemory
from inspector.core.placement.model_memory import ModelBytes, model_bytes_from_dict, step_series

_FIELDS = ("allocated", "reserved", "used", "total", "other_processes")
#: A report's memory point: what ``MemoryReading`` holds, with the CPU's resident set size
#: under its own name (a reading's ``allocated`` for the CPU is RSS, not an allocator's figure).
REPORT_FIELDS = ("allocated", "reserved", "process_rss", "used", "total", "other_processes")


def report_point(device: str, point: Any) -> dict[str, Any]:
    """One memory point as reports write it: ``t`` and ``REPORT_FIELDS``.

    For the CPU, ``allocated`` (as readings and reports before ``process_rss`` existed hold
    it) is the process's RSS: it moves to ``process_rss``, so no report calls RSS
    "allocated", and older reports read the same way.
    """
    data = point if isinstance(point, dict) else {}
    out = {"t": data.get("t"), **{f: data.get(f) for f in REPORT_FIELDS}}
    if device == "cpu" and out["process_rss"] is None:
        out["process_rss"], out["allocated"] = out["allocated"], None
    return out


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
        #: The model's own bytes after each load and move: (seconds since t0, bytes).
        self._model: list[tuple[float, ModelBytes]] = []
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

    def record_model(self, model: ModelBytes, timestamp: float | None = None) -> None:
        """The model's bytes per device from ``timestamp`` (``time.time()``; None = now) on.
        A record equal to the last one adds nothing: a step is drawn only where bytes moved."""
        t = (time.time() if timestamp is None else timestamp) - self.t0
        with self._lock:
            if self._model and self._model[-1][1] == model:
                return
            self._model.append((t, model))

    def model_devices(self) -> list[str]:
        """Devices the model has held bytes on since the timeline started."""
        with self._lock:
            records = list(self._model)
        seen = dict.fromkeys(d for _, record in records for d in record.by_device)
        return list(seen)

    def model_series(self, device: str, until: float | None = None) -> dict[str, np.ndarray]:
        """The model's bytes on ``device`` as a staircase (``model_memory.step_series``):
        ``t``, ``total`` and one column per kind, held up to ``until`` (seconds; None: the
        latest reading or record)."""
        with self._lock:
            records = list(self._model)
            latest = max((ring.data[(ring.start + ring.size - 1) % ring.capacity, 0]
                          for ring in self._rings.values() if ring.size), default=0.0)  # fmt: skip
        end = float(latest) if until is None else until
        return step_series(records, device, max(end, records[-1][0] if records else 0.0))

    def model_at(self, t: float) -> ModelBytes | None:
        """The model's bytes at ``t`` seconds (the last record at or before it)."""
        with self._lock:
            records = list(self._model)
        index = bisect.bisect_right([r[0] for r in records], t) - 1
        return records[index][1] if index >= 0 else None

    def series(self, device: str) -> dict[str, np.ndarray]:
        """Columns ``t``, ``allocated``, ``reserved``, ``used``, ``total``,
        ``other_processes`` (copies)."""
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
            # The model is still where it was: its bytes start the new record.
            self._model = [(0.0, self._model[-1][1])] if self._model else []

    def to_report(self) -> dict[str, list[dict[str, Any]]]:
        """The report's ``memory`` section: ``{device: [{t, allocated, reserved, used, total,
        other_processes}]}``."""
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

    def model_report(self) -> list[dict[str, Any]]:
        """The report's ``model_memory`` section: ``[{t, by_device: {device: {kind: bytes}}}]``."""
        with self._lock:
            records = list(self._model)
        return [{"t": round(t, 4), "by_device": record.to_dict()} for t, record in records]

    def add_model_report(self, entries: object) -> None:
        """Read a report's ``model_memory`` section back (what is malformed is skipped)."""
        if not isinstance(entries, list):
            return
        for entry in entries:
            if not isinstance(entry, dict):
                continue
            t, by_device = entry.get("t"), entry.get("by_device")
            if isinstance(t, (int, float)) and math.isfinite(t) and isinstance(by_device, dict):
                self.record_model(model_bytes_from_dict(by_device), self.t0 + float(t))


class BackgroundSampler:
    """Reads the given devices every ``1/hz`` seconds on a daemon thread (for the CLI)."""

    def __init__(self, timeline: MemoryTimeline, device_ids: list[str], hz: float = 10.0) -> None:
        self.timeline = timeline
        self.device_ids = list(device_ids)
        self.interval = 1.0 / hz
        self._others = OtherProcessesMemory()
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
        self.timeline.add(self._others.annotate(readings))

    def __enter__(self) -> "BackgroundSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.sample_once()  # the final state after the work
