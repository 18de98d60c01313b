"""The plots speak the window's language and switch with it; the images drawn for a report
file stay English whatever the window speaks (a report is shared with others)."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtWidgets import QGraphicsTextItem  # noqa: E402

from inspector.core.devices.discovery import MemoryReading, memory_reading  # noqa: E402
from inspector.core.measure.memory_log import MemoryTimeline  # noqa: E402
from inspector.core.session import LoadRequest, Session  # noqa: E402
from inspector.gui.features.report.export import export_filter, path_with_suffix  # noqa: E402
from inspector.gui.features.latency.plot import LatencyPlot  # noqa: E402
from inspector.gui.features.memory.plot import MemoryPlot  # noqa: E402
from inspector.gui.features.latency import plot as latency_module  # noqa: E402
from inspector.gui.features.memory import plot as memory_module  # noqa: E402
from tests.gui.languages import has_chinese, speak  # noqa: E402

GiB = 1 << 30
pytestmark = pytest.mark.usefixtures("chinese")  # each test starts in Chinese; English comes back after


def _result(samples, *, dtype="float32", noise=None):
    ordered = sorted(samples)
    # (the measurement states its batch, as the model said it: core.measure.batch_dim)
    return {"device": "cpu", "dtype": dtype, "mode": "forward", "input_shape": [64, 3], "batch": 64, "samples_ms": samples,
            "warmup_samples_ms": [1.0, 0.5], "median_ms": ordered[len(ordered) // 2], "p5_ms": ordered[1],
            "p95_ms": ordered[-3], "noise": noise}  # fmt: skip


@pytest.fixture
def runs(qtbot):
    """A latency plot with a finished run (an outlier among its samples) and a cancelled one."""
    plot = LatencyPlot()
    qtbot.addWidget(plot)
    plot.begin_series("cpu", "float32", "forward")
    plot.finish_series(_result([0.036 + 0.001 * (i % 7) for i in range(60)] + [2.5]))
    plot.begin_series("cpu", "float64", "forward")
    plot.add_sample(0, 0.05)
    plot.abort_series("cancelled")
    plot.redraw()
    return plot


def _legend(plot_item) -> list[str]:
    return [label.text for _, label in plot_item.legend.items]


def _bars(plot) -> list[str]:
    import pyqtgraph as pg

    return [i.textItem.toPlainText() for i in plot.summary_plot.getPlotItem().items if isinstance(i, pg.TextItem)]


def test_the_latency_plot_says_everything_again_when_the_language_changes(runs, qapp):
    plot = runs
    samples, summary = plot.samples_plot.getPlotItem(), plot.summary_plot.getPlotItem()
    assert [plot.tabs.tabText(i) for i in (0, 1)] == ["样本", "汇总"] and plot.logCheck.text() == "对数刻度"
    assert samples.getAxis("left").labelText == "延迟 (µs)"
    assert samples.getAxis("bottom").labelText == "样本（预热调用位于负索引处）"
    assert {"累计中位数", "预热调用（不计时）", "cpu · float64（已取消）"} <= set(_legend(samples))
    assert "▲ 上方有 1 个离群值（最大 2.50 ms）" in plot.canvas.outlier_text.textItem.toPlainText()
    assert summary.getAxis("left").labelText == "延迟 (µs)" and summary.getAxis("bottom").labelText == "柱：中位数 · 须线：p5–p95"
    assert any("次调用/s" in bar and "项/s（批大小 64）" in bar for bar in _bars(plot))
    assert plot.readout_at(-1, 0.5).startswith("预热调用 2/2 · cpu · float32：")
    assert plot.summary_readout_at(0.0).startswith("cpu · float32：中位数 ")

    speak(qapp, "en")
    assert [plot.tabs.tabText(i) for i in (0, 1)] == ["Samples", "Summary"] and plot.logCheck.text() == "Log scale"
    assert samples.getAxis("left").labelText == "latency (µs)"
    assert {"running median", "warm-up call (not timed)", "cpu · float64 (cancelled)"} <= set(_legend(samples))
    assert "▲ 1 outlier above (largest 2.50 ms)" in plot.canvas.outlier_text.textItem.toPlainText()
    assert summary.getAxis("left").labelText == "latency (µs)"
    assert any("calls/s" in bar for bar in _bars(plot)) and not any(has_chinese(bar) for bar in _bars(plot))
    assert plot.readout_at(-1, 0.5).startswith("warm-up call 2 of 2 · cpu · float32: ")
    assert plot.summary_rows()[1]["label"] == "cpu · float64 (cancelled)"


def test_the_hover_readout_and_the_top_modules_follow_the_language(runs, qapp):
    from inspector.gui.common.i18n import translate

    plot = runs
    plot._samples_hovered(plot.samples_plot.getPlotItem().getViewBox().sceneBoundingRect().center())
    plot.set_top_modules(lambda: translate("ModuleSummary", "no module ran"))
    plot.tabs.setCurrentWidget(plot.summary_plot)
    assert plot.modulesLabel.text() == "没有模块运行" and plot.readout.text().startswith("样本 ")
    speak(qapp, "en")
    assert plot.modulesLabel.text() == "no module ran" and plot.readout.text().startswith("sample ")


def _scene_texts(item) -> list[str]:
    """Every text the plot's scene would draw (axis labels, legend, labels on the plot)."""
    return [i.toPlainText().strip() for i in item.scene().items() if isinstance(i, QGraphicsTextItem) and i.toPlainText()]


