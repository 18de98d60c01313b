"""The Memory tab as the session goes on: a mark for each of the window's tasks (a line from
when the task machine starts it, a span labelled with how it ended once it ends), and the
plot repainted as the sampler's readings come (the sampler stored them in the timeline
already: a built plot repaints, an unbuilt one draws the whole timeline when it is built).

It hears the task machine (``TaskController.began`` and ``busyChanged``) and the session
state (``state.session_state``). A mark's outcome is written in the language of the moment (a
log); its words are in the translation context "OutcomeWords" (``common.outcome_words``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot

from inspector.core.moves import MoveResult
from inspector.core.units import format_ms
from inspector.core.vocabulary import FailureKind
from inspector.gui.common.i18n import fill, translate
from inspector.gui.common.pages import MEMORY
from inspector.gui.state.outcomes import BenchmarkOutcome, LessonOutcome
from inspector.gui.state.tasks import Task

if TYPE_CHECKING:
    from inspector.gui.common.lazy_tabs import LazyTabs
    from inspector.gui.features.memory.task_marks import TaskMarks
    from inspector.gui.state.session_state import SessionState
    from inspector.gui.state.outcomes import TaskEnded, TaskFailure
    from inspector.gui.state.tasks import TaskController


class MemoryFollows(QObject):
    """The task marks and the plot's repaints (see the module docstring)."""

    def __init__(
        self, *, state: SessionState, tasks: TaskController, marks: TaskMarks, pages: LazyTabs,
        parent: QObject | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.tasks = tasks
        self.marks = marks
        self.pages = pages
        tasks.began.connect(self.on_task_began)
        tasks.busyChanged.connect(self.on_busy_changed)
        state.readingsChanged.connect(self.on_readings)
        state.taskEnded.connect(self.on_task_ended)

    @Slot(object, str)
    def on_task_began(self, _task: Task, label: str) -> None:
        if label:
            self.marks.begin(label)

    @Slot(object)
    def on_busy_changed(self, task: Task | None) -> None:
        if task is None:  # the window's task ended: its line becomes a span (if no outcome named it)
            self.marks.end()

    @Slot(object)
    def on_readings(self, _readings: tuple[Any, ...]) -> None:
        if self.pages.is_built(MEMORY):
            self.pages.page(MEMORY).schedule_redraw()

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        """The task's mark ends, named by how it went."""
        if end.failure is not None:
            self.on_failed(end.failure)
        elif (moved := end.result_of(MoveResult)) is not None:
            self.on_move_finished(moved)
        elif (measured := end.result_of(BenchmarkOutcome)) is not None:
            self.on_benchmark_finished(measured)
        elif (lesson := end.result_of(LessonOutcome)) is not None:
            self.on_lesson_finished(lesson)
        elif end.task == Task.TRAIN_STEP:
            self.on_train_step_finished(end.result)

    def on_move_finished(self, result: MoveResult) -> None:
        if result.ok:
            self.marks.end()
        elif result.error is not None and result.error.kind == FailureKind.CANCELLED:
            self.marks.end(translate("OutcomeWords", "cancelled"))
        else:
            self.marks.end(translate("OutcomeWords", "failed"))

    @Slot(object)
    def on_benchmark_finished(self, outcome: BenchmarkOutcome) -> None:
        self.marks.end(fill(translate("OutcomeWords", "median %1"), format_ms(outcome.result.median_ms, compact=True)))

    @Slot(object)
    def on_train_step_finished(self, result: Any) -> None:
        self.marks.end(fill(translate("OutcomeWords", "loss %1"), f"{result.loss:.4g}"))

    @Slot(object)
    def on_lesson_finished(self, outcome: Any) -> None:
        self.marks.end(fill(translate("OutcomeWords", "lesson %1"), outcome.number))

    @Slot(object)
    def on_failed(self, failure: TaskFailure) -> None:
        if not self.tasks.owns(failure.task):  # the quiet session report has no mark
            return
        cancelled = failure.failure.kind == FailureKind.CANCELLED
        self.marks.end(translate("OutcomeWords", "cancelled") if cancelled else translate("OutcomeWords", "failed"))
