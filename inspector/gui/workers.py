"""The window's background threads: the ModelWorker (sole owner of the model) and the
MemorySampler (device memory at 2–20 Hz).

Both are QObjects moved to their own QThread. The window talks to them only through queued
signals; they answer with frozen dataclasses of plain values (``object`` payloads) and send
errors as ``Failure`` values, never exception objects. Cancelling is a ``threading.Event``
the window sets directly: the worker hands ``event.is_set`` to the core functions, which
check it between tensors (a move) or between samples (a benchmark).
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from inspector.core import devices
from inspector.core.errors import Failure, InspectorError
from inspector.core.memory_log import MemoryTimeline
from inspector.core.moves import MoveRequest, call_code
from inspector.core.session import BenchmarkRequest, LoadRequest, ModelState, Session
from inspector.core.timing import LatencyResult

log = logging.getLogger(__name__)

#: Progress and streamed samples reach the window at most this often: a benchmark of a tiny
#: model takes a sample every few microseconds, and a signal per sample would flood the GUI.
EMIT_INTERVAL_S = 0.05

DEFAULT_SAMPLE_HZ = 10
MIN_SAMPLE_HZ, MAX_SAMPLE_HZ = 2, 20


# --------------------------------------------------------------------------- payloads


@dataclass(frozen=True)
class TaskFailure:
    """A task that did not produce its result (a failed move comes back as a MoveResult)."""

    task: str  # "load" | "move" | "benchmark" | "export" | "report" | "session"
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
    attribution: Any = None  # inspector.core.attribution.Attribution, for a per-module run


@dataclass(frozen=True)
class FitOutcome:
    """"Will it fit?" answers, one per device asked about (core.fit.FitResult), and the
    devices whose estimate failed, with why."""

    results: tuple[Any, ...]
    failures: tuple[tuple[str, Failure], ...]
    seconds: float


@dataclass(frozen=True)
class ReportRequest:
    """Build the session's report, for ``purpose``: "export" (to ``path``), "markdown"
    (the clipboard) or "session" (the comparison view's side A, built quietly)."""

    purpose: str
    path: str | None = None

    @property
    def task(self) -> str:
        # The name the worker announces: "export" keeps the window busy until the file is
        # written; "session" runs unannounced between the user's own tasks.
        return {"export": "export", "markdown": "report"}.get(self.purpose, "session")

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
    report: dict[str, Any]
    seconds: float


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


class ModelWorker(QObject):
    """Drives the window's ``Session`` (the sole owner of the model) on the worker's thread.

    Every slot runs on the worker's thread, one at a time; each announces itself with
    ``taskStarted`` and always ends with ``taskFinished``, whatever happened in between.
    The session is injectable, so a test can hand in one it prepared or watches.
    """

    taskStarted = Signal(str)
    taskFinished = Signal(str)
    modelLoaded = Signal(object)  # LoadOutcome
    placementChanged = Signal(object)  # ModelState
    moveFinished = Signal(object)  # MoveResult (ok or not)
    benchmarkFinished = Signal(object)  # BenchmarkOutcome
    latencySamples = Signal(object)  # tuple[(index, ms), ...]: streamed while measuring
    progress = Signal(object)  # Progress
    reportBuilt = Signal(object)  # ReportBuilt
    fitFinished = Signal(object)  # FitOutcome
    failed = Signal(object)  # TaskFailure

    def __init__(
        self,
        cancel_event: threading.Event,
        timeline: MemoryTimeline | None = None,
        *,
        session: Session | None = None,
    ) -> None:
        super().__init__()
        self._cancel = cancel_event
        # Touched only on this worker's thread once the worker has moved there.
        self.session = session if session is not None else Session(timeline)

    # ----- slots

    @Slot(object)
    def load(self, request: LoadRequest) -> None:
        with self._task("load", request.call()) as started:
            state = self.session.load(request)
            self.modelLoaded.emit(LoadOutcome(state, time.perf_counter() - started))

    @Slot(object)
    def move(self, request: MoveRequest) -> None:
        with self._task("move", request_call(request)):
            self.session.require_model()
            throttle = self._progress_throttle("move")
            result = self.session.move(request, progress=throttle.update, should_cancel=self._cancel.is_set)
            throttle.flush()
            self.moveFinished.emit(result)
            # Even a failed move is worth a fresh snapshot: it proves the rollback.
            self.placementChanged.emit(self.session.state())

    @Slot(object)
    def benchmark(self, request: BenchmarkRequest) -> None:
        with self._task("benchmark", request.call()) as started:
            self.session.require_model()
            throttle = self._progress_throttle("benchmark")
            streamed: list[tuple[int, float]] = []

            def send_samples() -> None:
                batch = tuple(streamed)
                streamed.clear()
                self.latencySamples.emit(batch)

            sample_throttle = _Throttle(send_samples)

            def on_sample(index: int, ms: float) -> None:
                streamed.append((index, ms))
                sample_throttle.poke()

            try:
                result = self.session.measure(
                    request, on_sample=on_sample, progress=throttle.update, should_cancel=self._cancel.is_set
                )
            finally:  # a cancelled run's samples still reach the plots
                sample_throttle.flush()
                throttle.flush()
            attribution = None
            if request.per_module:  # after the plain run, which it states its overhead against
                try:
                    attribution = self.session.attribute(
                        request, progress=throttle.update, should_cancel=self._cancel.is_set
                    )
                finally:
                    throttle.flush()
            self.benchmarkFinished.emit(
                BenchmarkOutcome(result, request, time.perf_counter() - started, attribution)
            )

    @Slot(object)
    def fit(self, requests: tuple[Any, ...]) -> None:
        """Answer "will it fit?" for each request (one per device); a device whose estimate
        fails keeps the others' answers. Cancel stops the estimate or the proof within a few
        operators (the model is never touched: both run on copies)."""
        from inspector.core.errors import Cancelled

        devices = ", ".join(r.device for r in requests)
        with self._task("fit", f"estimate_fit(model, {devices})") as started:
            self.session.require_model()
            results, failures = [], []
            for i, request in enumerate(requests):
                if self._cancel.is_set():
                    raise Cancelled("cancelled before the estimate for " + request.device)
                try:
                    results.append(self.session.fit(request, should_cancel=self._cancel.is_set))
                except Cancelled:
                    raise  # the whole task is cancelled, not one device
                except InspectorError as exc:
                    failures.append((request.device, Failure.from_exception(exc)))
                self.progress.emit(Progress("fit", i + 1, len(requests)))
            self.fitFinished.emit(FitOutcome(tuple(results), tuple(failures), time.perf_counter() - started))

    @Slot(object)
    def build_report(self, request: ReportRequest) -> None:
        """Build the session's report dict (only this thread may read the model's tensors).

        The window renders the plot images and hands the dict to its ReportExporter, which
        writes the file on a pool thread: rendering a large report is no work for this thread,
        which may have a move or a benchmark waiting behind it.
        """
        with self._task(request.task, request.call()) as started:
            built = self.session.report(with_memory=request.with_memory)
            self.reportBuilt.emit(ReportBuilt(request, built, time.perf_counter() - started))

    # ----- helpers

    def _progress_throttle(self, task: str) -> "_ProgressThrottle":
        return _ProgressThrottle(task, self.progress)

    def _task(self, task: str, call: str) -> "_TaskScope":
        return _TaskScope(self, task, call)


class _ProgressThrottle:
    """A ``progress(done, total)`` callback for core functions, throttled for the GUI."""

    def __init__(self, task: str, signal: Any) -> None:
        self._task = task
        self._signal = signal
        self._latest = (0, 0)
        self._throttle = _Throttle(self._emit)

    def update(self, done: float, total: float) -> None:
        self._latest = (done, total)
        self._throttle.poke()

    def flush(self) -> None:
        self._throttle.flush()

    def _emit(self) -> None:
        done, total = self._latest
        self._signal.emit(Progress(self._task, done, total))


class _TaskScope:
    """``with worker._task(...)``: announces a task, turns any exception into ``failed``."""

    def __init__(self, worker: ModelWorker, task: str, call: str) -> None:
        self.worker, self.task, self.call = worker, task, call
        self.started = 0.0

    def __enter__(self) -> float:
        self.started = time.perf_counter()
        self.worker.taskStarted.emit(self.task)
        return self.started

    def __exit__(self, exc_type, exc, tb) -> bool:
        try:
            if exc is not None and isinstance(exc, Exception):
                self.worker.failed.emit(self._failure(exc))
                return True  # handled: a worker slot must never let an exception escape
            return False
        finally:
            self.worker.taskFinished.emit(self.task)

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


# --------------------------------------------------------------------------- memory sampler


class MemorySampler(QObject):
    """Discovers the devices once, then reads each one's memory at ``hz`` (2–20 Hz).

    Its QTimer is created in ``start`` so it lives on the sampler's own thread, and the
    readings land in the ``MemoryTimeline`` (thread-safe) before they are emitted.
    """

    inventoryReady = Signal(object)  # DeviceInventory
    samples = Signal(object)  # tuple[MemoryReading, ...]

    def __init__(self, timeline: MemoryTimeline, hz: float = DEFAULT_SAMPLE_HZ) -> None:
        super().__init__()
        self._timeline = timeline
        self._hz = clamp_sample_hz(hz)
        self._device_ids: list[str] = []
        self._timer: QTimer | None = None
        self._broken: set[str] = set()

    @Slot()
    def start(self) -> None:
        self.rediscover()
        self._timer = QTimer(self)
        self._timer.setInterval(round(1000 / self._hz))
        self._timer.timeout.connect(self.sample_once)
        self._timer.start()
        self.sample_once()

    @Slot()
    def rediscover(self) -> None:
        try:
            inventory = devices.discover_devices()
        except Exception:  # discovery promises not to raise; never let the thread die on it
            log.exception("device discovery failed; listing the CPU only")
            inventory = devices.DeviceInventory(
                (), ("device discovery failed: see the log for details",)
            )
        self._device_ids = inventory.ids() or ["cpu"]
        self.inventoryReady.emit(inventory)

    @Slot(float)
    def set_rate(self, hz: float) -> None:
        self._hz = clamp_sample_hz(hz)
        if self._timer is not None:
            self._timer.setInterval(round(1000 / self._hz))

    @Slot()
    def stop(self) -> None:
        """Stop sampling and end the sampler's thread (runs on that thread).

        The timer must be stopped on the thread it lives on; stopping or destroying it from
        the GUI thread later would make Qt warn "Timers cannot be stopped from another thread".
        """
        if self._timer is not None:
            self._timer.stop()
        QThread.currentThread().quit()

    @Slot()
    def sample_once(self) -> None:
        readings = []
        for ident in self._device_ids:
            if ident in self._broken:
                continue
            try:
                readings.append(devices.memory_reading(ident))
            except Exception:  # a device that vanished: log once, keep sampling the rest
                log.exception("cannot read the memory of %s; no longer sampling it", ident)
                self._broken.add(ident)
        readings = tuple(readings)
        self._timeline.add(readings)
        self.samples.emit(readings)


def clamp_sample_hz(hz: float) -> float:
    try:
        hz = float(hz)
    except (TypeError, ValueError):
        return float(DEFAULT_SAMPLE_HZ)
    return float(min(MAX_SAMPLE_HZ, max(MIN_SAMPLE_HZ, hz)))


# --------------------------------------------------------------------------- threads


def start_in_thread(obj: QObject, name: str, on_started: Callable[[], None] | None = None) -> QThread:
    """Move ``obj`` to a new QThread and start it; the object is deleted when it ends."""
    thread = QThread()
    thread.setObjectName(name)
    obj.moveToThread(thread)
    # Deleted on its own thread as that thread ends, so its timers die where they live.
    thread.finished.connect(obj.deleteLater)
    if on_started is not None:
        thread.started.connect(on_started)
    thread.start()
    return thread


def stop_threads(threads: list[QThread], timeout_s: float = 2.0, *, quit: bool = True) -> bool:
    """Quit every thread (unless ``quit`` is False: they end themselves) and wait for all
    of them, ``timeout_s`` in total; True if all ended."""
    if quit:
        for thread in threads:
            thread.quit()
    deadline = time.monotonic() + timeout_s
    for thread in threads:
        remaining_ms = max(0, int((deadline - time.monotonic()) * 1000))
        if not thread.wait(remaining_ms):
            log.warning("thread %s is still running after %.1f s", thread.objectName(), timeout_s)
            return False
    return True
