"""The plots' Qt-free parts: latency series state and the SVG workaround's version gate.

No QApplication here: a ``Series`` is plain data the latency plot draws."""

from __future__ import annotations

import math

import numpy as np
import pytest

from inspector.gui.features.latency.series import Series, field_of, series_label
from inspector.gui.common.svg_export import needs_workaround


def test_a_series_keeps_every_sample_a_running_median_and_a_summary():
    series = Series("cuda:0", "bfloat16", "train-step")
    for ms in (5.0, 1.0, 3.0, 2.0, 4.0):
        series.add(ms)
    assert series.samples_ms.tolist() == [5.0, 1.0, 3.0, 2.0, 4.0]
    assert series.medians.values().tolist() == [5.0, 3.0, 3.0, 2.5, 3.0]
    assert series.summary()["median_ms"] == pytest.approx(3.0)
    assert series_label(("cuda:0", "bfloat16", "train-step")) == "cuda:0 · bfloat16 · train-step"
    assert series_label(("cpu", "float32", "forward")) == "cpu · float32"


def test_samples_that_never_arrived_leave_a_gap_not_a_zero():
    series = Series("cpu", "float32", "forward")
    series.add(2.0)
    series.pad_to(4)
    series.add(6.0)
    values = series.samples_ms
    assert len(values) == 5 and math.isnan(values[2]) and values[4] == 6.0
    assert series.summary()["median_ms"] == pytest.approx(4.0)  # gaps are not samples


def test_the_core_result_replaces_the_streamed_samples_exactly():
    series = Series("cpu", "float32", "forward")
    for ms in range(1000):
        series.add(float(ms))  # grows past its first buffer without losing a value
    series.replace_samples([0.5, 0.25])
    assert series.samples_ms.tolist() == [0.5, 0.25]
    assert field_of({"median_ms": 1.5}, "median_ms") == 1.5
    assert field_of(series, "device") == "cpu" and field_of(series, "absent", "x") == "x"
    assert isinstance(series.samples_ms, np.ndarray)


@pytest.mark.parametrize("version, needed", [("0.13.7", True), ("0.14.0", True), ("0.14.1", False),
                                              ("0.14.1.dev0", False), ("0.15.0", False), ("1.0", False)])  # fmt: skip
def test_the_svg_workaround_is_only_for_pyqtgraph_releases_that_need_it(version, needed):
    assert needs_workaround(version) is needed
