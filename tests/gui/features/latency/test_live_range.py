"""While a run streams in, the Samples view's ranges stay put (a new sample redraws its points,
not the axes); once it ends they fit its samples exactly again (offscreen)."""

from __future__ import annotations

import numpy as np
import pytest

from inspector.gui.features.latency.live_range import KEEP_SHARE, streaming_span, streaming_top


@pytest.mark.parametrize(
    ("bulk", "top"),
    [(0.0371, 0.04), (1.0, 1.0), (1.01, 1.25), (7.9, 8.0), (8.01, 10.0), (612.0, 640.0), (9.99e-4, 1e-3)],
)
def test_the_streaming_top_is_the_next_round_step(bulk, top):
    assert streaming_top(bulk) == pytest.approx(top)
    assert streaming_top(bulk) >= bulk


def test_a_top_shown_stays_while_the_bulk_moves_under_it_and_moves_past_it():
    shown = streaming_top(0.9)
    assert shown == pytest.approx(1.0)
    for bulk in (0.95, 0.8, 0.65, 0.61, 1.0):  # a bulk hovering about a step: no flipping
        assert streaming_top(bulk, shown) == shown
    assert streaming_top(1.05, shown) == pytest.approx(1.25)  # outgrown: the next step
    assert streaming_top(KEEP_SHARE * shown * 0.9, shown) == pytest.approx(0.64)  # far below: down


def test_the_streaming_span_covers_the_run_asked_for_and_doubles_past_it():
    assert streaming_span(0, 100, 0) == (-0.75, 99.75)
    assert streaming_span(37, 100, 3) == (-3.75, 99.75)
    assert streaming_span(101, 100, 3) == (-3.75, 199.75)
    assert streaming_span(5, None, 0) == (-0.75, 7.75)  # unknown: powers of two
    assert streaming_span(0, None, 0)[1] > 0


pytest.importorskip("pytestqt")

from inspector.gui.features.latency.plot import LatencyPlot  # noqa: E402
from inspector.gui.features.latency.readable import bulk_range  # noqa: E402


@pytest.fixture
def plot(qtbot):
    plot = LatencyPlot()
    plot.resize(800, 400)
    qtbot.addWidget(plot)
    return plot


def _ranges(plot):
    return [tuple(r) for r in plot.samples_plot.getPlotItem().getViewBox().viewRange()]


def _stream(plot, values, start=0):
    for i, ms in enumerate(values, start):
        plot.add_sample(i, ms)
        plot.redraw()


def test_ranges_stay_put_while_a_run_streams_and_fit_it_when_it_ends(plot):
    rng = np.random.default_rng(3)
    samples = [float(v) for v in 0.5 * (1 + 0.03 * rng.standard_normal(60))]
    key = plot.begin_series("cpu", "float32", expected=60)
    for ms in (5.0, 0.6):
        plot.add_sample(0, ms, warmup=True)
    _stream(plot, samples[:5])
    first = _ranges(plot)
    assert first[0] == (-2.75, 59.75)  # every sample asked for, and the warm-ups' band
    seen = set()
    for i, ms in enumerate(samples[5:], 5):
        _stream(plot, [ms], i)
        seen.add(tuple(_ranges(plot)))
    assert seen == {tuple(first)}  # not one change of range in 55 samples
    top_ms = first[1][1] * plot.canvas.unit[1]
    assert max(samples) <= top_ms < 1.3 * max(samples) and first[1][0] == 0

    arr = np.asarray(samples)
    plot.finish_series({"device": "cpu", "dtype": "float32", "mode": "forward", "input_shape": [8, 3],
                        "samples_ms": samples, "warmup_samples_ms": [5.0, 0.6], "median_ms": float(np.median(arr)),
                        "p5_ms": float(np.percentile(arr, 5)), "p95_ms": float(np.percentile(arr, 95))})  # fmt: skip
    plot.redraw()
    view = plot.samples_plot.getPlotItem().getViewBox()
    view.updateAutoRange()  # (pyqtgraph settles an automatic range as it paints)
    (x_low, x_high), (_, y_high) = _ranges(plot)
    assert view.state["autoRange"][0] is not False  # the x axis fits the samples again
    assert x_low <= -2 and x_high >= 59
    assert y_high * plot.canvas.unit[1] == pytest.approx(plot.canvas.bulk.top_ms)  # the exact bulk
    assert plot.drawn(key)["samples"][1].size == 60


