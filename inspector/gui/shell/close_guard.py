"""Closing the window while a benchmark measures: after a while of samples, ask first.

A benchmark's samples live in the worker until its run ends; closing the window cancels the
run, and what it measured is gone. Once a run holds more than ``ASK_AFTER_S`` of samples, the
close asks, with three plain choices: stop the run now and keep what it measured (the run ends
as a result of those samples, in the plot, the history and the report, and the window stays
open to show and export them), keep measuring (the close is called off), or close anyway.
Escape and the default are "keep measuring": nothing is lost by a slip of the key.
"""

from __future__ import annotations

from enum import Enum

from PySide6.QtWidgets import QMessageBox, QWidget

from inspector.gui.common.i18n import fill, translate

#: A run with fewer seconds of samples than this closes without asking: a short one is soon
#: measured again, and a question on every close would be a nuisance.
ASK_AFTER_S = 10.0


class Answer(Enum):
    STOP_AND_KEEP = "stop"
    KEEP_MEASURING = "keep"
    CLOSE_ANYWAY = "close"


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
