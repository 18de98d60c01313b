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


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")
def test_a_background_thread_runs_below_the_windows_priority_and_so_do_its_threads(qapp, qtbot):
    # The window's stalls came from the worker's (and torch's intra-op) threads taking both
    # cores: a background thread is niced below the GUI thread, and threads it starts inherit it.
    import os
    import threading

    from PySide6.QtCore import QObject, Signal, Slot

    from inspector.gui.threads import BACKGROUND_NICE, start_in_thread, stop_threads

    class Probe(QObject):
        ask = Signal()

        def __init__(self):
            super().__init__()
            self.seen = {}
            self.ask.connect(self.read)

        @Slot()
        def read(self):
            self.seen["worker"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
            child = threading.Thread(target=lambda: self.seen.update(child=os.getpriority(os.PRIO_PROCESS, threading.get_native_id())))
            child.start()
            child.join()

    gui = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    probe = Probe()
    thread = start_in_thread(probe, "probe", background=True)
    probe.ask.emit()
    qtbot.waitUntil(lambda: "child" in probe.seen, timeout=5000)
    assert probe.seen["worker"] == min(19, gui + BACKGROUND_NICE) and probe.seen["child"] == probe.seen["worker"]
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == gui  # the window's own is untouched
    assert stop_threads([thread])
