"""The window's Repeats setting reaches a remote agent's core: its runs come back kept apart
(issue 33, "Verdicts that survive a rerun")."""

from __future__ import annotations

import sys

import pytest

from inspector.core.remote.agent_answers import AgentError
from inspector.core.remote.client import AgentConnection
from inspector.core.remote.protocol import Op
from inspector.core.remote.session import RemoteSession, sample_limit
from inspector.core.session import BenchmarkRequest, LoadRequest
from tests.processes import CLEAN_EXIT_S

AGENT = [sys.executable, "-c", "import sys; from inspector.cli import main; sys.exit(main(['agent']))"]


def test_an_agent_takes_the_runs_asked_for_and_refuses_too_many():
    session = RemoteSession(AgentConnection.open(AGENT))
    try:
        session.load(LoadRequest("example"))
        latency = session.measure(BenchmarkRequest(runs=7, repeat=3))
        assert [len(r) for r in latency.runs_ms] == [7, 7, 7] and len(latency.samples_ms) == 21
        with pytest.raises(AgentError, match="repeat") as refused:
            session.connection.call(Op.BENCHMARK, {"runs": 2, "repeat": 51})
        assert refused.value.kind == "protocol" and "from 1 to 50" in refused.value.message
    finally:
        assert session.close(timeout=CLEAN_EXIT_S) == 0
    assert sample_limit(BenchmarkRequest(runs=7, repeat=3)) == 21
