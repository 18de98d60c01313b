"""How each task ended, in the action bar and the error banner: the bar's words at rest ("loaded
…", "moved in …", a benchmark's median, the fit's verdicts, "… failed"), its words while a task
measures ("sample 400 / 1,000 · about 1 min left", with the estimate in the status line), the
status line's busy task (it follows the task machine), and a failure shown in the banner
(cleared by a move or benchmark that works), a task's or a note's (``state.notes``: a lost
connection, said again in a new language).

It hears the session state (``state.session_state``); the banner and the status line are the
shared widgets of ``common``. Its words are the window's language, said again on a change of
language (``retranslate``), in the translation context "OutcomeWords", the words of how tasks
end (``common.outcome_words``).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QObject, Slot

from inspector.core.errors import Failure
from inspector.core.measure import time_left_text
from inspector.core.moves import MoveResult
from inspector.core.units import format_bytes, format_ms, format_seconds
from inspector.core.vocabulary import FailureKind
from inspector.gui.common.bar_words import BarWords
from inspector.gui.common.faces import ProgressShown
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.common.outcome_words import architecture_message, fit_verdict
from inspector.gui.common.plain_text import shown
from inspector.gui.state.outcomes import BenchmarkOutcome, FitOutcome, LessonOutcome, LoadOutcome
from inspector.gui.state.tasks import Task, task_label

if TYPE_CHECKING:
    from inspector.gui.common.error_banner import ErrorBanner
    from inspector.gui.common.status_line import StatusLine
    from inspector.gui.state.notes import Note
    from inspector.gui.state.session_state import SessionState
    from inspector.gui.state.tasks import TaskController
    from inspector.gui.state.outcomes import Progress, TaskEnded, TaskFailure


class TaskOutcomes(QObject):
    """The bar's words, the banner and the status line's task, after the session's events."""

    def __init__(
        self, *, state: SessionState, tasks: TaskController, bar: ProgressShown, banner: ErrorBanner,
        status: StatusLine, parent: QObject | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.tasks = tasks
        self.bar = bar
        self.bar_words = BarWords(bar)
        self.banner = banner
        self.status = status
        tasks.busyChanged.connect(status.show_task)
        tasks.busyChanged.connect(self.on_busy_changed)
        state.taskStarted.connect(self.on_task_started)
        state.progress.connect(self.on_progress)
        state.taskEnded.connect(self.on_task_ended)
        state.noted.connect(self.on_noted)
        #: The note whose failure the banner shows (said again on a change of language), and that failure.
        self._noted: tuple[Note, Failure] | None = None

    def retranslate(self) -> None:
        """The bar's words again, if it still says this part's; a note's failure, if still shown."""
        self.bar_words.retranslate()
        if self._noted is not None and not self.banner.isHidden() and self.banner.failure is self._noted[1]:
            self.on_noted(self._noted[0])

    @Slot(object)
    def on_noted(self, note: Note) -> None:
        """A note that is a failure the user must see now (a lost connection): in the banner."""
        if note.failure is None:
            return
        said = note.failure.message
        failure = Failure(note.failure.kind, said() if callable(said) else said, note.failure.detail)
        self._noted = (note, failure)
        self.banner.show_failure(failure, note.call)

    @Slot(str)
    def on_task_started(self, task: str) -> None:
        if self.tasks.owns(task):  # not the quiet session report
            self.status.show_task(task)

    @Slot(object)
    def on_busy_changed(self, task: Task | None) -> None:
        if task is None and self.bar.progressBar.maximum() == 0:  # a task that said no words of its own
            self.bar.show_idle()

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        """The bar's words and the banner for how ``end``'s task went."""
        if end.failure is not None:
            self.on_failed(end.failure)
            return
        match end.result:
            case LoadOutcome() as loaded:
                self.on_model_loaded(loaded)
            case MoveResult() as moved:
                self.on_move_finished(moved)
            case BenchmarkOutcome() as measured:
                self.on_benchmark_finished(measured)
            case FitOutcome() as fitted:
                self.on_fit_finished(fitted)
            case LessonOutcome() as lesson:
                self.on_lesson_finished(lesson)

    @Slot(object)
    def on_model_loaded(self, outcome: LoadOutcome) -> None:
        self.banner.dismiss()
        name = shown(outcome.state.info.class_name)
        self.bar_words.idle(lambda: fill(translate("OutcomeWords", "loaded %1"), name))

    @Slot(object)
    def on_move_finished(self, result: MoveResult) -> None:
        if result.ok:
            took = format_seconds(result.seconds)
            self.bar_words.idle(lambda: fill(translate("OutcomeWords", "moved in %1"), took))
            self.banner.cleared_by(Task.MOVE)  # a move that works now: the failed one's banner is over
        elif result.error is None:
            return  # (a failed move always says why)
        elif result.error.kind == FailureKind.CANCELLED:
            self.bar_words.idle(lambda: translate("OutcomeWords", "cancelled"))
        else:
            self.banner.show_failure(result.error, result.call, source=Task.MOVE)
            self.bar_words.idle(lambda: translate("OutcomeWords", "move failed"))

    @Slot(object)
    def on_benchmark_finished(self, outcome: BenchmarkOutcome) -> None:
        r, attribution, top = outcome.result, outcome.attribution, None
        if attribution is not None:
            from inspector.gui.common.module_summary import top_line

            top = partial(top_line, attribution, 1)
        self.bar_words.idle(partial(_benchmark_idle, format_ms(r.median_ms, compact=True), bool(r.noise), top))
        self.banner.cleared_by(Task.BENCHMARK)

    @Slot(object)
    def on_progress(self, progress: Progress) -> None:
        if progress.task == Task.MOVE:
            text = fill(translate("OutcomeWords", "moving %1 / %2"), format_bytes(progress.done), format_bytes(progress.total))
        else:
            text = fill(translate("OutcomeWords", "sample %1 / %2"), f"{int(progress.done):,}", f"{int(progress.total):,}")
        left = core_text(time_left_text(progress.seconds_left))
        if left:  # a long benchmark: an estimate in the bar and in the status bar
            text += f" · {left}"
            if self.tasks.task is not None:
                self.status.show_task(self.tasks.task, left)
        self.bar.show_progress(progress.fraction, text)

    @Slot(object)
    def on_failed(self, failure: TaskFailure) -> None:
        if not self.tasks.owns(failure.task):  # the quiet session report: no banner for it
            return
        if failure.failure.kind == FailureKind.CANCELLED:
            self.bar_words.idle(lambda: translate("OutcomeWords", "cancelled"))
            return
        if failure.failure.kind == FailureKind.ARCHITECTURE:
            # The window's way to give it: the dialog's field (the CLI says --arch).
            failure = replace(failure, failure=replace(failure.failure, message=architecture_message(failure.failure.message)))
        self.banner.show_failure(failure.failure, failure.task, source=failure.task)
        task = failure.task
        self.bar_words.idle(lambda: fill(translate("OutcomeWords", "%1 failed"), task_label(task)))

    @Slot(object)
    def on_fit_finished(self, outcome: FitOutcome) -> None:
        fits = [(r.device, r.fits, format_bytes(r.estimated_peak_bytes)) for r in outcome.results]
        self.bar_words.idle(partial(_fit_idle, fits))

    @Slot(object)
    def on_lesson_finished(self, outcome: LessonOutcome) -> None:
        self.bar.show_idle(fill(translate("OutcomeWords", "lesson %1 done"), outcome.number))


def _benchmark_idle(median: str, noisy: bool, top: Callable[[], str] | None) -> str:
    """The progress bar's words after a benchmark: its median, a flag when noisy, the top module."""
    text = fill(translate("OutcomeWords", "median %1"), median)
    if noisy:
        text = fill(translate("OutcomeWords", "%1 · noisy"), text)
    return text + (" · " + top() if top is not None else "")


def _fit_idle(fits: list[tuple[str, bool | None, str]]) -> str:
    verdicts = ", ".join(fit_verdict(*fit) for fit in fits)
    return verdicts[:80] or translate("OutcomeWords", "fit failed")
