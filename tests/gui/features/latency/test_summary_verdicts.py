"""The latency Summary tab judges like with like, with intervals, and says when a run is noisy."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pytestqt")

import pyqtgraph as pg  # noqa: E402

from inspector.gui.features.latency.plot import LatencyPlot  # noqa: E402
from tests.gui import doors


@pytest.fixture
def plot(qtbot):
    plot = LatencyPlot()
    qtbot.addWidget(plot)
    return plot


def _result(device, samples, *, mode="forward", noise=None, shape=(64, 3)):
    samples = list(samples)
    return {"device": device, "dtype": "float32", "mode": mode, "input_shape": list(shape), "samples_ms": samples,
            "median_ms": float(np.median(samples)), "p5_ms": float(np.percentile(samples, 5)),
            "p95_ms": float(np.percentile(samples, 95)), "noise": noise}  # fmt: skip


def _show(plot, *results):
    for r in results:
        plot.begin_series(r["device"], r["dtype"], r["mode"])
        plot.finish_series(r)
    plot.tabs.setCurrentWidget(plot.summary_plot)
    plot.redraw()


def _bar_texts(plot) -> list[str]:
    """Each bar's first line: its median and verdict (throughput and a clipped p95 follow)."""
    return [i.textItem.toPlainText().split("\n")[0] for i in plot.canvas.summary.items if isinstance(i, pg.TextItem)]


def _lognormal(median, seed, n=200):
    return median * np.random.default_rng(seed).lognormal(0.0, 0.1, n)


def test_a_train_step_is_never_given_a_ratio_to_a_forward_pass(plot):
    # The case: a train step 21× a forward pass, which the Summary called "20.97× slower".
    noisy = "noisy: p95 is 84× the median; results may not be repeatable"
    _show(plot, _result("cpu", _lognormal(0.036, 1)), _result("cpu", _lognormal(0.75, 2), mode="train-step", noise=noisy))
    texts = _bar_texts(plot)
    assert len(texts) == 2 and not any("×" in t for t in texts)
    assert texts[1].endswith("(not compared · noisy)")
    said = plot.verdictLabel.text()
    assert "cpu · float32: not compared with cpu · float32 · train-step (mode: forward vs train-step)" in said
    assert said.count("not compared") == 1  # said once for the pair
    assert f"cpu · float32 · train-step: {noisy}" in said
    assert plot.verdictLabel.isVisibleTo(plot)


def test_alike_runs_on_two_devices_get_a_ratio_with_its_interval(plot):
    _show(plot, _result("cpu", _lognormal(0.072, 1)), _result("cuda:0", _lognormal(0.036, 2)))
    texts = _bar_texts(plot)
    assert texts[1].endswith("(fastest)")
    assert texts[0].endswith("× slower)")
    factor = float(texts[0].rsplit("(", 1)[1].split("×")[0])
    assert 1.8 < factor < 2.2
    [sentence] = plot.verdictLabel.text().splitlines()
    assert sentence.startswith("cpu · float32: ") and "slower than cuda:0 · float32 (95 % CI " in sentence


def test_runs_from_one_distribution_show_no_clear_difference(plot):
    _show(plot, _result("cpu", _lognormal(0.036, 1)), _result("cuda:0", _lognormal(0.036, 2)))
    assert any(t.endswith("(no clear difference)") for t in _bar_texts(plot))
    assert "no clear difference from" in plot.verdictLabel.text()


def test_a_long_benchmark_shows_the_time_left_in_the_progress_bar_and_status_bar(window, monkeypatch):
    from inspector.gui.state.workers import Progress

    monkeypatch.setattr(type(window.tasks), "task", property(lambda self: "benchmark"))  # the window's busy state
    window.session_state.progress.emit(Progress("benchmark", 400, 1000, seconds_left=75.0))
    assert doors.bar(window).progressBar.format() == "sample 400 / 1,000 · about 1 min 15 s left"
    assert window.statusBusy.text() == "Busy: benchmark · about 1 min 15 s left"
    window.session_state.progress.emit(Progress("benchmark", 5, 1000))  # too early to say: no estimate
    assert doors.bar(window).progressBar.format() == "sample 5 / 1,000"


