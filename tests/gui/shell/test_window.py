"""The main window, driven through its object names like a user would (offscreen)."""

from __future__ import annotations

import os
import pathlib
import re
import sys
import textwrap

import pytest
import torch
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QTreeView,
)

from inspector.gui.features.compare.view import ComparisonView
from inspector.gui.features.latency.plot import LatencyPlot
from inspector.gui.features.memory.plot import MemoryPlot
from tests.gui.conftest import OFFSCREEN_NOISE
from tests.gui.helpers import table_rows, tree_rows, widget, GENEROUS_MS
from tests.processes import GENEROUS_S
from tests.warm_python import run_python
from tests.gui import doors
from inspector.gui.common.pages import COMPARISON, LATENCY
from inspector.gui.features.moves.commands import ModelCommands
from inspector.gui.features.report.flow import ReportFlow

REPO = pathlib.Path(__file__).resolve().parents[3]
cpu_only = pytest.mark.skipif(torch.cuda.is_available(), reason="checks what a machine without CUDA shows")


def click(qtbot, window, name: str) -> None:
    button = widget(window, QPushButton, name)
    assert button.isEnabled(), f"{name} is disabled: {button.toolTip()}"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def history(window) -> list[dict[str, str]]:
    return table_rows(widget(window, QTableView, "historyView").model())


def parameters(window) -> dict[str, dict[str, str]]:
    return tree_rows(widget(window, QTreeView, "parameterView").model())


def wait_history(qtbot, window, count: int) -> list[dict[str, str]]:
    qtbot.waitUntil(lambda: len(history(window)) >= count and doors.busy(window) is None, timeout=30_000)
    return history(window)


def start_long_benchmark(qtbot, window) -> None:
    """A benchmark that runs for seconds: the most runs, on a big batch."""
    widget(window, QSpinBox, "runsSpin").setValue(100_000)
    widget(window, QLineEdit, "inputShapeEdit").setText("4096,3")
    click(qtbot, window, "benchmarkButton")
    # Waits on the GUI thread's view of the progress (a waitSignal on the worker's own
    # signal would run pytest-qt's callback on the worker thread).
    qtbot.waitUntil(lambda: doors.bar(window).progressBar.value() > 0, timeout=30_000)


# ---------------------------------------------------------------- contract


def test_every_named_widget_and_action_exists(window):
    from PySide6.QtGui import QAction

    for index in range(window.tabs.count()):  # a tab's page is built when it first shows
        window.tabs.setCurrentIndex(index)
    for cls, name in [
        (QTableView, "deviceTable"), (QTreeView, "parameterView"), (QComboBox, "targetDeviceCombo"),
        (QComboBox, "dtypeCombo"), (QPushButton, "toDeviceButton"), (QPushButton, "cudaButton"),
        (QPushButton, "cpuButton"), (QPushButton, "benchmarkButton"), (QPushButton, "cancelButton"),
        (MemoryPlot, "memoryPlot"), (LatencyPlot, "latencyPlot"), (QPlainTextEdit, "codeView"),
        (QTableView, "historyView"), (QFrame, "errorBanner"), (QAction, "openModelAction"),
        (QAction, "exportReportAction"), (QAction, "copyMarkdownAction"), (QAction, "openReportAction"),
        (ComparisonView, "comparisonView"),
    ]:  # fmt: skip
        widget(window, cls, name)
    assert widget(window, QAction, "openModelAction").shortcut().toString() == "Ctrl+O"
    assert widget(window, QAction, "exportReportAction").shortcut().toString() == "Ctrl+E"
    assert widget(window, QAction, "exportReportAction").isEnabled()
    assert widget(window, QAction, "copyMarkdownAction").isEnabled()
    plot = widget(window, LatencyPlot, "latencyPlot").samples_plot
    assert "ms" in plot.getAxis("left").labelText
    memory = widget(window, MemoryPlot, "memoryPlot").canvas
    assert "MiB" in memory.getAxis("left").labelText and "(s)" in memory.getAxis("bottom").labelText


def test_create_window_returns_it_unshown(window):
    assert not window.isVisible()


def test_hidden_tabs_are_built_when_first_shown_or_asked_for(qtbot, window):
    """The Latency and Compare tabs wait behind an empty page (the first second goes to the
    tree), and are built before they ever show: the tab shows the real page, in its place.
    (The window's build of the Latency page at idle is off in tests unless asked for.)"""
    tabs = window.tabs
    titles = [tabs.tabText(i) for i in range(tabs.count())]
    assert titles == ["History", "Memory", "Latency", "Compare", "Code"]  # (the code view is a tab since issue 45)
    assert window.findChild(LatencyPlot, "latencyPlot") is None
    assert window.findChild(ComparisonView, "comparisonView") is None
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window)

    tabs.setCurrentIndex(titles.index("Compare"))  # as a click on the tab does
    view = widget(window, ComparisonView, "comparisonView")
    assert tabs.currentWidget() is view and view.isVisible()
    assert [tabs.tabText(i) for i in range(tabs.count())] == titles
    assert doors.page(window, COMPARISON) is view  # built once

    tabs.setCurrentIndex(0)
    plot = doors.page(window, LATENCY)  # code asking for it (a benchmark) builds it where its tab is
    assert tabs.indexOf(plot) == titles.index("Latency") and tabs.currentIndex() == 0
    assert not plot.isVisible() and widget(window, LatencyPlot, "latencyPlot") is plot


