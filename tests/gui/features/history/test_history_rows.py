"""The history feature alone: built with the session state and a History, and nothing of any
other feature, it writes a row for each outcome the state says (feature independence, as
behaviour: no window, no worker, no other panel)."""

from __future__ import annotations

from inspector.core.errors import Failure
from inspector.core.moves.transaction import MoveResult
from inspector.core.vocabulary import FailureKind
from inspector.gui.features.history.rows import HistoryRows
from inspector.gui.state.events import WorkerEvents
from inspector.gui.state.outcomes import TaskEnded, TaskFailure
from inspector.gui.state.session_state import SessionState
from inspector.gui.state.tasks import Task, TaskController


class Rows:
    """A History (``common.faces.History``): the rows, as the tab would say them."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, bool]] = []

    def record(self, call, seconds, gbps, result, *, ok=True, detail=""):
        say = lambda text: text() if callable(text) else text  # noqa: E731
        self.rows.append((say(call), say(result), ok))


def _move(ok: bool, error: Failure | None = None) -> MoveResult:
    return MoveResult(call="model.to('cpu')", method="to", source="cuda:0", target="cpu", dtype=None, pinned=False,
                      seconds=0.25, bytes=4096, gbps=1.0, ok=ok, error=error, memory_before={}, memory_after={})  # fmt: skip


def test_the_history_feature_alone_writes_the_rows_of_the_states_events(qapp):
    tasks = TaskController()
    state = SessionState(tasks)
    history = Rows()
    rows = HistoryRows(state=state, tasks=tasks, history=history)  # noqa: F841 (kept: it hears the state)
    worker = WorkerEvents()  # what a worker says, through the state's one door
    state.connect_worker(worker)

    worker.taskEnded.emit(TaskEnded(Task.MOVE, "model.to('cpu')", 0.25, _move(True)))
    worker.taskEnded.emit(TaskEnded(Task.MOVE, "model.to('cpu')", 0.25, _move(False, Failure(FailureKind.CANCELLED, "x"))))
    tasks.begin(Task.BENCHMARK)
    session = TaskFailure("session", "session report", Failure(FailureKind.ERROR, "boom"), 1.0)
    worker.taskEnded.emit(TaskEnded(Task.SESSION, "session report", 1.0, failure=session))
    stopped = TaskFailure("benchmark", "benchmark ×100", Failure(FailureKind.CANCELLED, "stop"), 1.0)
    worker.taskEnded.emit(TaskEnded(Task.BENCHMARK, "benchmark ×100", 1.0, failure=stopped))

    assert history.rows == [
        ("model.to('cpu')", "cuda:0 → cpu: 4.0 KiB", True),
        ("model.to('cpu')", "cancelled: rolled back, the model is as before", False),
        ("benchmark ×100", "cancelled: stopped between samples", False),
        # (the quiet session report's failure is not the window's task: the report feature's row)
    ]
