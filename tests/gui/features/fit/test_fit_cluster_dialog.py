"""The fit dialog plans a distributed run (issue 48): the GPU count and strategy asked, each
device's row one rank's plan, the proof's CPU ranks in rows of their own under it, run on the
model worker (the window answers meanwhile, Cancel ends the ranks), and the window's export
keeps the plan and each rank's reading."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QFileDialog, QPushButton, QSpinBox, QTableWidget
from PySide6.QtGui import QAction

from inspector.gui.features.fit.flow import FitFlow
from tests.core.report.test_report_json_schema import STRICT, problems
from tests.gui import doors
from tests.gui.features.fit.test_fit_named_gpu import _row
from tests.gui.helpers import GENEROUS_MS, widget

PROOF_MS = 10 * GENEROUS_MS  # two interpreters start, load the model and run two steps each


def _ask_cluster(qtbot, window, gpus: int, strategy: str, *, measure: bool):
    dialog = doors.part(window, FitFlow).show()
    widget(dialog, QSpinBox, "fitGpusSpin").setValue(gpus)
    combo = widget(dialog, QComboBox, "fitStrategyCombo")
    assert combo.isEnabled()
    combo.setCurrentIndex(combo.findData(strategy))
    widget(dialog, QComboBox, "fitOptimizerCombo").setCurrentIndex(widget(dialog, QComboBox, "fitOptimizerCombo").findData("adamw"))
    widget(dialog, QCheckBox, "fitMeasureCheck").setChecked(measure)
    qtbot.mouseClick(widget(dialog, QPushButton, "fitEstimateButton"), Qt.MouseButton.LeftButton)
    return dialog


def test_the_strategy_asks_nothing_for_one_gpu(qtbot, window):
    dialog = doors.part(window, FitFlow).show()
    assert widget(dialog, QSpinBox, "fitGpusSpin").value() == 1
    assert not widget(dialog, QComboBox, "fitStrategyCombo").isEnabled()
    assert [type(r).__name__ for r in dialog.requests()] == ["FitRequest"] * len(dialog.requests())


def test_a_proven_plan_shows_each_rank_and_the_export_keeps_it(qtbot, window, tmp_path, monkeypatch):
    dialog = _ask_cluster(qtbot, window, 2, "ddp", measure=True)
    table = widget(dialog, QTableWidget, "fitTable")
    assert doors.busy(window) is not None  # on the worker: the window's loop runs meanwhile
    QApplication.processEvents()
    qtbot.waitUntil(lambda: doors.busy(window) is None and bool(_row(table, "cpu, each of 2 ranks (ddp)")["Fits"]),
                    timeout=PROOF_MS)  # fmt: skip
    device = _row(table, "cpu, each of 2 ranks (ddp)")
    assert device["Fits"] == "yes"
    for rank in ("  rank 0", "  rank 1"):
        row = _row(table, rank)
        assert device["Estimated peak"].startswith(row["Estimated peak"]) and row["Measured peak"] not in ("", "—")
        assert float(row["Measured / estimated"]) > 0
    notes = dialog.notes.text()
    assert "2 ranks (ddp): DDP: each rank holds the whole model" in notes
    assert "cpu: measured peak — 2 CPU ranks (gloo)" in notes
    assert dialog.frameGeometry().height() <= dialog.screen().availableGeometry().height()

    path = tmp_path / "plan.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(path), "JSON (*.json)"))
    window.findChild(QAction, "exportReportAction").trigger()
    qtbot.waitUntil(lambda: path.exists() and doors.busy(window) is None, timeout=GENEROUS_MS)
    report = json.loads(path.read_text())
    assert problems(STRICT, report) == []
    (entry,) = [e for e in report["fit"] if "cluster" in e]
    assert entry["cluster"]["strategy"] == "ddp" and [r["rank"] for r in entry["cluster"]["ranks"]] == [0, 1]


def test_a_plan_not_proven_shows_one_row_for_every_rank_and_a_new_question_clears_the_ranks(qtbot, window):
    dialog = _ask_cluster(qtbot, window, 8, "fsdp", measure=False)
    table = widget(dialog, QTableWidget, "fitTable")
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=GENEROUS_MS)
    assert _row(table, "  every rank of 8")["Measured peak"] == "—"
    widget(dialog, QSpinBox, "fitGpusSpin").setValue(1)
    qtbot.mouseClick(widget(dialog, QPushButton, "fitEstimateButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: doors.busy(window) is None and bool(_row(table, "cpu")["Fits"]), timeout=GENEROUS_MS)
    names = [table.item(r, 0).text() for r in range(table.rowCount())]
    assert not [n for n in names if "rank" in n]


def test_cancel_ends_the_proofs_ranks_and_the_dialog_says_so(qtbot, window):
    dialog = _ask_cluster(qtbot, window, 2, "ddp", measure=True)
    qtbot.mouseClick(widget(dialog, QPushButton, "fitCancelButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=PROOF_MS)
    assert "cancel" in dialog.status.text().lower()
    assert dialog.estimateButton.isEnabled()
