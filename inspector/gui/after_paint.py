"""Call something once some widgets have painted what just changed in them.

Work that takes every core (a move, a benchmark) is sent once the window has drawn that it
started: its buttons greyed, the progress bar's text, and for a benchmark the Latency tab it
opens. Those frames are the longest the window draws at a task's start (the tab's first
ones, in two or three passes as pyqtgraph settles its items, ~40 ms here); drawn while the
work took both cores they held the window 60-130 ms (issue 25: no stall over 50 ms). A
widget that never paints (its window hidden or minimised) does not hold the work long.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import shiboken6
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

#: After a tab's first paint, no paint for this long (ms): its passes are done. They follow
#: each other within a few ms; two frames at 60 Hz leave room for a slow one.
SETTLE_MS = 32
#: ``then`` runs after this long (ms) whatever was painted.
AT_MOST_MS = 300


class _AfterPaints(QObject):
    def __init__(self, widgets: Sequence[QWidget], then: Callable[[], None], quiet_ms: int, at_most_ms: int) -> None:
        super().__init__(widgets[0])
        self._then: Callable[[], None] | None = then
        self._quiet = QTimer(self, singleShot=True, interval=quiet_ms)
        self._quiet.timeout.connect(self._done)
        self._cap = QTimer(self, singleShot=True, interval=at_most_ms)
        self._cap.timeout.connect(self._done)
        self._cap.start()
        # Their children too: a plot's later passes repaint only the plot's viewport.
        self._watched = [w for widget in widgets for w in (widget, *widget.findChildren(QWidget))]
        for watched in self._watched:
            watched.installEventFilter(self)
        for widget in widgets[1:]:  # (the first one's deletion deletes this object, and stops it)
            widget.destroyed.connect(self._forget)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Paint:
            self._quiet.start()  # (re)started by each pass: it fires once they stop
        return False

    def _forget(self) -> None:
        self._then = None  # a widget it waited for is gone: so is what it waited for
        self._done()

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


def after_paints(
    widgets: Sequence[QWidget], then: Callable[[], None], *, quiet_ms: int = 0, at_most_ms: int = AT_MOST_MS
) -> None:
    """Call ``then()`` (once, on the GUI thread) when one of ``widgets`` (or a widget in one)
    has painted and then none has for ``quiet_ms`` (0: right after that paint), or after
    ``at_most_ms`` if that comes first. Nothing is called if a widget is destroyed before."""
    _AfterPaints(widgets, then, quiet_ms, at_most_ms)
