"""Edit › Copy tensor table as CSV: what a user pastes into pandas is the model's tensors, one row
each, with the devices and bytes the window shows."""

from __future__ import annotations

import io

import pandas as pd
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QMenu, QMessageBox

from inspector.core.placement import KINDS
from inspector.gui.common import i18n
from inspector.gui.common.actions import FeatureHost
from inspector.gui.features.tensor_table.copy import copy_tensor_table
from tests.gui.conftest import wait_idle
from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS


def _copy_action(window) -> QAction:
    action = window.findChild(QAction, "copyTensorTableAction")
    assert action is not None
    return action


def _read_clipboard() -> pd.DataFrame:
    return pd.read_csv(io.StringIO(QGuiApplication.clipboard().text()), keep_default_na=False)


def test_the_copied_table_reads_in_pandas_as_one_row_per_tensor(make_window, qtbot):
    window = make_window()
    edit = window.menuBar().findChild(QMenu, "editMenu")
    action = _copy_action(window)
    assert action in edit.actions() and action.isEnabled()
    QGuiApplication.clipboard().setText("")

    action.trigger()

    rows = doors.model(window).placement.tensors
    table = _read_clipboard()
    assert len(table) == len(rows) > 0
    assert list(table["name"]) == [r.name for r in rows]
    assert list(table["device"]) == [r.device for r in rows]
    assert list(table["bytes"]) == [r.bytes for r in rows]
    assert set(table["kind"]) <= set(KINDS)  # core's kinds: parameter, buffer, grad, optimizer_state
    assert "copied" in window.statusBar().currentMessage()


def test_after_a_training_step_the_table_holds_its_grads_on_their_devices(make_window, qtbot, monkeypatch):
    window = make_window()
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Ok)
    window.findChild(QAction, "trainStepAction").trigger()  # Tools › Run one training step…
    qtbot.waitUntil(lambda: any(r.kind == "grad" for r in doors.model(window).placement.tensors), timeout=60_000)
    wait_idle(qtbot, window)

    _copy_action(window).trigger()

    rows = doors.model(window).placement.tensors
    table = _read_clipboard()
    assert "grad" in set(table["kind"])
    assert list(zip(table["name"], table["kind"], table["device"], table["bytes"])) == [
        (r.name, r.kind, r.device, r.bytes) for r in rows
    ]


def test_with_no_model_loaded_it_says_so_and_leaves_the_clipboard_alone(qapp):
    from PySide6.QtWidgets import QWidget

    said: list[str] = []
    QGuiApplication.clipboard().setText("what the user copied before")
    host = FeatureHost(parent=QWidget(), model=lambda: None, say=said.append)
    assert copy_tensor_table(host) is False
    assert QGuiApplication.clipboard().text() == "what the user copied before"
    assert said == ["No model is loaded: there is no tensor table to copy"]


def test_in_chinese_the_menu_says_it_in_chinese(make_window, qtbot):
    window = make_window()
    action = _copy_action(window)
    assert action.text() == "Copy tensor &table as CSV"
    window.language.actions[i18n.CHINESE].trigger()
    try:
        qtbot.waitUntil(lambda: action.text() != "Copy tensor &table as CSV", timeout=GENEROUS_MS)
        assert action.text() == "将张量表复制为 CSV(&T)"
        assert "张量" in action.toolTip()
        action.trigger()
        assert "CSV" in window.statusBar().currentMessage() and "已" in window.statusBar().currentMessage()
    finally:
        window.language.actions[""].trigger()
    qtbot.waitUntil(lambda: action.text() == "Copy tensor &table as CSV", timeout=GENEROUS_MS)
