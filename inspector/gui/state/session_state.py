"""The window's session as state that says when it changes: what the workers last sent (the
model, the devices, their readings), the target device the user picked, and the session's
events, each a Qt signal that any feature subscribes to.

Why Qt signals on a small ``QObject`` (and not ``psygnal`` or an observer of our own): the
ModelWorker and the MemorySampler live on ``QThread``s, so what they send has to cross to the
GUI thread as queued Qt connections anyway; this object lives on the GUI thread, is the one
receiver of the workers' signals (``connect_worker``, ``connect_sampler``: the one place they
are connected), and says each event again there, where every subscriber may touch widgets.
No new dependency, and the order subscribers hear an event is the order they subscribed in.

Values (each replaced whole, each with its change signal, said only when the value is
replaced by another; features read them and never hold the model):

- ``model`` (``ModelState | None``): ``modelChanged``, on a load and after every placement change;
- ``inventory`` (``DeviceInventory | None``): ``inventoryChanged``;
- ``readings`` (the latest memory readings): ``readingsChanged``, at the sampler's rate;
- ``target_device`` (the action bar's target, which the devices table follows): ``targetDeviceChanged``;
- ``revision``: how many times the session has changed (a load, a move, a benchmark, a training
  step, a lesson), counted before any subscriber hears the event: what was made from the
  session at one revision is stale at another (the report feature's side A of a comparison).

Events (the worker's, said again on the GUI thread): ``taskStarted``/``taskFinished`` (every
task, the quiet session report included: ``TaskController.owns`` tells the window's own),
``modelLoaded`` (said before ``model`` changes to the new model: what belonged to the last one
is reset first), ``moveFinished``, ``benchmarkFinished``, ``latencySamples``, ``progress``,
``reportBuilt``, ``fitFinished``, ``trainStepFinished``, ``lessonFinished`` and ``failed``.

Events of the features, said by the one that acts for those that follow it (``runs``): a
benchmark ``benchmarkPlanned`` (before its request, while the cores are free), then
``benchmarkSent`` or ``benchmarkRefused`` (another task ran); ``reportOpened``, a report
read from disk into the Compare tab (a torchrun report's ranks are shown from it); ``noted``, an
outcome for the History that was no worker's task (``notes``: a remote connection's).

The task machine (``TaskController``) is told a task ended before ``taskFinished(task, ended)``
is said; ``ended`` is whether that ended the window's own task (not a quiet one, nor an export
whose file is still being written), so a subscriber hears the end with the window idle again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Signal, Slot

if TYPE_CHECKING:
    from inspector.core.session import ModelState


class TaskEnds(Protocol):
    """What the state asks of the task machine (``tasks.TaskController``)."""

    def worker_finished(self, task: str) -> bool: ...


class SessionState(QObject):
    """The evented session state (see the module docstring)."""

    # ----- values
    modelChanged = Signal(object)  # ModelState
    inventoryChanged = Signal(object)  # DeviceInventory
    readingsChanged = Signal(object)  # tuple[MemoryReading, ...]
    targetDeviceChanged = Signal(str)
    # ----- events
    taskStarted = Signal(str)
    taskFinished = Signal(str, bool)  # the task, and whether that ended the window's own task
    modelLoaded = Signal(object)  # LoadOutcome
    moveFinished = Signal(object)  # MoveResult (ok or not)
    benchmarkFinished = Signal(object)  # BenchmarkOutcome
    latencySamples = Signal(object)  # tuple[(index, ms), ...]: streamed while measuring
    progress = Signal(object)  # Progress
    reportBuilt = Signal(object)  # ReportBuilt
    fitFinished = Signal(object)  # FitOutcome
    trainStepFinished = Signal(object)  # core.measure.training.TrainStepResult
    lessonFinished = Signal(object)  # LessonOutcome
    failed = Signal(object)  # TaskFailure
    # ----- the features' events (``runs``)
    benchmarkPlanned = Signal(object)  # BenchmarkRun: its subscribers get ready for it
    benchmarkSent = Signal(object)  # BenchmarkRun: its request left (samples follow)
    benchmarkRefused = Signal(object)  # BenchmarkRun: it never started
    reportOpened = Signal(object)  # TimingReport: opened from disk into the Compare tab
    noted = Signal(object)  # notes.Note: an outcome for the History that was no worker's task

    def __init__(self, tasks: TaskEnds | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self._model: ModelState | None = None
        self._inventory: Any = None
        self._readings: tuple[Any, ...] = ()
        self._target_device = "cpu"
        self._revision = 0
        # Connected first, so the revision has moved on when any subscriber hears the event.
        for changes in (self.modelLoaded, self.moveFinished, self.benchmarkFinished, self.trainStepFinished,
                        self.lessonFinished):  # fmt: skip
            changes.connect(self._next_revision)

    # ----- values

    @property
    def model(self) -> ModelState | None:
        return self._model

    @property
    def inventory(self) -> Any:
        """``core.devices.DeviceInventory``, once the sampler found it."""
        return self._inventory

    @property
    def readings(self) -> tuple[Any, ...]:
        return self._readings

    @property
    def target_device(self) -> str:
        return self._target_device

    @property
    def revision(self) -> int:
        return self._revision

    def _next_revision(self, *_event: Any) -> None:
        self._revision += 1

    @Slot(object)
    def set_model(self, state: ModelState) -> None:
        if state is not self._model:
            self._model = state
            self.modelChanged.emit(state)

    @Slot(object)
    def set_inventory(self, inventory: Any) -> None:
        if inventory is not self._inventory:
            self._inventory = inventory
            self.inventoryChanged.emit(inventory)

    @Slot(object)
    def set_readings(self, readings: tuple[Any, ...]) -> None:
        if readings is not self._readings:
            self._readings = readings
            self.readingsChanged.emit(readings)

    def set_target_device(self, device: str) -> None:
        if device != self._target_device:
            self._target_device = device
            self.targetDeviceChanged.emit(device)

    # ----- the workers, connected here (queued: they live on threads of their own)

    def connect_worker(self, worker: Any) -> None:
        """Hear ``worker`` (a ``ModelWorker``'s signals): each of its signals said again here."""
        worker.taskFinished.connect(self._on_task_finished)
        worker.modelLoaded.connect(self._on_model_loaded)
        worker.placementChanged.connect(self.set_model)
        # The events said again as they are: signal to signal, delivered on this object's
        # thread (Qt queues a connection to a signal by its receiver's thread, as to a slot).
        worker.taskStarted.connect(self.taskStarted)
        worker.moveFinished.connect(self.moveFinished)
        worker.benchmarkFinished.connect(self.benchmarkFinished)
        worker.latencySamples.connect(self.latencySamples)
        worker.progress.connect(self.progress)
        worker.reportBuilt.connect(self.reportBuilt)
        worker.fitFinished.connect(self.fitFinished)
        worker.trainStepFinished.connect(self.trainStepFinished)
        worker.lessonFinished.connect(self.lessonFinished)
        worker.failed.connect(self.failed)

    def connect_sampler(self, sampler: Any) -> None:
        """Hear ``sampler`` (a ``MemorySampler``'s signals). It stored its readings in the
        timeline before it emits them: subscribers only show them."""
        sampler.inventoryReady.connect(self.set_inventory)
        sampler.samples.connect(self.set_readings)

    # (Slots of this object, so a signal from the worker's thread is delivered on this one's.)

    @Slot(str)
    def _on_task_finished(self, task: str) -> None:
        ended = self.tasks.worker_finished(task) if self.tasks is not None else False
        self.taskFinished.emit(task, ended)

    @Slot(object)
    def _on_model_loaded(self, outcome: Any) -> None:  # LoadOutcome
        self.modelLoaded.emit(outcome)
        self.set_model(outcome.state)
