"""``after_paints``: something runs once a window has drawn what changed in it (a move
leaves once the window has drawn that it started, a benchmark once the Latency tab it opens
is drawn too), and not for ever after."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QCoreApplication, QEvent, QTimer  # noqa: E402
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget  # noqa: E402

from inspector.gui.common.after_paint import after_paints  # noqa: E402
from tests.gui.helpers import GENEROUS_MS

#: A cap beyond every wait of these tests: what runs, runs because of what they test, not the cap.
BEYOND_MS = 2 * GENEROUS_MS


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
def window(qtbot):
    widget = Painted()
    qtbot.addWidget(widget)
    return widget


def test_it_runs_once_after_the_window_has_painted(qtbot, window):
    calls: list[int] = []
    after_paints(window, lambda: calls.append(window.paints), at_most_ms=BEYOND_MS)
    qtbot.wait(100)
    assert calls == []  # not shown: nothing painted, nothing run (yet)
    window.show()
    qtbot.waitUntil(lambda: calls != [], timeout=GENEROUS_MS)
    assert calls[0] >= 1  # after the paint
    window.update()
    qtbot.wait(150)
    assert len(calls) == 1  # once


def test_it_waits_for_a_pages_later_passes(qtbot, window):
    page = Painted()
    page.setParent(window)
    window.layout().addWidget(page)
    window.show()
    qtbot.waitExposed(window)
    calls: list[str] = []
    after_paints(window, lambda: calls.append("run"), page=page, quiet_ms=60, at_most_ms=BEYOND_MS)
    count = [0]
    repaints = QTimer(interval=20)

    def repaint_child() -> None:  # a plot's viewport painting pass after pass
        count[0] += 1
        page.child.setText(f"pass {count[0]}")
        if count[0] == 5:
            repaints.stop()

    repaints.timeout.connect(repaint_child)
    repaints.start()
    qtbot.waitUntil(lambda: calls == ["run"], timeout=GENEROUS_MS)
    assert count[0] == 5  # only once the passes stopped


def test_a_window_that_never_paints_holds_it_only_so_long(qtbot, window):
    calls: list[str] = []
    after_paints(window, lambda: calls.append("run"), at_most_ms=80)  # hidden for good
    qtbot.waitUntil(lambda: calls == ["run"], timeout=GENEROUS_MS)


def test_nothing_runs_for_a_window_deleted_before(qtbot):
    window = Painted()
    calls: list[str] = []
    after_paints(window, lambda: calls.append("run"), at_most_ms=50)
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # gone before the cap's timer can fire
    qtbot.wait(200)
    assert calls == []


def test_a_page_deleted_before_it_painted_does_not_hold_it(qtbot, window):
    page = Painted()
    calls: list[str] = []
    after_paints(window, lambda: calls.append("run"), page=page, at_most_ms=BEYOND_MS)
    page.deleteLater()
    qtbot.waitUntil(lambda: calls == ["run"], timeout=GENEROUS_MS)
