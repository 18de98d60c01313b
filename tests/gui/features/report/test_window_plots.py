"""The plots, report export and comparison, used from the main window (offscreen).

Driven like the other window tests: widgets and actions by object name, waits on what the
GUI thread shows (``qtbot.waitUntil``), never on a worker's own signals.
"""

from __future__ import annotations

import base64
import json
import re

import pyqtgraph as pg
from PySide6.QtGui import QAction, QGuiApplication, QImage
from PySide6.QtWidgets import QComboBox, QDialog, QFileDialog, QFrame, QSpinBox, QTableView

from inspector.core.report.timing_report import load_report
from inspector.core.units import format_ms
from inspector.gui.features.compare.view import ComparisonView
from inspector.gui.features.report.export import IMAGE_SIZE
from inspector.gui.features.latency.plot import LatencyPlot
from inspector.gui.features.memory.plot import MemoryPlot
from inspector.gui.common.svg_export import QtSvgExporter
from inspector.gui.common.pages import LATENCY, MEMORY
from tests.core.report.generated import scaled
from tests.faults import fill_disk_half_way_through_report_writes
from tests.gui.conftest import OFFSCREEN_NOISE
from tests.gui.helpers import table_rows, widget, GENEROUS_MS
from tests.gui.shell.test_window import click, start_long_benchmark, wait_history
from tests.gui import doors
from inspector.gui.features.report.flow import ReportFlow

RUN = ("cpu", "float32", "forward")  # the example Net's benchmark series


def history(window) -> list[dict[str, str]]:
    return table_rows(widget(window, QTableView, "historyView").model())


def choose(window, combo: str, text: str) -> None:
    box = widget(window, QComboBox, combo)
    box.setCurrentIndex(box.findText(text))
    assert box.currentText() == text


def benchmark(qtbot, window, runs: int = 20) -> None:
    widget(window, QSpinBox, "runsSpin").setValue(runs)
    before = len(history(window))
    click(qtbot, window, "benchmarkButton")
    wait_history(qtbot, window, before + 1)


def cast_on_cpu(qtbot, window, dtype: str) -> None:
    choose(window, "targetDeviceCombo", "cpu")
    choose(window, "dtypeCombo", dtype)
    before = len(history(window))
    click(qtbot, window, "toDeviceButton")
    wait_history(qtbot, window, before + 1)


def export(qtbot, window, path) -> dict[str, str]:
    """Export through the window; returns the history row the export added."""
    before = len(history(window))
    assert doors.part(window, ReportFlow).export_report(path)
    return wait_history(qtbot, window, before + 1)[-1]


def server_report(session, cpu_factor: float, gpu_factor: float) -> dict:
    """What ``bench`` on a GPU server writes for the same model: its CPU and a GPU, the
    session's samples so many times as slow (a report's figures are its samples')."""
    report = json.loads(json.dumps(session.to_dict()))  # the session's report, as its file holds it
    cpu = report["latency"][0]
    report["latency"] = [scaled(cpu, cpu_factor), scaled(cpu, gpu_factor, device="cuda:0")]
    report["environment"]["torch"] = "2.11.0+cu128"
    report["environment"]["devices"]["devices"].append(
        {"id": "cuda:0", "type": "cuda", "index": 0, "name": "NVIDIA H200", "total_bytes": 150 << 30}
    )
    return report


def latency_rows(view: ComparisonView) -> dict[str, int]:
    table = view.latency_table
    return {view.cell_text(table, r, "Device"): r for r in range(table.row_count())}


# ---------------------------------------------------------------- latency plot


def test_a_benchmark_fills_the_latency_plot_with_every_sample(qtbot, window):
    window.show()
    benchmark(qtbot, window, runs=20)
    plot = widget(window, LatencyPlot, "latencyPlot")
    assert window.tabs.currentWidget() is plot  # the run is shown as it happens
    qtbot.waitUntil(lambda: RUN in plot.canvas.items and len(plot.drawn(RUN)["samples"][0]) == 20, timeout=GENEROUS_MS)
    drawn = plot.drawn(RUN)
    assert drawn["samples"][0].tolist() == list(range(20))
    warmup_x = drawn["warmup"][0].tolist()
    assert warmup_x and all(x < 0 for x in warmup_x)  # the warm-up calls apart, left of sample 0
    assert len(drawn["median"][0]) == 20

    plot.tabs.setCurrentWidget(plot.summary_plot)
    (row,) = plot.summary_rows()
    assert row["label"] == "cpu · float32"
    assert f"median {format_ms(row['median_ms'], compact=True)}" in history(window)[-1]["Result"]  # the exact figure
    assert row["p5_ms"] <= row["median_ms"] <= row["p95_ms"]


