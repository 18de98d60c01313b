"""Export the timing report from the window: plot images, a background writer, "Copy as Markdown".

The three steps keep every thread in its lane (DESIGN.md, "Data flow"):

1. the ModelWorker builds the report dict (only it may read the model's tensors);
2. the GUI thread renders the plot images (``plot_images``: offscreen twins of the live
   plots at a fixed size, tens of milliseconds);
3. ``ReportExporter`` renders and writes the file on a pool thread, atomically
   (``inspector.core.report.timing_report.save_report``), and reports back through signals.

How the window uses it (``report_flow.ReportFlow``)::

    self.exporter = ReportExporter(self)
    self.exporter.progress.connect(self._on_export_progress)  # (done, total); total 0: busy
    self.exporter.finished.connect(self._on_export_finished)  # path written
    self.exporter.failed.connect(self._on_export_failed)      # Failure(kind, message, detail)
    images = plot_images(window.memoryPlot, window.latencyPlot)
    self.exporter.export(report, path, images, copy_report=False)  # returns at once
    copy_markdown(report)                                      # "Copy report as Markdown"
    self.exporter.wait(msecs)                                  # in MainWindow.shutdown

A report is a file shared with others and stays English whatever the window speaks: the plot
images are drawn by English twins of the plots (``render_png``) and keyed by English headings;
only the save dialog's filter names follow the window's language (``export_filter``).
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any, Callable, Mapping

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Qt, QThreadPool, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from inspector.core.files.terminal_text import escape_control
from inspector.core.report.markdown_view import render_markdown
from inspector.core.report.timing_report import SUPPORTED_SUFFIXES, save_report
from inspector.gui.i18n import fill, translate
from inspector.gui.pool import run_in_pool

#: Plot images are rendered at this size whatever the window's size, so reports compare.
IMAGE_SIZE = (960, 480)
#: For QFileDialog.getSaveFileName: one filter per format ``save_report`` writes (its name
#: translated where shown, its pattern as it is).
EXPORT_FILTERS = {
    QT_TRANSLATE_NOOP("ReportExport", "JSON report, opens again"): ".json",
    QT_TRANSLATE_NOOP("ReportExport", "HTML page with plots"): ".html",
    QT_TRANSLATE_NOOP("ReportExport", "Markdown for a bug report"): ".md",
    QT_TRANSLATE_NOOP("ReportExport", "CSV of the latency samples, to pivot"): ".csv",
    QT_TRANSLATE_NOOP("ReportExport", "ZIP of CSV tables, one per section"): ".zip",
}


def _filters() -> dict[str, str]:
    """Each filter as the dialog shows it (``"HTML page with plots (*.html)"``) -> its suffix."""
    return {f"{translate('ReportExport', name)} (*{suffix})": suffix for name, suffix in EXPORT_FILTERS.items()}


def export_filter() -> str:
    """The ``filter`` argument of ``QFileDialog.getSaveFileName``, in the window's language."""
    return ";;".join(_filters())


def path_with_suffix(path: str | Path, selected_filter: str = "") -> Path:
    """The path the user typed, given the chosen filter's suffix if it has none we write."""
    path = Path(path)
    if path.suffix.lower() in SUPPORTED_SUFFIXES:
        return path
    return path.with_name(path.name + _filters().get(selected_filter, ".json"))


def replaces_unasked(typed: str | Path, target: str | Path) -> bool:
    """Whether writing ``target`` would replace a file the save dialog did not ask about.

    The dialog (Qt's own or the platform's) asks about the name typed; a suffix appended
    afterwards (``path_with_suffix``) names another file, which may hold the user's notes.
    A link there counts as a file (writing replaces it), a dangling one too.
    """
    return Path(typed) != Path(target) and os.path.lexists(target)