# ---------------------------------------------------------------- devices


@cpu_only
def test_cpu_row_and_why_no_gpu_is_listed(window):
    rows = table_rows(widget(window, QTableView, "deviceTable").model())
    assert [r["Device"] for r in rows] == ["cpu"]
    assert "GiB" in rows[0]["Memory used / total"]
    note = window.findChild(type(window.statusModel), "deviceNote")
    assert note.isVisibleTo(window)
    assert "no CUDA support" in note.text() and torch.__version__ in note.text()
    assert widget(window, QComboBox, "targetDeviceCombo").currentText() == "cpu"


def test_eight_fake_gpus_render_eight_rows(qtbot, monkeypatch, make_window):
    from tests.fake_cuda import fake_cuda

    fake_cuda(monkeypatch, count=8)
    window = make_window()
    rows = table_rows(widget(window, QTableView, "deviceTable").model())
    assert [r["Device"] for r in rows] == ["cpu"] + [f"cuda:{i}" for i in range(8)]
    assert all(r["Name"] == "NVIDIA H200" for r in rows[1:])
    # Each fake GPU i has i GiB used by another process: the bars differ row by row.
    assert len({r["Memory used / total"] for r in rows[1:]}) == 8
    combo = widget(window, QComboBox, "targetDeviceCombo")
    assert [combo.itemText(i) for i in range(combo.count())] == ["cpu"] + [f"cuda:{i}" for i in range(8)]
    assert combo.currentText() == "cuda:0"  # the accelerator is the natural target
    table = widget(window, QTableView, "deviceTable")
    table.selectRow(6)
    assert combo.currentText() == "cuda:5"
    combo.setCurrentIndex(combo.findText("cuda:2"))
    assert table.currentIndex().row() == 3
    assert "driver 570.124.06" in window.about_text()
    window.close()  # while the fake is still installed: the sampler reads it until then


def test_pinned_is_offered_for_a_host_to_gpu_move_and_reaches_the_worker(qtbot, monkeypatch, make_window):
    from PySide6.QtWidgets import QCheckBox

    from inspector.core.moves import transaction as moves
    from inspector.core.moves.request import MoveRequest
    from tests.fake_cuda import fake_cuda

    fake_cuda(monkeypatch, count=8)
    received = []  # what the worker hands the move engine, on the worker's thread
    real_move = moves.move_model

    def move_model(loaded, request, **kwargs):
        received.append(request)
        return real_move(loaded, request, **kwargs)

    monkeypatch.setattr(moves, "move_model", move_model)
    window = make_window()
    pinned = widget(window, QCheckBox, "pinnedCheck")
    set_target(window, "cpu")
    assert not pinned.isEnabled()
    assert pinned.toolTip() == "pinning only speeds host-to-GPU copies; no GPU is the target"

    set_target(window, "cuda:0")
    assert pinned.isEnabled() and "non_blocking=True" in pinned.toolTip()
    pinned.setChecked(True)
    assert "non_blocking=True" in widget(window, QPushButton, "toDeviceButton").toolTip()
    before = len(history(window))
    click(qtbot, window, "toDeviceButton")
    rows = wait_history(qtbot, window, before + 1)
    # The move itself fails (no kernel runs on a fake GPU) and rolls back; the request is what counts.
    assert received[-1].asked == MoveRequest("to", device="cuda:0", dtype=None, pinned=True)  # (read once, by the window)
    assert rows[-1]["Call"] == "model.to('cuda:0', non_blocking=True)"
    code = widget(window, QPlainTextEdit, "codeView").toPlainText()
    assert "pin_memory()" in code and "model = model.to(device, non_blocking=True)" in code
    assert {r["Device"] for r in parameters(window).values()} == {"cpu"}

    click(qtbot, window, "cudaButton")
    wait_history(qtbot, window, before + 2)
    assert received[-1].asked == MoveRequest("cuda", device="cuda:0", pinned=True)
    assert "pin_memory()" in widget(window, QPlainTextEdit, "codeView").toPlainText()

    set_target(window, "cpu")  # still ticked, but not offered: the move is a plain one
    assert pinned.isChecked() and not pinned.isEnabled()
    click(qtbot, window, "toDeviceButton")
    rows = wait_history(qtbot, window, before + 3)
    assert received[-1].asked == MoveRequest("to", device="cpu", pinned=False)
    assert rows[-1]["Call"] == "model.to('cpu')"
    window.close()  # while the fake is still installed: the sampler reads it until then