def test_the_report_images_stay_english_while_the_window_speaks_chinese(runs, qtbot, monkeypatch):
    drawn: dict[str, list[str]] = {}

    def capture(name):
        return lambda item, width, height: drawn.setdefault(name, _scene_texts(item)) and b""

    monkeypatch.setattr(latency_module, "png_bytes", capture("latency"))
    runs.render_png(view="samples")
    monkeypatch.setattr(latency_module, "png_bytes", capture("summary"))
    runs.render_png(view="summary")
    memory = MemoryPlot()
    qtbot.addWidget(memory)
    memory.add_readings([MemoryReading("cuda:0", 1.0, GiB, 2 * GiB, 3 * GiB, 80 * GiB), memory_reading("cpu")])
    memory.redraw()
    monkeypatch.setattr(memory_module, "png_bytes", capture("memory"))
    memory.render_png()

    assert any(has_chinese(text) for text in _legend(runs.samples_plot.getPlotItem()))  # the window: Chinese
    assert {"running median", "latency (µs)", "cpu · float64 (cancelled)", "◀ warm-up"} <= set(drawn["latency"])
    assert any("▲ 1 outlier above" in text for text in drawn["latency"])
    assert any("calls/s" in text for text in drawn["summary"]) and {"latency (µs)", "bar: median · whiskers: p5–p95"} <= set(drawn["summary"])
    assert {"time since start (s)", "cuda:0 allocated", "cuda:0 reserved (cache)"} <= set(drawn["memory"])
    for texts in drawn.values():
        assert not [text for text in texts if has_chinese(text)]


def test_the_memory_plot_says_everything_again_when_the_language_changes(qtbot, qapp):
    timeline = MemoryTimeline()
    plot = MemoryPlot(timeline=timeline)
    qtbot.addWidget(plot)
    timeline.add([memory_reading("cpu")])
    Session(timeline).load(LoadRequest("example"))
    timeline.add([memory_reading("cpu")])
    plot.set_window(120.0)
    plot.redraw()
    canvas = plot.canvas.getPlotItem()
    t = float(plot.canvas.curves["cpu", "model"].xData[-1])
    assert plot.pause_button.text() == "暂停" and plot.clear_button.text() == "清除"
    assert [plot.window_combo.itemText(i) for i in range(4)] == ["整个时间线", "最近 30 s", "最近 5 min", "最近 120 s"]
    assert canvas.getAxis("left").labelText == "内存 (B)" and _legend(canvas)[0] == "cpu 上的模型"
    assert "cpu 上的模型 " in plot.readout_at(t) and "参数 " in plot.readout_at(t)
    plot.set_paused(True)
    assert plot.pause_button.text() == "继续" and plot.pause_action.text() == "暂停内存图"

    speak(qapp, "en")
    assert plot.pause_button.text() == "Resume" and plot.clear_button.text() == "Clear"
    assert [plot.window_combo.itemText(i) for i in range(4)] == ["Whole timeline", "Last 30 s", "Last 5 min", "Last 120 s"]
    assert canvas.getAxis("left").labelText == "memory (B)" and _legend(canvas)[0] == "model on cpu"
    assert "model on cpu " in plot.readout_at(t) and "(parameter " in plot.readout_at(t)


def test_the_export_dialogs_filters_are_translated_and_still_pick_the_suffix():
    filters = export_filter().split(";;")
    assert "带图表的 HTML 页面 (*.html)" in filters
    assert path_with_suffix("out", "带图表的 HTML 页面 (*.html)").name == "out.html"
    assert path_with_suffix("out", "延迟样本的 CSV，用于数据透视 (*.csv)").name == "out.csv"
    assert path_with_suffix("out", "CSV 表格的 ZIP 包，每个部分一张表 (*.zip)").name == "out.zip"
