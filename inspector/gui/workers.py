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

log = logging.getLogger(__name__)

#: Progress and streamed samples reach the window at most this often: a benchmark of a tiny
#: model takes a sample every few microseconds, and a signal per sample would flood the GUI.
EMIT_INTERVAL_S = 0.05

DEFAULT_SAMPLE_HZ = 10
MIN_SAMPLE_HZ, MAX_SAMPLE_HZ = 2, 20


# --------------------------------------------------------------------------- payloads


@dataclass(frozen=True)
class ModelInfo:
    """What the window shows about the loaded model, besides its placement."""

    spec: str
    class_name: str
    source: str
    #: Shape of each tensor of the example input; () when the model brings none.
    example_input_shapes: tuple[tuple[int, ...], ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def has_example_input(self) -> bool:
        return bool(self.example_input_shapes)


@dataclass(frozen=True)
class ModelState:
    """The model after a load or a move: facts about it and where every tensor lives."""

    info: ModelInfo
    placement: Any  # inspector.core.placement.Placement


@dataclass(frozen=True)
class BenchmarkRequest:
    mode: str = "forward"  # "forward" | "train-step"
    runs: int = 100
    #: None: use the model's example input.
    input_shape: tuple[int, ...] | None = None
    #: After the plain measurement, time every module (hooks on; see core.attribution).
    per_module: bool = False


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
    result: Any  # inspector.core.timing.LatencyResult
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
    report: dict
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
    """Owns the ``LoadedModel``; loads, moves, snapshots and benchmarks it, and builds its report.

    Every slot runs on the worker's thread, one at a time; each announces itself with
    ``taskStarted`` and always ends with ``taskFinished``, whatever happened in between.
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

    def __init__(self, cancel_event: threading.Event, timeline: MemoryTimeline | None = None) -> None:
        super().__init__()
        self._cancel = cancel_event
        self._timeline = timeline
        self._loaded = None  # LoadedModel, touched only on this worker's thread
        self._moves: list = []
        self._latencies: list = []
        self._attributions: list = []
        self._fits: list = []

    # ----- slots

    @Slot(str, bool, str)
    def load(self, spec: str, trust: bool, architecture: str) -> None:
        from inspector.core.models import load_model

        arch = architecture or None
        call = f"load_model({spec!r}{', trust=True' if trust else ''}{f', architecture={arch!r}' if arch else ''})"
        with self._task("load", call) as started:
            loaded = load_model(spec, trust=trust, architecture=arch)
            self._loaded = loaded
            self._moves.clear()
            self._latencies.clear()
            self._attributions.clear()
            self._fits.clear()
            state = self._state()
            self.modelLoaded.emit(LoadOutcome(state, time.perf_counter() - started))

    @Slot(object)
    def move(self, request: Any) -> None:
        from inspector.core.moves import move_model

        with self._task("move", request_call(request)):
            self._require_model()
            throttle = self._progress_throttle("move")
            result = move_model(
                self._loaded,
                request,
                progress=throttle.update,
                should_cancel=self._cancel.is_set,
            )
            throttle.flush()
            self._moves.append(result)
            self.moveFinished.emit(result)
            # Even a failed move is worth a fresh snapshot: it proves the rollback.
            self.placementChanged.emit(self._state())

    @Slot(object)
    def benchmark(self, request: BenchmarkRequest) -> None:
        from inspector.core.timing import measure_latency

        call = f"{request.mode} ×{request.runs}"
        if request.input_shape is not None:
            call += f" · input {'x'.join(map(str, request.input_shape))}"
        with self._task("benchmark", call) as started:
            self._require_model()
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
                result = measure_latency(
                    self._loaded,
                    mode=request.mode,
                    runs=request.runs,
                    input_shape=request.input_shape,
                    on_sample=on_sample,
                    progress=throttle.update,
                    should_cancel=self._cancel.is_set,
                )
            finally:  # a cancelled run's samples still reach the plots
                sample_throttle.flush()
                throttle.flush()
            self._latencies.append(result)
            attribution = self._attribute(request, result, throttle) if request.per_module else None
            self.benchmarkFinished.emit(
                BenchmarkOutcome(result, request, time.perf_counter() - started, attribution)
            )

    def _attribute(self, request: BenchmarkRequest, result: Any, throttle: "_ProgressThrottle") -> Any:
        """Per-module attribution after the plain run, which it states its overhead against."""
        from inspector.core.attribution import DEFAULT_RUNS, measure_attribution

        try:
            attribution = measure_attribution(
                self._loaded,
                runs=min(request.runs, DEFAULT_RUNS),
                input_shape=request.input_shape,
                progress=throttle.update,
                should_cancel=self._cancel.is_set,
            )
        finally:
            throttle.flush()
        self._attributions.append(attribution)
        return attribution

    @Slot(object)
    def fit(self, requests: tuple) -> None:
        """Answer "will it fit?" for each request (one per device); a device whose estimate
        fails keeps the others' answers. Cancel stops the estimate or the proof within a few
        operators (the model is never touched: both run on copies)."""
        from inspector.core.errors import Cancelled
        from inspector.core.fit import estimate_fit

        devices = ", ".join(r.device for r in requests)
        with self._task("fit", f"estimate_fit(model, {devices})") as started:
            self._require_model()
            results, failures = [], []
            for i, request in enumerate(requests):
                if self._cancel.is_set():
                    raise Cancelled("cancelled before the estimate for " + request.device)
                try:
                    results.append(estimate_fit(self._loaded, request, should_cancel=self._cancel.is_set))
                except Cancelled:
                    raise  # the whole task is cancelled, not one device
                except InspectorError as exc:
                    failures.append((request.device, Failure.from_exception(exc)))
                self.progress.emit(Progress("fit", i + 1, len(requests)))
            self._fits.extend(results)
            self.fitFinished.emit(FitOutcome(tuple(results), tuple(failures), time.perf_counter() - started))

    @Slot(object)
    def build_report(self, request: ReportRequest) -> None:
        """Build the session's report dict (only this thread may read the model's tensors).

        The window renders the plot images and hands the dict to its ReportExporter, which
        writes the file on a pool thread: rendering a large report is no work for this thread,
        which may have a move or a benchmark waiting behind it.
        """
        from inspector.core import report

        with self._task(request.task, request.call()) as started:
            self._require_model()
            memory = self._timeline.to_report() if self._timeline is not None and request.with_memory else {}
            built = report.build_report(
                self._loaded, moves=self._moves, latency=self._latencies, memory=memory,
                attribution=self._attributions, fit=self._fits,
            )
            self.reportBuilt.emit(ReportBuilt(request, built, time.perf_counter() - started))

    # ----- helpers

    def _require_model(self) -> None:
        if self._loaded is None:
            raise InspectorError("no model is loaded yet (open one with File › Open model…)")

    def _state(self) -> ModelState:
        from inspector.core.placement import snapshot

        loaded = self._loaded
        info = ModelInfo(
            spec=loaded.spec,
            class_name=loaded.class_name,
            source=loaded.source,
            example_input_shapes=_shapes(loaded.example_input),
            notes=tuple(loaded.notes),
        )
        return ModelState(info, snapshot(loaded))

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


def request_call(request: Any) -> str:
    """A MoveRequest as the call it makes, for the history when the move cannot even start.

    The same words as a MoveResult's ``call`` (one function writes both).
    """
    from inspector.core.moves import call_code

    return call_code(request)


def _shapes(example_input: Any) -> tuple[tuple[int, ...], ...]:
    if example_input is None:
        return ()
    items = example_input if isinstance(example_input, (tuple, list)) else (example_input,)
    return tuple(tuple(getattr(x, "shape", ())) for x in items if hasattr(x, "shape"))


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