def test_samples_stream_in_while_a_benchmark_runs_and_a_cancel_keeps_them(qtbot, window):
    start_long_benchmark(qtbot, window)
    plot = doors.page(window, LATENCY)
    qtbot.waitUntil(lambda: RUN in plot.series and len(plot.series[RUN].samples) > 0, timeout=GENEROUS_MS)
    assert doors.busy(window) == "benchmark"  # they arrived before the result
    # ...into a view spanning the samples asked for, steady while they come (live_range)
    assert plot.canvas.streaming and plot.canvas.expected_samples == doors.bar(window).runsSpin.value()
    click(qtbot, window, "cancelButton")
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=GENEROUS_MS)
    assert not plot.canvas.streaming
    plot.redraw()
    (row,) = plot.summary_rows()
    assert row["label"] == "cpu · float32 (cancelled)"
    span = doors.page(window, MEMORY).markers[-1]
    assert span.end is not None and span.label.endswith("(cancelled)")


def test_a_benchmark_that_opens_the_latency_tab_leaves_once_the_tab_is_drawn(qtbot, window):
    from PySide6.QtCore import QEvent, QObject

    class Paints(QObject):
        count = 0

        def eventFilter(self, watched, event):  # noqa: N802 (Qt's name)
            self.count += event.type() == QEvent.Type.Paint
            return False

    window.show()
    qtbot.waitExposed(window)
    plot = window.lazy_tabs.page(LATENCY)  # built, behind the History tab
    paints = Paints()
    plot.samples_plot.viewport().installEventFilter(paints)
    painted_when_sent: list[int] = []
    window.requests.benchmark.connect(lambda _request: painted_when_sent.append(paints.count))
    benchmark(qtbot, window, runs=5)
    assert painted_when_sent and painted_when_sent[0] >= 1  # the tab was on screen first
    assert history(window)[-1]["Result"].startswith("median")

    before = len(history(window))
    benchmark(qtbot, window, runs=5)  # the tab already open: it leaves at once
    assert len(painted_when_sent) == 2 and len(history(window)) == before + 1


def test_a_cancel_before_the_benchmark_left_ends_it_as_cancelled(qtbot, window):
    window.show()
    qtbot.waitExposed(window)
    widget(window, QSpinBox, "runsSpin").setValue(100_000)
    before = len(history(window))
    click(qtbot, window, "benchmarkButton")
    assert doors.busy(window) == "benchmark"  # the window's, while its tab is drawn
    window.cancel()
    rows = wait_history(qtbot, window, before + 1)
    assert rows[-1]["Result"].startswith("cancelled")
    benchmark(qtbot, window, runs=5)  # and the window goes on
    assert history(window)[-1]["Result"].startswith("median")


def test_a_run_that_fails_before_its_first_sample_leaves_the_earlier_one(qtbot, window):
    benchmark(qtbot, window, runs=10)
    plot = doors.page(window, LATENCY)
    first = plot.series[RUN].samples_ms.tolist()
    widget(window, QSpinBox, "runsSpin").setValue(10)
    doors.bar(window).inputShapeEdit.setText("8,5")  # the Net takes 3 features: the forward fails
    before = len(history(window))
    click(qtbot, window, "benchmarkButton")
    wait_history(qtbot, window, before + 1)
    assert widget(window, QFrame, "errorBanner").isVisibleTo(window)
    assert plot.series[RUN].samples_ms.tolist() == first
    plot.redraw()
    assert [r["label"] for r in plot.summary_rows()] == ["cpu · float32"]


# ---------------------------------------------------------------- memory plot


