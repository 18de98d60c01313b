"""The fit dialog lets the user choose the loop and the KV cache, as fit --keep-output and
--use-cache do (issue 47 items 3 and 4: each answer says which it planned; here the other can
be asked for)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QLabel, QPushButton

from inspector.gui.features.fit.flow import FitFlow
from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS, widget


def _notes_after_estimate(qtbot, window, dialog) -> str:
    dialog.measureCheck.setChecked(False)  # the plan is what is asked about: no real step
    qtbot.mouseClick(widget(dialog, QPushButton, "fitEstimateButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: doors.busy(window) is None and "loop:" in widget(dialog, QLabel, "fitNotes").text(),
                    timeout=GENEROUS_MS)  # fmt: skip
    return widget(dialog, QLabel, "fitNotes").text()


def test_the_loop_that_keeps_the_output_is_planned_when_checked_and_said(qtbot, window):
    dialog = doors.part(window, FitFlow).show()
    keep, cache = widget(dialog, QCheckBox, "fitKeepOutputCheck"), widget(dialog, QCheckBox, "fitUseCacheCheck")
    assert not keep.isChecked() and not cache.isChecked()  # the CLI's defaults
    assert "the output is freed before backward()" in _notes_after_estimate(qtbot, window, dialog)
    keep.setChecked(True)
    cache.setChecked(True)
    [request, *_] = dialog.requests()
    assert request.keep_output and request.use_cache
    notes = _notes_after_estimate(qtbot, window, dialog)
    assert "loop: out = model(x); out.loss.backward(); optimizer.step(): the output (the logits) is held" in notes


def test_the_choices_speak_chinese(qtbot, window, chinese):
    dialog = doors.part(window, FitFlow).show()
    keep = widget(dialog, QCheckBox, "fitKeepOutputCheck")
    assert keep.text() != "keep the output" and "out=model(x)" in keep.toolTip()
