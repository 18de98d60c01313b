"""The window's tasks by name, and each task's name in the window's language.

Kept apart from ``tasks`` (the state machine) so a widget that only names a task (the error
banner, the status line) needs nothing of the machine.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from inspector.core.vocabulary import StrEnum


class Task(StrEnum):
    """What the window can ask the ModelWorker (and the report writer) to do."""

    LOAD = "load"
    MOVE = "move"
    BENCHMARK = "benchmark"
    EXPORT = "export"
    REPORT = "report"  # the Markdown block for the clipboard
    SESSION = "session"  # the comparison's side A, built quietly
    FIT = "fit"  # "will it fit?" for the devices the dialog asked about
    TRAIN_STEP = "train step"  # one real training step on the model (changes its weights)
    LESSON = "lesson"  # one of Help › Lessons, run on the live session

    @property
    def cancellable(self) -> bool:
        """Stops at its next safe point when asked: between tensors, samples or devices; a
        load is let go of (and its static check of the file stops)."""
        return self in (Task.MOVE, Task.BENCHMARK, Task.FIT, Task.LOAD)

    @property
    def measured(self) -> bool:
        """Reports how far it got (a progress bar), rather than just "busy"."""
        return self in (Task.MOVE, Task.BENCHMARK)


#: Each task's name as the window shows it ("Busy: benchmark"), marked for translation.
_LABELS = {
    Task.LOAD: QT_TRANSLATE_NOOP("Task", "load"),
    Task.MOVE: QT_TRANSLATE_NOOP("Task", "move"),
    Task.BENCHMARK: QT_TRANSLATE_NOOP("Task", "benchmark"),
    Task.EXPORT: QT_TRANSLATE_NOOP("Task", "export"),
    Task.REPORT: QT_TRANSLATE_NOOP("Task", "report"),
    Task.SESSION: QT_TRANSLATE_NOOP("Task", "session"),
    Task.FIT: QT_TRANSLATE_NOOP("Task", "fit"),
    Task.TRAIN_STEP: QT_TRANSLATE_NOOP("Task", "train step"),
    Task.LESSON: QT_TRANSLATE_NOOP("Task", "lesson"),
}


def task_label(task: str) -> str:
    """``task``'s name in the window's language (an unknown one as it is)."""
    label = _LABELS.get(task)  # type: ignore[call-overload]
    return QCoreApplication.translate("Task", label) if label else str(task)
