"""The latency plot's data, without Qt: one ``Series`` per (device, dtype, mode) run.

Samples stream in one by one (``add``) and a running median follows them in O(log n) each;
arrays grow by doubling so a redraw reads them without copying. Testable without a
QApplication.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from inspector.core.vocabulary import BenchMode

SeriesKey = tuple[str, str, str]  # (device, dtype, mode)


def series_label(key: SeriesKey, mode_words: Callable[[str], str] = str) -> str:
    """``"cpu · float32"``, and the mode when it is not a forward (``mode_words`` says it: the
    window's ``vocabulary_words.mode_text``; by default as the CLI writes it)."""
    device, dtype, mode = key
    return f"{device} · {dtype}" + ("" if mode == BenchMode.FORWARD else f" · {mode_words(mode)}")


class RunningMedian:
    """The median of everything pushed so far, updated in O(log n) per value.

    numpy has no cumulative median (and recomputing ``np.median`` of each prefix is
    quadratic), so this is the textbook two-heap method.
    """

    def __init__(self) -> None:
        self._low: list[float] = []  # max-heap (negated): the smaller half
        self._high: list[float] = []  # min-heap: the larger half

    def push(self, value: float) -> float:
        if self._low and value > -self._low[0]:
            heapq.heappush(self._high, value)
        else:
            heapq.heappush(self._low, -value)
        if len(self._low) > len(self._high) + 1:
            heapq.heappush(self._high, -heapq.heappop(self._low))
        elif len(self._high) > len(self._low):
            heapq.heappush(self._low, -heapq.heappop(self._high))
        if len(self._low) > len(self._high):
            return -self._low[0]
        return (-self._low[0] + self._high[0]) / 2


class Growing:
    """A float64 array that grows by doubling: O(1) appends, and a view without copying
    (a run under a minimum time keeps up to 100,000 samples, redrawn several times a second)."""

    def __init__(self, values: Sequence[float] = ()) -> None:
        self._data = np.empty(max(256, len(values)))
        self.size = len(values)
        self._data[: self.size] = values

    def append(self, value: float) -> None:
        if self.size == len(self._data):
            self._data = np.concatenate([self._data, np.empty(len(self._data))])
        self._data[self.size] = value
        self.size += 1

    def values(self) -> np.ndarray:
        return self._data[: self.size]

    def __len__(self) -> int:
        return self.size


@dataclass
class Series:
    device: str
    dtype: str
    mode: str
    warmup_ms: list[float] = field(default_factory=list)
    samples: Growing = field(default_factory=Growing)
    medians: Growing = field(default_factory=Growing)
    running: RunningMedian = field(default_factory=RunningMedian)
    stats: dict[str, float] | None = None  # the finished result's statistics (exact, from the core)
    status: str = ""  # "", "cancelled", "failed", ...
    batch: int | None = None  # the input's batch as the model says it (the result's ``batch``)
    input_shape: tuple[int, ...] | None = None  # known once the run is finished
    noise: str | None = None  # the finished result's noise flag ("noisy: p95 is 84× the median; …")
    #: What the machine did to the run, where it disturbed it ("3% of the run's CPU went to …").
    machine_note: str | None = None
    #: The finished result's independent runs (the window's repeat setting), each its samples; () for one.
    runs_ms: tuple[tuple[float, ...], ...] = ()

    @property
    def samples_ms(self) -> np.ndarray:
        return self.samples.values()

    def add(self, ms: float) -> None:
        self.samples.append(ms)
        self.medians.append(self.running.push(ms))

    def pad_to(self, index: int) -> None:
        """Leave a gap (NaN, which draws as nothing) up to ``index``."""
        while len(self.samples) < index:
            self.samples.append(math.nan)
            self.medians.append(math.nan)

    def replace_samples(self, samples: Sequence[float]) -> None:
        self.samples, self.medians, self.running = Growing(), Growing(), RunningMedian()
        for ms in samples:
            self.add(float(ms))

    def summary(self) -> dict[str, float] | None:
        if self.stats is not None:
            return self.stats
        values = self.samples.values()
        if not values.size or np.isnan(values).all():
            return None
        p5, median, p95 = np.nanpercentile(values, (5, 50, 95))
        return {"median_ms": float(median), "p5_ms": float(p5), "p95_ms": float(p95)}



def field_of(result: Any, name: str, default: Any = None) -> Any:
    return result.get(name, default) if isinstance(result, Mapping) else getattr(result, name, default)
