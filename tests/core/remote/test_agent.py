"""The agent over a real pipe: ``python -m inspector agent`` as a local subprocess.

One agent serves the round-trip tests (starting one costs torch's import); the tests that end
an agent start their own, forked from a warm interpreter (tests/warm_python.py). Misbehaving
agents are small Python scripts (no torch: fast).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest
import torch
from torch import nn

from tests.processes import CLEAN_EXIT_S, GENEROUS_S
from inspector.core.remote.agent_answers import AgentError, ConnectionLost
from inspector.core.remote.client import AgentConnection, local_agent_command
from inspector.core.remote.protocol import PROTOCOL_VERSION, Op
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.moves.request import MoveRequest
from inspector.core.remote.session import RemoteSession
from inspector.core.files.inputs import parse_inputs
from inspector.core.session import BenchmarkRequest, LoadRequest
from inspector.core.remote.wire import WireError
from tests.cli.test_headless_import import BLOCK_QT
from tests.warm_python import warm_command


#: The agent as a GPU server runs it: PySide6 and pyqtgraph cannot be imported there.
AGENT_WITHOUT_QT = [sys.executable, "-c", BLOCK_QT + "from inspector.cli import main; sys.exit(main(['agent']))"]


@pytest.fixture(scope="module")
def remote():
    session = RemoteSession(AgentConnection.open(AGENT_WITHOUT_QT))
    yield session
    assert session.close(timeout=CLEAN_EXIT_S) == 0  # closing its stdin ends it cleanly


def _wait_for(predicate, timeout=GENEROUS_S):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


# ---------------------------------------------------------------- round trips


def test_every_op_round_trips(remote):
    info = remote.connection.info
    assert info.protocol == PROTOCOL_VERSION and info.torch == torch.__version__
    assert abs(info.clock_offset_s) < 5  # the same machine: the same clock, give or take the round trip

    assert "cpu" in remote.devices().ids()

    state = remote.load(LoadRequest("example"))
    assert state.info.class_name == "Net" and state.info.example_input_shapes == ((64, 3),)
    assert {r.name for r in state.placement.tensors} >= {"fc1.weight", "fc2.bias"}
    assert remote.state().placement == state.placement

    steps = []
    move = remote.move(MoveRequest("to", "cpu", "float64"), progress=lambda d, t: steps.append((d, t)))
    after = remote.state()  # the state the agent sent with the move
    assert move.ok and move.call == "model.to('cpu', dtype=torch.float64)"
    assert set(after.placement.totals.by_dtype) == {"float64"}
    assert steps and steps[-1][0] == steps[-1][1]  # the last progress says "done"

    streamed = []
    latency = remote.measure(BenchmarkRequest(runs=60), on_sample=lambda i, ms: streamed.append((i, ms)))
    assert len(latency.samples_ms) == 60 and latency.dtype == "float64"
    assert [i for i, _ in streamed] == list(range(60))  # every sample reached the client, in order
    assert tuple(ms for _, ms in streamed) == latency.samples_ms  # the plot shows exactly what the result holds

    readings = []
    assert remote.start_memory(20, lambda rs: (readings.extend(rs), remote.timeline.add(rs))) == 20
    _wait_for(lambda: len(readings) >= 3)
    remote.stop_memory()
    assert readings[-1].device == "cpu" and readings[-1].total > 0
    assert abs(readings[-1].timestamp - time.time()) < 5  # on this machine's clock

    report = remote.report().to_dict()
    assert [m["call"] for m in report["moves"]] == [move.call]
    assert report["latency"][0]["median_ms"] == latency.median_ms
    assert "cpu" in report["memory"]  # the timeline here holds the streamed readings
    assert "cpu" in remote.agent_report()["memory"]  # and so does the agent's own
    assert remote.report(with_memory=False).to_dict()["memory"] == {}


def test_per_module_benchmark_and_input_shape_cross(remote):
    remote.load(LoadRequest("example"))
    request = BenchmarkRequest(runs=5, input_shape=(8, 3), per_module=True)
    latency = remote.measure(request)
    attribution = remote.attribute(request)  # it came along with the measurement
    assert latency.input_shape == (8, 3)
    assert {m.name for m in attribution.modules} >= {"fc1", "fc2"}


def test_a_run_shorter_than_its_warm_up_comes_back(remote):
    # the client holds the samples to the runs asked for, and the warm-ups to a bound of their own
    remote.load(LoadRequest("example"))
    latency = remote.measure(BenchmarkRequest(runs=1))
    assert len(latency.samples_ms) == 1 and len(latency.warmup_samples_ms) >= 3 and latency.warmup_asked == 3


def test_failed_move_comes_back_rolled_back(remote):
    remote.load(LoadRequest("example"))
    move = remote.move(MoveRequest("to", "cuda:7"))
    state = remote.state()
    assert not move.ok and move.error.message
    assert state.placement.devices == ("cpu",)


def test_work_errors_are_one_line_and_the_agent_carries_on(remote):
    remote.load(LoadRequest("example"))
    with pytest.raises(AgentError) as bad_shape:
        remote.measure(BenchmarkRequest(runs=3, input_shape=(2, 5)))
    assert bad_shape.value.kind == "input" and "(2, 5)" in bad_shape.value.message
    with pytest.raises(AgentError, match="unknown op"):
        remote.connection.call("sideways")
    with pytest.raises(AgentError, match="method") as bad_arg:
        remote.connection.call(Op.MOVE, {"method": "sideways"})
    assert bad_arg.value.kind == "protocol"
    with pytest.raises(AgentError) as missing:
        remote.load(LoadRequest("no_such_module_xyz:make"))
    assert missing.value.kind == "load"
    assert remote.state().info.class_name == "Net"  # the old model stays


def test_untrusted_file_names_host_and_path_then_opens_with_trust(remote, tmp_path):
    path = tmp_path / "whole.pt"
    torch.save(nn.Sequential(nn.Linear(3, 2)), path)
    with pytest.raises(AgentError) as refused:
        remote.load(LoadRequest(str(path)))
    err = refused.value
    assert err.kind == "untrusted" and err.path == str(path) and err.host == remote.host and err.wanted
    state = remote.load(LoadRequest(str(path), trust=True))
    assert state.info.class_name == "Sequential"


def test_cancel_mid_benchmark(remote):
    remote.load(LoadRequest("example"))
    streamed, cancel, outcome = [], threading.Event(), {}

    def run():
        try:
            remote.measure(BenchmarkRequest(runs=None, min_time=120), on_sample=lambda i, ms: streamed.append(i), should_cancel=cancel.is_set)
        except BaseException as exc:  # noqa: BLE001 -- the test reads it
            outcome["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    _wait_for(lambda: len(streamed) > 10)
    cancel.set()
    thread.join(timeout=GENEROUS_S)
    assert not thread.is_alive()
    assert isinstance(outcome["error"], Cancelled)
    assert remote.state().info.class_name == "Net"  # the agent is free for the next request


# ---------------------------------------------------------------- lifetimes


def _local_agent() -> list[str]:
    """``python -m inspector agent``, forked from a warm interpreter (tests/warm_python.py)."""
    return warm_command(local_agent_command()[1:])


def test_agent_exits_when_stdin_closes_mid_benchmark():
    connection = AgentConnection.open(_local_agent())
    session = RemoteSession(connection)
    session.load(LoadRequest("example"))
    running, outcome = threading.Event(), {}

    def run():
        try:
            session.measure(BenchmarkRequest(runs=None, min_time=120), on_sample=lambda i, ms: running.set())
        except BaseException as exc:  # noqa: BLE001 -- the test reads it
            outcome["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    assert running.wait(GENEROUS_S)
    assert connection.close(timeout=CLEAN_EXIT_S) == 0  # it saw EOF, cancelled and exited on its own
    thread.join(timeout=GENEROUS_S)
    # Its work was cancelled: the agent either said so before exiting, or the pipe closed first.
    assert isinstance(outcome["error"], (Cancelled, ConnectionLost))


def _raw_agent():
    return subprocess.Popen(_local_agent(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_malformed_requests_get_errors_and_an_old_client_is_refused():
    agent = _raw_agent()
    lines = [b"not json\n", b"[1, 2]\n", b'{"id": 1, "op": "devices"}\n', b'{"op": "hello"}\n', b"\xff\xfe\n",
             b"[" * 100_000 + b"\n", json.dumps({"id": 2, "op": "hello", "args": {"protocol": "0.9"}}).encode() + b"\n",
             b'{"id": 3, "op": "devices"}\n']
    out, _ = agent.communicate(b"".join(lines), timeout=30)
    answers = [json.loads(line) for line in out.splitlines()]
    assert agent.returncode == 2
    assert [a["ok"] for a in answers] == [False] * 7  # one error per bad line; nothing after the refusal
    assert answers[2]["id"] == 1 and "hello first" in answers[2]["error"]["message"]
    assert answers[-1]["id"] == 2 and answers[-1]["error"]["kind"] == "version"
    assert "0.9" in answers[-1]["error"]["message"] and PROTOCOL_VERSION in answers[-1]["error"]["message"]


def test_client_refuses_an_agent_of_another_major_version():
    with pytest.raises(AgentError) as refused:
        AgentConnection.open(_local_agent(), protocol="2.0")
    assert refused.value.kind == "version"


# ---------------------------------------------------------------- misbehaving agents

_FAKE = r"""
import json, sys, time
def send(obj):
    sys.stdout.write(obj if isinstance(obj, str) else json.dumps(obj)); sys.stdout.write("\n"); sys.stdout.flush()