def test_a_cast_marks_the_memory_plot_which_has_points_for_every_device(qtbot, monkeypatch, make_window):
    from tests.fake_cuda import fake_cuda

    fake_cuda(monkeypatch, count=2)
    window = make_window()
    # The plot is built when its tab first shows; what happened before is on it then.
    assert window.findChild(MemoryPlot, "memoryPlot") is None
    cast_on_cpu(qtbot, window, "float64")
    qtbot.waitUntil(lambda: {"cpu", "cuda:0", "cuda:1"} <= set(window.timeline.devices()), timeout=GENEROUS_MS)
    window.tabs.setCurrentIndex([window.tabs.tabText(i) for i in range(window.tabs.count())].index("Memory"))
    plot = widget(window, MemoryPlot, "memoryPlot")
    assert plot.timeline is window.timeline and window.timeline.capacity >= 36_000  # an hour at 10 Hz
    assert plot.markers[0].label.startswith("load example") and plot.markers[0].end is not None

    span = plot.markers[-1]
    assert span.label == "model.to('cpu', dtype=torch.float64)" and span.end >= span.start
    assert isinstance(plot.canvas.marker_items[-1], pg.LinearRegionItem)
    assert span.label in plot.canvas.marker_items[-1].toolTip()
    assert not any(m.end is None and m.label.startswith("model.to") for m in plot.markers)  # line became span

    window.tabs.setCurrentWidget(plot)
    window.show()
    qtbot.waitUntil(lambda: ("cuda:1", "allocated") in plot.canvas.curves, timeout=GENEROUS_MS)
    for key in (("cpu", "model"), ("cpu", "process_rss"), ("cuda:0", "allocated"), ("cuda:1", "allocated")):
        assert len(plot.canvas.curves[key].xData) >= 1
    # Nine curves: the legend names the devices (colour) and the figures (line style) apart,
    # the model's own bytes first; with GPUs present the process and machine curves show.
    legend = [label.text for _, label in plot.canvas.getPlotItem().legend.items]
    assert legend[0].startswith("model") and legend[-3:] == ["cpu", "cuda:0", "cuda:1"]
    assert {"allocated", "reserved (cache)", "process RSS", "machine used"} <= set(legend)
    assert plot.canvas.curves["cpu", "process_rss"].isVisible() and plot.secondary_check.isChecked()
    assert plot.canvas.getAxis("left").labelText in ("memory (MiB)", "memory (GiB)")
    window.close()  # while the fake GPUs are still installed: the sampler reads them until then


def test_pause_resume_and_clear_from_the_window(qtbot, window):
    plot = doors.page(window, MEMORY)
    qtbot.waitUntil(lambda: "cpu" in window.timeline.devices(), timeout=GENEROUS_MS)
    qtbot.mouseClick(plot.pause_button, pg.QtCore.Qt.MouseButton.LeftButton)
    assert plot.paused and plot.pause_button.text() == "Resume"
    qtbot.mouseClick(plot.pause_button, pg.QtCore.Qt.MouseButton.LeftButton)
    assert not plot.paused
    assert plot.markers  # the load of the example Net
    started = window.timeline.t0
    qtbot.mouseClick(plot.clear_button, pg.QtCore.Qt.MouseButton.LeftButton)
    assert plot.markers == [] and plot.canvas.marker_items == []
    assert window.timeline.t0 > started  # the session's record starts afresh, clock at 0 s
    # The sampler goes on into the same timeline.
    qtbot.waitUntil(lambda: "cpu" in window.timeline.devices(), timeout=GENEROUS_MS)


def test_every_plot_in_the_window_saves_png_and_svg(window, tmp_path):
    doors.page(window, MEMORY).redraw()
    for plot in (doors.page(window, MEMORY).canvas, doors.page(window, LATENCY).samples_plot, doors.page(window, LATENCY).summary_plot):
        assert any(a.text() == "Export..." for a in plot.scene().contextMenu)
        item = plot.getPlotItem()
        png, svg = tmp_path / f"{plot.objectName()}.png", tmp_path / f"{plot.objectName()}.svg"
        pg.exporters.ImageExporter(item).export(str(png))
        assert not QImage(str(png)).isNull()
        QtSvgExporter(item).export(str(svg))
        assert "<svg" in svg.read_text(encoding="utf-8")


def test_the_sampling_rate_from_preferences_applies_now_and_next_time(qtbot, make_window, monkeypatch):
    from inspector.gui.common.dialogs import PreferencesDialog

    def choose_4_hz(dialog):
        dialog.rate_spin.setValue(4)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(PreferencesDialog, "exec", choose_4_hz)
    window = make_window()
    widget(window, QAction, "preferencesAction").trigger()
    qtbot.waitUntil(lambda: window.sampler._timer is not None and window.sampler._timer.interval() == 250, timeout=GENEROUS_MS)
    window.close()
    again = make_window()
    assert again.sampler._hz == 4.0


