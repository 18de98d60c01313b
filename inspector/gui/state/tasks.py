"""The window's task state machine: idle → busy(task) → idle, one task at a time.

The ModelWorker runs one request at a time; the window may only send the next once the
previous one has ended. ``TaskController`` is that rule, kept apart from the widgets so it
can be tested alone:

- ``begin(task, mark)``: idle → busy(task); refused (False) while busy or after ``close()``;
  ``began(task, mark)`` says it (the memory plot's marks follow it: ``mark`` is their label).
- ``worker_finished(task)``: busy(task) → idle, except an export, which stays busy until
  its file is written (``writer_started()`` … ``writer_done()``): the worker only built the
  report, a pool thread writes it.
- A quiet task (the comparison's session report) never makes the window busy: the worker
  runs it between the user's own tasks, and its end is none of the state machine's business.

``busyChanged(task | None)`` tells the window each time the state changes.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal

from inspector.gui.common.task_words import Task, task_label

__all__ = ["Task", "TaskController", "task_label"]


class TaskController(QObject):
    """Which task the window waits for, if any (see the module docstring)."""

    busyChanged = Signal(object)  # Task | None
    began = Signal(object, str)  # Task, its label for the memory plot ("": none)
    cancelAsked = Signal(object)  # Task: Cancel was pressed for it (``gui.stuck_notice`` watches it end)

    def __init__(self, cancel_event: threading.Event | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.cancel_event = cancel_event if cancel_event is not None else threading.Event()
        #: Set to end the running benchmark early, keeping what it measured (``stop_keeping``).
        self.stop_event = threading.Event()
        self._task: Task | None = None
        self._writing = False
        self._closed = False

    @property
    def task(self) -> Task | None:
        """The task the window is busy with; None when idle."""
        return self._task

    @property
    def closed(self) -> bool:
        return self._closed

    def owns(self, task: str) -> bool:
        """Whether ``task`` (a name the worker announced) is the one the window waits for."""
        return self._task is not None and task == self._task

    def begin(self, task: Task, mark: str = "") -> bool:
        """idle → busy(task), labelled ``mark`` on the memory plot. False, and nothing changes,
        while busy or once closed."""
        if self._closed or self._task is not None:
            return False
        # Cleared here, before the request leaves: a Cancel pressed right after can never be
        # wiped out by the worker starting late.
        self.cancel_event.clear()
        self.stop_event.clear()
        self._task = Task(task)
        self.busyChanged.emit(self._task)
        self.began.emit(self._task, mark)
        return True

    def worker_finished(self, task: str) -> bool:
        """The worker ended ``task``. True if that ended the window's task (busy → idle)."""
        if not self.owns(task):
            return False  # a quiet task, which never made the window busy
        if self._task is Task.EXPORT and self._writing:
            return False  # built; busy until the writer is done with the file
        self._finish()
        return True

    def writer_started(self) -> None:
        """The export's report went to the writer: the export now ends with ``writer_done``."""
        self._writing = True

    def writer_done(self) -> bool:
        """The writer is done with the file (written or failed). True if that ended the export."""
        if not self._writing:
            return False
        self._writing = False
        if self._task is Task.EXPORT:
            self._finish()
            return True
        return False

    @property
    def writing(self) -> bool:
        return self._writing

    def cancel(self) -> bool:
        """Ask the running move or benchmark to stop at its next safe point; True if asked."""
        if self._task is not None and self._task.cancellable:
            self.cancel_event.set()
            self.cancelAsked.emit(self._task)
            return True
        return False

    def stop_keeping(self) -> bool:
        """Ask the running benchmark to end at its next chunk of samples, its samples kept as
        its result (a cancel throws them away); True if asked."""
        if self._task is Task.BENCHMARK and not self._closed:
            self.stop_event.set()
            return True
        return False

    def close(self) -> None:
        """No task starts after this; a running one is asked to stop."""
        self._closed = True
        self.cancel_event.set()

    def _finish(self) -> None:
        self._task = None
        self.cancel_event.clear()
        self.stop_event.clear()
        self.busyChanged.emit(None)
