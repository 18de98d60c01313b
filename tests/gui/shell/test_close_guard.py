"""Quitting asks before losing work, Cancel the default (issue 45 item 6: a quit during a
benchmark asked nothing; the run, the history and the results were gone): while any task
runs, and while results stand that no report has saved. A close the program makes asks nothing."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QPushButton, QSpinBox

from tests.gui.helpers import widget
from inspector.gui.features.latency.launch import BenchmarkLaunch
from inspector.gui.features.report.flow import ReportFlow
from tests.gui import doors

SLOW = (
    "import time\n"
    "import torch\n"
    "from torch import nn\n"
    "class Slow(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(3, 1)\n"
    "    def forward(self, x):\n"
    "        time.sleep(0.02)\n"
    "        return self.fc(x)\n"
    "def make():\n"
    "    return Slow(), torch.randn(4, 3)\n"
)


def _answer(monkeypatch, button: str, asked: list[tuple[str, str, str]]) -> None:
    """Each question is recorded (its name, text and default button), then ``button`` is clicked."""

    def exec_(box):
        asked.append((box.objectName(), box.text(), box.defaultButton().objectName()))
        box.findChild(QPushButton, button).click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", exec_)


def _quit(window) -> None:
    window.findChild(QAction, "quitAction").trigger()


def test_a_quit_during_a_short_benchmark_asks_and_cancel_keeps_it_running(qtbot, make_window, tmp_path, monkeypatch):
    path = tmp_path / "slow.py"
    path.write_text(SLOW)
    window = make_window(f"{path}:make")
    window.show()
    widget(window, QSpinBox, "runsSpin").setValue(1000)
    assert doors.part(window, BenchmarkLaunch).run_benchmark()
    qtbot.waitUntil(lambda: window.tasks.task is not None, timeout=30_000)
    asked: list[tuple[str, str, str]] = []
    _answer(monkeypatch, "cancelCloseButton", asked)
    _quit(window)
    assert [a[0] for a in asked] == ["closeDuringTask"] and asked[0][2] == "cancelCloseButton"
    assert "benchmark is running" in asked[0][1]
    assert window.isVisible() and window.tasks.task is not None and not window.tasks.closed
    _answer(monkeypatch, "closeAnywayButton", asked)
    _quit(window)
    assert not window.isVisible()


def test_a_quit_with_unsaved_results_asks_and_a_saved_report_quiets_it(qtbot, window, tmp_path, monkeypatch):
    window.show()
    widget(window, QSpinBox, "runsSpin").setValue(3)
    assert doors.part(window, BenchmarkLaunch).run_benchmark()
    qtbot.waitUntil(lambda: window.tasks.task is None and window.frame.history.unsaved_results() == 1, timeout=60_000)
    asked: list[tuple[str, str, str]] = []
    _answer(monkeypatch, "cancelCloseButton", asked)
    _quit(window)
    assert [a[0] for a in asked] == ["closeWithResults"] and asked[0][2] == "cancelCloseButton"
    assert "1 result" in asked[0][1] and window.isVisible()
    # A report saved: nothing is lost any more, and the quit asks nothing.
    assert doors.part(window, ReportFlow).export_report(tmp_path / "r.json")
    qtbot.waitUntil(lambda: window.frame.history.unsaved_results() == 0 and window.tasks.task is None
                    and (tmp_path / "r.json").exists(), timeout=60_000)  # fmt: skip
    qtbot.waitUntil(lambda: window._exporting is None, timeout=60_000)
    asked.clear()
    _quit(window)
    assert asked == [] and not window.isVisible()


def test_a_close_the_program_makes_asks_nothing(qtbot, window, monkeypatch):
    window.show()
    window.frame.history.record("model.to('cpu')", 0.1, None, "ok")  # a result nobody saved
    asked: list[tuple[str, str, str]] = []
    _answer(monkeypatch, "cancelCloseButton", asked)
    window.close()  # a script's (a test's) close, not a person's
    assert asked == [] and not window.isVisible()


def test_export_first_opens_the_export_dialog_and_the_window_stays(qtbot, window, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    window.show()
    window.frame.history.record("model.to('cpu')", 0.1, None, "ok")  # a result nobody saved
    opened: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (opened.append("save") or ("", "")))
    asked: list[tuple[str, str, str]] = []
    _answer(monkeypatch, "exportFirstButton", asked)
    _quit(window)
    assert [a[0] for a in asked] == ["closeWithResults"] and opened == ["save"] and window.isVisible()
    _answer(monkeypatch, "closeAnywayButton", asked)
    _quit(window)
    assert not window.isVisible()
