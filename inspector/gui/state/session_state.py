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
- ``host`` (the machine the session runs on, as the user named it; "" for this one, a remote
  window's server otherwise: the devices feature names it): ``hostChanged``;
- ``revision``: how many times the session has changed (a load, a move, a benchmark, a training
  step, a lesson), counted before any subscriber hears the event: what was made from the
  session at one revision is stale at another (the report feature's side A of a comparison).

Events (the worker's, ``events.WorkerEvents``, said again on the GUI thread): ``taskStarted``,
``progress``, ``latencySamples`` and ``taskEnded``: every task's end, one value
(``outcomes.TaskEnded``: the task, its outcome, its result, the placement after it, its
failure; ``own``: the window's task, not the quiet session report).

Events of the features, said by the one that acts for those that follow it (``runs``): a
benchmark ``benchmarkPlanned`` (before its request, while the cores are free), then
``benchmarkSent`` or ``benchmarkRefused`` (another task ran); ``reportOpened``, a report
read from disk into the Compare tab (a torchrun report's ranks are shown from it); ``noted``, an
outcome for the History that was no worker's task (``notes``: a remote connection's).

The order of an end: the revision moves on (when the session changed), ``taskEnded`` is said
while the window still shows the task and the model as they were (a load's subscribers reset
what belonged to the last model first; ``own`` is the task machine's answer), then the model is
replaced (``modelChanged``) and the task machine ends the window's task (``busyChanged(None)``:
what waits for the window to be idle follows that).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Signal, Slot

from inspector.gui.state.events import WorkerEvents

if TYPE_CHECKING:
    from inspector.core.session import ModelState
    from inspector.gui.state.outcomes import TaskEnded


class TaskEnds(Protocol):
    """What the state asks of the task machine (``tasks.TaskController``)."""

    def owns(self, task: str) -> bool: ...

    def worker_finished(self, task: str) -> bool: ...


class SessionState(WorkerEvents):
    """The evented session state (see the module docstring)."""

    # ----- values
    modelChanged = Signal(object)  # ModelState
    inventoryChanged = Signal(object)  # DeviceInventory
    readingsChanged = Signal(object)  # tuple[MemoryReading, ...]
    targetDeviceChanged = Signal(str)
    hostChanged = Signal(str)
    # ----- events: the worker's (``WorkerEvents``: taskStarted, progress, latencySamples, taskEnded)
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
        self._host = ""
        self._revision = 0

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
    def host(self) -> str:
        return self._host

    @property
    def revision(self) -> int:
        return self._revision

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

    def set_host(self, host: str) -> None:
        if host != self._host:
            self._host = host
            self.hostChanged.emit(host)

    def set_target_device(self, device: str) -> None:
        if device != self._target_device:
            self._target_device = device
            self.targetDeviceChanged.emit(device)

    # ----- the workers, connected here (queued: they live on threads of their own)

    def connect_worker(self, worker: WorkerEvents) -> None:
        """Hear ``worker`` (a ``ModelWorker``): its events said again here, signal to signal, on
        this object's thread (Qt queues a connection to a signal by its receiver's thread, as to
        a slot); its end of a task through ``_on_task_ended``."""
        worker.taskStarted.connect(self.taskStarted)
        worker.progress.connect(self.progress)
        worker.latencySamples.connect(self.latencySamples)
        worker.taskEnded.connect(self._on_task_ended)

    def connect_sampler(self, sampler: Any) -> None:
        """Hear ``sampler`` (a ``MemorySampler``'s signals). It stored its readings in the
        timeline before it emits them: subscribers only show them."""
        sampler.inventoryReady.connect(self.set_inventory)
        sampler.samples.connect(self.set_readings)

    # (Slots of this object, so a signal from the worker's thread is delivered on this one's.)

    @Slot(object)
    def _on_task_ended(self, end: TaskEnded) -> None:
        """A task's end, in the order of the module docstring."""
        own = self.tasks is not None and self.tasks.owns(end.task)
        if end.changes_session:
            self._revision += 1
        self.taskEnded.emit(replace(end, own=own))
        if end.placement is not None:
            self.set_model(end.placement)
        if self.tasks is not None:
            self.tasks.worker_finished(end.task)
