"""The ModelWorker: the window's background thread that solely owns the model (through a
``Session``). The memory sampler is in ``gui/state/sampler.py``, the thread helpers in ``gui/state/threads.py``.

The worker is a QObject moved to its own QThread. The window talks to them only through queued
signals (``events.WorkerEvents``); they answer with frozen dataclasses of plain values
(``outcomes``: a task ends as one ``TaskEnded``) and send errors as ``Failure`` values, never
exception objects. Cancelling is a ``threading.Event``
the window sets directly: the worker hands ``event.is_set`` to the core functions, which
check it between tensors (a move) or between samples (a benchmark).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import traceback
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, cast

from PySide6.QtCore import Slot

from inspector.core.errors import Failure, InspectorError
from inspector.core.measure import MemoryTimeline, TimeLeft
from inspector.core.moves import MoveRequest, call_code
from inspector.core.session import BenchmarkRequest, FrontEndSession, LoadRequest, ModelState, Session
from inspector.core.vocabulary import MAX_MEASURE_SECONDS, BenchMode
from inspector.gui.common.i18n import fill, translate
from inspector.gui.common.task_words import Task
from inspector.gui.state.events import WorkerEvents
from inspector.gui.state.outcomes import (
    BenchmarkOutcome, FitOutcome, LessonOutcome, LoadOutcome, Progress, ReportBuilt, ReportRequest, TaskEnded,
    TaskFailure,
)  # fmt: skip
from inspector.gui.state.threads import BackgroundRunner, run_abandonable

if TYPE_CHECKING:
    from inspector.gui.state.sample_gate import SampleGate  # imported by the first benchmark, not at start

# (the values it sends, for those that import them from here)
__all__ = [
    "BenchmarkOutcome", "FitOutcome", "LessonOutcome", "LoadOutcome", "ModelWorker", "Progress", "ReportBuilt",
    "ReportRequest", "TaskEnded", "TaskFailure", "request_call",
]  # fmt: skip

log = logging.getLogger(__name__)

#: Progress and streamed samples reach the window at most this often: a benchmark of a tiny
#: model takes a sample every few microseconds, and a signal per sample would flood the GUI.
EMIT_INTERVAL_S = 0.05


def _latched(cancel: threading.Event) -> Callable[[], bool]:
    """``cancel.is_set``, but True for good once it has been: the window clears its cancel
    event when the task ends, while an abandoned load (its file's static check) runs on and
    must still see that it was cancelled."""
    seen = threading.Event()

    def should_stop() -> bool:
        if cancel.is_set():
            seen.set()
        return seen.is_set()

    return should_stop


@dataclass
class _Throttle:
    """Calls ``emit`` at most every EMIT_INTERVAL_S; ``flush`` sends what is left."""

    emit: Callable[[], None]
    last: float = 0.0
    pending: bool = False

    def poke(self) -> None:
        self.pending = True
        now = time.monotonic()
        if now - self.last >= EMIT_INTERVAL_S:
            self.flush(now)

    def flush(self, now: float | None = None) -> None:
        if self.pending:
            self.pending = False
            self.last = time.monotonic() if now is None else now
            self.emit()


def failure_from(exc: BaseException) -> Failure:
    """An exception as a Failure; an unforeseen one (a bug) keeps its traceback as detail."""
    failure = Failure.from_exception(exc)
    if not isinstance(exc, InspectorError) and not failure.detail:
        failure = Failure(failure.kind, failure.message, traceback.format_exc())
    return failure


# --------------------------------------------------------------------------- model worker


class ModelWorker(WorkerEvents):
    """Drives the window's session (the sole owner of the model) on the worker's thread: a
    ``Session`` here or a ``RemoteSession`` in an agent (``FrontEndSession``), whose
    ``capabilities`` say what it can do.

    Every slot runs on the worker's thread, one at a time; each announces itself with
    ``taskStarted`` and always ends with one ``taskEnded`` (``outcomes.TaskEnded``), whatever
    happened in between. Its signals are ``events.WorkerEvents``'. The session is injectable,
    so a test can hand in one it prepared or watches.
    """

    def __init__(
        self,
        cancel_event: threading.Event,
        timeline: MemoryTimeline | None = None,
        *,
        session: FrontEndSession | None = None,
        gate: SampleGate | None = None,
        stop_event: threading.Event | None = None,
    ) -> None:
        """``stop_event``: set, a benchmark ends at its next chunk with what it measured."""
        super().__init__()
        self._cancel = cancel_event
        self._stop = stop_event
        #: Parks the window's threads around each chunk of samples (``gui.state.sample_gate``); a
        #: remote session's samples are taken in the agent's process and need none.
        self._gate = gate
        # Touched only on this worker's thread once the worker has moved there.
        self.session: FrontEndSession = session if session is not None else Session(timeline, in_window=True)
        self._runner: BackgroundRunner | None = None

    @property
    def _mover(self) -> BackgroundRunner:
        """The thread moves run on (made at the first move)."""
        if self._runner is None:
            self._runner = BackgroundRunner("model-mover")
        return self._runner

    # ----- slots

    @Slot(object)
    def load(self, request: LoadRequest) -> None:
        with self._task(Task.LOAD, request.call()) as task:
            # The factory or file runs on a thread of its own that a close can abandon
            # (nothing interrupts a factory); only the finished model comes back to this
            # thread, the model's sole owner, which adopts it (a remote session's agent
            # loads it there, and the wait for it is cancellable).
            # The example's optimizer is made after its tensors are shown (see below).
            should_stop = _latched(self._cancel)
            state = self.session.load(
                replace(request, defer_optimizer=True), should_cancel=should_stop,
                run=lambda work, stop: run_abandonable(work, stop, name="model-load"),
            )  # fmt: skip
            task.ended(LoadOutcome(state, time.perf_counter() - task.started), placement=state)

    def _make_deferred_optimizer(self) -> None:
        """Make the loaded model's deferred optimizer (the example's) before a task needs it.

        The first optimizer of a process imports ``torch._dynamo`` (a second or two), which
        the load does not wait for (made right after the load, that import would also compete
        with the window's first paint for the GIL). Abandonable like a load, so a close never
        waits on it; if abandoned, the core makes it on first need instead. Creating it only
        reads the parameters' identities, never their values.
        """
        loaded = self.session.loaded  # None for a remote session: its optimizer lives there
        factory = loaded.optimizer_factory if loaded is not None and loaded.optimizer is None else None
        if loaded is None or factory is None:
            return
        module = loaded.module
        try:
            optimizer = run_abandonable(lambda: factory(module), self._cancel.is_set, name="optimizer")
        except Exception:  # noqa: BLE001 - a cancel, or a factory's failure: made on first need instead
            log.info("the deferred optimizer was not made now; it is made on first need", exc_info=True)
            return
        if self.session.loaded is loaded and loaded.optimizer is None:
            loaded.optimizer, loaded.optimizer_factory = optimizer, None

    @Slot(object)
    def move(self, request: MoveRequest) -> None:
        with self._task(Task.MOVE, request_call(request)) as task:
            self.session.require_model()
            throttle = self._progress_throttle(Task.MOVE)
            # On the mover's thread, below the window's priority: a cast's copies take every
            # core, and the window would wait for a time slice to repaint (ui_stall.py).
            result = self._mover.run(
                lambda: self.session.move(request, progress=throttle.update, should_cancel=self._cancel.is_set)
            )
            throttle.flush()
            # Even a failed move is worth a fresh snapshot: it proves the rollback.
            task.ended(result, placement=self.session.state())

    @Slot(object)
    def benchmark(self, request: BenchmarkRequest) -> None:
        if request.fresh_processes and not self.session.capabilities.fresh_processes:
            request = replace(request, fresh_processes=False)  # (the window hides the choice there)
        with self._task(Task.BENCHMARK, request.call()) as task:
            self.session.require_model()
            if request.mode == BenchMode.TRAIN_STEP:
                self._make_deferred_optimizer()
            throttle = self._progress_throttle(Task.BENCHMARK)
            # Each run's samples stop at the time cap: the time left never says more.
            throttle.cap_seconds(MAX_MEASURE_SECONDS * max(1, request.repeat))
            streamed: list[tuple[int, float]] = []

            def send_samples() -> None:
                batch = tuple(streamed)
                streamed.clear()
                self.latencySamples.emit(batch)

            sample_throttle = _Throttle(send_samples)

            def on_sample(index: int, ms: float) -> None:
                streamed.append((index, ms))
                sample_throttle.poke()

            # A session of this process can end a run early and keep it (a remote one cannot yet).
            stop = self._stop.is_set if self._stop is not None and self.session.capabilities.stop_early else None
            try:
                with self._quiet_window():
                    result = self.session.measure(
                        request, on_sample=on_sample, progress=throttle.update, should_cancel=self._cancel.is_set,
                        should_stop=stop,
                    )
            finally:  # a cancelled run's samples still reach the plots
                sample_throttle.flush()
                throttle.flush()
            attribution = None
            if request.per_module and not (stop is not None and stop()):  # after the plain run, which it states its overhead against
                throttle.cap_seconds(None)  # (a per-module run has no time cap)
                try:
                    if self.session.capabilities.timed_here:  # the FLOP counter's set-up before the gate (issue 46)
                        from inspector.core.measure import prepare_flop_count

                        prepare_flop_count()
                    with self._quiet_window():
                        attribution = self.session.attribute(
                            request, progress=throttle.update, should_cancel=self._cancel.is_set
                        )
                finally:
                    throttle.flush()
            task.ended(BenchmarkOutcome(result, request, time.perf_counter() - task.started, attribution))

    @Slot(object)
    def train_step(self, input_shape: Any) -> None:
        """One real training step on the model (its weights change); then a fresh snapshot,
        which now lists its gradients and optimizer state."""
        with self._task(Task.TRAIN_STEP, "optimizer.step()") as task:
            self.session.require_model()
            self._make_deferred_optimizer()
            try:
                task.ended(self.session.train_step(input_shape))
            finally:  # a failed backward may have left grads: show the model as it is
                task.placement = self.session.state()

    @Slot(object)
    def run_lesson(self, number: int) -> None:
        """Help › Lessons' lesson ``number`` on the live session; the tree follows what it moved."""
        from inspector.core import lessons

        with self._task(Task.LESSON, lessons.LESSON_CODE[number].splitlines()[0]) as task:
            try:
                # (offered only where ``capabilities.lessons``: this process's own Session)
                facts = lessons.run_lesson(number, cast(Session, self.session))
            finally:
                if self.session.loaded is not None and number in (2, 3):  # lessons that move the live model
                    task.placement = self.session.state()
            task.ended(LessonOutcome(number, facts, time.perf_counter() - task.started))

    @Slot(object)
    def fit(self, requests: tuple[Any, ...]) -> None:
        """Answer "will it fit?" for each request (one per device); a device whose estimate
        fails keeps the others' answers. Cancel stops the estimate or the proof within a few
        operators (the model is never touched: both run on copies)."""
        from inspector.core.errors import Cancelled

        devices = ", ".join(r.device for r in requests)
        with self._task(Task.FIT, f"estimate_fit(model, {devices})") as task:
            self.session.require_model()
            results, failures = [], []
            for i, request in enumerate(requests):
                if self._cancel.is_set():
                    text = translate("ModelWorker", "cancelled before the estimate for %1")
                    raise Cancelled(fill(text, request.device))
                try:
                    results.append(self.session.fit(request, should_cancel=self._cancel.is_set))
                except Cancelled:
                    raise  # the whole task is cancelled, not one device
                except InspectorError as exc:
                    failures.append((request.device, Failure.from_exception(exc)))
                self.progress.emit(Progress(Task.FIT, i + 1, len(requests)))
            task.ended(FitOutcome(tuple(results), tuple(failures), time.perf_counter() - task.started))

    @Slot(object)
    def build_report(self, request: ReportRequest) -> None:
        """Build the session's report dict (only this thread may read the model's tensors).

        The window renders the plot images and hands the dict to its ReportExporter, which
        writes the file on a pool thread: rendering a large report is no work for this thread,
        which may have a move or a benchmark waiting behind it.
        """
        with self._task(request.task, request.call()) as task:
            built = self.session.report(with_memory=request.with_memory)
            task.ended(ReportBuilt(request, built, time.perf_counter() - task.started))

    # ----- helpers

    def _quiet_window(self) -> contextlib.AbstractContextManager[None]:
        """Chunks of samples timed with the window's threads parked (``gui.state.sample_gate``)."""
        if self._gate is None or not self.session.capabilities.timed_here:
            return contextlib.nullcontext()
        return self._gate.for_run()

    def _progress_throttle(self, task: Task) -> "_ProgressThrottle":
        return _ProgressThrottle(task, self.progress)

    def _task(self, task: Task, call: str) -> "_TaskScope":
        return _TaskScope(self, task, call)


class _ProgressThrottle:
    """A ``progress(done, total)`` callback for core functions, throttled for the GUI."""

    def __init__(self, task: str, signal: Any) -> None:
        self._task = task
        self._signal = signal
        self._latest: tuple[float, float, float | None] = (0, 0, None)
        self._throttle = _Throttle(self._emit)
        self._time_left = TimeLeft()

    def cap_seconds(self, seconds: float | None) -> None:
        """The time cap of the phases that follow (``TimeLeft.cap_s``)."""
        self._time_left.cap_s = seconds

    def update(self, done: float, total: float) -> None:
        self._latest = (done, total, self._time_left.update(done, total))
        self._throttle.poke()

    def flush(self) -> None:
        self._throttle.flush()

    def _emit(self) -> None:
        self._signal.emit(Progress(self._task, *self._latest))


class _TaskScope:
    """``with worker._task(...) as task``: announces a task and ends it with one ``taskEnded``,
    its result and placement as the slot left them (``ended``), any exception as its failure."""

    def __init__(self, worker: ModelWorker, task: Task, call: str) -> None:
        self.worker, self.task, self.call = worker, task, call
        self.started = 0.0
        self.result: object = None
        self.placement: ModelState | None = None

    def ended(self, result: object, *, placement: ModelState | None = None) -> None:
        """What the task produced (said when the scope ends), and the model after it."""
        self.result = result
        if placement is not None:
            self.placement = placement

    def __enter__(self) -> _TaskScope:
        self.started = time.perf_counter()
        self.worker.taskStarted.emit(self.task)
        return self

    def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> bool:
        failure = self._failure(exc) if isinstance(exc, Exception) else None
        self.worker.taskEnded.emit(TaskEnded(
            self.task, self.call, time.perf_counter() - self.started, self.result, self.placement, failure,
        ))  # fmt: skip
        return failure is not None  # handled: a worker slot must never let an exception escape

    def _failure(self, exc: Exception) -> TaskFailure:
        if not isinstance(exc, InspectorError):
            log.exception("%s failed unexpectedly", self.task)
        wanted = tuple(getattr(exc, "wanted", ()) or ())
        return TaskFailure(
            task=self.task,
            call=self.call,
            failure=failure_from(exc),
            seconds=time.perf_counter() - self.started,
            path=getattr(exc, "path", None) if wanted else None,
            wanted=wanted,
        )


def request_call(request: MoveRequest) -> str:
    """A MoveRequest as the call it makes, for the history when the move cannot even start.

    The same words as a MoveResult's ``call`` (one function writes both).
    """
    return call_code(request)
