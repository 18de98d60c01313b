"""The window's session workers, connected in one place: the window's requests to the
workers, and the workers to the state (``SessionState.connect_worker``/``connect_sampler``).
The features that hear the state are installed from their table (``features``); the workers
come from the window's kind (``window_kind.WindowKind.make_workers``).
"""

from __future__ import annotations

from typing import Any

from inspector.gui.state.requests import Requests
from inspector.gui.state.session_state import SessionState


def connect_workers(state: SessionState, requests: Requests, worker: Any, sampler: Any) -> None:
    """The requests to ``worker`` and ``sampler`` (with ``ModelWorker``'s and ``MemorySampler``'s
    slots and signals), and their answers to ``state``."""
    requests.load.connect(worker.load)
    requests.move.connect(worker.move)
    requests.benchmark.connect(worker.benchmark)
    requests.report.connect(worker.build_report)
    requests.fit.connect(worker.fit)
    requests.train_step.connect(worker.train_step)
    requests.lesson.connect(worker.run_lesson)
    requests.sample_rate.connect(sampler.set_rate)
    requests.rediscover.connect(sampler.rediscover)
    requests.stop_sampler.connect(sampler.stop)
    state.connect_worker(worker)
    state.connect_sampler(sampler)
