"""The lessons feature, installed (``state.feature``): Help › Lessons (``panel.LessonsPanel``)
and each lesson's outcome in the history and the code view (``follows.LessonOutcomes``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer

from inspector.gui.features.lessons import actions
from inspector.gui.features.lessons.follows import LessonOutcomes
from inspector.gui.features.lessons.panel import LessonsPanel

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext
    from inspector.gui.state.tasks import Task


def install(context: FeatureContext) -> None:
    frame = context.frame
    LessonOutcomes(state=context.state, history=frame.history, code=frame.code, parent=context.parent)
    panel = LessonsPanel(
        context.parent, send=context.dispatcher.send, request=context.requests.lesson,
        open_example=lambda: context.open_model("example"), state=context.state,
    )  # fmt: skip

    def idle(task: Task | None) -> None:
        # (queued: the task that just ended is still being wound up when busyChanged says so)
        if task is None:
            QTimer.singleShot(0, panel.on_idle)

    context.tasks.busyChanged.connect(idle)
    actions.bind(context.actions, panel)
    context.publish(lessons=panel)
