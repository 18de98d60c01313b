"""Call something once a widget just shown has painted its first frames.

A benchmark opens the Latency tab: its first frames (layout, then pyqtgraph's plots settling
their items, in two or three passes) are the longest the window draws, ~40 ms here; drawn
while the benchmark took both cores they held the window 60-130 ms (issue 25: no stall over
50 ms). So the benchmark is sent once the tab has painted and gone a moment without painting
again. A widget that never paints (its window hidden or minimised) does not hold it long.
"""

from __future__ import annotations

from typing import Callable

import shiboken6
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

#: No paint for this long after one (ms): the widget's first frames are done. Its passes
#: follow each other within a few ms; two frames at 60 Hz leave room for a slow one.
QUIET_MS = 32
#: ``then`` runs after this long (ms) whatever was painted.
AT_MOST_MS = 300


class _AfterPaints(QObject):
    def __init__(self, widget: QWidget, then: Callable[[], None], quiet_ms: int, at_most_ms: int) -> None:
        super().__init__(widget)
        self._then: Callable[[], None] | None = then
        self._quiet = QTimer(self, singleShot=True, interval=quiet_ms)
        self._quiet.timeout.connect(self._done)
        self._cap = QTimer(self, singleShot=True, interval=at_most_ms)
        self._cap.timeout.connect(self._done)
        self._cap.start()
        # Its children too: a plot's later passes repaint only the plot's viewport.
        self._watched = [widget, *widget.findChildren(QWidget)]
        for watched in self._watched:
            watched.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Paint:
            self._quiet.start()  # (re)started by each pass: it fires once they stop
        return False

    def _done(self) -> None:
        then, self._then = self._then, None
        for watched in self._watched:
            if shiboken6.isValid(watched):  # (a child deleted meanwhile took its filter along)
                watched.removeEventFilter(self)
        self._quiet.stop()
        self._cap.stop()
        self.deleteLater()
        if then is not None:
            then()


def after_first_paints(
    widget: QWidget, then: Callable[[], None], *, quiet_ms: int = QUIET_MS, at_most_ms: int = AT_MOST_MS
) -> None:
    """Call ``then()`` (once, on the GUI thread) when ``widget`` (or a widget in it) has
    painted and then nothing in it has for ``quiet_ms``, or after ``at_most_ms`` if that
    comes first. Nothing is called if the widget is destroyed before."""
    _AfterPaints(widget, then, quiet_ms, at_most_ms)
