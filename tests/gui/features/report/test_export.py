"""Exporting the session's report from the window: every format, off the GUI thread, atomically."""

from __future__ import annotations

import base64
import re

import numpy as np
import pyqtgraph as pg
import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QAction, QGuiApplication, QImage  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from inspector.core.devices.discovery import memory_reading  # noqa: E402
from inspector.core.errors import Failure  # noqa: E402
from inspector.core.placement.model_memory import model_bytes  # noqa: E402
from inspector.core.placement.tensor_rows import snapshot  # noqa: E402
from inspector.core.files.models import example_model  # noqa: E402
from inspector.core.moves.request import MoveRequest  # noqa: E402
from inspector.core.moves.transaction import move_model  # noqa: E402
from inspector.core.report.markdown_view import render_markdown  # noqa: E402
from inspector.core.report.timing_report import build_report, load_report  # noqa: E402
from inspector.core.measure.run_control import RunControl  # noqa: E402
from inspector.core.measure.timing import measure_latency  # noqa: E402
# noqa: E402
from inspector.gui.features.report.export import (
    IMAGE_SIZE,
    ReportExporter,
    copy_markdown,
    export_filter,
    path_with_suffix,
    plot_images,
)
from inspector.gui.features.latency.plot import LatencyPlot  # noqa: E402
from inspector.gui.features.memory.plot import MemoryPlot  # noqa: E402
from tests.faults import fill_disk_half_way_through_report_writes  # noqa: E402
from tests.report_edge import typed  # noqa: E402
from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS


@pytest.fixture(scope="module")
def session(qapp):
    """A short session: a dtype cast and a benchmark, with memory readings around them."""
    loaded = example_model()
    memory_plot, latency_plot = MemoryPlot(), LatencyPlot()
    memory_plot.add_readings([memory_reading("cpu")])
    # The model's own bytes, as the window's Session records them after a load and a move.
    memory_plot.timeline.record_model(model_bytes(snapshot(loaded)))
    started = memory_plot.mark("cast starts")
    move = move_model(loaded, MoveRequest("to", dtype="float64"))
    memory_plot.timeline.record_model(model_bytes(snapshot(loaded)))
    memory_plot.mark_span(move.call, started)
    memory_plot.add_readings([memory_reading("cpu")])
    latency_plot.begin_series("cpu", "float64")
    latency = measure_latency(loaded, runs=30, control=RunControl(on_sample=latency_plot.add_sample))
    latency_plot.finish_series(latency)
    memory_plot.redraw()
    latency_plot.redraw()
    report = build_report(loaded, moves=[move], latency=[latency], memory=memory_plot.timeline.to_report())
    yield report, memory_plot, latency_plot
    memory_plot.deleteLater()
    latency_plot.deleteLater()


@pytest.fixture
def exporter(qtbot):
    exporter = ReportExporter()
    yield exporter
    assert exporter.wait(GENEROUS_MS)


def _export(qtbot, exporter, report, path, images=None):
    """Run one export and return ("finished", path) or ("failed", Failure)."""
    outcome = {}
    exporter.finished.connect(lambda p: outcome.setdefault("finished", p))
    exporter.failed.connect(lambda f: outcome.setdefault("failed", f))
    exporter.export(typed(report), path, images)
    qtbot.waitUntil(lambda: bool(outcome), timeout=GENEROUS_MS)
    ((kind, value),) = outcome.items()
    return kind, value


@pytest.mark.parametrize("suffix", [".json", ".csv", ".md", ".html", ".zip"])
def test_export_writes_each_format(qtbot, exporter, session, tmp_path, suffix):
    report, memory_plot, latency_plot = session
    path = tmp_path / f"report{suffix}"
    with qtbot.waitSignal(exporter.progress, timeout=GENEROUS_MS) as progress:
        kind, value = _export(qtbot, exporter, report, path, plot_images(memory_plot, latency_plot))
    assert (kind, value) == ("finished", str(path))
    assert progress.args is not None
    if suffix == ".zip":  # CSV tables: the samples' one among them
        import zipfile

        with zipfile.ZipFile(path) as archive:
            text = archive.read("samples.csv").decode("utf-8")
    else:
        text = path.read_text(encoding="utf-8")
    assert report["latency"][0]["device"] in text
    if suffix == ".json":
        assert load_report(path).to_dict() == report


def _pixels(png: bytes) -> np.ndarray:
    """A PNG as a height x width x RGB array."""
    image = QImage.fromData(png, "PNG").convertToFormat(QImage.Format.Format_RGB32)
    assert not image.isNull()
    argb = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.width() * image.height() * 4)
    return argb.reshape(image.height(), image.width(), 4)[..., 2::-1].copy()  # BGRA in memory


