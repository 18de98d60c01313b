"""``after_paints``: something runs once widgets have painted what changed in them (a move
leaves once the window has drawn that it started, a benchmark once the Latency tab it opens
is drawn), and not for ever after."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget  # noqa: E402

from inspector.gui.after_paint import after_paints  # noqa: E402


class Painted(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.paints = 0
        self.child = QLabel("child", self)
        QVBoxLayout(self).addWidget(self.child)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        self.paints += 1
        super().paintEvent(event)


@pytest.fixture
def painted(qtbot):
    widget = Painted()
    qtbot.addWidget(widget)
    return widget


def test_it_runs_once_after_the_widget_has_painted(qtbot, painted):
    calls: list[int] = []
    after_paints([painted], lambda: calls.append(painted.paints), at_most_ms=5_000)
    qtbot.wait(100)
    assert calls == []  # not shown: nothing painted, nothing run (yet)
    painted.show()
    qtbot.waitUntil(lambda: calls != [], timeout=3_000)
    assert calls[0] >= 1  # after the paint
    painted.update()
    qtbot.wait(150)
    assert len(calls) == 1  # once


def test_it_waits_for_a_childs_later_passes(qtbot, painted):
    calls: list[str] = []
    painted.show()
    qtbot.waitExposed(painted)
    after_paints([painted], lambda: calls.append("run"), quiet_ms=60, at_most_ms=5_000)
    repaints = QTimer(interval=20)
    count = [0]

    def repaint_child() -> None:  # a plot's viewport painting pass after pass
        count[0] += 1
        painted.child.setText(f"pass {count[0]}")
        if count[0] == 5:
            repaints.stop()

    repaints.timeout.connect(repaint_child)
    repaints.start()
    qtbot.waitUntil(lambda: calls == ["run"], timeout=3_000)
    assert count[0] == 5  # only once the passes stopped


def test_a_widget_that_never_paints_holds_it_only_so_long(qtbot, painted):
    calls: list[str] = []
    after_paints([painted], lambda: calls.append("run"), at_most_ms=80)  # hidden for good
    qtbot.waitUntil(lambda: calls == ["run"], timeout=2_000)


def test_nothing_runs_for_a_widget_deleted_before(qtbot):
    widget = Painted()
    calls: list[str] = []
    after_paints([widget], lambda: calls.append("run"), at_most_ms=50)
    widget.deleteLater()
    qtbot.wait(200)
    assert calls == []


def test_nothing_runs_when_any_widget_it_waits_for_is_deleted(qtbot, painted):
    other = Painted()
    calls: list[str] = []
    after_paints([painted, other], lambda: calls.append("run"), at_most_ms=50)
    other.deleteLater()
    qtbot.wait(200)
    assert calls == []
