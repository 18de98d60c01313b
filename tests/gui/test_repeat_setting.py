"""The window's Repeats setting (next to Runs) reaches core: the measurement holds that many
independent runs, taken one after another in the measuring process, and the report keeps
them (issue 33, "Verdicts that survive a rerun")."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QPushButton, QSpinBox, QTableView

from tests.gui.conftest import wait_idle
from tests.gui.helpers import widget


def test_the_repeats_setting_reaches_core_and_the_report_keeps_each_run(qtbot, window, tmp_path):
    wait_idle(qtbot, window)
    widget(window, QSpinBox, "runsSpin").setValue(15)
    repeat = widget(window, QSpinBox, "repeatSpin")
    assert repeat.value() == 1 and repeat.maximum() == 50
    repeat.setValue(3)
    history = widget(window, QTableView, "historyView").model()
    rows = history.rowCount()
    widget(window, QPushButton, "benchmarkButton").click()
    qtbot.waitUntil(lambda: window.busy_task is None and history.rowCount() > rows, timeout=60_000)
    assert len(window.latencyPlot.series[("cpu", "float32", "forward")].samples) == 45
    exported = tmp_path / "r.json"
    assert window.export_report(exported)
    qtbot.waitUntil(lambda: exported.exists() and window.reports.exporting is None, timeout=30_000)
    entry = json.loads(exported.read_text())["latency"][-1]
    assert [len(r) for r in entry["runs_ms"]] == [15, 15, 15]
