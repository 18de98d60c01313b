"""The one door to the worker: ``Dispatcher`` sends a request only when no other task runs
(``TaskController`` is the rule), with its progress bar, and labels the task for the memory
plot (``TaskController.began`` carries the label; the memory feature's marks follow it).

Every feature that asks the worker for something is handed this one dispatcher; what it asks
of the action bar is typed by ``ProgressBar`` (the bar's words and the window it draws in),
so it imports no feature; what it asks of the task machine and the status line is typed by
``TaskMachine`` and ``StatusShown`` (``tasks.TaskController``, ``common.status_line.StatusLine``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtWidgets import QWidget

from inspector.gui.common.after_paint import after_paints
from inspector.gui.common.faces import ProgressShown
from inspector.gui.common.i18n import fill, translate
from inspector.gui.common.task_words import Task, task_label

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance


class ProgressBar(ProgressShown, Protocol):
    """The action bar as the dispatcher uses it: its progress words, and the window it is in."""

    def window(self) -> QWidget: ...


class TaskMachine(Protocol):
    """The task machine as the dispatcher uses it (``tasks.TaskController``)."""

    @property
    def closed(self) -> bool: ...

    @property
    def task(self) -> Task | None: ...

    def begin(self, task: Task, mark: str = "") -> bool: ...

    def cancel(self) -> bool: ...

    def owns(self, task: str) -> bool: ...


class StatusShown(Protocol):
    """The status line as the dispatcher uses it (``common.status_line.StatusLine``)."""

    def flash(self, text: str, msecs: int) -> None: ...

    def show_cancelling(self, task: str | None) -> None: ...


class Dispatcher:
    """Sends one request at a time to the worker (see the module docstring)."""

    def __init__(self, tasks: TaskMachine, progress: ProgressBar, status: StatusShown) -> None:
        self.tasks = tasks
        self.progress = progress
        self.status = status

    @property
    def closed(self) -> bool:
        return self.tasks.closed

    def send(
        self, task: Task, signal: SignalInstance, *args: object, mark: str | None = None, drawn_first: bool | QWidget = False,
    ) -> bool:  # fmt: skip
        """Emit ``signal(*args)`` for ``task`` unless another task runs; ``mark`` labels the
        memory plot from now until the task ends. ``drawn_first`` (work that takes every
        core): the request leaves once the window has drawn that the task started, and the
        page it opens (a widget about to be shown) has settled (``after_paint``); the task is
        the window's meanwhile (a cancel then stops it as it starts)."""
        if self.tasks.closed:
            return False
        if not self.tasks.begin(task, mark or ""):
            self.refuse()
            return False
        self.progress.show_progress(0.0 if task.measured else None, f"{task_label(task)}…")
        window = self.progress.window()
        if drawn_first is False or not window.isVisible() or window.isMinimized():  # (it draws nothing)
            signal.emit(*args)
            return True

        def leave() -> None:
            if not self.tasks.closed and self.tasks.task == task:
                signal.emit(*args)

        after_paints(window, leave, page=drawn_first if isinstance(drawn_first, QWidget) else None)
        return True

    def refuse(self) -> None:
        self.status.flash(self.busy_text(), 4000)

    def busy_text(self) -> str:
        task = task_label(self.tasks.task or "")
        return fill(translate("Dispatcher", "Busy: wait for the %1 to finish, or cancel it"), task)

    def cancel(self) -> None:
        """Ask the running move or benchmark to stop at its next safe point."""
        if self.tasks.cancel():
            self.status.show_cancelling(self.tasks.task)
