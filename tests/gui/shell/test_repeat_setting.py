"""The window's Repeats setting (next to Runs) reaches core: the measurement holds that many
independent runs, taken one after another in the measuring process, and the report keeps
them (issue 33, "Verdicts that survive a rerun")."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QPushButton, QSpinBox, QTableView

from tests.gui.conftest import wait_idle
from tests.gui.helpers import widget
from tests.report_edge import typed
from tests.gui import doors
from inspector.gui.common.pages import LATENCY
from inspector.gui.features.report.flow import ReportFlow


def test_the_repeats_setting_reaches_core_and_the_report_keeps_each_run(qtbot, window, tmp_path):
    wait_idle(qtbot, window)
    widget(window, QSpinBox, "runsSpin").setValue(15)
    repeat = widget(window, QSpinBox, "repeatSpin")
    assert repeat.value() == 1 and repeat.maximum() == 50
    repeat.setValue(3)
    history = widget(window, QTableView, "historyView").model()
    rows = history.rowCount()
    widget(window, QPushButton, "benchmarkButton").click()
    qtbot.waitUntil(lambda: doors.busy(window) is None and history.rowCount() > rows, timeout=60_000)
    assert len(doors.page(window, LATENCY).series[("cpu", "float32", "forward")].samples) == 45
    exported = tmp_path / "r.json"
    assert doors.part(window, ReportFlow).export_report(exported)
    qtbot.waitUntil(lambda: exported.exists() and doors.part(window, ReportFlow).exporting is None, timeout=30_000)
    entry = json.loads(exported.read_text())["latency"][-1]
    assert [len(r) for r in entry["runs_ms"]] == [15, 15, 15]


def test_a_comparison_of_single_runs_says_where_its_noise_figure_came_from_on_the_verdict(qtbot):
    from inspector.core.measure.run_noise import RunNoise
    from inspector.core.report.compare import compare_reports
    from inspector.gui.features.compare.rows import latency_table

    def report(median):
        samples = [median * (1 + 0.001 * (i % 7)) for i in range(200)]
        entry = {"device": "cpu", "dtype": "float32", "mode": "forward", "input_shape": [64, 3], "samples_ms": samples}
        return {"latency": [entry], "moves": []}

    comparison = compare_reports(typed(report(1.0)), typed(report(1.08)), run_noise=RunNoise(0.05, runs=12, records=3, when="2026-12-01"))
    headers, [row] = latency_table(comparison)
    verdict = row[headers.index("Verdict")]
    assert verdict.text == "no clear difference: within run-to-run noise (±15 %)"
    assert verdict.tooltip.startswith("one run on each side: how far a rerun lands is unknown")
    assert "measured by bench --repeat in 12 runs" in verdict.tooltip


def test_fresh_processes_take_every_run_and_the_result_says_so(qtbot, window):
    from PySide6.QtWidgets import QCheckBox

    wait_idle(qtbot, window)
    fresh = widget(window, QCheckBox, "freshProcessesCheck")
    repeat = widget(window, QSpinBox, "repeatSpin")
    assert not fresh.isHidden() and fresh.isEnabled()
    widget(window, QSpinBox, "runsSpin").setValue(20)
    repeat.setValue(2)
    fresh.setChecked(True)
    widget(window, QPushButton, "benchmarkButton").click()
    qtbot.waitUntil(lambda: doors.busy(window) is None and bool(window.worker.session.latencies), timeout=120_000)
    result = window.worker.session.latencies[-1]
    assert [len(r) for r in result.runs_ms] == [20, 20]
    assert "bench.fresh_runs" in [getattr(n, "key", None) for n in result.notes]
    assert len(doors.page(window, LATENCY).series[("cpu", "float32", "forward")].samples) == 40
    assert "bench.one_process_window" not in [getattr(n, "key", None) for n in result.notes]  # two processes