for line in sys.stdin:
    msg = json.loads(line)
    i, op = msg["id"], msg["op"]
    if op == "hello":
        send({"id": i, "ok": True, "result": {"protocol": "1.3", "agent": "fake", "python": "3", "torch": "none",
                                               "host": "fakehost", "pid": 1, "time": time.time(), "newer_field": 1}})
    elif op == "devices":
        for junk in ["Welcome to gpu1! (a login banner)", "[1, 2]", '{"id": %d}' % i, '{"id": %d, "event": 5}' % i,
                     '{"id": %d, "event": "latency", "data": {"samples": "many"}}' % i, '{"id": 999, "ok": true, "result": 1}',
                     '{"id": true, "ok": true}', "{" * 50000, "\x00\x01 binary"]:
            send(junk)
        send({"id": i, "ok": True, "result": {"devices": "not a list"}})
    elif op == "placement":
        send({"id": i, "ok": False, "error": "not an object"})
    elif op == "report":
        send({"id": i, "ok": True, "result": {"fine": True}})
    elif op == "benchmark":
        time.sleep(600)  # never answers: the test kills it
"""


@pytest.fixture
def fake():
    connection = AgentConnection.open([sys.executable, "-c", _FAKE])
    yield connection
    connection.close(timeout=1)


def test_malformed_lines_from_the_agent_never_crash_the_client(fake):
    assert fake.info.host == "fakehost"  # a newer minor version (1.3) with an unknown field is fine
    with pytest.raises(WireError, match="devices"):
        RemoteSession(fake).devices()
    with pytest.raises(WireError, match="neither a result nor an error"):
        RemoteSession(fake).state()
    assert fake.malformed_lines >= 5
    assert fake.call(Op.REPORT) == {"fine": True}  # still talking


def test_a_killed_agent_fails_the_waiting_call_with_one_line(fake):
    outcome = {}

    def run():
        try:
            fake.call(Op.BENCHMARK, {})
        except BaseException as exc:  # noqa: BLE001 -- the test reads it
            outcome["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    lost = []
    fake.on_lost(lost.append)
    fake.kill()
    thread.join(timeout=GENEROUS_S)
    error = outcome["error"]
    assert isinstance(error, ConnectionLost) and "exited" in error.message and "\n" not in error.message
    assert lost == [fake.lost] and not fake.alive
    with pytest.raises(ConnectionLost):
        fake.call(Op.REPORT)


def test_a_command_that_fails_says_why():
    with pytest.raises(InspectorError, match="cannot start"):
        AgentConnection.open(["/no/such/agent-binary"])
    script = "import sys; sys.stderr.write('bash: torch-device-inspector: command not found\\n'); sys.exit(127)"
    with pytest.raises(ConnectionLost) as lost:
        AgentConnection.open([sys.executable, "-c", script])
    assert "127" in lost.value.message and "command not found" in lost.value.message
    with pytest.raises(InspectorError, match="cannot read the command"):
        AgentConnection.open("ssh 'unclosed")


@pytest.mark.slow  # one more agent start; benchmarks/gpu_check.py runs the same on cuda:0
def test_the_gpu_checks_agent_logic_holds_on_the_cpu():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "benchmarks" / "gpu_check.py"
    spec = importlib.util.spec_from_file_location("gpu_check", path)
    gpu_check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gpu_check)
    results = gpu_check.agent_pipe("cpu", oom=False, runs=5)
    assert [name for name, ok, _ in results if not ok] == []
    assert len(results) == 6


def test_an_answer_json_cannot_hold_becomes_an_error_line_not_a_dead_agent():
    import io

    from inspector.core.remote.agent import Agent

    out = io.BytesIO()
    Agent(out).send({"id": 1, "ok": True, "result": float("nan")})
    answer = json.loads(out.getvalue())
    assert answer["id"] == 1 and answer["ok"] is False and "encode" in answer["error"]["message"]


def test_samples_stream_as_nanoseconds_and_a_1_0_client_still_gets_index_ms_pairs():
    import io

    from inspector.core.remote.agent import Agent
    from inspector.core.remote.agent_output import SampleStream
    from inspector.core.remote.protocol import latency_samples

    def streamed(client_protocol):
        out = io.BytesIO()
        agent = Agent(out)
        agent._handle_line(json.dumps({"id": 1, "op": "hello", "args": {"protocol": client_protocol}}).encode())
        stream = SampleStream(agent, 7, 3, None)
        for i, ns in enumerate([21_000, 20_731, 3_600_000_000_001]):  # up to an hour, to the nanosecond
            stream.on_sample(i, ns / 1e6)
        stream.flush()
        events = [json.loads(line) for line in out.getvalue().splitlines()[1:]]
        return next(e["data"] for e in events if e["event"] == "latency")

    sent = [(0, 0.021), (1, 0.020731), (2, 3_600_000.000001)]
    assert streamed(PROTOCOL_VERSION) == {"first": 0, "ns": [21_000, 20_731, 3_600_000_000_001]}
    assert streamed("1.0") == {"samples": [list(pair) for pair in sent]}  # what a 1.0 client reads
    assert latency_samples(streamed(PROTOCOL_VERSION)) == latency_samples(streamed("1.0")) == sent
    for bad in ({"first": -1, "ns": [1]}, {"first": 0, "ns": [1.5]}, {"first": True, "ns": []}, {"first": 0, "ns": "x"}, [1]):
        with pytest.raises(WireError):
            latency_samples(bad)


def test_a_transformer_benchmarks_there_with_its_two_inputs(remote, small_transformer):
    remote.load(LoadRequest(small_transformer))
    latency = remote.measure(BenchmarkRequest(runs=3, input_shape=parse_inputs("5,2,16; 4,2,16")))
    assert latency.input_shapes == ((5, 2, 16), (4, 2, 16)) and len(latency.samples_ms) == 3
    with pytest.raises(AgentError) as one_input:
        remote.measure(BenchmarkRequest(runs=3, input_shape=parse_inputs("5,2,16")))
    assert one_input.value.kind == "input" and "5,2,16" in one_input.value.message.replace(" ", "").replace("(", "")
