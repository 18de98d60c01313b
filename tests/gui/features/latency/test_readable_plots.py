"""Readable latency plots: the bulk of the samples fills the view whatever the outliers,
axes and labels speak one unit, and the pointer reads out what it is over (offscreen)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pytestqt")

import pyqtgraph as pg  # noqa: E402

from inspector.gui.features.latency.plot import LatencyPlot  # noqa: E402
from inspector.gui.features.latency.plot_widgets import IntegerAxis  # noqa: E402
from inspector.gui.features.latency.readable import bulk_range  # noqa: E402
from inspector.gui.features.latency.summary_bars import throughput_text  # noqa: E402
from tests.gui.helpers import GENEROUS_MS


@pytest.fixture
def latency_plot(qtbot):
    plot = LatencyPlot()
    plot.resize(800, 400)
    qtbot.addWidget(plot)
    return plot


def _noisy_run(median_ms=0.036, n=200, outliers=(2.5,), seed=0):
    """A tiny model's run: a tight bulk around ``median_ms`` plus a few huge samples."""
    rng = np.random.default_rng(seed)
    samples = median_ms * (1 + 0.05 * rng.standard_normal(n))
    for i, ms in enumerate(outliers):
        samples[17 + 31 * i] = ms
    return [float(v) for v in samples]


def _finish(plot, samples, device="cpu", dtype="float32", mode="forward", input_shape=(64, 3), batch=64):
    plot.begin_series(device, dtype, mode)
    arr = np.asarray(samples)
    return plot.finish_series({
        "device": device, "dtype": dtype, "mode": mode, "input_shape": list(input_shape), "batch": batch,
        "samples_ms": samples, "warmup_samples_ms": [5.0, 0.04],
        "median_ms": float(np.median(arr)), "p5_ms": float(np.percentile(arr, 5)),
        "p95_ms": float(np.percentile(arr, 95)),
    })  # fmt: skip


def _y_range_ms(plot):
    low, high = plot.samples_plot.getPlotItem().getViewBox().viewRange()[1]
    return low * plot.canvas.unit[1], high * plot.canvas.unit[1]


def test_one_huge_outlier_leaves_the_bulk_readable_and_is_counted_at_the_edge(latency_plot):
    samples = _noisy_run(outliers=(2.5,))
    key = _finish(latency_plot, samples)
    latency_plot.redraw()

    low, high = _y_range_ms(latency_plot)
    bulk = sorted(samples)[:-1]
    assert low == 0 and max(bulk) <= high < 2.5  # the view ends above the bulk, below the outlier
    assert high < 3 * max(bulk)  # ...close above it: the bulk fills the plot
    x, y = latency_plot.drawn(key)["clipped"]
    assert 17 in x.tolist() and y[x.tolist().index(17)] == pytest.approx(high)  # drawn at the edge
    text = latency_plot.canvas.outlier_text
    assert text.isVisible() and "1 outlier above" in text.textItem.toPlainText()
    assert "(largest 2.50 ms)" in text.textItem.toPlainText()  # off the axis: in its own unit


def test_the_log_scale_shows_every_sample_and_clips_nothing(latency_plot):
    key = _finish(latency_plot, _noisy_run(outliers=(2.5, 3.1, 4.0)))
    latency_plot.redraw()
    assert "3 outliers above" in latency_plot.canvas.outlier_text.textItem.toPlainText()

    latency_plot.logCheck.setChecked(True)
    view = latency_plot.samples_plot.getPlotItem().getViewBox()
    view.autoRange()  # settles the automatic range (pyqtgraph does it when it paints)
    low, high = view.viewRange()[1]
    top_ms = 10**high * latency_plot.canvas.unit[1]
    assert top_ms >= 4.0  # the largest sample is in view
    assert latency_plot.drawn(key)["clipped"][0].size == 0
    assert not latency_plot.canvas.outlier_text.isVisible()

    latency_plot.logCheck.setChecked(False)
    assert _y_range_ms(latency_plot)[1] < 2.5  # back to the bulk


def test_the_axis_and_every_label_use_the_same_unit(latency_plot):
    _finish(latency_plot, _noisy_run())
    latency_plot.redraw()
    samples_axis = latency_plot.samples_plot.getPlotItem().getAxis("left").labelText
    assert latency_plot.canvas.unit[0] == "µs" and samples_axis == "latency (µs)"
    summary_axis = latency_plot.summary_plot.getPlotItem().getAxis("left").labelText
    assert summary_axis == "latency (µs)"
    texts = [i.textItem.toPlainText() for i in latency_plot.summary_plot.getPlotItem().items
             if isinstance(i, pg.TextItem)]  # fmt: skip
    assert texts and all(" µs" in t and " ms" not in t.split("\n")[0] for t in texts)