def test_pinned_applies_only_to_host_to_cuda_moves():
    from inspector.gui.features.moves.bar_reasons import pinned_blocker

    assert pinned_blocker("cuda:3", ["cpu"]) is None
    assert pinned_blocker("cuda:0", ["cpu", "cuda:0"]) is None  # its host tensors can be pinned
    assert "no GPU is the target" in pinned_blocker("cpu", ["cpu"])
    assert "host-to-CUDA" in pinned_blocker("mps", ["cpu"])
    assert "already on cuda:1" in pinned_blocker("cuda:0", ["cuda:1"])


# ---------------------------------------------------------------- model panel


def test_example_net_parameters_on_cpu(window, qtmodeltester):
    rows = parameters(window)
    params = {name: r for name, r in rows.items() if r["Kind"] == "parameter"}
    assert list(params) == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert [params[n]["Shape"] for n in params] == ["2×3", "2", "1×2", "1"]
    assert {r["Device"] for r in params.values()} == {"cpu"}
    assert {r["Dtype"] for r in params.values()} == {"float32"}
    assert {r["Grad"] for r in params.values()} == {"yes"}
    totals = window.findChild(type(window.statusModel), "parameterTotals").text()
    assert "cpu" in totals and "44 B" in totals
    qtmodeltester.check(widget(window, QTreeView, "parameterView").model())


def test_tree_puts_grads_and_optimizer_state_under_their_module(qapp, qtmodeltester):
    from torch import nn

    from inspector.core.placement.tensor_rows import snapshot
    from inspector.gui.features.model.item_model import PlacementModel

    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1))
    optimizer = torch.optim.Adam(model.parameters())
    model(torch.randn(8, 3)).sum().backward()
    optimizer.step()
    item_model = PlacementModel()
    item_model.set_placement(snapshot(model, optimizer))
    qtmodeltester.check(item_model)
    rows = tree_rows(item_model)
    assert rows["0.weight.grad"]["Kind"] == "gradient"
    assert rows["0.weight.exp_avg"]["Kind"] == "optimizer state"
    assert rows["1.running_mean"]["Kind"] == "buffer"
    assert rows["1.running_mean"]["Grad"] == ""


def test_split_model_warning_is_shown_and_blocks_benchmark(window):
    from inspector.core.placement.tensor_rows import Finding

    state = doors.model(window)
    split = type(state.placement)(
        state.placement.tensors, state.placement.totals,
        (Finding("split_model", "The model is split across devices: cpu, cuda:0.", ("cpu", "cuda:0")),),
    )  # fmt: skip
    window.session_state.set_model(type(state)(state.info, split))  # (through the state, as a move's end sets it)
    warnings = window.findChild(type(window.statusModel), "placementWarnings")
    assert warnings.isVisibleTo(window) and "split across devices" in warnings.text()
    button = widget(window, QPushButton, "benchmarkButton")
    assert not button.isEnabled() and "split" in button.toolTip()


# ---------------------------------------------------------------- moves


def test_cpu_button_adds_history_and_code(qtbot, window):
    before = len(history(window))
    click(qtbot, window, "cpuButton")
    rows = wait_history(qtbot, window, before + 1)
    assert rows[-1]["Call"] == "model.cpu()"
    assert "cpu → cpu" in rows[-1]["Result"]
    assert widget(window, QPlainTextEdit, "codeView").toPlainText() == "model = model.cpu()"


@cpu_only
def test_cuda_on_cpu_only_machine_shows_banner_and_window_keeps_working(qtbot, window):
    assert widget(window, QPushButton, "cudaButton").isEnabled()  # on purpose, see the issue
    banner = widget(window, QFrame, "errorBanner")
    assert not banner.isVisibleTo(window)
    before = len(history(window))
    click(qtbot, window, "cudaButton")
    rows = wait_history(qtbot, window, before + 1)
    assert banner.isVisibleTo(window)
    assert "needs a CUDA GPU" in banner.failure.message and ".to(device)" in banner.failure.message
    assert rows[-1]["Call"] == "model.cuda()" and rows[-1]["Result"].startswith("failed:")
    assert rows[-1]["Duration"] == "—" and rows[-1]["GB/s"] == "—"  # a failed move: no "0.0 µs"
    assert "model.cuda()" in widget(window, QPlainTextEdit, "codeView").toPlainText()
    assert {r["Device"] for r in parameters(window).values()} == {"cpu"}  # nothing moved

    click(qtbot, window, "cpuButton")  # still moves...
    rows = wait_history(qtbot, window, before + 2)
    assert rows[-1]["Call"] == "model.cpu()" and not rows[-1]["Result"].startswith("failed")
    widget(window, QSpinBox, "runsSpin").setValue(20)
    click(qtbot, window, "benchmarkButton")  # ...and benchmarks
    rows = wait_history(qtbot, window, before + 3)
    assert rows[-1]["Call"] == "forward ×20 · cpu float32 · input 64x3" and rows[-1]["Result"].startswith("median")
    # The code shows the measurement the app made: its warm-up calls (3, or more where the first
    # calls were not yet steady: core.measure.warm_up) and 20 runs.
    code = widget(window, QPlainTextEdit, "codeView").toPlainText()
    warm = re.search(r"for _ in range\((\d+)\):  # warm-up", code)
    assert warm and int(warm.group(1)) >= 3
    assert "for _ in range(20):" in code and "blocked_autorange" not in code