# ---------------------------------------------------------------- report


def test_export_writes_every_format_from_the_window(qtbot, window, tmp_path, monkeypatch):
    cast_on_cpu(qtbot, window, "float64")
    benchmark(qtbot, window, runs=20)
    # The HTML through the action and its file dialog, the way a user asks for it.
    html_path = tmp_path / "session.html"
    chosen = (str(tmp_path / "session"), "HTML page with plots (*.html)")  # typed without a suffix
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: chosen)
    before = len(history(window))
    widget(window, QAction, "exportReportAction").trigger()
    assert wait_history(qtbot, window, before + 1)[-1]["Result"] == "written"
    written = {}
    for suffix in (".csv", ".md", ".json"):
        path = tmp_path / f"session{suffix}"
        assert export(qtbot, window, path)["Result"] == "written"
        written[suffix] = path

    report = load_report(written[".json"]).to_dict()
    assert report == window.last_export.to_dict()  # exactly what the window built, read back
    assert [m["call"] for m in report["moves"]] == ["model.to('cpu', dtype=torch.float64)"]
    (latency,) = report["latency"]
    assert (latency["device"], latency["dtype"], len(latency["samples_ms"])) == ("cpu", "float64", 20)
    assert "cpu" in report["memory"] and report["memory"]["cpu"]
    assert "model.to('cpu', dtype=torch.float64)" in written[".md"].read_text(encoding="utf-8")
    assert "float64" in written[".csv"].read_text(encoding="utf-8")

    images = re.findall(r'src="data:image/png;base64,([^"]+)"', html_path.read_text(encoding="utf-8"))
    assert len(images) == 3  # latency samples, latency summary, memory
    for data in images:
        image = QImage.fromData(base64.b64decode(data), "PNG")
        assert (image.width(), image.height()) == IMAGE_SIZE
        colours = {image.pixel(x, y) for x in range(0, image.width(), 8) for y in range(0, image.height(), 8)}
        assert len(colours) > 2  # axes, text and data, not a blank page


def test_a_failed_export_shows_the_banner_and_keeps_the_old_file(qtbot, window, tmp_path, monkeypatch):
    banner = widget(window, QFrame, "errorBanner")
    not_a_folder = tmp_path / "notes.txt"
    not_a_folder.write_text("mine")
    row = export(qtbot, window, not_a_folder / "report.json")
    assert row["Result"].startswith("failed: could not write the report")
    assert banner.isVisibleTo(window) and "notes.txt" in banner.failure.message
    assert not_a_folder.read_text() == "mine"

    banner.dismiss()
    existing = tmp_path / "report.html"
    existing.write_bytes(b"the previous report")

    fill_disk_half_way_through_report_writes(monkeypatch)
    row = export(qtbot, window, existing)
    assert row["Result"].startswith("failed:") and "disk is full" in row["Result"]
    assert banner.isVisibleTo(window) and "disk is full" in banner.failure.message
    assert existing.read_bytes() == b"the previous report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "report.html"]  # no temporary file
    assert doors.busy(window) is None and widget(window, QAction, "exportReportAction").isEnabled()


def test_copy_as_markdown_puts_the_report_on_the_clipboard(qtbot, window):
    benchmark(qtbot, window, runs=10)
    QGuiApplication.clipboard().setText("")
    action = widget(window, QAction, "copyMarkdownAction")
    assert action.isEnabled()
    action.trigger()
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text() != "", timeout=GENEROUS_MS)
    text = QGuiApplication.clipboard().text()
    assert text.startswith("### torch-device-inspector timing report\n")
    assert "| cpu |" in text and "float32" in text
    assert doors.busy(window) is None


def test_closing_mid_export_ends_every_thread_without_qt_warnings(qtbot, window, tmp_path, monkeypatch, qtlog):
    import time

    from inspector.gui.features.report import export as export_module

    real_save = export_module.save_report

    def slow_save(*args, **kwargs):
        time.sleep(0.5)  # a report of hours of readings: the window closes while it is written
        return real_save(*args, **kwargs)

    monkeypatch.setattr(export_module, "save_report", slow_save)
    path = tmp_path / "late.json"
    assert doors.part(window, ReportFlow).export_report(path)
    qtbot.waitUntil(lambda: window._exporting is not None, timeout=GENEROUS_MS)
    window.close()
    assert window.threads_stopped
    assert all(t.isFinished() for t in window.threads())
    assert load_report(path).to_dict()["model"]["class"] == "Net"  # finished within the bound, not abandoned
    warnings = [r.message for r in qtlog.records if not r.message.startswith(OFFSCREEN_NOISE)]
    assert warnings == []


