"""A move made over the agent comes back carrying its request (issue 37 §3), as a local one
does: the window shows its code from it. From an agent older than that, the remote session
reads the request it sent, with the call the agent made."""

from __future__ import annotations

import pytest
import torch

from inspector.core.files.models import example_model
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import move_model
from inspector.core.errors import InspectorError
from inspector.core.remote.client import AgentConnection
from inspector.core.remote.protocol import Op
from inspector.core.remote.session import RemoteSession
from inspector.core.remote.wire import encode
from inspector.core.report.snippets import move_snippet
from inspector.core.session import LoadRequest, Session
from tests.core.remote.test_agent import AGENT_WITHOUT_QT
from tests.processes import CLEAN_EXIT_S


@pytest.fixture(scope="module")
def remote():
    session = RemoteSession(AgentConnection.open(AGENT_WITHOUT_QT))
    yield session
    assert session.close(timeout=CLEAN_EXIT_S) == 0


def test_a_remote_move_names_the_device_dtype_and_method_it_ran_with(remote):
    remote.load(LoadRequest("example"))
    asked = MoveRequest("to", "cpu", "bfloat16")
    move = remote.move(asked)
    ran = move.request
    assert move.ok and ran is not None
    assert (ran.method, ran.device, ran.dtype) == ("to", "cpu", "bfloat16")  # as the user chose it
    assert ran.torch_device == torch.device("cpu") and ran.torch_dtype is torch.bfloat16  # as the agent read it
    assert ran.call == move.call == "model.to('cpu', dtype=torch.bfloat16)"
    assert move_snippet(ran) == move_snippet(asked)  # the window's code, as for a local move
    assert "request" not in remote.report().to_dict()["moves"][-1]  # the report is as it was


def test_a_failed_remote_move_carries_its_request_too(remote):
    remote.load(LoadRequest("example"))
    move = remote.move(MoveRequest("cuda", "7"))
    assert not move.ok and move.request.torch_device == torch.device("cuda", 7)
    assert move.request.call == move.call == "model.cuda(7)"


class _OlderAgent:
    """A connection to an agent from before results carried their request."""

    alive, lost = True, None

    def __init__(self) -> None:
        session = Session()
        session.adopt(example_model())
        self.move = encode(move_model(session.require_loaded(), MoveRequest("to", "cpu", "float64")))
        del self.move["request"]
        self.state = encode(session.state())

    def call(self, op, args=None, **_):
        if op == Op.MOVE:
            assert args == {"method": "to", "device": "cpu", "dtype": "float64", "pinned": False}
            return {"move": self.move, "state": self.state}
        raise InspectorError(f"not served here: {op}")


def test_a_move_from_an_older_agent_carries_the_request_sent():
    remote = RemoteSession(_OlderAgent())  # type: ignore[arg-type]
    move = remote.move(MoveRequest("to", "cpu", "float64"))
    assert move.request is not None and move.request.call == move.call == "model.to('cpu', dtype=torch.float64)"
    assert move.request.torch_device == torch.device("cpu") and move.request.dtype_read == "float64"