def test_banner_details_toggle_and_dismiss(qtbot, window):
    from inspector.core.errors import Failure

    banner = widget(window, QFrame, "errorBanner")
    banner.show_failure(Failure("oom", "out of memory on cuda:0", "CUDA out of memory. Tried to allocate 2 GiB"))
    details = banner.findChild(QPlainTextEdit, "errorBannerDetails")
    assert banner.isVisibleTo(window) and not details.isVisibleTo(window)
    qtbot.mouseClick(banner.details_button, Qt.MouseButton.LeftButton)
    assert details.isVisibleTo(window) and "Tried to allocate" in details.toPlainText()
    qtbot.mouseClick(banner.close_button, Qt.MouseButton.LeftButton)
    assert not banner.isVisibleTo(window)


def set_target(window, device: str) -> None:
    combo = widget(window, QComboBox, "targetDeviceCombo")
    combo.setCurrentIndex(combo.findText(device))
    assert combo.currentText() == device


def test_dtype_cast_changes_dtype_column_and_code(qtbot, window):
    set_target(window, "cpu")
    dtype = widget(window, QComboBox, "dtypeCombo")
    dtype.setCurrentIndex(dtype.findText("bfloat16"))
    before = len(history(window))
    click(qtbot, window, "toDeviceButton")
    rows = wait_history(qtbot, window, before + 1)
    assert rows[-1]["Call"] == "model.to('cpu', dtype=torch.bfloat16)"
    params = {n: r for n, r in parameters(window).items() if r["Kind"] == "parameter"}
    assert {r["Dtype"] for r in params.values()} == {"bfloat16"}
    code = widget(window, QPlainTextEdit, "codeView").toPlainText()
    assert "dtype=torch.bfloat16" in code
    assert "bfloat16" in window.statusDevice.text()


def test_a_cast_leaves_once_the_window_has_drawn_that_it_started(qtbot, window):
    from PySide6.QtCore import QEvent, QObject

    class Paints(QObject):
        count = 0

        def eventFilter(self, watched, event):  # noqa: N802 (Qt's name)
            self.count += event.type() == QEvent.Type.Paint
            return False

    paints = Paints()
    bar = doors.bar(window).progressBar
    bar.installEventFilter(paints)
    sent: list[tuple[int, str]] = []
    window.requests.move.connect(lambda _request: sent.append((paints.count, bar.text())))
    set_target(window, "cpu")
    dtype = widget(window, QComboBox, "dtypeCombo")
    dtype.setCurrentIndex(dtype.findText("bfloat16"))
    before = len(history(window))
    click(qtbot, window, "toDeviceButton")  # a hidden window draws nothing: it leaves at once
    assert sent == [(0, "move…")]
    wait_history(qtbot, window, before + 1)

    window.show()
    qtbot.waitExposed(window)
    dtype.setCurrentIndex(dtype.findText("float32"))
    drawn, before = paints.count, len(history(window))
    click(qtbot, window, "toDeviceButton")
    assert len(sent) == 1  # not yet: the window draws that it started first
    qtbot.waitUntil(lambda: len(sent) == 2, timeout=GENEROUS_MS)
    assert sent[1][0] > drawn and sent[1][1] == "move…"  # the bar said so on screen before
    rows = wait_history(qtbot, window, before + 1)
    assert rows[-1]["Call"] == "model.to('cpu', dtype=torch.float32)"