# ---------------------------------------------------------------- comparison


def test_a_report_opened_from_disk_is_compared_with_the_session(qtbot, window, tmp_path, monkeypatch):
    benchmark(qtbot, window, runs=200)  # enough samples for a steady interval on a loaded machine
    session = tmp_path / "session.json"
    export(qtbot, window, session)
    server = tmp_path / "gpu-server.json"
    # Four times as slow: a loaded VM's medians jump 2x between runs, so a 2x gap can
    # honestly read "no clear difference" (the interval spans 1), which is not what this tests.
    server.write_text(json.dumps(server_report(load_report(session), cpu_factor=4.0, gpu_factor=0.25)))

    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(server), "Timing report (*.json)"))
    widget(window, QAction, "openReportAction").trigger()
    view = widget(window, ComparisonView, "comparisonView")
    assert window.tabs.currentWidget() is view
    table = widget(window, QTableView, "comparisonLatencyTable")
    qtbot.waitUntil(lambda: view.reports["a"] is not None and set(latency_rows(view)) == {"cpu", "cuda:0"},
                    timeout=GENEROUS_MS)  # fmt: skip
    rows = latency_rows(view)
    # The session's own CPU median against the server's, which was made four times as slow.
    session_median = doors.page(window, LATENCY).series[RUN].summary()["median_ms"]
    assert view.cell_text(table, rows["cpu"], "A median (ms)") == format_ms(session_median, compact=True)
    assert view.cell_text(table, rows["cpu"], "B ÷ A") == "4.00×"
    verdict = view.cell_text(table, rows["cpu"], "Verdict")
    if json.loads(session.read_text())["latency"][0].get("noisy"):
        # A loaded machine's run, flagged noisy by its own samples, supports no claim (issue 46):
        # the verdict says so and names the commands that can tell.
        assert verdict.startswith("no verdict") and "--against" in verdict, verdict
    else:
        assert verdict.startswith("B 4.00× slower"), verdict
    assert view.cell_text(table, rows["cuda:0"], "B vs CPU") == "16.00×"  # 4x / 0.25x on the server
    assert view.cell_text(table, rows["cuda:0"], "Verdict") == "only in B"
    assert "This session" in view.summary_label.text() and "gpu-server.json" in view.summary_label.text()
    env = view.environment_table
    torch_row = next(r for r in range(env.row_count()) if view.cell_text(env, r, "What") == "PyTorch")
    assert view.cell_text(env, torch_row, "B") == "2.11.0+cu128"

    # A benchmark after that updates the session's side of the comparison.
    cast_on_cpu(qtbot, window, "float64")
    benchmark(qtbot, window, runs=10)
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: "float64" in {view.cell_text(table, r, "Dtype") for r in range(table.row_count())},
                    timeout=GENEROUS_MS)  # fmt: skip

    # "Compare with…": the opened report against a second one from disk.
    other = tmp_path / "other-server.json"
    other.write_text(json.dumps(server_report(load_report(session), cpu_factor=1.0, gpu_factor=0.5)))
    compare_with = widget(window, QAction, "compareWithAction")
    assert compare_with.isEnabled()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(other), "Timing report (*.json)"))
    compare_with.trigger()
    qtbot.waitUntil(lambda: view.labels["b"] == "other-server.json", timeout=GENEROUS_MS)
    summary = view.summary_label.text()
    assert "<b>A</b> = <b>gpu-server.json</b>" in summary and "<b>B</b> = <b>other-server.json</b>" in summary
    rows = latency_rows(view)
    assert set(rows) == {"cpu", "cuda:0"}
    assert view.cell_text(table, rows["cuda:0"], "B ÷ A") == "2.00×"  # 0.5x against 0.25x


def test_a_file_that_is_not_a_report_shows_the_banner(qtbot, window, tmp_path):
    path = tmp_path / "notes.json"
    path.write_text('{"hello": 1}')
    doors.part(window, ReportFlow).open_report(path)
    banner = widget(window, QFrame, "errorBanner")
    qtbot.waitUntil(lambda: banner.isVisibleTo(window), timeout=GENEROUS_MS)
    assert "not a timing report" in banner.failure.message
