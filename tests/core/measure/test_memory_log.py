"""MemoryTimeline: the tail a plot following the last seconds reads, and the report section."""

from __future__ import annotations

import math

import numpy as np

from inspector.core.devices.discovery import MemoryReading
from inspector.core.measure.memory_log import MemoryTimeline


def _timeline(n: int, capacity: int) -> MemoryTimeline:
    timeline = MemoryTimeline(capacity=capacity, t0=0.0)
    timeline.add(MemoryReading("cuda:0", float(i), i, None, 2 * i, 100) for i in range(n))
    return timeline


def test_series_since_returns_the_tail_and_the_reading_before_it():
    tail = _timeline(50, capacity=100).series_since("cuda:0", 45.5)
    assert tail["t"].tolist() == [45.0, 46.0, 47.0, 48.0, 49.0]
    assert tail["used"].tolist() == [90.0, 92.0, 94.0, 96.0, 98.0]
    assert np.isnan(tail["reserved"]).all()


def test_series_since_works_across_the_ring_wrapping_around():
    timeline = _timeline(250, capacity=100)  # keeps 150..249, stored wrapped
    assert timeline.series_since("cuda:0", 240)["t"].tolist() == [239.0 + k for k in range(11)]
    assert timeline.series_since("cuda:0", 0)["t"].tolist() == timeline.series("cuda:0")["t"].tolist()
    assert timeline.series_since("cuda:0", math.inf)["t"].tolist() == [249.0]


def test_series_since_an_unknown_device_is_empty():
    assert _timeline(3, capacity=10).series_since("cpu", 0)["t"].size == 0


def test_report_section_keeps_exact_bytes_and_unknowns_as_none():
    timeline = MemoryTimeline(t0=1000.0)
    timeline.add([MemoryReading("cpu", 1000.25, 123_456_789_012, None, 5 << 30, 8 << 30)])
    timeline.add([MemoryReading("cuda:0", 1000.5, 0, 2 << 20, None, 80 << 30, 3 << 30)])
    timeline.add([MemoryReading("cpu", 1001.123456, 7, None, 6 << 30, 8 << 30)])
    section = timeline.to_report()
    assert section == {
        "cpu": [
            {"t": 0.25, "allocated": 123_456_789_012, "reserved": None, "used": 5 << 30, "total": 8 << 30,
             "other_processes": None},
            {"t": 1.1235, "allocated": 7, "reserved": None, "used": 6 << 30, "total": 8 << 30,
             "other_processes": None},
        ],
        "cuda:0": [{"t": 0.5, "allocated": 0, "reserved": 2 << 20, "used": None, "total": 80 << 30,
                    "other_processes": 3 << 30}],
    }
    assert all(type(v) is int for row in section["cpu"] for k, v in row.items() if k != "t" and v is not None)


def test_ring_keeps_the_newest_readings_when_full():
    timeline = MemoryTimeline(capacity=3, t0=0.0)
    timeline.add(MemoryReading("cpu", float(i), i, None, None, None) for i in range(5))
    assert [row["allocated"] for row in timeline.to_report()["cpu"]] == [2, 3, 4]


def test_other_processes_memory_comes_from_nvml_once_a_second_and_stops_when_nvml_is_missing(monkeypatch):
    from inspector.core.devices.other_processes import OtherProcessesMemory
    from tests.fake_cuda import GiB, OTHER_PID, fake_cuda, no_nvml

    gpus = fake_cuda(monkeypatch, count=2)  # also a fake NVML that knows them
    gpus[1].other_processes = [(OTHER_PID, 3 * GiB)]
    now = [100.0]
    others = OtherProcessesMemory(interval=1.0, clock=lambda: now[0])
    readings = [MemoryReading("cpu", 1.0, 1, None, 2, 3), MemoryReading("cuda:0", 1.0, 0, 0, 5, 9),
                MemoryReading("cuda:1", 1.0, 0, 0, 5, 9)]  # fmt: skip
    annotated = {r.device: r.other_processes for r in others.annotate(readings)}
    assert annotated == {"cpu": None, "cuda:0": 0, "cuda:1": 3 * GiB}

    gpus[1].other_processes = []
    now[0] += 0.5  # within the interval: the last figure, NVML not asked
    assert others.annotate(readings)[2].other_processes == 3 * GiB
    now[0] += 0.6
    assert others.annotate(readings)[2].other_processes == 0

    no_nvml(monkeypatch)
    missing = OtherProcessesMemory(clock=lambda: now[0])
    assert [r.other_processes for r in missing.annotate(readings)] == [None, None, None]
    assert missing.unavailable