def ask_replace(parent: QWidget, target: str | Path, on_yes: Callable[[], object],
                on_no: Callable[[], object]) -> QMessageBox:  # fmt: skip
    """Ask, window-modal and without blocking, whether to replace ``target``; "No" is the
    default (Enter keeps the file). Exactly one of ``on_yes()``, ``on_no()`` runs."""
    target = Path(target)
    box = QMessageBox(parent)
    box.setObjectName("replaceFileDialog")
    box.setIcon(QMessageBox.Icon.Warning)
    box.setTextFormat(Qt.TextFormat.PlainText)  # a file name is never markup
    box.setWindowTitle(translate("ReportExport", "Replace the file?"))
    box.setText(fill(translate("ReportExport", "%1 already exists."), escape_control(target.name)))
    box.setInformativeText(translate("ReportExport", "Replace it with the report? What it holds now is lost."))
    box.setDetailedText(str(target))
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    box.setDefaultButton(QMessageBox.StandardButton.No)
    box.button(QMessageBox.StandardButton.Yes).setText(translate("ReportExport", "Replace"))
    box.button(QMessageBox.StandardButton.No).setText(translate("ReportExport", "Choose another name"))
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def answered() -> None:
        if box.clickedButton() is box.button(QMessageBox.StandardButton.Yes):
            on_yes()
        else:  # No, Escape or the window's close button
            on_no()

    box.finished.connect(lambda _result: answered())
    box.open()  # window-modal and asynchronous, as the trust question
    return box


def plot_images(memory_plot: Any = None, latency_plot: Any = None,
                size: tuple[int, int] = IMAGE_SIZE) -> dict[str, bytes]:  # fmt: skip
    """PNG bytes of the plots that hold data, at ``size``, for ``save_report(images=...)``.

    GUI thread only (it draws widgets). Keys are the headings the HTML report shows. In
    English, as the whole report is, even when the window speaks another language.
    """
    width, height = size
    images: dict[str, bytes] = {}
    if latency_plot is not None and latency_plot.series:
        images["Latency samples"] = latency_plot.render_png(width, height, view="samples", english=True)
        images["Latency summary"] = latency_plot.render_png(width, height, view="summary", english=True)
    if memory_plot is not None and memory_plot.timeline.devices():
        images["Memory"] = memory_plot.render_png(width, height, english=True)
    return images


def copy_markdown(report: Mapping[str, Any]) -> str:
    """Put the report's Markdown block on the clipboard (to paste into an issue); return it."""
    text = render_markdown(dict(report))
    QGuiApplication.clipboard().setText(text)
    return text


class ReportExporter(QObject):
    """Writes reports on a background thread, one at a time, and says how it went.

    Signals (delivered on the thread that owns the exporter, the GUI thread):
    ``started(path)``, ``progress(done, total)`` (``total`` 0 means "busy", which a
    QProgressBar shows as a busy indicator: rendering and writing are one call),
    ``finished(path)`` and ``failed(Failure)``. Exactly one of the last two per export.
    A failed write leaves any file already at ``path`` untouched.
    """

    started = Signal(str)
    progress = Signal(int, int)
    finished = Signal(str)
    failed = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        # One writer: two exports to the same path land in the order they were asked for.
        self._pool.setMaxThreadCount(1)

    def export(self, report: Mapping[str, Any], path: str | Path,
               images: Mapping[str, bytes] | None = None, *, copy_report: bool = True) -> None:  # fmt: skip
        """Queue ``report`` (a plain dict) to be written to ``path``.

        A copy is taken unless ``copy_report`` is False, for a caller that hands over a dict
        nobody changes afterwards: copying an hour of readings of nine devices takes about
        a second, on the caller's (the GUI) thread.
        """
        # Copy on the caller's thread: the window may go on changing its own dicts.
        report_copy = copy.deepcopy(dict(report)) if copy_report else report
        image_copy = {str(k): bytes(v) for k, v in (images or {}).items()}
        target = str(path)

        def write() -> str:
            # On the pool thread: nothing here may touch a widget; everything ends in a signal.
            self.started.emit(target)
            self.progress.emit(0, 0)
            return str(save_report(report_copy, target, images=image_copy or None))

        run_in_pool(self._pool, write, done=self._written, failed=self.failed.emit,
                    what=f"export the report to {target}")  # fmt: skip

    def is_busy(self) -> bool:
        return self._pool.activeThreadCount() > 0

    def wait(self, msecs: int = 5000) -> bool:
        """Block until queued exports are written (for closeEvent); False on timeout."""
        return self._pool.waitForDone(msecs)

    def _written(self, path: str) -> None:
        self.progress.emit(1, 1)
        self.finished.emit(path)

