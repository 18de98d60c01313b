"""The memory plot's marks for the window's tasks: a line when one starts, a labelled span
when it ends.

A mark is written in the language of the moment it is made, and stays so (a log, as the
History tab's rows are).

The Memory tab is built when first shown (``lazy_tabs``); the marks made before that wait
here and are drawn when the plot is attached, so the plot shows every task since the start.
"""

from __future__ import annotations

import time
from typing import Any

from inspector.gui.common.i18n import fill, translate


class TaskMarks:
    """The running task's mark, and the marks waiting for the memory plot."""

    def __init__(self) -> None:
        self._plot: Any = None  # gui.plots.memory.MemoryPlot, once built
        #: The running task's line: (time.time() it started, label).
        self._running: tuple[float, str] | None = None
        #: Marks (label, start, end or None) made before the plot was attached.
        self.unplotted: list[tuple[str, float, float | None]] = []

    def attach(self, plot: Any) -> None:
        """The memory plot was just built: it draws the marks made so far, and every later one."""
        for label, start, end in self.unplotted:
            if end is None:
                plot.mark(label, start)
            else:
                plot.end_mark(start, label, end)
        self.unplotted.clear()
        self._plot = plot

    def begin(self, label: str) -> None:
        """A task labelled ``label`` starts now: a line on the plot until it ends."""
        self._running = (self._mark(label + " …"), label)

    def end(self, outcome: str = "") -> None:
        """The running task's line becomes a span, labelled with how it ended."""
        if self._running is None:
            return
        started, label = self._running
        self._running = None
        label = fill(translate("TaskMarks", "%1 (%2)"), label, outcome) if outcome else label
        if self._plot is not None:
            self._plot.end_mark(started, label)
        else:
            self.unplotted.append((label, started, time.time()))

    def _mark(self, label: str) -> float:
        """A line on the plot from now; returns its ``time.time()`` stamp."""
        if self._plot is not None:
            return float(self._plot.mark(label))
        started = time.time()
        self.unplotted.append((label, started, None))
        return started
