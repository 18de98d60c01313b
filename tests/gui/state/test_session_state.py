"""The evented session state: what the workers send, said again on the GUI thread to every
feature that subscribed, in the order they subscribed; the task machine told first."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from PySide6.QtCore import QObject, Signal

from inspector.gui.state.session_state import SessionState
from inspector.gui.state.tasks import Task, TaskController


class FakeWorker(QObject):
    """The ModelWorker's signals, and nothing else."""

    taskStarted = Signal(str)
    taskFinished = Signal(str)
    modelLoaded = Signal(object)
    placementChanged = Signal(object)
    moveFinished = Signal(object)
    benchmarkFinished = Signal(object)
    latencySamples = Signal(object)
    progress = Signal(object)
    reportBuilt = Signal(object)
    fitFinished = Signal(object)
    trainStepFinished = Signal(object)
    lessonFinished = Signal(object)
    failed = Signal(object)


class FakeSampler(QObject):
    inventoryReady = Signal(object)
    samples = Signal(object)


def _from_another_thread(emit) -> None:
    thread = threading.Thread(target=emit, name="fake-worker")
    thread.start()
    thread.join()


@pytest.fixture
def state(qapp):
    tasks = TaskController()
    state = SessionState(tasks)
    state.connect_worker(worker := FakeWorker())
    state.connect_sampler(sampler := FakeSampler())
    state.worker, state.sampler = worker, sampler  # (kept alive with the state)
    yield state
    state.deleteLater()


WORKER_EVENTS = ["moveFinished", "benchmarkFinished", "latencySamples", "progress", "reportBuilt", "fitFinished",
                 "trainStepFinished", "lessonFinished", "failed"]  # fmt: skip


@pytest.mark.parametrize("event", WORKER_EVENTS)
def test_a_workers_signal_from_its_thread_reaches_every_subscriber_in_order_on_the_gui_thread(qtbot, state, event):
    heard = []
    for name in ("tree", "history", "plot"):  # three features, subscribed in this order
        getattr(state, event).connect(lambda value, name=name: heard.append((name, value, threading.current_thread())))
    sent = object()
    _from_another_thread(lambda: getattr(state.worker, event).emit(sent))
    assert heard == []  # queued: nothing runs on the worker's thread
    qtbot.waitUntil(lambda: len(heard) == 3)
    assert [(name, value) for name, value, _ in heard] == [("tree", sent), ("history", sent), ("plot", sent)]
    assert all(thread is threading.main_thread() for _, _, thread in heard)


def test_a_load_is_heard_before_the_model_changes_so_what_belonged_to_the_last_one_resets_first(qtbot, state):
    old, new = SimpleNamespace(name="old"), SimpleNamespace(name="new")
    state.set_model(old)
    heard = []
    state.modelLoaded.connect(lambda outcome: heard.append(("loaded", outcome.state.name, state.model.name)))
    state.modelChanged.connect(lambda model: heard.append(("changed", model.name, state.model.name)))
    _from_another_thread(lambda: state.worker.modelLoaded.emit(SimpleNamespace(state=new, seconds=0.1)))
    qtbot.waitUntil(lambda: len(heard) == 2)
    assert heard == [("loaded", "new", "old"), ("changed", "new", "new")]
    _from_another_thread(lambda: state.worker.placementChanged.emit(old))  # a move's new placement
    qtbot.waitUntil(lambda: len(heard) == 3)
    assert heard[-1] == ("changed", "old", "old") and state.model is old


def test_the_end_of_a_task_is_heard_with_the_window_idle_and_a_quiet_task_is_not_the_windows(qtbot, state):
    heard = []
    state.taskFinished.connect(lambda task, ended: heard.append((task, ended, state.tasks.task)))
    state.tasks.begin(Task.MOVE)
    _from_another_thread(lambda: (state.worker.taskFinished.emit("session"), state.worker.taskFinished.emit("move")))
    qtbot.waitUntil(lambda: len(heard) == 2)
    # The quiet session report ended while the move ran: not the window's; then the move: idle.
    assert heard == [("session", False, Task.MOVE), ("move", True, None)]


def test_the_samplers_inventory_and_readings_are_values_each_said_when_replaced(qtbot, state):
    inventories, readings = [], []
    state.inventoryChanged.connect(inventories.append)
    state.readingsChanged.connect(readings.append)
    inventory, sample = SimpleNamespace(ids=lambda: ["cpu"]), ("cpu reading",)
    _from_another_thread(lambda: (state.sampler.inventoryReady.emit(inventory), state.sampler.samples.emit(sample)))
    qtbot.waitUntil(lambda: readings == [sample])
    assert inventories == [inventory] and state.inventory is inventory and state.readings == sample


def test_the_target_device_is_said_only_when_it_changes(state):
    said = []
    state.targetDeviceChanged.connect(said.append)
    assert state.target_device == "cpu"
    state.set_target_device("cpu")
    state.set_target_device("cuda:0")
    state.set_target_device("cuda:0")
    assert said == ["cuda:0"] and state.target_device == "cuda:0"


def test_a_task_the_machine_begins_carries_its_label_for_the_memory_plot(qapp):
    tasks = TaskController()
    began = []
    tasks.began.connect(lambda task, label: began.append((task, label)))
    assert tasks.begin(Task.MOVE, "model.to('cpu')")
    assert not tasks.begin(Task.BENCHMARK, "refused")  # busy: nothing is said
    assert began == [(Task.MOVE, "model.to('cpu')")]


def test_a_value_is_said_only_when_it_is_replaced_by_another(qtbot, state):
    models, inventories, readings = [], [], []
    state.modelChanged.connect(models.append)
    state.inventoryChanged.connect(inventories.append)
    state.readingsChanged.connect(readings.append)
    model, inventory, sample = SimpleNamespace(name="m"), SimpleNamespace(ids=lambda: ["cpu"]), ("reading",)
    for _ in range(2):  # the second time, the same values: nothing is said
        state.set_model(model)
        state.set_inventory(inventory)
        state.set_readings(sample)
    assert models == [model] and inventories == [inventory] and readings == [sample]
    state.set_model(other := SimpleNamespace(name="other"))
    assert models == [model, other]


@pytest.mark.parametrize("event", ["moveFinished", "benchmarkFinished", "trainStepFinished", "lessonFinished"])
def test_each_change_of_the_session_is_a_new_revision_before_anyone_hears_it(qtbot, state, event):
    before = state.revision
    heard = []
    getattr(state, event).connect(lambda _value: heard.append(state.revision))
    _from_another_thread(lambda: getattr(state.worker, event).emit(object()))
    qtbot.waitUntil(lambda: heard != [])
    assert heard == [before + 1] and state.revision == before + 1


def test_what_does_not_change_the_session_keeps_its_revision(qtbot, state):
    before = state.revision
    heard = []
    state.progress.connect(heard.append)
    state.reportBuilt.connect(heard.append)
    _from_another_thread(lambda: (state.worker.progress.emit(0.5), state.worker.reportBuilt.emit("report")))
    qtbot.waitUntil(lambda: len(heard) == 2)
    assert state.revision == before
