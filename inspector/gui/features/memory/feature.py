"""The memory feature, installed (``state.feature``): the Memory tab's plot of the session's
timeline (built when first shown or asked for), and the marks each task leaves on it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from inspector.gui.common.pages import MEMORY
from inspector.gui.features.memory.follows import MemoryFollows
from inspector.gui.features.memory.task_marks import TaskMarks

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    marks = TaskMarks()

    def plot() -> QWidget:
        from inspector.gui.features.memory.plot import MemoryPlot

        # The session's timeline is the plot's store: the sampler fills it, the report reads it,
        # so the plot shows everything since the start, and the task marks made before it.
        made = MemoryPlot(context.parent, timeline=context.timeline)
        marks.attach(made)
        made.schedule_redraw()
        return made

    context.pages.provide(MEMORY, plot)
    MemoryFollows(state=context.state, tasks=context.tasks, marks=marks, pages=context.pages, parent=context.parent)
