"""Core's sentences cross the agent's pipe as message ids with arguments (protocol 1.2), so a
remote window can say them in its language; an older client still gets English strings."""

from __future__ import annotations

import pytest

from inspector.core.messages import Text
from inspector.core.moves.request import MoveRequest
from inspector.core.remote.agent_answers import AgentError
from inspector.core.remote.client import AgentConnection, local_agent_command
from inspector.core.remote.protocol import Op
from inspector.core.remote.session import RemoteSession
from inspector.core.remote.wire import WireError, decode, decode_text, encode
from inspector.core.session import LoadRequest, ModelState


def test_a_text_crosses_as_its_id_and_arguments_and_comes_back_a_text():
    reason = Text("remote.no_answer", op="'move'", seconds=3)
    text = Text("remote.not_connected_because", host="gpu-box", reason=reason)
    sent = encode({"message": text}, texts=True)["message"]
    assert sent == {"text": str(text), "key": "remote.not_connected_because",
                    "args": {"host": "gpu-box", "reason": {"text": str(reason), "key": "remote.no_answer",
                                                           "args": {"op": "'move'", "seconds": "3"}}}}  # fmt: skip
    back = decode_text(sent)
    assert isinstance(back, Text) and back == text and back.key == text.key
    assert isinstance(back.args["reason"], Text) and back.args["reason"].key == "remote.no_answer"
    assert encode(text) == str(text)  # without texts: the English string (json writes it so)


def test_a_text_this_side_cannot_make_is_its_english_and_anything_else_is_refused():
    newer = {"text": "a sentence of a newer agent", "key": "remote.from_the_future", "args": {}}
    assert decode_text(newer) == "a sentence of a newer agent" and not isinstance(decode_text(newer), Text)
    short = {"text": "not connected to x: use Reconnect", "key": "remote.not_connected", "args": {}}
    assert not isinstance(decode_text(short), Text)  # its argument missing: the agent's words as they are
    for bad in ({"key": "remote.not_connected"}, {"text": 3, "key": "k", "args": {}}, [1], 7):
        with pytest.raises(WireError):
            decode_text(bad)


@pytest.fixture(scope="module")
def remote():
    session = RemoteSession(AgentConnection.open(local_agent_command()))
    yield session
    session.close()


def test_a_failed_moves_message_and_a_refused_load_come_back_as_core_texts(remote):
    remote.load(LoadRequest("example"))
    move = remote.move(MoveRequest("to", "cuda:7"))
    assert not move.ok
    message = move.error.message
    assert isinstance(message, Text) and message.key.startswith(("move.", "device.", "failure."))
    with pytest.raises(AgentError) as refused:
        remote.load(LoadRequest("no_such_module_xyz:make"))
    assert isinstance(refused.value.message, Text) and refused.value.message.key.startswith("load.")


def test_a_1_1_client_gets_english_strings():
    connection = AgentConnection.open(local_agent_command(), protocol="1.1")
    try:
        connection.call(Op.OPEN, {"spec": "example"})
        data = connection.call(Op.MOVE, {"method": "to", "device": "cuda:7"})
        message = data["move"]["error"]["message"]
        assert isinstance(message, str) and "cuda:7" in message
        state = decode(ModelState, data["state"], "state")
        assert state.placement.devices == ("cpu",)
        with pytest.raises(AgentError) as refused:
            connection.call(Op.OPEN, {"spec": "no_such_module_xyz:make"})
        assert not isinstance(refused.value.message, Text)
    finally:
        connection.close()


def test_the_device_lists_notes_come_back_as_core_texts(remote):
    # This machine has no accelerator: the inventory's note says so, in the window's language.
    inventory = remote.devices()
    assert inventory.notes and all(isinstance(note, Text) for note in inventory.notes)


def test_a_finished_run_without_a_sample_is_refused_not_shown(remote, monkeypatch):
    """A run's figures are its samples' (LatencyResult.figures): an agent's run with none is no
    measurement, and the client says so instead of failing where the window shows it."""
    from inspector.core.session import BenchmarkRequest

    remote.load(LoadRequest("example"))
    real = remote.connection.call

    def emptied(op, args, **kwargs):
        data = real(op, args, **kwargs)
        if op == Op.BENCHMARK:
            data["latency"]["samples_ms"] = []
        return data

    monkeypatch.setattr(remote.connection, "call", emptied)
    with pytest.raises(WireError, match="no sample"):
        remote.measure(BenchmarkRequest(runs=5))
