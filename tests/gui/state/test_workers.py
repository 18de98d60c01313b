"""The ModelWorker's payloads, driven directly (no thread): what the window receives."""

from __future__ import annotations

import dataclasses
import sys
import threading

import pytest
import torch

from inspector.core.files.models import Net, example_model
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import move_model
from inspector.core.session import LoadRequest
from inspector.gui.state.workers import ModelWorker, TaskEnded, TaskFailure, request_call


@pytest.mark.parametrize(
    "request_",
    [
        MoveRequest("cuda", "cuda:97"),
        MoveRequest("cuda", "97"),
        MoveRequest("to", "cuda:97", "bf16"),
        MoveRequest("to", "cpu", "bf16"),
        MoveRequest("to", dtype="fp64"),
        MoveRequest("cpu"),
    ],
    ids=["cuda-device", "cuda-index", "to-absent", "to-cast", "cast", "cpu"],
)
def test_the_call_shown_at_dispatch_is_the_call_the_result_reports(request_):
    """The plot's mark and the history (request_call) read as the move's own result does."""
    result = move_model(example_model(), request_)
    assert request_call(request_) == result.call


def test_a_refused_file_fails_with_its_path_and_what_it_wants(qapp, tmp_path):
    path = tmp_path / "whole.pt"
    torch.save(Net(), path)
    worker = ModelWorker(threading.Event())
    ends: list[TaskEnded] = []
    worker.taskEnded.connect(ends.append)

    worker.load(LoadRequest(str(path)))

    [end] = ends
    failure = end.failure
    assert failure is not None and end.result is None and end.placement is None and end.outcome == "failed"
    assert failure.task == "load" and failure.failure.kind == "untrusted"
    assert failure.path == str(path) and "inspector.core.files.models.Net" in failure.wanted
    # Everything it carries is filled in by the worker: no field the window cannot rely on.
    assert [f.name for f in dataclasses.fields(TaskFailure)] == ["task", "call", "failure", "seconds", "path", "wanted"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")
def test_a_move_runs_below_the_windows_priority_and_a_benchmark_does_not(monkeypatch):
    # A cast's copies took both cores and the window waited for a time slice: moves run on a
    # thread niced below the window (torch's intra-op threads it starts inherit that), while a
    # benchmark keeps the window's priority, so what it measures is not slowed by the window.
    import os

    from inspector.core.measure import timing
    from inspector.core.moves import transaction
    from inspector.core.session import BenchmarkRequest, LoadRequest
    from inspector.gui.state.threads import BACKGROUND_NICE
    from inspector.gui.state.workers import ModelWorker

    seen: dict[str, int] = {}

    def nice_of_this_thread() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    real_move, real_measure = transaction.move_model, timing.measure_latency
    monkeypatch.setattr(transaction, "move_model", lambda *a, **k: (seen.update(move=nice_of_this_thread()), real_move(*a, **k))[1])
    monkeypatch.setattr(timing, "measure_latency",
                        lambda *a, **k: (seen.update(benchmark=nice_of_this_thread()), real_measure(*a, **k))[1])  # fmt: skip
    worker = ModelWorker(threading.Event())
    worker.load(LoadRequest("example"))
    here = nice_of_this_thread()
    worker.move(MoveRequest("to", device="cpu", dtype="float64"))
    worker.benchmark(BenchmarkRequest(runs=5))
    assert seen == {"move": min(19, here + BACKGROUND_NICE), "benchmark": here}
    assert nice_of_this_thread() == here  # the worker's own thread is untouched


def test_each_task_ends_as_one_value_with_its_result_and_the_placement_after_it(qapp):
    # A move was three signals (its result, the new placement, the end) whose order subscribers
    # had to know: now one value, said once, whatever happened.
    worker = ModelWorker(threading.Event())
    said: list[tuple[str, object]] = []
    worker.taskStarted.connect(lambda task: said.append(("started", task)))
    worker.taskEnded.connect(lambda end: said.append(("ended", end)))

    worker.load(LoadRequest("example"))
    worker.move(MoveRequest("to", "cpu", "float64"))
    worker.train_step(None)
    worker.move(MoveRequest("to", "cuda:97"))  # no such device: refused, the model as before

    assert [kind for kind, _ in said] == ["started", "ended"] * 4
    load, move, step, refused = (end for kind, end in said if kind == "ended")
    assert load.task == "load" and load.outcome == "done" and load.placement is load.result.state
    assert move.outcome == "done" and move.result.ok and move.placement is not None
    assert {t.dtype for t in move.placement.placement.tensors} == {"float64"}
    assert step.task == "train step" and step.outcome == "done" and step.result.loss == step.result.loss
    assert any(t.kind == "grad" for t in step.placement.placement.tensors)  # the step's gradients, shown
    assert refused.outcome == "failed" and refused.failure is None and not refused.result.ok
    assert refused.error is refused.result.error and refused.placement is not None  # the rollback, shown
    assert not any(end.own for _, end in said if isinstance(end, TaskEnded))  # (the state says whose it is)
