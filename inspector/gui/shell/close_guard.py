"""Quitting while work would be lost: ask first (``agree``), Cancel the default.

A person's quit (File › Quit, the window's close button) asks when:

- a benchmark has measured a while (more than ``ASK_AFTER_S`` of samples): its samples live
  in the worker until its run ends, so the question offers to stop it now and keep what it
  measured (the window stays open to show and export them), keep measuring, or close anyway;
- any other task runs, or a short benchmark: quit anyway, or cancel;
- the session holds results (measurements, fit answers, moves) no export has written: export
  the report first, quit without it, or cancel (issue 45 item 6: a quit during a benchmark
  asked nothing, and the run, the history and the results were gone).

Escape and the default are always the choice that loses nothing. A close the program makes
itself (a test's ``window.close()``, a remote window ending) asks nothing.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QWidget

from inspector.gui.common.i18n import fill, translate
from inspector.gui.common.pages import LATENCY
from inspector.gui.common.task_words import Task, task_label

#: A run with fewer seconds of samples than this closes without asking: a short one is soon
#: measured again, and a question on every close would be a nuisance.
ASK_AFTER_S = 10.0


class Answer(Enum):
    STOP_AND_KEEP = "stop"
    KEEP_MEASURING = "keep"  # (also every question's "Cancel": the close is called off)
    CLOSE_ANYWAY = "close"
    EXPORT_FIRST = "export"


def agree(window: Any, *, asked_by_person: bool) -> bool:
    """Whether ``window`` may close now: a close nobody asked for, or one with nothing to lose,
    goes on; otherwise the person is asked (see the module's doc)."""
    if not asked_by_person or not window.isVisible():
        return True
    task = window.tasks.task
    if task is Task.BENCHMARK and window.lazy_tabs.is_built(LATENCY):
        measured = window.lazy_tabs.page(LATENCY).measuring_seconds()
        if measured >= ASK_AFTER_S:
            answer = ask_to_close(window, measured)
            if answer is Answer.STOP_AND_KEEP and window.tasks.stop_keeping():
                window.statusBar().showMessage(stopping_text(), 15_000)
            return answer is Answer.CLOSE_ANYWAY
    if task is not None:
        return ask_about_task(window, task_label(task)) is Answer.CLOSE_ANYWAY
    count = unexported_results(window)
    if count:
        answer = ask_about_results(window, count)
        if answer is Answer.EXPORT_FIRST:  # File › Export report…, as the menu asks it
            export = window.findChild(QAction, "exportReportAction")
            if export is not None and export.isEnabled():
                export.trigger()
        return answer is Answer.CLOSE_ANYWAY
    return True


def unexported_results(window: Any) -> int:
    """How many results (measurements, fit answers, moves) the history holds since the last
    report written (``HistoryView.unsaved_results``)."""
    return int(window.frame.history.unsaved_results())


def ask_about_task(parent: QWidget, task: str) -> Answer:
    """A task runs: quitting stops it and drops what it has done. Quit anyway, or Cancel."""
    box = QMessageBox(parent)
    box.setObjectName("closeDuringTask")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(translate("CloseGuard", "Quit now?"))
    box.setText(fill(translate("CloseGuard", "A %1 is running. Quitting now stops it, and what it has done so far "
                                             "is lost."), task))  # fmt: skip
    return _choose(box, close=translate("CloseGuard", "Quit anyway"))


def ask_about_results(parent: QWidget, count: int) -> Answer:
    """Results no export has written: Export report…, Quit without exporting, or Cancel."""
    box = QMessageBox(parent)
    box.setObjectName("closeWithResults")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(translate("CloseGuard", "Quit without exporting?"))
    box.setText(translate("CloseGuard", "This session holds %n result(s) no report has saved (measurements, "
                                        "fit answers, moves). Quitting drops them.", None, count))  # fmt: skip
    box.setInformativeText(translate("CloseGuard", "File › Export report… saves them as JSON, HTML, Markdown or CSV."))
    export = box.addButton(translate("CloseGuard", "Export report…"), QMessageBox.ButtonRole.AcceptRole)
    export.setObjectName("exportFirstButton")
    answer = _choose(box, close=translate("CloseGuard", "Quit without exporting"))
    return Answer.EXPORT_FIRST if box.clickedButton() is export else answer


def _choose(box: QMessageBox, *, close: str) -> Answer:
    """Adds "close" and Cancel (the default and Escape) to ``box``, asks, and says which was chosen."""
    quit_button = box.addButton(close, QMessageBox.ButtonRole.DestructiveRole)
    quit_button.setObjectName("closeAnywayButton")
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    cancel.setObjectName("cancelCloseButton")
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    box.exec()
    clicked = box.clickedButton()
    box.deleteLater()
    return Answer.CLOSE_ANYWAY if clicked is quit_button else Answer.KEEP_MEASURING


def ask_to_close(parent: QWidget, measured_s: float) -> Answer:
    """Ask what to do with a run that has measured ``measured_s`` seconds of samples."""
    box = QMessageBox(parent)
    box.setObjectName("closeDuringBenchmark")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(translate("CloseGuard", "A benchmark is measuring"))
    box.setText(fill(translate("CloseGuard", "The benchmark has measured %1 of samples so far. Closing the window "
                                             "now throws them away."), duration_text(measured_s)))  # fmt: skip
    box.setInformativeText(translate(
        "CloseGuard", "Stop and keep: the run ends now and what it measured becomes its result (the plot, the history, "
                      "the report); the window stays open, and File › Export report… saves it."))  # fmt: skip
    stop = box.addButton(translate("CloseGuard", "Stop and keep what was measured"), QMessageBox.ButtonRole.AcceptRole)
    stop.setObjectName("stopAndKeepButton")
    keep = box.addButton(translate("CloseGuard", "Keep measuring"), QMessageBox.ButtonRole.RejectRole)
    keep.setObjectName("keepMeasuringButton")
    close = box.addButton(translate("CloseGuard", "Close anyway"), QMessageBox.ButtonRole.DestructiveRole)
    close.setObjectName("closeAnywayButton")
    box.setDefaultButton(keep)
    box.setEscapeButton(keep)
    box.exec()
    clicked = box.clickedButton()
    box.deleteLater()
    if clicked is stop:
        return Answer.STOP_AND_KEEP
    if clicked is close:
        return Answer.CLOSE_ANYWAY
    return Answer.KEEP_MEASURING


def duration_text(seconds: float) -> str:
    """``12 s``, ``12 min 34 s``: how long the samples measured."""
    whole = max(0, round(seconds))
    if whole < 60:
        return fill(translate("CloseGuard", "%1 s"), str(whole))
    return fill(translate("CloseGuard", "%1 min %2 s"), f"{whole // 60:,}", str(whole % 60))


def stopping_text() -> str:
    """The status bar's line once "Stop and keep" was chosen."""
    return translate("CloseGuard", "Stopping the benchmark: what it measured is kept (File › Export report… saves it)")
