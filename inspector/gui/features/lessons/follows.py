"""What a lesson that ran leaves in the window besides its dialog: a History row (its first
answer line, the rest as its tooltip) and its code in the code view.

It hears the session state's ``taskEnded`` (a lesson's). The row's and caption's words are in
the translation context "OutcomeWords" (``common.outcome_words``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot

from inspector.gui.common.i18n import fill, translate
from inspector.gui.features.lessons.answers import answer_lines
from inspector.gui.state.outcomes import LessonOutcome

if TYPE_CHECKING:
    from inspector.gui.common.code_panel import CodePanel
    from inspector.gui.common.faces import History
    from inspector.gui.state.outcomes import TaskEnded
    from inspector.gui.state.session_state import SessionState


class LessonOutcomes(QObject):
    """A lesson's History row and code (see the module docstring)."""

    def __init__(self, *, state: SessionState, history: History, code: CodePanel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.history = history
        self.code = code
        state.taskEnded.connect(self.on_task_ended)

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        if (outcome := end.result_of(LessonOutcome)) is not None:
            self.on_lesson_finished(outcome)

    def on_lesson_finished(self, outcome: LessonOutcome) -> None:
        """Help › Lessons ran lesson ``outcome.number``: a history row, and its code in the code view."""
        from inspector.core.lessons import LESSON_CODE

        number, facts = outcome.number, outcome.facts
        self.history.record(
            lambda: fill(translate("OutcomeWords", "lesson %1"), number), outcome.seconds, None,
            lambda: next(iter(answer_lines(number, facts)), ""), detail=lambda: "\n".join(answer_lines(number, facts)[1:]),
        )  # fmt: skip
        self.code.show_code(LESSON_CODE[number], lambda: fill(translate("OutcomeWords", "Lesson %1"), number))
