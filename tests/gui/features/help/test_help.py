"""The Help menu and the CPU-only machine's first-launch note (issue 12, item 9)."""

from __future__ import annotations

import torch
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QTextBrowser

from inspector.gui.features.help.pages import CPU_ONLY_NOTE, CPU_ONLY_NOTE_KEY
from tests.fake_cuda import fake_cuda
from tests.gui.deep_models import TRANSFORMER, factory_spec
from inspector.gui.features.fit.flow import FitFlow
from tests.gui import doors

cpu_only = __import__("pytest").mark.skipif(torch.cuda.is_available(), reason="what a machine without CUDA shows")


def page(window, action: str) -> str:
    window.findChild(QAction, action).trigger()
    dialog = window._help_dialogs
    shown = [d for d in dialog.values() if d.isVisible()]
    assert shown, f"{action} opened no page"
    text = shown[-1].findChild(QTextBrowser, "helpText").toPlainText()
    for d in shown:
        d.close()
    return text


def test_help_pages_say_what_to_click_the_shortcuts_and_the_report_format(qtbot, make_window, tmp_path):
    window = make_window(factory_spec(tmp_path, TRANSFORMER, "transformer"))
    start = page(window, "gettingStartedAction")
    assert "with a GPU" in start and "without a GPU" in start and ".to(device)" in start
    keys = page(window, "shortcutsAction")
    assert "Ctrl+T" in keys and "Run one training step" in keys and "Esc" in keys and "Ctrl+E" in keys
    report = page(window, "reportFormatAction")
    for key in ("schema_version", "environment", "moves", "latency", "memory", ".json", ".csv"):
        assert key in report


@cpu_only
def test_first_launch_on_a_cpu_only_machine_says_once_what_it_can_show(qtbot, make_window, clean_settings):
    assert not clean_settings.value(CPU_ONLY_NOTE_KEY, False, type=bool)
    first = make_window()
    first.show()
    note = first.statusBar().findChild(QLabel, "cpuOnlyNote")
    assert note is not None and note.text() == CPU_ONLY_NOTE and note.isVisible()
    assert clean_settings.value(CPU_ONLY_NOTE_KEY, False, type=bool)  # remembered (in the tests' own store)
    # A menu's status tip (hovering an action) hides it only while the tip shows.
    first.statusBar().showMessage("a status tip")
    assert not note.isVisible()
    first.statusBar().clearMessage()
    assert note.isVisible()
    first.close()
    second = make_window()
    assert second.statusBar().findChild(QLabel, "cpuOnlyNote") is None


def test_a_gpu_machine_gets_no_cpu_only_note(qtbot, monkeypatch, make_window, clean_settings):
    fake_cuda(monkeypatch, count=1)
    window = make_window()
    assert window.statusBar().findChild(QLabel, "cpuOnlyNote") is None
    assert not clean_settings.value(CPU_ONLY_NOTE_KEY, False, type=bool)


@cpu_only
def test_what_help_promises_of_will_it_fit_is_what_the_dialog_offers_without_a_gpu(qtbot, make_window, clean_settings):
    """Issue 35, section 3 (and 36): the promise is the dialog's: this machine's devices (the CPU
    here), and a GPU you name from its list, said as an estimate."""
    from PySide6.QtWidgets import QComboBox

    window = make_window()
    window.show()
    note = window.statusBar().findChild(QLabel, "cpuOnlyNote")
    assert note is not None and "plan a GPU's memory" in note.text()
    start = page(window, "gettingStartedAction")
    assert "GPU included" not in start and "any device" not in start
    assert "on this machine's devices (here, the CPU, where one real step can prove it) or on a GPU you name" in start
    dialog = doors.part(window, FitFlow).show()
    table = dialog.table
    assert [table.item(row, 0).text() for row in range(table.rowCount())] == ["cpu"]  # the devices present
    named = dialog.findChild(QComboBox, "fitNamedCombo")
    assert named is not None and named.findText("RTX 4090") >= 0  # and a GPU to name
    dialog.close()
