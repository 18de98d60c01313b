"""The window's task state machine (idle → busy(task) → idle), driven without any widget."""

from __future__ import annotations

import pytest

from inspector.gui.state.tasks import Task, TaskController


@pytest.fixture
def tasks():
    controller = TaskController()
    controller.seen = []  # every state it announced, in order
    controller.busyChanged.connect(controller.seen.append)
    return controller


def test_one_task_at_a_time_and_back_to_idle_when_the_worker_ends_it(tasks):
    assert tasks.task is None
    assert tasks.begin(Task.MOVE)
    assert tasks.task == "move"  # a Task is its name: the worker's announcements compare equal
    assert not tasks.begin(Task.BENCHMARK)  # refused while busy, and nothing changes
    assert tasks.task is Task.MOVE

    assert not tasks.worker_finished("benchmark")  # not the task the window waits for
    assert tasks.worker_finished("move")
    assert tasks.task is None
    assert tasks.seen == [Task.MOVE, None]
    assert tasks.begin(Task.BENCHMARK)


def test_an_export_stays_busy_until_the_writer_is_done_with_the_file(tasks):
    tasks.begin(Task.EXPORT)
    tasks.writer_started()  # the worker built the report; a pool thread writes it
    assert not tasks.worker_finished("export")
    assert tasks.task is Task.EXPORT and not tasks.begin(Task.MOVE)

    assert tasks.writer_done()
    assert tasks.task is None and tasks.seen == [Task.EXPORT, None]
    assert not tasks.writer_done()  # once only


def test_an_export_whose_report_could_not_be_built_ends_with_the_worker(tasks):
    tasks.begin(Task.EXPORT)
    assert tasks.worker_finished("export")  # no file was handed to the writer
    assert tasks.task is None


def test_the_quiet_session_report_never_makes_the_window_busy_or_idle(tasks):
    tasks.begin(Task.MOVE)
    assert not tasks.owns("session")
    assert not tasks.worker_finished("session")
    assert tasks.task is Task.MOVE and tasks.seen == [Task.MOVE]


@pytest.mark.parametrize("task, cancellable", [(Task.MOVE, True), (Task.BENCHMARK, True), (Task.LOAD, True),
                                               (Task.EXPORT, False)])  # fmt: skip
def test_only_a_move_a_benchmark_or_a_load_can_be_cancelled(tasks, task, cancellable):
    assert not tasks.cancel()  # idle: nothing to cancel
    tasks.begin(task)
    assert tasks.cancel() is cancellable
    assert tasks.cancel_event.is_set() is cancellable


def test_a_new_task_starts_with_the_cancel_flag_down(tasks):
    tasks.begin(Task.MOVE)
    tasks.cancel()
    tasks.worker_finished("move")
    tasks.cancel_event.set()  # a Cancel pressed too late, after the move ended
    tasks.begin(Task.BENCHMARK)
    assert not tasks.cancel_event.is_set()


def test_once_closed_no_task_starts_and_a_running_one_is_asked_to_stop(tasks):
    tasks.begin(Task.BENCHMARK)
    tasks.close()
    assert tasks.closed and tasks.cancel_event.is_set()
    tasks.worker_finished("benchmark")
    assert not tasks.begin(Task.LOAD)
