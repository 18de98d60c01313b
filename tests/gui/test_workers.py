"""The ModelWorker's payloads, driven directly (no thread): what the window receives."""

from __future__ import annotations

import dataclasses
import threading

import pytest
import torch

from inspector.core.files.models import Net, example_model
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import move_model
from inspector.core.session import LoadRequest
from inspector.gui.workers import ModelWorker, TaskFailure, request_call


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
    failures: list[TaskFailure] = []
    worker.failed.connect(failures.append)

    worker.load(LoadRequest(str(path)))

    [failure] = failures
    assert failure.task == "load" and failure.failure.kind == "untrusted"
    assert failure.path == str(path) and "inspector.core.files.models.Net" in failure.wanted
    # Everything it carries is filled in by the worker: no field the window cannot rely on.
    assert [f.name for f in dataclasses.fields(TaskFailure)] == ["task", "call", "failure", "seconds", "path", "wanted"]
