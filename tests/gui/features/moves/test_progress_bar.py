"""The action bar's progress bar at rest is at rest: after a busy spell (a load) it stops
repainting itself, where Qt's Fusion style kept its busy animation going for good."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QEvent, QObject  # noqa: E402

from inspector.gui.features.moves.action_bar import ActionBar  # noqa: E402
from tests.gui.helpers import GENEROUS_MS  # noqa: E402


class PaintCounter(QObject):
    def __init__(self, widget) -> None:
        super().__init__(widget)
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


@pytest.fixture
def bar(qtbot):
    bar = ActionBar()
    qtbot.addWidget(bar)
    bar.show()
    qtbot.waitExposed(bar)
    return bar


def _paints_while_waiting(qtbot, bar, ms: int = 400) -> int:
    counter = PaintCounter(bar.progressBar)
    qtbot.wait(ms)
    return counter.count


def test_a_busy_bar_animates_and_a_bar_at_rest_after_it_does_not(qtbot, bar):
    bar.show_progress(None, "load…")
    frames = PaintCounter(bar.progressBar)  # the busy animation (~60 frames a second), at a loaded machine's pace
    qtbot.waitUntil(lambda: frames.count > 5, timeout=GENEROUS_MS)

    bar.show_idle()
    qtbot.wait(50)  # the last frame in flight
    assert _paints_while_waiting(qtbot, bar) <= 1
    assert (bar.progressBar.minimum(), bar.progressBar.maximum(), bar.progressBar.value()) == (0, 1000, 0)
    assert bar.progressBar.text() == "idle"


def test_a_measured_task_after_a_busy_one_starts_at_zero_and_stops_animating(qtbot, bar):
    bar.show_progress(None, "load…")
    qtbot.wait(100)
    bar.show_progress(0.0, "benchmark…")
    qtbot.wait(50)
    assert _paints_while_waiting(qtbot, bar) <= 1
    assert bar.progressBar.value() == 0 and bar.progressBar.text() == "benchmark…"
    bar.show_progress(0.5, "benchmark…")
    assert bar.progressBar.value() == 500
