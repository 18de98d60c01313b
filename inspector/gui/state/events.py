"""The worker's signals, declared once: the ModelWorker says them on its thread, and the session
state (``session_state.SessionState``), which has the same signals, says them again on the GUI
thread for every feature. Four in all: a task started, its progress, the samples it streams
while measuring, and its end, one value (``outcomes.TaskEnded``) whatever happened.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class WorkerEvents(QObject):
    """The signals a ModelWorker says and the session state says again (see the module docstring)."""

    taskStarted = Signal(str)  # the task's name (``Task``)
    progress = Signal(object)  # outcomes.Progress
    latencySamples = Signal(object)  # tuple[(index, ms), ...]: streamed while measuring
    taskEnded = Signal(object)  # outcomes.TaskEnded