def test_summary_bars_stay_tall_when_the_p95_is_84_times_the_median(latency_plot):
    rng = np.random.default_rng(1)
    samples = [float(v) for v in 0.5 * (1 + 0.02 * rng.standard_normal(100))]
    for i in range(0, 100, 9):  # a noisy train step: one step in nine hits a 42 ms stall
        samples[i] = 42.0
    _finish(latency_plot, samples, mode="train-step")
    latency_plot.redraw()
    (row,) = latency_plot.summary_rows()
    assert row["p95_ms"] / row["median_ms"] > 80
    plot = latency_plot.summary_plot.getPlotItem()
    bars = next(i for i in plot.items if isinstance(i, pg.BarGraphItem))
    top = plot.getViewBox().viewRange()[1][1]
    assert bars.opts["height"][0] / top > 0.2  # the bar keeps a fifth of the height or more
    label = next(i for i in plot.items if isinstance(i, pg.TextItem)).textItem.toPlainText()
    assert "p95 42.0 ms ↑ (clipped)" in label and "steps/s" in label


def test_sample_ticks_are_whole_numbers():
    axis = IntegerAxis("bottom")
    for low, high in ((0, 3), (0, 7), (-3, 40), (0, 99_999)):
        for spacing, offset in axis.tickSpacing(low, high, 600):
            assert spacing >= 1 and spacing == int(spacing) and offset == int(offset)
    assert axis.tickStrings([0.0, 5.0, 10.0], 1, 5) == ["0", "5", "10"]


def test_hovering_reads_out_the_sample_and_the_bar(latency_plot):
    samples = _noisy_run()
    key = _finish(latency_plot, samples, input_shape=(64, 3))
    latency_plot.redraw()
    per_ms = latency_plot.canvas.unit[1]
    text = latency_plot.readout_at(42.2, samples[42] / per_ms)
    assert text == f"sample 42 · cpu · float32: {samples[42] / per_ms:.1f} µs"
    assert latency_plot.readout_at(-2, 1.0).startswith("warm-up call 1 of 2")
    assert latency_plot.readout_at(5000, 1.0) == ""  # past the last sample

    bar = latency_plot.summary_readout_at(0.1)
    assert bar.startswith("cpu · float32: median ") and "items/s (batch 64)" in bar
    assert latency_plot.summary_readout_at(0.5) == ""  # between bars
    assert key in latency_plot.series


def test_the_throughput_multiplies_by_the_batch_the_model_says_not_dimension_0(latency_plot):
    # The Transformer preset's 10,32,512: nn.Transformer is sequence-first, its batch is 32 (issue 45 item 1).
    _finish(latency_plot, _noisy_run(), input_shape=(10, 32, 512), batch=32)
    latency_plot.redraw()
    bar = latency_plot.summary_readout_at(0.0)
    assert "items/s (batch 32)" in bar and "batch 10" not in bar


def test_a_run_whose_batch_is_unknown_says_calls_per_second_alone(latency_plot):
    _finish(latency_plot, _noisy_run(), input_shape=(10, 32, 512), batch=None)  # layers that disagree, an older report
    latency_plot.redraw()
    bar = latency_plot.summary_readout_at(0.0)
    assert "calls/s" in bar and "items/s" not in bar and "batch" not in bar


def test_bulk_range_and_throughput_without_qt():
    assert bulk_range(np.array([])) is None
    tight = bulk_range(np.array([1.0] * 50 + [100.0]))
    assert tight is not None and tight.outliers == 1 and 1.0 <= tight.top_ms < 2.0
    assert tight.largest_ms == 100.0
    spread = bulk_range(np.linspace(1, 10, 100))  # a wide but outlier-free spread: all of it
    assert spread is not None and spread.outliers == 0 and spread.top_ms >= 10
    assert throughput_text(0.036) == "27.8k calls/s"
    assert throughput_text(2.0, "train-step", 64) == "500 steps/s · 32.0k items/s (batch 64)"
    assert throughput_text(0.0) == ""


def test_a_short_plot_says_its_outliers_on_one_line_that_fits(latency_plot, qtbot):
    """At 1024x700 (a remote window's bar takes more) the Samples view is ~100 px high: the
    corner's three lines ran over its top and were cut off there. Too short for them, they go
    on one line; given the height again, one under another."""
    latency_plot.show()
    qtbot.waitExposed(latency_plot)
    _finish(latency_plot, _noisy_run(outliers=(2.5,)))
    latency_plot.redraw()
    text = latency_plot.canvas.outlier_text
    view = latency_plot.samples_plot.getPlotItem().getViewBox()
    qtbot.waitUntil(lambda: view.height() > 150, timeout=GENEROUS_MS)
    tall = text.textItem.toPlainText()
    assert tall.count("\n") >= 1 and "1 outlier above" in tall and "log scale shows all" in tall

    assert text.boundingRect().height() <= view.height()
    # (the window never makes it this short, issue 45; a plot made smaller than its least height)
    for plot in (latency_plot.samples_plot, latency_plot.summary_plot):
        plot.setMinimumHeight(0)
    # The view ~45 px high: room for one line, not three (asked again until the window takes it:
    # the first resize after the minimum changed is ignored offscreen).
    qtbot.waitUntil(lambda: latency_plot.resize(800, round(latency_plot.height() - view.height() + 45))
                    or 25 < view.height() < 60, timeout=GENEROUS_MS)  # fmt: skip
    short = text.textItem.toPlainText()
    assert "\n" not in short and short == " · ".join(tall.split("\n"))
    assert text.boundingRect().height() <= view.height()  # the whole line inside the view

    latency_plot.resize(800, 400)
    qtbot.waitUntil(lambda: text.textItem.toPlainText() == tall, timeout=GENEROUS_MS)