def test_the_workers_progress_carries_the_estimate():
    from inspector.gui.state import workers

    sent = []

    class Signal:
        emit = staticmethod(sent.append)

    throttle = workers._ProgressThrottle("benchmark", Signal())
    now = [0.0]
    throttle._time_left._clock = lambda: now[0]
    throttle.update(0, 100)
    now[0] = 2.0
    throttle.update(50, 100)
    throttle.flush()
    assert sent[-1].seconds_left == pytest.approx(2.0) and (sent[-1].done, sent[-1].total) == (50, 100)


def test_float16_and_float32_on_one_device_are_compared_saying_which_is_which(plot):
    """Issue 35, section 4: the comparison the dtype menu invites."""
    half = dict(_result("cpu", _lognormal(0.072, 3)), dtype="float16")
    _show(plot, _result("cpu", _lognormal(0.036, 1)), half)
    texts = _bar_texts(plot)
    assert texts[0].endswith("(fastest)") and texts[1].endswith("× slower)")
    [sentence] = plot.verdictLabel.text().splitlines()
    assert sentence.startswith("cpu · float16: ") and "slower than cpu · float32 (95 % CI " in sentence


def test_other_dtypes_in_another_mode_or_on_another_input_get_no_ratio(plot):
    train = dict(_result("cpu", _lognormal(0.5, 2), mode="train-step"), dtype="float16")
    other_input = dict(_result("cpu", _lognormal(0.07, 3), shape=(128, 3)), dtype="bfloat16")
    _show(plot, _result("cpu", _lognormal(0.036, 1)), train, other_input)
    texts = _bar_texts(plot)
    assert not any("×" in t for t in texts) and all(t.endswith("(not compared)") for t in texts)
    said = plot.verdictLabel.text()
    assert ("cpu · float32: not compared with cpu · float16 · train-step (mode: forward vs train-step; dtype: "
            "float32 vs float16): runs are compared in the same mode and input shape, on one device or in one "
            "dtype") in said
    assert "cpu · bfloat16: not compared with cpu · float32 (input: 128x3 vs 64x3; dtype: bfloat16 vs float32)" in said
    assert len(said.splitlines()) == 2  # each pair said once


def test_a_cancelled_run_never_replaces_a_finished_one(plot):
    finished = _result("cpu", _lognormal(0.036, 1))
    _show(plot, finished)
    plot.begin_series("cpu", "float32", "forward")
    plot.add_sample_pairs([(0, 5.0), (1, 5.0), (2, 5.0)])  # a few samples, then Cancel
    plot.abort_series("cancelled")
    plot.redraw()
    series = plot.series[("cpu", "float32", "forward")]
    assert series.status == "" and series.summary()["median_ms"] == pytest.approx(finished["median_ms"])
    assert [r["label"] for r in plot.summary_rows()] == ["cpu · float32"]
    assert len(plot.drawn(("cpu", "float32", "forward"))["samples"][0]) == len(finished["samples_ms"])
    # With no finished run to keep, the stopped run's samples stay, labelled.
    plot.begin_series("cpu", "float16", "forward")
    plot.add_sample_pairs([(0, 5.0), (1, 5.0)])
    plot.abort_series("cancelled")
    plot.redraw()
    assert "cpu · float16 (cancelled)" in [r["label"] for r in plot.summary_rows()]


def test_the_dtype_comparison_and_its_refusal_in_chinese(plot, chinese):
    half = dict(_result("cpu", _lognormal(0.072, 3)), dtype="float16")
    train = dict(_result("cpu", _lognormal(0.5, 2), mode="train-step"), dtype="bfloat16")
    _show(plot, _result("cpu", _lognormal(0.036, 1)), half, train)
    said = plot.verdictLabel.text()
    assert "cpu · float16：" in said or "cpu · float16:" in said
    assert "只比较模式和输入形状相同、且在同一设备上或为同一数据类型的运行" in said
    assert "not compared" not in said and "slower than" not in said, said
