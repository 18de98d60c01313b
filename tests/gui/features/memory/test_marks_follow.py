"""The memory feature's task marks follow the task machine and the session state alone: a
line from when a task begins (its label comes with it), a span labelled with how it ended;
no command calls them (feature independence, as behaviour)."""

from __future__ import annotations

from types import SimpleNamespace

from inspector.core.errors import Failure
from inspector.core.vocabulary import FailureKind
from inspector.gui.common.lazy_tabs import LazyTabs
from inspector.gui.features.memory.follows import MemoryFollows
from inspector.gui.features.memory.task_marks import TaskMarks
from inspector.gui.state.events import WorkerEvents
from inspector.gui.state.outcomes import BenchmarkOutcome, TaskEnded, TaskFailure
from inspector.gui.state.session_state import SessionState
from inspector.gui.state.tasks import Task, TaskController


def test_the_marks_begin_with_the_task_machine_and_end_labelled_with_the_outcome(qtbot):
    from PySide6.QtWidgets import QTabWidget

    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    tasks = TaskController()
    state = SessionState(tasks)
    marks = TaskMarks()
    MemoryFollows(state=state, tasks=tasks, marks=marks, pages=LazyTabs(tabs), parent=tabs)
    worker = WorkerEvents()  # what a worker says, through the state's one door
    state.connect_worker(worker)

    tasks.begin(Task.LOAD)  # no label: no mark
    worker.taskEnded.emit(TaskEnded(Task.LOAD, "load_model('example')", 0.1))
    assert marks.unplotted == []

    tasks.begin(Task.BENCHMARK, "benchmark ×100 · cpu float32")
    measured = BenchmarkOutcome(SimpleNamespace(median_ms=1.5), SimpleNamespace(), 1.0)  # type: ignore[arg-type]
    worker.taskEnded.emit(TaskEnded(Task.BENCHMARK, "benchmark", 1.0, measured))
    tasks.begin(Task.MOVE, "model.to('cpu')")
    stopped = TaskFailure("move", "model.to('cpu')", Failure(FailureKind.CANCELLED, "stop"), 0.1)
    worker.taskEnded.emit(TaskEnded(Task.MOVE, "model.to('cpu')", 0.1, failure=stopped))
    tasks.begin(Task.FIT, "will it fit? cpu")
    worker.taskEnded.emit(TaskEnded(Task.FIT, "estimate_fit", 0.1))  # nothing to name: the span ends with the task

    labels = [label for label, _start, _end in marks.unplotted]
    assert labels == [
        "benchmark ×100 · cpu float32 …", "benchmark ×100 · cpu float32 (median 1.50 ms)",
        "model.to('cpu') …", "model.to('cpu') (cancelled)",
        "will it fit? cpu …", "will it fit? cpu",
    ]