def test_the_move_controls_state_the_price_before_a_move_and_follow_the_model(qtbot, window):
    set_target(window, "cpu")
    dtype = widget(window, QComboBox, "dtypeCombo")
    label = widget(window, QLabel, "movePriceLabel")
    dtype.setCurrentIndex(dtype.findText("float64"))
    assert label.isVisibleTo(window)
    assert "model.to('cpu', dtype=torch.float64) needs" in label.text()
    assert "(3.0x the model's bytes there)" in label.full_text and label.toolTip() == label.full_text
    assert label.full_text in widget(window, QPushButton, "toDeviceButton").toolTip()
    assert "nothing to copy" in widget(window, QPushButton, "cpuButton").toolTip()
    dtype.setCurrentIndex(dtype.findText("bfloat16"))
    assert "(1.5x the model's bytes there)" in label.full_text
    before = len(history(window))
    click(qtbot, window, "toDeviceButton")
    wait_history(qtbot, window, before + 1)
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=GENEROUS_MS)
    dtype.setCurrentIndex(dtype.findText("float64"))  # from bfloat16 now: 4x the bytes in copies
    assert "(5.0x the model's bytes there)" in label.full_text


# ---------------------------------------------------------------- benchmark


def test_model_without_example_input_needs_an_input_shape(qtbot, make_window, tmp_path):
    factory = tmp_path / "small_model.py"
    factory.write_text("import torch\n\ndef make():\n    return torch.nn.Linear(4, 2)\n")
    window = make_window(f"{factory}:make")
    button = widget(window, QPushButton, "benchmarkButton")
    shape = widget(window, QLineEdit, "inputShapeEdit")
    assert not button.isEnabled() and "input shape" in button.toolTip()
    shape.setText("8,x")
    assert not button.isEnabled() and "8,x" in button.toolTip()
    shape.setText("8,5")  # the wrong width: the forward fails with a clear message
    before = len(history(window))
    click(qtbot, window, "benchmarkButton")
    wait_history(qtbot, window, before + 1)
    banner = widget(window, QFrame, "errorBanner")
    assert banner.isVisibleTo(window) and "8, 5" in banner.failure.message.replace("x", ", ")
    shape.setText("8,4")
    widget(window, QSpinBox, "runsSpin").setValue(10)
    click(qtbot, window, "benchmarkButton")
    rows = wait_history(qtbot, window, before + 2)
    assert rows[-1]["Call"] == "forward ×10 · cpu float32 · input 8x4"


def test_cancel_mid_benchmark(qtbot, window):
    before = len(history(window))
    start_long_benchmark(qtbot, window)
    for name in ("toDeviceButton", "cudaButton", "cpuButton", "benchmarkButton"):
        button = widget(window, QPushButton, name)
        assert not button.isEnabled() and "benchmark is running" in button.toolTip()
    click(qtbot, window, "cancelButton")
    rows = wait_history(qtbot, window, before + 1)
    assert rows[-1]["Result"].startswith("cancelled")
    assert not widget(window, QFrame, "errorBanner").isVisibleTo(window)  # a cancel is no error
    assert widget(window, QPushButton, "benchmarkButton").isEnabled()
    assert not widget(window, QPushButton, "cancelButton").isEnabled()


# ---------------------------------------------------------------- loading


class _Payload:
    """Unpickling this would create ``path``: the stand-in for a malicious checkpoint."""

    def __init__(self, path: pathlib.Path) -> None:
        self.path = path

    def __reduce__(self):
        return (pathlib.Path.touch, (self.path,))


def test_malicious_checkpoint_is_refused_and_its_payload_never_runs(qtbot, window, tmp_path):
    marker = tmp_path / "pwned"
    checkpoint = tmp_path / "innocent.pt"
    torch.save({"model": _Payload(marker)}, checkpoint)
    assert not marker.exists()

    before = len(history(window))
    assert window.open_model(str(checkpoint))
    rows = wait_history(qtbot, window, before + 1)
    banner = widget(window, QFrame, "errorBanner")
    assert banner.isVisibleTo(window) and "refused to load" in banner.failure.message
    assert rows[-1]["Result"].startswith("failed: refused")
    dialog = window.findChild(QMessageBox, "trustDialog")
    assert dialog is not None and "pathlib" in dialog.informativeText()
    qtbot.mouseClick(dialog.button(QMessageBox.StandardButton.No), Qt.MouseButton.LeftButton)
    assert not marker.exists()
    assert doors.busy(window) is None and doors.model(window).info.spec == "example"  # unchanged


def test_trusting_a_pickled_module_loads_it(qtbot, window, tmp_path):
    path = tmp_path / "whole_module.pt"
    torch.save(torch.nn.Linear(5, 3), path)
    window.open_model(str(path))
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "trustDialog") is not None, timeout=30_000)
    dialog = window.findChild(QMessageBox, "trustDialog")
    assert "torch.nn.modules.linear.Linear" in dialog.informativeText()
    qtbot.mouseClick(dialog.button(QMessageBox.StandardButton.Yes), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: doors.model(window).info.class_name == "Linear" and doors.busy(window) is None, timeout=30_000)
    assert parameters(window)["weight"]["Shape"] == "3×5"
    assert not widget(window, QFrame, "errorBanner").isVisibleTo(window)
    assert window.recent_models()[0] == str(path)


