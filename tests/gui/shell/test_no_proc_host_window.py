"""The window on a host without Linux's /proc and /sys, as macOS and Windows are (issue 47
item 14; tests/odd_host.py): the Devices panel lists the CPU with its memory, and a benchmark
runs through the Benchmark button, its report saying what was not measured here."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QSpinBox, QTableView

from tests.gui.helpers import table_rows, widget
from tests.gui.shell.test_window import click, history, wait_history
from inspector.gui.features.report.flow import ReportFlow
from tests.gui import doors


def test_the_devices_panel_and_a_benchmark_work_without_proc(qtbot, no_proc_host, make_window, tmp_path):
    window = make_window()
    rows = table_rows(widget(window, QTableView, "deviceTable").model())
    assert rows[0]["Device"] == "cpu" and "GiB" in rows[0]["Memory used / total"]

    widget(window, QSpinBox, "runsSpin").setValue(30)
    before = len(history(window))
    click(qtbot, window, "benchmarkButton")
    rows = wait_history(qtbot, window, before + 1)
    assert rows[-1]["Call"].startswith("forward ×30 · cpu float32") and not rows[-1]["Result"].startswith("failed")

    path = tmp_path / "session.json"
    assert doors.part(window, ReportFlow).export_report(path)
    wait_history(qtbot, window, before + 2)
    (latency,) = json.loads(path.read_text(encoding="utf-8"))["latency"]
    machine = latency["machine"]
    assert machine["involuntary_switches"] is None and machine["steal_share"] is None  # never a 0
    assert "not measured here" in machine["note"]
