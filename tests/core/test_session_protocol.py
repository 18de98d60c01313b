"""One face for a session (``core.session.FrontEndSession``): a local ``Session`` and a
``RemoteSession`` answer the same calls with the same result types, and say what they can do
as data (``SessionCapabilities``) for a front end to ask."""

from __future__ import annotations

import threading

import pytest

from inspector.core.errors import InspectorError
from inspector.core.messages import Text
from inspector.core.remote.agent_answers import ConnectionLost
from inspector.core.remote.session import RemoteSession
from inspector.core.session import LOCAL, REMOTE, LoadRequest, Session


def test_capabilities_say_what_each_session_can_do():
    assert Session().capabilities == LOCAL and not LOCAL.remote
    assert LOCAL.fit and LOCAL.train_step and LOCAL.stop_early and LOCAL.timed_here and LOCAL.lessons
    remote = RemoteSession(host="gpu1")
    assert remote.capabilities == REMOTE and REMOTE.remote and REMOTE.per_module_timing
    assert not (REMOTE.fit or REMOTE.train_step or REMOTE.lessons or REMOTE.stop_early or REMOTE.timed_here)
    assert remote.loaded is None  # its model lives in the agent's process


def test_what_a_remote_session_cannot_do_it_says_in_cores_words_naming_the_host():
    remote = RemoteSession(host="gpu1")
    with pytest.raises(InspectorError) as no_model:
        remote.require_model()
    with pytest.raises(ConnectionLost) as lost:
        remote.load(LoadRequest("example"))  # no connection, and nothing to connect with
    with pytest.raises(InspectorError) as no_fit:
        remote.fit(None)  # type: ignore[arg-type]
    with pytest.raises(InspectorError) as nothing:
        remote.report()
    for raised, key in ((no_model, "remote.no_model"), (lost, "remote.not_connected"),
                        (no_fit, "remote.no_fit"), (nothing, "remote.nothing_measured")):  # fmt: skip
        message = raised.value.message
        assert isinstance(message, Text) and message.key == key and "gpu1" in message
    assert no_fit.value.kind == "input"


def test_a_local_load_runs_its_factory_where_the_front_end_says_and_adopts_it_here():
    session = Session()
    ran_on = []

    def run(work, should_cancel):  # as the window's run_abandonable: on a thread of its own
        box = []

        def target():
            ran_on.append(threading.current_thread())
            try:
                box.append(work())
            except Exception as exc:  # noqa: BLE001 - raised again on the caller's thread
                box.append(exc)

        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
        if isinstance(box[0], Exception):
            raise box[0]
        return box[0]

    state = session.load(LoadRequest("example", defer_optimizer=True), run=run)
    assert state.info.class_name == "Net" and ran_on and ran_on[0] is not threading.current_thread()
    assert session.loaded is not None and session.loaded.optimizer is None  # made on first need
    with pytest.raises(InspectorError):
        session.load(LoadRequest("/no/such/model.pt"), run=run)
    assert session.require_model().class_name == "Net"  # the model before a failed load stays


def test_require_model_gives_one_type_locally_and_remotely():
    """Issue 44 §6: the face no longer leaks the local model. ``require_model`` gives the open
    model's facts (``ModelInfo``) here and over the wire alike; the model object is the local
    session's own (``require_loaded``)."""
    from inspector.core.remote.client import AgentConnection, local_agent_command
    from inspector.core.session import ModelInfo

    local = Session()
    local.load(LoadRequest("example"))
    remote = RemoteSession(AgentConnection.open(local_agent_command()))
    try:
        remote.load(LoadRequest("example"))
        here, there = local.require_model(), remote.require_model()
    finally:
        remote.close()
    assert type(here) is type(there) is ModelInfo
    assert here == there  # the same facts of the same model, wherever it lives
    assert local.require_loaded().class_name == here.class_name