def test_a_missing_file_is_a_banner_not_a_crash(qtbot, window, tmp_path):
    before = len(history(window))
    window.open_model(str(tmp_path / "nope.pt"))
    wait_history(qtbot, window, before + 1)
    banner = widget(window, QFrame, "errorBanner")
    assert banner.isVisibleTo(window) and "nope.pt" in banner.failure.message
    assert window.findChild(QMessageBox, "trustDialog") is None


# ---------------------------------------------------------------- report, settings, about


def test_export_report_writes_a_loadable_report(qtbot, window, tmp_path):
    from inspector.core.report.timing_report import load_report

    click(qtbot, window, "cpuButton")
    wait_history(qtbot, window, 2)
    path = tmp_path / "report.json"
    assert doors.part(window, ReportFlow).export_report(path)
    rows = wait_history(qtbot, window, 3)
    assert rows[-1]["Result"] == "written"
    report = load_report(path).to_dict()
    assert report["model"]["class"] == "Net"
    assert [m["call"] for m in report["moves"]] == ["model.cpu()"]
    assert "cpu" in report["memory"]


def test_recent_models_and_sample_rate_are_kept_in_settings(qtbot, window, tmp_path):
    factory = tmp_path / "m.py"
    factory.write_text("import torch\n\ndef make():\n    return torch.nn.Linear(2, 2), torch.randn(1, 2)\n")
    spec = f"{factory}:make"
    window.open_model(spec)
    qtbot.waitUntil(lambda: doors.model(window).info.spec == spec and doors.busy(window) is None, timeout=30_000)
    assert window.recent_models()[:2] == [spec, "example"]
    assert [a.text() for a in window.recentMenu.actions()][:2] == [spec, "example"]
    window.set_sample_rate(50)
    assert float(window.settings.value("memory/sampleHz")) == 20.0  # clamped to 2..20 Hz


def test_about_names_the_versions(window):
    text = window.about_text()
    assert torch.__version__ in text and "PySide6" in text and "GPU driver" in text


