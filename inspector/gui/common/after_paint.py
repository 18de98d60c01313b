"""Call something once a window has drawn what just changed in it.

Work that takes every core (a move, a benchmark) is sent once the window has drawn that it
started: its buttons greyed, the progress bar's text, a relayout the click set off (a longer
price under the move buttons), and for a benchmark the Latency tab it opens. Those frames are
the longest the window draws at a task's start (the tab's first ones, in two or three passes
as pyqtgraph settles its items, ~40 ms here); drawn while the work took both cores they held
the window 60-130 ms (issue 25: no stall over 50 ms). A window that never paints (hidden or
minimised) does not hold the work long.
"""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

#: No paint for this long after one (ms): the passes a change set off are done. They follow
#: each other within a few ms; two frames at 60 Hz leave room for a slow one.
SETTLE_MS = 32
#: ``then`` runs after this long (ms) whatever was painted.
AT_MOST_MS = 300


class _AfterPaints(QObject):
    def __init__(
        self, window: QWidget, watched: list[QWidget], then: Callable[[], None], quiet_ms: int, at_most_ms: int
    ) -> None:  # fmt: skip
        super().__init__(window)  # (gone with the window: nothing is called then)
        self._then: Callable[[], None] | None = then
        self._quiet = QTimer(self, singleShot=True, interval=quiet_ms)
        self._quiet.timeout.connect(self._done)
        self._cap = QTimer(self, singleShot=True, interval=at_most_ms)
        self._cap.timeout.connect(self._done)
        self._cap.start()
        self._watched = [window, *watched]
        for widget in self._watched:
            widget.installEventFilter(self)
        if watched:  # a page gone before it painted: nothing left to wait for
            watched[0].destroyed.connect(self._done)

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


def after_paints(
    window: QWidget, then: Callable[[], None], *, page: QWidget | None = None, quiet_ms: int = SETTLE_MS,
    at_most_ms: int = AT_MOST_MS,
) -> None:  # fmt: skip
    """Call ``then()`` (once, on the GUI thread) when ``window`` (a top-level window: each
    pass that repaints anything in it paints it too) and ``page`` (a widget about to be
    shown, and every widget in it: a plot's later passes repaint only its viewport) have
    painted, and nothing of them has for ``quiet_ms``; or after ``at_most_ms``, or the
    page's deletion, if that comes first. Nothing is called if the window is deleted before."""
    watched = [page, *page.findChildren(QWidget)] if page is not None else []
    _AfterPaints(window, watched, then, quiet_ms, at_most_ms)
