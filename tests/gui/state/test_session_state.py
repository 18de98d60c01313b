"""The evented session state: what the workers send, said again on the GUI thread to every
feature that subscribed, in the order they subscribed; the task machine told first."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from PySide6.QtCore import QObject, Signal

from inspector.gui.state.events import WorkerEvents
from inspector.gui.state.outcomes import LoadOutcome, ReportBuilt, TaskEnded
from inspector.gui.state.session_state import SessionState
from inspector.gui.state.tasks import Task, TaskController
from tests.gui.helpers import GENEROUS_MS


class FakeWorker(WorkerEvents):
    """The ModelWorker's signals (declared once: ``events.WorkerEvents``), and nothing else."""


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


WORKER_EVENTS = ["taskStarted", "progress", "latencySamples"]


@pytest.mark.parametrize("event", WORKER_EVENTS)
def test_a_workers_signal_from_its_thread_reaches_every_subscriber_in_order_on_the_gui_thread(qtbot, state, event):
    heard = []
    for name in ("tree", "history", "plot"):  # three features, subscribed in this order
        getattr(state, event).connect(lambda value, name=name: heard.append((name, value, threading.current_thread())))
    sent = "sent" if event == "taskStarted" else object()
    _from_another_thread(lambda: getattr(state.worker, event).emit(sent))
    assert heard == []  # queued: nothing runs on the worker's thread
    qtbot.waitUntil(lambda: len(heard) == 3, timeout=GENEROUS_MS)
    assert [(name, value) for name, value, _ in heard] == [("tree", sent), ("history", sent), ("plot", sent)]
    assert all(thread is threading.main_thread() for _, _, thread in heard)


def test_a_tasks_end_is_one_value_heard_once_on_the_gui_thread_before_the_model_and_the_machine_follow_it(qtbot, state):
    old, new = SimpleNamespace(name="old"), SimpleNamespace(name="new")
    state.set_model(old)
    state.tasks.begin(Task.MOVE)
    heard = []
    for name in ("tree", "history"):
        state.taskEnded.connect(lambda end, name=name: heard.append(
            (name, end.task, end.own, state.model.name, state.tasks.task, threading.current_thread())))
    state.modelChanged.connect(lambda model: heard.append(("changed", model.name, state.tasks.task)))
    state.tasks.busyChanged.connect(lambda task: heard.append(("busy", task)))
    end = TaskEnded(Task.MOVE, "model.to('cpu')", 0.1, result="a MoveResult", placement=new)
    _from_another_thread(lambda: state.worker.taskEnded.emit(end))
    qtbot.waitUntil(lambda: len(heard) == 4, timeout=GENEROUS_MS)
    main = threading.main_thread()
    # Heard while the window still shows the move and the model as before; then the model; then idle.
    assert heard == [("tree", Task.MOVE, True, "old", Task.MOVE, main), ("history", Task.MOVE, True, "old", Task.MOVE, main),
                     ("changed", "new", Task.MOVE), ("busy", None)]  # fmt: skip
    assert state.model is new and state.tasks.task is None


def test_a_load_is_heard_before_the_model_changes_so_what_belonged_to_the_last_one_resets_first(qtbot, state):
    old, new = SimpleNamespace(name="old"), SimpleNamespace(name="new")
    state.set_model(old)
    heard = []
    state.taskEnded.connect(lambda end: heard.append(("loaded", end.result.state.name, state.model.name)))
    state.modelChanged.connect(lambda model: heard.append(("changed", model.name, state.model.name)))
    loaded = LoadOutcome(new, 0.1)  # type: ignore[arg-type]
    _from_another_thread(lambda: state.worker.taskEnded.emit(TaskEnded(Task.LOAD, "load", 0.1, loaded, placement=new)))
    qtbot.waitUntil(lambda: len(heard) == 2, timeout=GENEROUS_MS)
    assert heard == [("loaded", "new", "old"), ("changed", "new", "new")]


def test_a_quiet_tasks_end_is_not_the_windows_and_leaves_the_window_busy(qtbot, state):
    heard = []
    state.taskEnded.connect(lambda end: heard.append((end.task, end.own, state.tasks.task)))
    state.tasks.begin(Task.MOVE)
    _from_another_thread(lambda: (state.worker.taskEnded.emit(TaskEnded(Task.SESSION, "build_report(model)", 0.1)),
                                  state.worker.taskEnded.emit(TaskEnded(Task.MOVE, "model.cpu()", 0.1))))  # fmt: skip
    qtbot.waitUntil(lambda: len(heard) == 2, timeout=GENEROUS_MS)
    # The quiet session report ended while the move ran: not the window's, the move still runs.
    assert heard == [(Task.SESSION, False, Task.MOVE), (Task.MOVE, True, Task.MOVE)]
    assert state.tasks.task is None


def test_the_samplers_inventory_and_readings_are_values_each_said_when_replaced(qtbot, state):
    inventories, readings = [], []
    state.inventoryChanged.connect(inventories.append)
    state.readingsChanged.connect(readings.append)
    inventory, sample = SimpleNamespace(ids=lambda: ["cpu"]), ("cpu reading",)
    _from_another_thread(lambda: (state.sampler.inventoryReady.emit(inventory), state.sampler.samples.emit(sample)))
    qtbot.waitUntil(lambda: readings == [sample], timeout=GENEROUS_MS)
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


@pytest.mark.parametrize("task", [Task.LOAD, Task.MOVE, Task.BENCHMARK, Task.TRAIN_STEP, Task.LESSON])
def test_each_change_of_the_session_is_a_new_revision_before_anyone_hears_it(qtbot, state, task):
    before = state.revision
    heard = []
    state.taskEnded.connect(lambda _end: heard.append(state.revision))
    _from_another_thread(lambda: state.worker.taskEnded.emit(TaskEnded(task, "call", 0.1, result=object())))
    qtbot.waitUntil(lambda: heard != [], timeout=GENEROUS_MS)
    assert heard == [before + 1] and state.revision == before + 1


def test_what_does_not_change_the_session_keeps_its_revision(qtbot, state):
    before = state.revision
    heard = []
    state.progress.connect(heard.append)
    state.taskEnded.connect(heard.append)
    built = ReportBuilt(SimpleNamespace(), SimpleNamespace(), 0.1)  # type: ignore[arg-type]
    failed = TaskEnded(Task.BENCHMARK, "benchmark", 0.1)  # (no result: it failed before one)
    _from_another_thread(lambda: (state.worker.progress.emit(0.5), state.worker.taskEnded.emit(
        TaskEnded(Task.SESSION, "build_report(model)", 0.1, built)), state.worker.taskEnded.emit(failed)))
    qtbot.waitUntil(lambda: len(heard) == 3, timeout=GENEROUS_MS)
    assert state.revision == before