def test_no_display_prints_a_clear_message(monkeypatch, capsys):
    from inspector.gui.shell import app

    monkeypatch.setattr(sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    assert app.main() == 1
    err = capsys.readouterr().err
    assert "QT_QPA_PLATFORM=offscreen" in err
    assert "torch-device-inspector devices | inspect | bench" in err


# ---------------------------------------------------------------- shutdown


def test_closing_mid_benchmark_ends_the_threads_without_qt_warnings(qtbot, window, qtlog):
    start_long_benchmark(qtbot, window)
    assert doors.busy(window) == "benchmark"
    window.close()
    assert window.threads_stopped
    assert all(t.isFinished() for t in window.threads())
    warnings = [r.message for r in qtlog.records if not r.message.startswith(OFFSCREEN_NOISE)]
    assert warnings == []


_CLOSE_MID_BENCHMARK = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QTimer
    from inspector.gui.shell.app import create_window, ensure_application
    from tests.gui import doors

    app = ensure_application()
    window = create_window()
    window.show()

    def start():
        if doors.model(window) is None or doors.busy(window) is not None:
            return QTimer.singleShot(20, start)
        doors.bar(window).runsSpin.setValue(100_000)
        doors.bar(window).inputShapeEdit.setText("4096,3")
        window.run_benchmark()
        QTimer.singleShot(20, close_when_measuring)

    def close_when_measuring():
        if doors.bar(window).progressBar.value() == 0:
            return QTimer.singleShot(20, close_when_measuring)
        print("closing mid-benchmark", flush=True)
        window.close()

    QTimer.singleShot(0, start)
    app.exec()
    print("threads stopped:", window.threads_stopped, flush=True)
    """
)


def test_process_exits_cleanly_when_closed_mid_benchmark(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    done = run_python(["-c", _CLOSE_MID_BENCHMARK], cwd=REPO, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "closing mid-benchmark" in done.stdout and "threads stopped: True" in done.stdout
    assert "QThread" not in done.stderr and "Destroyed" not in done.stderr, done.stderr


_MANY_LAYERS = (
    "import torch\n\ndef make():\n"
    "    return torch.nn.Sequential(*[torch.nn.Linear(16, 16) for _ in range(400)]), torch.randn(2, 16)\n"
)


def hold_moves_half_way(monkeypatch) -> tuple:
    """Make every move pause half-way (after 400 of its 800 tensors) until it is cancelled.

    Returns (halfway, outcomes): an Event set once a move is paused there, and a list that
    receives (loaded model, MoveResult) for each move. Without the pause a close could land
    before the move starts or after it ends, and the test would not know which it tested.
    """
    import threading

    from inspector.core.moves import seam
    from inspector.core.moves import transaction as moves

    halfway, outcomes = threading.Event(), []
    real_move = moves.move_model
    monkeypatch.setattr(seam, "CHECK_INTERVAL_S", 0.0)  # a cancel check before every tensor

    def move_model(loaded, request, *, should_cancel, **kwargs):
        cancel = should_cancel.__self__  # the window's threading.Event
        checks = 0

        def pause_half_way() -> bool:
            nonlocal checks
            checks += 1
            if checks == 400:
                halfway.set()
                cancel.wait(GENEROUS_S)  # released by the close; bounded only so a broken close cannot hang the run
            return should_cancel()

        result = real_move(loaded, request, should_cancel=pause_half_way, **kwargs)
        outcomes.append((loaded, result))
        return result

    monkeypatch.setattr(moves, "move_model", move_model)
    return halfway, outcomes


def test_closing_mid_move_cancels_rolls_back_and_ends_the_threads(qtbot, monkeypatch, make_window, tmp_path, qtlog):
    factory = tmp_path / "many_layers.py"
    factory.write_text(_MANY_LAYERS)
    halfway, outcomes = hold_moves_half_way(monkeypatch)
    window = make_window(f"{factory}:make")
    set_target(window, "cpu")
    dtype = widget(window, QComboBox, "dtypeCombo")
    dtype.setCurrentIndex(dtype.findText("float64"))
    click(qtbot, window, "toDeviceButton")
    assert doors.busy(window) == "move"
    qtbot.waitUntil(halfway.is_set, timeout=30_000)

    window.close()
    assert window.threads_stopped, "a worker thread did not stop within 2 s"
    assert all(t.isFinished() for t in window.threads())
    ((loaded, result),) = outcomes
    assert not result.ok and result.error.kind == "cancelled"
    tensors = list(loaded.module.parameters())
    assert 0 < result.bytes < sum(t.nbytes for t in tensors)  # it got half-way, then rolled back
    assert len(tensors) == 800 and {t.dtype for t in tensors} == {torch.float32}
    assert {t.device.type for t in tensors} == {"cpu"} and loaded.example_input.dtype == torch.float32
    warnings = [r.message for r in qtlog.records if not r.message.startswith(OFFSCREEN_NOISE)]
    assert warnings == []


_CLOSE_MID_MOVE = textwrap.dedent(
    """
    import sys
    import pytest
    from PySide6.QtCore import QTimer
    from inspector.gui.shell.app import create_window, ensure_application
    from tests.gui import doors
    from tests.gui.shell.test_window import hold_moves_half_way

    with pytest.MonkeyPatch.context() as monkeypatch:
        halfway, outcomes = hold_moves_half_way(monkeypatch)
        app = ensure_application()
        window = create_window(model_spec=sys.argv[1])
        window.show()

        def start():
            if doors.model(window) is None or doors.busy(window) is not None:
                return QTimer.singleShot(20, start)
            doors.bar(window).set_target_device("cpu")
            doors.bar(window).set_dtype("float64")
            window.move_to_target()
            QTimer.singleShot(20, close_half_way)

        def close_half_way():
            if not halfway.is_set():
                return QTimer.singleShot(20, close_half_way)
            print("closing mid-move", flush=True)
            window.close()

        QTimer.singleShot(0, start)
        app.exec()
        print("threads stopped:", window.threads_stopped, flush=True)
        print("move:", outcomes[0][1].error.kind, flush=True)
    """
)


def test_process_exits_cleanly_when_closed_mid_move(tmp_path):
    factory = tmp_path / "many_layers.py"
    factory.write_text(_MANY_LAYERS)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    done = run_python(["-c", _CLOSE_MID_MOVE, f"{factory}:make"], cwd=REPO, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "closing mid-move" in done.stdout and "threads stopped: True" in done.stdout, done.stdout
    assert "move: cancelled" in done.stdout, done.stdout
    assert "QThread" not in done.stderr and "Destroyed" not in done.stderr, done.stderr


# ---------------------------------------------------------------- more flows


def test_cancel_mid_move_rolls_back(qtbot, make_window, tmp_path):
    factory = tmp_path / "many_layers.py"
    factory.write_text(
        "import torch\n\ndef make():\n"
        "    return torch.nn.Sequential(*[torch.nn.Linear(8, 8) for _ in range(3000)]), torch.randn(2, 8)\n"
    )
    window = make_window(f"{factory}:make")
    widget(window, QComboBox, "dtypeCombo").setCurrentIndex(widget(window, QComboBox, "dtypeCombo").findText("float64"))
    before = len(history(window))
    assert doors.part(window, ModelCommands).move_to_target()
    window.cancel()  # within microseconds: the move is still snapshotting its 6,000 tensors
    rows = wait_history(qtbot, window, before + 1)
    assert rows[-1]["Result"] == "cancelled: rolled back, the model is as before"
    assert {r["Dtype"] for r in parameters(window).values()} == {"float32"}
    assert not widget(window, QFrame, "errorBanner").isVisibleTo(window)


def test_torch_work_never_runs_on_the_gui_thread(qtbot, window, monkeypatch):
    import threading

    from inspector.core.session import Session

    threads = []
    real_move, real_state = Session.move, Session.state

    def move(self, *args, **kwargs):
        threads.append(threading.current_thread())
        return real_move(self, *args, **kwargs)

    def state(self):
        threads.append(threading.current_thread())
        return real_state(self)

    monkeypatch.setattr(Session, "move", move)
    monkeypatch.setattr(Session, "state", state)
    click(qtbot, window, "cpuButton")
    wait_history(qtbot, window, 2)
    assert len(threads) == 2 and threading.main_thread() not in threads


def test_device_table_follows_the_memory_readings(qtbot, window):
    from inspector.core.devices.discovery import MemoryReading

    qtbot.waitUntil(lambda: any(r.device == "cpu" for r in window.last_readings), timeout=GENEROUS_MS)
    gib = 1 << 30
    window.devices.set_readings([MemoryReading("cpu", 0.0, 512 << 20, None, 3 * gib, 4 * gib)])
    row = table_rows(widget(window, QTableView, "deviceTable").model())[0]
    assert row["Memory used / total"] == "3.0 / 4.0 GiB (75%)"
    assert row["This process"] == "512.0 MiB"


def test_open_model_dialog_offers_the_recent_models(qapp):
    from PySide6.QtWidgets import QListWidget

    from inspector.gui.common.dialogs import OpenModelDialog

    dialog = OpenModelDialog(["example", "torch.nn:Identity"])
    recent = dialog.findChild(QListWidget, "recentModelsList")
    recent.setCurrentRow(1)
    assert dialog.spec() == "torch.nn:Identity"
    dialog.findChild(QLineEdit, "architectureEdit").setText("  ")
    assert dialog.architecture() is None


def test_window_geometry_is_restored(qtbot, make_window):
    first = make_window()
    first.resize(700, 500)  # within the offscreen screen (800x600): restoring clamps to it
    first.close()
    second = make_window()
    assert (second.width(), second.height()) == (700, 500)


_CTRL_C_AFTER_LOAD = textwrap.dedent(
    """
    import os, signal
    from PySide6.QtCore import QTimer
    from inspector.gui.shell import app
    from tests.gui import doors

    create = app.create_window

    def create_then_ctrl_c_once_loaded(**kwargs):
        window = create(**kwargs)

        def check():
            if doors.model(window) is None:
                return QTimer.singleShot(20, check)
            os.kill(os.getpid(), signal.SIGINT)

        QTimer.singleShot(0, check)
        return window

    app.create_window = create_then_ctrl_c_once_loaded
    raise SystemExit(app.main())
    """
)


def test_main_opens_the_window_and_ctrl_c_closes_it_cleanly(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    done = run_python(["-c", _CTRL_C_AFTER_LOAD], cwd=REPO, env=env, timeout=120)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "QThread" not in done.stderr, done.stderr
    assert list(tmp_path.rglob("*.conf")), "the settings (window geometry) were not saved"


@pytest.mark.cuda
def test_moves_to_the_gpu_benchmarks_there_and_comes_back(qtbot, window):
    rows = table_rows(widget(window, QTableView, "deviceTable").model())
    assert rows[1]["Device"] == "cuda:0" and rows[1]["Name"] == torch.cuda.get_device_name(0)
    set_target(window, "cuda:0")
    before = len(history(window))
    click(qtbot, window, "toDeviceButton")
    rows = wait_history(qtbot, window, before + 1)
    assert rows[-1]["Call"] == "model.to('cuda:0')" and "cpu → cuda:0" in rows[-1]["Result"]
    assert {r["Device"] for r in parameters(window).values() if r["Kind"] == "parameter"} == {"cuda:0"}
    widget(window, QSpinBox, "runsSpin").setValue(20)
    click(qtbot, window, "benchmarkButton")
    rows = wait_history(qtbot, window, before + 2)
    assert rows[-1]["Call"].startswith("forward ×20 · cuda:0 float32")
    click(qtbot, window, "cpuButton")
    wait_history(qtbot, window, before + 3)
    click(qtbot, window, "cudaButton")
    rows = wait_history(qtbot, window, before + 4)
    assert rows[-1]["Call"] == "model.cuda(0)" and not rows[-1]["Result"].startswith("failed")
    assert not widget(window, QFrame, "errorBanner").isVisibleTo(window)


def test_the_window_fits_a_1024_pixel_wide_screen(window):
    # Every widget added to the action bar widens the window's minimum: past 1024 px a
    # laptop screen cuts off its right edge.
    window.show()
    assert window.minimumSizeHint().width() <= 1024
    window.resize(1024, 700)
    assert window.width() == 1024
