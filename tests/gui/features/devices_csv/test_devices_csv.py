"""Edit › Copy devices table as CSV: a feature added as its package and one entry in the table of
features (``shell.features``), no other file touched. Driven through its door: its action in
the Edit menu, and the session state it reads."""

from __future__ import annotations

import io
from dataclasses import replace

import pandas as pd
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QMenu

from inspector.core.devices import DeviceInventory
from inspector.gui.features.devices_csv.copy import COLUMNS, csv_text


def _action(window) -> QAction:
    action = window.findChild(QAction, "copyDevicesTableAction")
    assert action is not None
    return action


def _clipboard() -> pd.DataFrame:
    return pd.read_csv(io.StringIO(QGuiApplication.clipboard().text()), keep_default_na=False, dtype=str)


def test_the_edit_menu_copies_one_row_per_device_the_window_lists(make_window, qtbot):
    window = make_window()
    qtbot.waitUntil(lambda: window.session_state.inventory is not None, timeout=30_000)
    edit = window.menuBar().findChild(QMenu, "editMenu")
    action = _action(window)
    names = [a.objectName() for a in edit.actions()]
    # In the menu's first group, after the copies the menu table places, before Preferences.
    assert names.index("copyDevicesTableAction") < names.index("preferencesAction")
    assert action.isEnabled()
    QGuiApplication.clipboard().setText("")

    action.trigger()

    table = _clipboard()
    devices = window.session_state.inventory.devices
    assert list(table.columns) == list(COLUMNS)
    assert list(table["id"]) == [d.id for d in devices] and table["id"][0] == "cpu"
    assert all(int(b) > 0 for b in table["total_bytes"] if b)
    assert "copied" in window.statusBar().currentMessage()


def test_a_device_name_is_never_a_spreadsheet_formula(make_window, qtbot):
    window = make_window()
    qtbot.waitUntil(lambda: window.session_state.inventory is not None, timeout=30_000)
    cpu = window.session_state.inventory.devices[0]
    hostile = replace(cpu, id="cuda:0", type="cuda", index=0, name="=HYPERLINK(\"http://x\",\"y\")")
    window.session_state.set_inventory(DeviceInventory((cpu, hostile, replace(hostile, id="cuda:1", name="+1-1"))))

    _action(window).trigger()

    names = list(_clipboard()["name"])
    assert names[1] == "'=HYPERLINK(\"http://x\",\"y\")" and names[2] == "'+1-1"  # quoted, kept whole
    assert names[0] == cpu.name


def test_with_no_devices_known_it_says_so_and_copies_nothing(qtbot):
    from inspector.gui.features.devices_csv.copy import copy_devices_table

    QGuiApplication.clipboard().setText("before")
    said: list[str] = []
    assert copy_devices_table(None, (), said.append) is False
    assert QGuiApplication.clipboard().text() == "before" and "not known" in said[0]
    assert csv_text(()) == ",".join(COLUMNS) + "\n"