def _ink_inside_plot_area(pixels: np.ndarray) -> int:
    """How many pixels inside the axes are drawn darker than a grid line or a shaded span.

    The plot area is found from the image itself: the left axis is the column, in the left
    third, with the most dark pixels; the bottom axis the row, in the bottom third, with the
    most; the area starts where the left axis line starts. Labels and the legend lie outside.
    """
    dark = pixels.min(axis=-1) < 100
    height, width = dark.shape
    left = int(dark[:, : width // 3].sum(axis=0).argmax())
    bottom = height - height // 3 + int(dark[height - height // 3 :].sum(axis=1).argmax())
    top = int(np.nonzero(dark[:, left])[0].min())
    inside = pixels[top + 2 : bottom - 1, left + 2 : width - 2]
    return int((inside.min(axis=-1) < 170).sum())


def test_html_export_embeds_plot_images_that_are_not_blank(qtbot, exporter, session, tmp_path):
    report, memory_plot, latency_plot = session
    images = plot_images(memory_plot, latency_plot)
    assert set(images) == {"Latency samples", "Latency summary", "Memory"}
    path = tmp_path / "report.html"
    assert _export(qtbot, exporter, report, path, images)[0] == "finished"

    embedded = re.findall(r'<h3>([^<]+)</h3><img alt="[^"]*" src="data:image/png;base64,([^"]+)"', path.read_text(encoding="utf-8"))
    assert [title for title, _data in embedded] == list(images)
    # The same plots with no data: axes, labels and grid only.
    empty_memory, empty_latency = MemoryPlot(), LatencyPlot()
    qtbot.addWidget(empty_memory)
    qtbot.addWidget(empty_latency)
    empty = {
        "Memory": empty_memory.render_png(*IMAGE_SIZE),
        "Latency samples": empty_latency.render_png(*IMAGE_SIZE, view="samples"),
        "Latency summary": empty_latency.render_png(*IMAGE_SIZE, view="summary"),
    }
    # And the same plots with their data items left unpainted: what markers and labels alone draw.
    with pytest.MonkeyPatch.context() as patch:
        for item in (pg.PlotCurveItem, pg.ScatterPlotItem, pg.BarGraphItem, pg.ErrorBarItem):
            patch.setattr(item, "paint", lambda self, *args: None)
        without_curves = plot_images(memory_plot, latency_plot)
    for title, data in embedded:
        pixels = _pixels(base64.b64decode(data))
        assert pixels.shape[:2] == IMAGE_SIZE[::-1]  # fixed, whatever the window's size
        blank = _ink_inside_plot_area(_pixels(empty[title]))
        bare = _ink_inside_plot_area(_pixels(without_curves[title]))
        drawn = _ink_inside_plot_area(pixels)
        assert blank < 20, f"{title}: empty axes should leave the plot area clear, not {blank} pixels"
        # The curves, points and bars themselves: hundreds of pixels more than the rest draws.
        assert drawn > max(blank, bare) + 300, f"{title}: {drawn} pixels drawn, {bare} without curves, {blank} empty"


def test_plot_images_leave_out_empty_plots(qtbot):
    memory_plot, latency_plot = MemoryPlot(), LatencyPlot()
    qtbot.addWidget(memory_plot)
    qtbot.addWidget(latency_plot)
    assert plot_images(memory_plot, latency_plot) == {}


def test_a_failed_export_leaves_the_existing_file_untouched(qtbot, exporter, session, tmp_path, monkeypatch):
    report = session[0]
    path = tmp_path / "report.json"
    path.write_bytes(b"the previous report")

    fill_disk_half_way_through_report_writes(monkeypatch)
    kind, failure = _export(qtbot, exporter, report, path)
    assert kind == "failed" and isinstance(failure, Failure)
    assert str(path) in failure.message and "disk is full" in failure.message
    assert path.read_bytes() == b"the previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left


def test_an_unwritable_path_fails_with_a_clear_message(qtbot, exporter, session, tmp_path):
    not_a_folder = tmp_path / "file.txt"
    not_a_folder.write_text("x")
    kind, failure = _export(qtbot, exporter, session[0], not_a_folder / "report.md")
    assert kind == "failed"
    assert "could not write the report" in failure.message and "file.txt" in failure.message


def test_an_unknown_suffix_is_refused_as_bad_input(qtbot, exporter, session, tmp_path):
    kind, failure = _export(qtbot, exporter, session[0], tmp_path / "report.xlsx")
    assert kind == "failed" and failure.kind == "input"
    assert ".json" in failure.message and ".html" in failure.message


def test_the_exporter_writes_a_copy_taken_when_asked(qtbot, exporter, session, tmp_path):
    report = {**session[0], "moves": list(session[0]["moves"])}
    path = tmp_path / "report.json"
    exporter.export(typed(report), path)
    report["moves"].clear()  # the window goes on changing its own dict
    assert exporter.wait(GENEROUS_MS)
    qtbot.waitUntil(path.exists, timeout=GENEROUS_MS)
    assert len(load_report(path).to_dict()["moves"]) == 1


def test_copy_as_markdown_puts_the_report_block_on_the_clipboard(qtbot, session):
    report = session[0]
    text = copy_markdown(typed(report))
    assert text == render_markdown(typed(report))
    assert QGuiApplication.clipboard().text() == text
    assert "float64" in text


def test_file_dialog_filter_and_suffix():
    assert export_filter().count(";;") == 4
    assert path_with_suffix("out", "ZIP of CSV tables, one per section (*.zip)").name == "out.zip"
    assert path_with_suffix("out", "HTML page with plots (*.html)").name == "out.html"
    assert path_with_suffix("out.md", "HTML page with plots (*.html)").name == "out.md"
    assert path_with_suffix("out").name == "out.json"


def _replace_question(qtbot, window) -> QMessageBox:
    """The "Replace the file?" box showing over ``window`` (earlier ones may await deletion)."""
    shown = lambda: [b for b in window.findChildren(QMessageBox, "replaceFileDialog") if b.isVisible()]  # noqa: E731
    qtbot.waitUntil(lambda: len(shown()) == 1, timeout=GENEROUS_MS)
    return shown()[0]


def test_export_asks_before_replacing_the_file_its_suffix_names(qtbot, window, tmp_path, monkeypatch):
    """Typing `notes` with a filter writes `notes<suffix>`: the dialog asked about `notes`
    (absent), so the window asks about the file it would really replace, and Enter keeps it."""
    from PySide6.QtWidgets import QFileDialog

    from tests.gui.features.report.test_window_plots import history

    typed = str(tmp_path / "notes")
    asked_at: list[str] = []
    answers: list[tuple[str, str]] = []

    def save_dialog(parent, title, start, filters):
        asked_at.append(start)
        return answers.pop(0)

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
    action = window.findChild(QAction, "exportReportAction")
    rows = len(history(window))
    for chosen_filter in export_filter().split(";;"):  # JSON, HTML, Markdown, CSV, ZIP
        notes = path_with_suffix(typed, chosen_filter)
        notes.write_text("my notes, not a report")
        asked_at.clear()
        answers[:] = [(typed, chosen_filter), ("", "")]  # then Cancel in the dialog shown again
        action.trigger()
        box = _replace_question(qtbot, window)
        assert notes.name in box.text() and box.detailedText() == str(notes)
        qtbot.keyClick(box, Qt.Key.Key_Return)  # the default answer keeps the file
        qtbot.waitUntil(lambda: len(asked_at) == 2, timeout=GENEROUS_MS)
        assert asked_at[1] == typed  # back in the dialog, at the name typed
        assert notes.read_text() == "my notes, not a report", notes.name
        assert len(history(window)) == rows and doors.busy(window) is None  # nothing was exported

    # A yes replaces it with the report.
    notes = tmp_path / "notes.json"
    answers[:] = [(typed, export_filter().split(";;")[0])]
    action.trigger()
    box = _replace_question(qtbot, window)
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Yes), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(history(window)) == rows + 1 and doors.busy(window) is None, timeout=30_000)
    assert load_report(notes).to_dict()["model"]
    # A name that holds no file yet is written without a question.
    answers[:] = [(str(tmp_path / "fresh"), export_filter().split(";;")[1])]
    action.trigger()
    qtbot.waitUntil(lambda: len(history(window)) == rows + 2 and doors.busy(window) is None, timeout=30_000)
    assert (tmp_path / "fresh.html").exists()
    assert not [b for b in window.findChildren(QMessageBox, "replaceFileDialog") if b.isVisible()]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_a_bug_in_the_writer_reaches_the_user_in_the_windows_language(qtbot, qapp, exporter, session, tmp_path,
                                                                      monkeypatch, language):  # fmt: skip
    """An error nobody foresaw (not an InspectorError) is said as a whole sentence in the window's
    language, naming the file; before, an English fragment sat inside the Chinese one."""
    from inspector.gui.features.report import export as export_module
    from tests.gui.languages import has_chinese, speak

    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug in the writer")

    monkeypatch.setattr(export_module, "save_report", broken)
    path = tmp_path / "report.json"
    speak(qapp, language)
    try:
        kind, failure = _export(qtbot, exporter, session[0], path)
    finally:
        speak(qapp, "en")
    assert kind == "failed" and failure.kind == "error"
    assert str(path) in failure.message and "a bug in the writer" in failure.message
    assert "RuntimeError" in failure.detail
    if language == "en":
        assert failure.message.startswith("could not export the report to ")
    else:
        assert failure.message.startswith("无法将报告导出到") and "export" not in failure.message
        assert has_chinese(failure.message)