def test_a_sample_past_the_bulk_but_under_the_streaming_top_is_drawn_where_it_is(plot):
    key = plot.begin_series("cpu", "float32", expected=40)
    _stream(plot, [0.50 + 0.001 * (i % 5) for i in range(30)] + [0.70])
    top_ms = _ranges(plot)[1][1] * plot.canvas.unit[1]
    assert top_ms == pytest.approx(0.8)  # the bulk's 0.70 ms (+ margin) rounds up to 0.8 ms
    _stream(plot, [0.78], 31)  # past the bulk's fence (~0.75 ms), under the axis' top
    assert bulk_range(plot.series[key].samples.values()).outliers == 1  # an outlier to the bulk...
    assert plot.drawn(key)["clipped"][0].size == 0  # ...but in view: drawn, not clipped
    assert plot.drawn(key)["samples"][1][31] == pytest.approx(0.78)
    assert not plot.canvas.outlier_text.isVisible()  # nor counted as above the view
    _stream(plot, [4.0], 32)  # far above: clipped at the top edge, and counted
    x, y = plot.drawn(key)["clipped"]
    assert x.tolist() == [32.0] and y[0] == pytest.approx(top_ms)
    assert "1 outlier above (largest 4.00 ms)" in plot.canvas.outlier_text.textItem.toPlainText()


def test_a_zoom_while_a_run_streams_is_the_users(plot):
    plot.begin_series("cpu", "float32", expected=100)
    _stream(plot, [1.0 + 0.01 * (i % 3) for i in range(10)])
    view = plot.samples_plot.getPlotItem().getViewBox()
    view.setRange(xRange=(2, 6), yRange=(0.5, 1.5), padding=0)
    view.sigRangeChangedManually.emit(view.state["mouseEnabled"])  # as a drag or a wheel says it
    _stream(plot, [1.0, 1.02, 3.0], 10)
    (x_low, x_high), (y_low, y_high) = _ranges(plot)
    assert (x_low, x_high) == pytest.approx((2, 6)) and (y_low, y_high) == pytest.approx((0.5, 1.5))


def test_a_run_that_measured_nothing_leaves_the_view_as_it_was(plot):
    plot.begin_series("cpu", "float32", expected=1000)
    plot.redraw()
    plot.abort_series("cancelled")
    plot.redraw()
    assert plot.canvas.streaming is False
    assert plot.samples_plot.getPlotItem().getViewBox().state["autoRange"][0] is not False  # fits again


def test_a_run_has_its_ranges_as_it_begins_before_the_plot_draws_again(plot):
    # Its tab opens on a frame that already spans the run: no second frame to move there.
    plot.begin_series("cpu", "float32", expected=40)
    assert _ranges(plot)[0] == (-0.75, 39.75)


def test_the_range_a_run_ends_with_counts_every_sample_it_streamed(plot):
    plot.begin_series("cpu", "float32")
    done = [0.036 + 0.001 * (i % 7) for i in range(60)] + [2.5]
    arr = np.asarray(done)
    plot.finish_series({"device": "cpu", "dtype": "float32", "mode": "forward", "samples_ms": done,
                        "median_ms": float(np.median(arr)), "p5_ms": float(np.percentile(arr, 5)),
                        "p95_ms": float(np.percentile(arr, 95))})  # fmt: skip
    plot.begin_series("cpu", "float64", expected=100)
    plot.redraw()  # drawn as it begins: the first run's bulk found
    _stream(plot, [0.05])  # one more sample: within a hundredth of the bulk's count, so not looked at again...
    plot.abort_series("cancelled")
    plot.redraw()
    # ...until the run ends: then the bulk is every sample's, and 0.05 ms is in it.
    everything = np.concatenate([s.samples.values() for s in plot.series.values()])
    assert plot.canvas.bulk == bulk_range(everything)
    assert "1 outlier above (largest 2.50 ms)" in plot.canvas.outlier_text.textItem.toPlainText()


def test_the_latency_axis_keeps_its_width_when_its_tick_texts_change(plot, qtbot):
    plot.show()
    qtbot.waitExposed(plot)
    left = plot.samples_plot.getPlotItem().getAxis("left")
    widths = []
    for run, ms in enumerate((0.5, 800.0, 3.0)):  # ticks from "0.1" to "800"
        plot.begin_series("cpu", f"float{run}", expected=10)
        _stream(plot, [ms * (1 + 0.01 * i) for i in range(10)])
        plot.samples_plot.grab()  # painted: pyqtgraph measures its tick texts as it paints them
        qtbot.wait(10)  # and lays the plot out again if they asked for another width
        widths.append(left.width())
    assert len(set(widths)) == 1, widths
