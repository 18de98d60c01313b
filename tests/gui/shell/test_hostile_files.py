"""Hostile model files in the window (issue 32, items 3 and 5): the trust question names the
shell command first and lists every name under Show Details; a load whose file is being
checked can be cancelled, and the model shown stays."""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPushButton, QTableView

from inspector.core.errors import Cancelled
from inspector.core.files import load_bounds
from tests.gui.helpers import table_rows, widget, GENEROUS_MS
from tests.processes import GENEROUS_S
from tests.hostile_files import DECOYS, checkpoint_with_pickle, decoy_pickle, marks_pickle
from tests.gui import doors


def _history(window) -> list[dict[str, str]]:
    return table_rows(widget(window, QTableView, "historyView").model())


@pytest.mark.parametrize("packed", ["raw pickle", "zip checkpoint"])
def test_the_trust_question_names_the_shell_command_first(qtbot, window, tmp_path, packed):
    target = tmp_path / "created-by-payload"
    if packed == "raw pickle":
        path = tmp_path / "model.pkl"
        path.write_bytes(decoy_pickle(target))
    else:
        path = checkpoint_with_pickle(tmp_path / "model.pt", decoy_pickle(target))

    window.open_model(str(path))
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "trustDialog") is not None, timeout=30_000)
    dialog = window.findChild(QMessageBox, "trustDialog")
    text = dialog.informativeText()
    assert "It asks for: posix.system — runs a shell command, aaa_models.TransformerBlock0" in text
    assert "and 2 more (Show Details lists them all)" in text
    details = dialog.detailedText()
    assert details.startswith(str(path))
    assert all(name in details for name in ("posix.system — runs a shell command", *DECOYS))

    qtbot.mouseClick(dialog.button(QMessageBox.StandardButton.No), Qt.MouseButton.LeftButton)
    assert not target.exists()
    assert doors.model(window).info.spec == "example"


def test_cancel_stops_a_load_while_its_file_is_checked(qtbot, window, tmp_path, monkeypatch):
    """The check of a large file takes a while: Cancel is enabled, the check stops, the
    model shown stays. (The scan here waits for the cancel, so the test does not race it.)"""
    seen_cancel = []
    scanning = threading.Event()

    def slow_scan(*args, should_cancel=None, **kwargs):
        scanning.set()
        deadline = time.monotonic() + GENEROUS_S  # the GUI's cancel, at a loaded machine's pace
        while time.monotonic() < deadline:
            if should_cancel is not None and should_cancel():
                seen_cancel.append(True)
                raise Cancelled("scan cancelled")
            time.sleep(0.01)
        raise AssertionError("the load's check never saw the cancel")

    monkeypatch.setattr(load_bounds, "scan_pickles", slow_scan)
    path = marks_pickle(tmp_path / "slow.pkl", 60_000)  # past the sniff that tells a pickle
    before = len(_history(window))
    window.open_model(str(path))
    qtbot.waitUntil(scanning.is_set, timeout=30_000)  # the file is being checked
    assert doors.busy(window) == "load"
    cancel = widget(window, QPushButton, "cancelButton")
    qtbot.waitUntil(cancel.isEnabled, timeout=GENEROUS_MS)
    qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)

    qtbot.waitUntil(lambda: len(_history(window)) > before and doors.busy(window) is None, timeout=30_000)
    assert _history(window)[-1]["Result"] == "cancelled: the file was not loaded, the model shown is unchanged"
    assert doors.model(window).info.spec == "example"
    qtbot.waitUntil(lambda: seen_cancel == [True], timeout=GENEROUS_MS)  # the check itself stopped
