"""One real training step from the window (issue 12, item 5): gradients and optimizer state
appear in the tree, the Grad column says what it means, and a move shows where the
optimizer's state stayed, with the code that fixes it."""

from __future__ import annotations

import html

import torch
from PySide6.QtGui import QAction
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox, QPlainTextEdit, QTableView, QTreeView

from inspector.core.moves.request import MoveRequest
from inspector.core.placement.tensor_rows import Placement, TensorRow, Totals, _findings
from inspector.gui.features.model.item_model import PlacementModel
from tests.fake_cuda import fake_cuda
from tests.gui.deep_models import LSTM, TRANSFORMER, factory_spec
from tests.gui.helpers import table_rows, tree_rows, widget
from tests.gui import doors
from inspector.gui.features.moves.commands import ModelCommands


def answer(monkeypatch, button) -> list:
    asked = []

    def question(*args, **kwargs):
        asked.append(args[1])
        return button

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def train_once(qtbot, window, monkeypatch) -> dict:
    asked = answer(monkeypatch, QMessageBox.StandardButton.Ok)
    assert window.findChild(QAction, "trainStepAction").isEnabled()
    window.findChild(QAction, "trainStepAction").trigger()
    assert asked == ["Run one training step?"]
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=30_000)
    return tree_rows(widget(window, QTreeView, "parameterView").model())


def test_a_training_step_on_a_transformer_shows_grads_and_momentum_then_the_cast_finding(
    qtbot, make_window, tmp_path, monkeypatch
):
    window = make_window(factory_spec(tmp_path, TRANSFORMER, "transformer"))
    view = widget(window, QTreeView, "parameterView")
    before = tree_rows(view.model())
    params = [n for n, r in before.items() if r["Kind"] == "parameter"]
    assert not [n for n, r in before.items() if r["Kind"] in ("gradient", "optimizer state")]
    weight = window.worker.session.loaded.module.encoder.layers[0].linear1.weight.detach().clone()

    # Cancelled: nothing runs.
    answer(monkeypatch, QMessageBox.StandardButton.Cancel)
    window.findChild(QAction, "trainStepAction").trigger()
    assert doors.busy(window) is None

    rows = train_once(qtbot, window, monkeypatch)
    kinds = [r["Kind"] for r in rows.values()]
    assert kinds.count("gradient") == len(params) == 184
    assert kinds.count("optimizer state") == 184  # a momentum buffer per parameter
    assert rows["encoder.layers.0.linear1.weight.grad"]["Dtype"] == "float32"
    assert rows["decoder.layers.5.norm3.bias.momentum_buffer"]["Kind"] == "optimizer state"
    assert {rows[n]["Grad"] for n in params} == {"yes · has .grad"}
    assert not torch.equal(weight, window.worker.session.loaded.module.encoder.layers[0].linear1.weight)
    last = table_rows(widget(window, QTableView, "historyView").model())[-1]
    assert "loss" in last["Result"] and "optimizer state" in last["Result"]
    assert "loss.backward()" in widget(window, QPlainTextEdit, "codeView").toPlainText()

    # A cast moves parameters and grads, never the optimizer's state: the classic finding.
    assert doors.part(window, ModelCommands).request_move(MoveRequest("to", device="cpu", dtype="float64"))
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=30_000)
    warning = widget(window, QLabel, "placementWarnings")
    assert warning.isVisibleTo(window)
    text = html.unescape(warning.text())
    assert "The optimizer's state stayed in float32 while the model is in float64" in text
    assert "optimizer.load_state_dict(optimizer.state_dict())" in text


def test_a_training_step_on_an_lstm_without_an_optimizer_gives_it_one(qtbot, make_window, tmp_path, monkeypatch):
    window = make_window(factory_spec(tmp_path, LSTM, "lstm"))
    rows = train_once(qtbot, window, monkeypatch)
    assert rows["lstm.weight_hh_l1.grad"]["Kind"] == "gradient"
    assert rows["head.bias.momentum_buffer"]["Kind"] == "optimizer state"
    last = table_rows(widget(window, QTableView, "historyView").model())[-1]
    assert "SGD" in last["Result"]
    assert window.worker.session.loaded.optimizer is not None  # kept for the next steps


def test_the_grad_column_header_says_what_it_means(qapp):
    model = PlacementModel()
    tip = model.headerData(PlacementModel.GRAD, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "requires_grad" in tip and "has .grad" in tip


def _row(name: str, kind: str, device: str) -> TensorRow:
    return TensorRow(name=name, kind=kind, module="fc", shape=(2, 2), dtype="float32", device=device,
                     bytes=16, elements=4, requires_grad=kind == "parameter")  # fmt: skip


def test_optimizer_state_left_on_the_cpu_after_a_move_to_cuda_is_named_with_its_fix(qapp, monkeypatch):
    fake_cuda(monkeypatch, count=1)  # the devices a GPU machine lists; no tensor can move there
    rows = [_row("fc.weight", "parameter", "cuda:0"), _row("fc.weight.grad", "grad", "cuda:0"),
            _row("fc.weight.momentum_buffer", "optimizer_state", "cpu")]  # fmt: skip
    findings = _findings(rows)
    (finding,) = findings
    assert finding.message.startswith("The optimizer's state stayed on cpu while the model is on cuda:0")
    assert finding.fix.startswith("optimizer.load_state_dict(optimizer.state_dict())")
    from inspector.gui.features.model.panel import ParametersPanel

    panel = ParametersPanel()
    totals = Totals(3, 12, 48, {"cuda:0": 32, "cpu": 16}, {"float32": 48})
    panel.set_placement(Placement(tuple(rows), totals, tuple(findings)))
    assert "stayed on cpu while the model is on cuda:0" in html.unescape(panel.warnings.text())
    assert "load_state_dict" in panel.warnings.text()
