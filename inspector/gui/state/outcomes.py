"""What the ModelWorker sends back, as frozen values of plain data (they cross from the worker's
thread to the GUI thread): a task's progress, and its end.

A task ends as one value, ``TaskEnded``, said once (``events.WorkerEvents.taskEnded``): which
task, how it ended (``outcome``), its result, the model's placement after it (where the task may
have changed it) and, for a task that produced no result, its ``TaskFailure``. A subscriber reads
what it needs of that one value; none has to know in which order several signals come.

Torch-free: the window's frame imports the state before torch is imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from inspector.core.errors import Failure
from inspector.core.vocabulary import FailureKind, StrEnum
from inspector.gui.common.task_words import Task

if TYPE_CHECKING:
    from inspector.core.measure import LatencyResult
    from inspector.core.report import TimingReport
    from inspector.core.session import BenchmarkRequest, ModelState

R = TypeVar("R")

#: The tasks whose end is a new state of the session (its ``SessionState.revision`` moves on).
_CHANGE_THE_SESSION = (Task.LOAD, Task.MOVE, Task.BENCHMARK, Task.TRAIN_STEP, Task.LESSON)


@dataclass(frozen=True)
class TaskFailure:
    """A task that did not produce its result (a failed move comes back as a MoveResult)."""

    task: str  # "load" | "move" | "benchmark" | "export" | "report" | "session" | …
    call: str  # what was attempted, as code or words (the history's "call" column)
    failure: Failure
    seconds: float
    #: For a refused (untrusted) file: its path and what it wanted (the window keeps the
    #: load's other arguments to retry it with trust).
    path: str | None = None
    wanted: tuple[str, ...] = ()


@dataclass(frozen=True)
class Progress:
    task: str
    done: float
    total: float
    #: An estimate of the time left (``core.measure.time_left``); None while there is nothing to say.
    seconds_left: float | None = None

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total > 0 else 0.0


@dataclass(frozen=True)
class LoadOutcome:
    state: ModelState
    seconds: float


@dataclass(frozen=True)
class BenchmarkOutcome:
    result: LatencyResult
    request: BenchmarkRequest
    seconds: float
    attribution: Any = None  # inspector.core.measure.attribution.Attribution, for a per-module run


@dataclass(frozen=True)
class FitOutcome:
    """"Will it fit?" answers, one per device asked about (core.measure.fit.FitResult), and the
    devices whose estimate failed, with why."""

    results: tuple[Any, ...]
    failures: tuple[tuple[str, Failure], ...]
    seconds: float


@dataclass(frozen=True)
class LessonOutcome:
    """What Help › Lessons' lesson ``number`` saw (``core.lessons``' facts)."""

    number: int
    facts: Any
    seconds: float


@dataclass(frozen=True)
class ReportRequest:
    """Build the session's report, for ``purpose``: "export" (to ``path``), "markdown"
    (the clipboard) or "session" (the comparison view's side A, built quietly)."""

    purpose: str
    path: str | None = None

    @property
    def task(self) -> Task:
        # The name the worker announces: "export" keeps the window busy until the file is
        # written; "session" runs unannounced between the user's own tasks.
        return {"export": Task.EXPORT, "markdown": Task.REPORT}.get(self.purpose, Task.SESSION)

    @property
    def with_memory(self) -> bool:
        # Only the file holds the memory timeline (an hour of it is megabytes of dicts);
        # the comparison and the Markdown block never show it.
        return self.purpose == "export"

    def call(self) -> str:
        return f"save_report(report, {self.path!r})" if self.path else "build_report(model)"


@dataclass(frozen=True)
class ReportBuilt:
    request: ReportRequest
    report: TimingReport  # the session's report, typed as a loaded one is (its file: to_dict())
    seconds: float


class Outcome(StrEnum):
    """How a task ended."""

    DONE = "done"
    CANCELLED = "cancelled"
    FAILED = "failed"


@dataclass(frozen=True)
class TaskEnded:
    """The end of one of the worker's tasks, whatever happened (see the module docstring)."""

    task: Task
    call: str  # what was attempted, as code or words
    seconds: float
    #: The task's own value: a LoadOutcome, a MoveResult (ok or not), a BenchmarkOutcome, a
    #: FitOutcome, a TrainStepResult, a LessonOutcome or a ReportBuilt; None when it produced none.
    result: object = None
    #: The model after the task, where the task may have changed it (a load's new model, a move's
    #: placement even when it failed: it shows the rollback, a training step's gradients).
    placement: ModelState | None = None
    #: Why the task produced no result (an exception in the worker, a cancel).
    failure: TaskFailure | None = None
    #: The window's own task (what it was busy with), not the quiet session report; set by the
    #: state (``SessionState``), which asks the task machine.
    own: bool = False

    def result_of(self, kind: type[R]) -> R | None:
        """The result, if it is a ``kind``."""
        return self.result if isinstance(self.result, kind) else None

    @property
    def error(self) -> Failure | None:
        """Why it did not succeed: its failure's, or a failed move's (which is a result)."""
        if self.failure is not None:
            return self.failure.failure
        error = getattr(self.result, "error", None)
        return error if isinstance(error, Failure) else None

    @property
    def outcome(self) -> Outcome:
        error = self.error
        if error is None:
            return Outcome.DONE
        return Outcome.CANCELLED if error.kind == FailureKind.CANCELLED else Outcome.FAILED

    @property
    def changes_session(self) -> bool:
        """Whether the session is not what it was (a result or a placement came of the task)."""
        return self.task in _CHANGE_THE_SESSION and (self.result is not None or self.placement is not None)
