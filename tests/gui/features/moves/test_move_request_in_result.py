"""The window reads a move's request from its result (issue 37 §3): the code view shows the
code of the move the result names, and the device the user chose is read once for the move."""

from __future__ import annotations

import threading
import traceback

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QPlainTextEdit, QPushButton, QTableView

from inspector.core.files.models import example_model
from inspector.core.moves import request as request_module
from inspector.core.moves.request import MoveRequest, resolve_request
from inspector.core.moves.transaction import move_model
from inspector.core.report.snippets import move_snippet
from inspector.core.session import LoadRequest
from inspector.gui.state.workers import ModelWorker
from tests.gui.helpers import table_rows, widget
from inspector.gui.features.moves.commands import ModelCommands
from tests.gui import doors


def test_the_worker_hands_back_the_request_it_was_sent(qapp):
    worker = ModelWorker(threading.Event())
    results = []
    worker.taskEnded.connect(lambda end: results.append(end.result) if end.task == "move" else None)
    worker.load(LoadRequest("example"))
    sent = resolve_request(MoveRequest("to", "cpu", "float64"))
    worker.move(sent)
    [result] = results
    assert result.ok and result.request == sent and result.request.torch_device == sent.torch_device
    assert result.request.call == result.call == "model.to('cpu', dtype=torch.float64)"


def test_the_code_view_shows_the_move_its_result_names(qtbot, window):
    # A result the window did not ask for itself: its code comes from the request it carries.
    result = move_model(example_model(), MoveRequest("to", "cpu", "bf16"))
    doors.part(window, ModelCommands).on_move_finished(result)
    code = widget(window, QPlainTextEdit, "codeView").toPlainText()
    assert code == move_snippet(MoveRequest("to", "cpu", "bf16")) and "dtype=torch.bfloat16" in code
    assert not hasattr(doors.part(window, ModelCommands), "pending_move")


def test_a_move_from_the_window_reads_its_device_once(qtbot, window, monkeypatch):
    combo = widget(window, QComboBox, "targetDeviceCombo")
    combo.setCurrentIndex(combo.findText("cpu"))
    dtype = widget(window, QComboBox, "dtypeCombo")
    dtype.setCurrentIndex(dtype.findText("float64"))
    parse, reads = request_module.parse_device, []

    def counting(spec):
        # (the buttons' tooltips and price line price the *next* move whenever a task begins
        # or ends: gui/features/moves/availability.py; those reads are not this move's)
        if not any(f.filename.endswith("availability.py") for f in traceback.extract_stack()):
            reads.append(spec)
        return parse(spec)

    def rows():
        return table_rows(widget(window, QTableView, "historyView").model())

    before = len(rows())
    monkeypatch.setattr(request_module, "parse_device", counting)
    qtbot.mouseClick(widget(window, QPushButton, "toDeviceButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(rows()) > before and doors.busy(window) is None, timeout=30_000)
    monkeypatch.setattr(request_module, "parse_device", parse)
    assert rows()[-1]["Call"] == "model.to('cpu', dtype=torch.float64)"  # the plot's mark and the history
    code = widget(window, QPlainTextEdit, "codeView").toPlainText()
    assert code == 'device = torch.device("cpu")\nmodel = model.to(device, dtype=torch.float64)'
    assert reads == ["cpu"]  # the mark, the worker, the move, its result and its code: one reading
