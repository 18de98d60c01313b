"""The status bar's labels keep a steady size: a task's start, a long benchmark's time left
or a cast's new dtype change their text, not the window's layout (each relayout repainted
the whole window, ~45 ms, while the work took both cores)."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QMainWindow  # noqa: E402

from inspector.gui.common.status_line import StatusLine  # noqa: E402


class LayoutRequests(QObject):
    def __init__(self, widget) -> None:
        super().__init__(widget)
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        self.count += event.type() == QEvent.Type.LayoutRequest
        return False


@pytest.fixture
def line(qtbot):
    window = QMainWindow()
    window.resize(900, 300)
    qtbot.addWidget(window)
    status = StatusLine(window.statusBar())
    status.window = window  # (kept alive with the line)
    window.show()
    qtbot.waitExposed(window)
    return status


def _shows_all_of(label) -> bool:
    return label.width() >= label.fontMetrics().horizontalAdvance(label.text())


def test_a_tasks_start_and_its_time_left_ask_nothing_of_the_layout(qtbot, line):
    requests = LayoutRequests(line.bar)
    states = [("move", ""), (None, ""), ("benchmark", ""), ("benchmark", "about 9 s left"),
              ("benchmark", "about 12 s left"), ("train step", ""), (None, "")]  # fmt: skip
    for task, left in states:
        line.show_task(task, left)
        qtbot.wait(20)
        assert _shows_all_of(line.busy), line.busy.text()
    # Only a text wider than any before it widened the label (the first times left: every
    # plain state fits from the start)...
    assert requests.count <= 2
    first = requests.count
    for task, left in states * 2:  # ...so the same states again move nothing
        line.show_task(task, left)
        qtbot.wait(10)
    line.show_cancelling("benchmark")
    qtbot.wait(20)
    assert line.busy.text() == "Cancelling the benchmark…" and _shows_all_of(line.busy)
    assert requests.count == first


def test_a_longer_text_widens_a_label_and_a_shorter_one_leaves_it(qtbot, line):
    line.show_task("benchmark", "about 1 min 15 s left")
    qtbot.wait(20)
    wide = line.busy.width()
    assert _shows_all_of(line.busy)
    line.show_task(None)
    qtbot.wait(20)
    assert line.busy.text() == "Ready" and line.busy.width() == wide
    line.retranslate()  # a change of language measures its texts from scratch
    qtbot.wait(20)
    assert line.busy.width() < wide and _shows_all_of(line.busy)
