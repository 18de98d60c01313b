"""One hostile line at a time, through the real agent (issue 32, item 10), and hostile events
from a fake agent to the real client (item 9).

The agent runs in this process (``Agent.serve`` on a pipe, the real session behind it), so
each answer is read back as the client would read it; the fake agent is a small script.
"""

from __future__ import annotations

import io
import json
import os
import sys
import threading

import pytest

from inspector.core.remote import protocol as proto
from inspector.core.remote.agent import Agent
from inspector.core.remote.agent_output import ProgressEvents, SampleStream
from inspector.core.remote.client import AgentConnection
from inspector.core.remote.protocol import PROTOCOL_VERSION, Op
from inspector.core.remote.session import RemoteSession
from inspector.core.remote.wire import WireError
from inspector.core.session import BenchmarkRequest
from inspector.core.vocabulary import MAX_SAMPLES
from tests.processes import CLEAN_EXIT_S, GENEROUS_S


class _Answers:
    """The agent's protocol stream: every line it writes, parsed, waited on by id."""

    def __init__(self) -> None:
        self.lines: list[dict] = []
        self._changed = threading.Condition()

    def write(self, data: bytes) -> int:
        with self._changed:
            self.lines += [json.loads(line) for line in data.splitlines()]
            self._changed.notify_all()
        return len(data)

    def flush(self) -> None:
        pass

    def wait(self, predicate, timeout: float = GENEROUS_S) -> list[dict]:
        with self._changed:
            assert self._changed.wait_for(lambda: predicate(self.lines), timeout), f"no such answer in {self.lines}"
            return list(self.lines)


class LiveAgent:
    """The real ``Agent`` serving lines written to a pipe, on a thread of this process."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self._requests = os.fdopen(write, "wb", buffering=0)
        self.out = _Answers()
        self.agent = Agent(self.out)  # type: ignore[arg-type]
        self.status: list[int] = []
        stream = os.fdopen(read, "rb")
        self._thread = threading.Thread(target=lambda: self.status.append(self.agent.serve(stream)), daemon=True)
        self._thread.start()

    def send(self, line: bytes | dict) -> None:
        self._requests.write(line if isinstance(line, bytes) else json.dumps(line).encode() + b"\n")

    def answers(self, ident) -> list[dict]:
        """The final answers (not events) to ``ident`` so far."""
        return [m for m in self.out.lines if m.get("id") == ident and "ok" in m]

    def answer(self, ident) -> dict:
        """The one final answer to ``ident``, once it comes."""
        self.out.wait(lambda lines: any(m.get("id") == ident and "ok" in m for m in lines))
        return self.answers(ident)[0]

    def close(self) -> int:
        self._requests.close()
        self._thread.join(timeout=GENEROUS_S)
        return self.status[0]


@pytest.fixture
def live():
    agent = LiveAgent()
    yield agent
    assert agent.close() == 0


def _hello(live: LiveAgent, ident=1) -> None:
    live.send({"id": ident, "op": "hello", "args": {"protocol": PROTOCOL_VERSION}})
    assert live.answer(ident)["ok"] is True


def _open_example(live: LiveAgent, ident=2) -> None:
    live.send({"id": ident, "op": "open", "args": {"spec": "example"}})
    assert live.answer(ident)["ok"] is True


# ---------------------------------------------------------------- item 10: the agent survives any one line


def test_a_hello_with_a_version_int_cannot_read_gets_an_error_and_the_agent_carries_on(live):
    live.send(b'{"id": 1, "op": "hello", "args": {"protocol": "1.' + b"7" * 5000 + b'"}}\n')
    live.send({"id": 2, "op": "hello", "args": {"protocol": "\u00b2.1"}})  # "²".isdigit(), int("²") raises
    live.send({"id": 3, "op": "hello", "args": {"protocol": "9" * 5000}})
    for ident in (1, 2, 3):
        refused = live.answer(ident)
        assert refused["ok"] is False and refused["error"]["kind"] == "protocol"
        assert "MAJOR.MINOR" in refused["error"]["message"]
    _hello(live, 4)  # still there, and a good hello is answered


def test_an_infinite_min_time_is_one_argument_error_and_no_event(live):
    _hello(live)
    _open_example(live)
    live.send(b'{"id": 5, "op": "benchmark", "args": {"min_time": 1e400}}\n')  # JSON's infinity
    live.send({"id": 6, "op": "benchmark", "args": {"min_time": -1}})
    live.send({"id": 7, "op": "memory.start", "args": {"hz": 1e400}})
    live.send({"id": 8, "op": "placement"})
    live.answer(8)  # the work runs in order: 5 and 6 were answered before it
    for ident, name in ((5, "min_time"), (6, "min_time"), (7, "hz")):
        (answer,) = live.answers(ident)  # exactly one final answer
        assert answer["error"]["kind"] == "protocol" and name in answer["error"]["message"]
        assert "finite number" in answer["error"]["message"]
    assert not [m for m in live.out.lines if m.get("id") in (5, 6) and "event" in m]


def test_whole_numbers_written_as_floats_are_counts_and_halves_are_not_numbers_refused_as_such(live):
    _hello(live)
    _open_example(live)
    live.send({"id": 5, "op": "benchmark", "args": {"runs": 3.0, "input_shape": [2.0, 3.0]}})
    live.send({"id": 6, "op": "benchmark", "args": {"runs": 2.5}})
    live.send({"id": 7, "op": "benchmark", "args": {"runs": 0}})
    done = live.answer(5)
    assert done["ok"] is True
    latency = done["result"]["latency"]
    assert len(latency["samples_ms"]) == 3 and latency["input_shape"] == [2, 3]
    for ident in (6, 7):
        message = live.answer(ident)["error"]["message"]
        assert "'runs' must be a whole number" in message and "not a number" not in message


def test_a_duplicate_id_is_refused_with_id_null_and_the_request_in_flight_keeps_its_one_answer(live):
    _hello(live)
    _open_example(live)
    live.send({"id": 5, "op": "benchmark", "args": {"min_time": 60}})
    live.send({"id": 5, "op": "placement"})  # the same id while the benchmark is in flight
    live.out.wait(lambda lines: any(m.get("error", {}).get("duplicate") == 5 for m in lines))
    live.send({"id": 6, "op": "cancel", "args": {"target": 5}})
    assert live.answer(6)["result"] == {"cancelled": True}
    (answer,) = [m for m in live.out.wait(lambda lines: live.answers(5)) if m.get("id") == 5 and "ok" in m]
    assert answer["error"]["kind"] == "cancelled"  # the benchmark's own answer, and the only one
    refusal = next(m for m in live.out.lines if m.get("error", {}).get("duplicate") == 5)
    assert refusal["id"] is None and "already in use" in refusal["error"]["message"]


def test_progress_totals_stay_within_the_runs_and_the_sample_cap():
    out = io.BytesIO()
    agent = Agent(out)
    agent.compact_samples = True
    for runs, min_time in ((10**30, None), (None, 1e300), (None, 3600.0), (7, None)):
        out.seek(0)
        out.truncate()
        stream = SampleStream(agent, 1, runs, min_time)
        for i in range(5):
            stream.on_sample(i, 1e-6)  # a nanosecond each: an estimate from them would be huge
            stream.flush()
        totals = [json.loads(line)["data"]["total"] for line in out.getvalue().splitlines() if b"progress" in line]
        assert len(totals) == 5 and max(totals) <= min(runs or MAX_SAMPLES, MAX_SAMPLES)


def test_an_event_json_cannot_hold_is_dropped_never_an_answer():
    out = io.BytesIO()
    agent = Agent(out)
    events = ProgressEvents(agent, 9, "move")
    events.update(float("inf"), float("inf"))
    events.flush()
    agent.send(proto.event(9, "progress", {"done": float("nan"), "total": 1}))
    assert out.getvalue() == b""  # no line at all: above all no "final" error answer for id 9
    agent.send(proto.ok(9, float("nan")))
    (line,) = out.getvalue().splitlines()
    assert json.loads(line)["ok"] is False  # an answer that cannot be encoded still answers once


# ---------------------------------------------------------------- item 9: the client holds the agent to what was asked

_HOSTILE = r"""
import json, sys, time
EVENTS = json.loads(sys.argv[1])
def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n"); sys.stdout.flush()
benchmarks = 0
for line in sys.stdin:
    msg = json.loads(line); i, op = msg["id"], msg["op"]
    if op == "hello":
        send({"id": i, "ok": True, "result": {"protocol": "1.1", "agent": "x", "python": "3", "torch": "?",
                                               "host": "hostile", "pid": 1, "time": time.time()}})
    elif op == "benchmark":
        for event in EVENTS[benchmarks]:
            send({"id": i, **event})
        benchmarks += 1
        # no answer: the client must not wait for one
    elif op == "cancel":
        sys.stderr.write("cancel %s\n" % msg["args"]["target"]); sys.stderr.flush()
        send({"id": i, "ok": True, "result": {"cancelled": True}})
    else:
        send({"id": i, "ok": True, "result": {"fine": True}})
"""


def _hostile_agent(*runs_of_events) -> AgentConnection:
    return AgentConnection.open([sys.executable, "-c", _HOSTILE, json.dumps(runs_of_events)])


@pytest.mark.parametrize(
    "events, refusal",
    [
        ([{"event": "latency", "data": {"first": 10**12, "ns": [1000]}}], "from 1,000,000,000,000 on, after 0"),
        ([{"event": "latency", "data": {"first": 0, "ns": [1000] * 101}}], "101 samples for a run of at most 100"),
        ([{"event": "latency", "data": {"first": 0, "ns": [1] * 60}},
          {"event": "latency", "data": {"first": 0, "ns": [1] * 40}}], "from 0 on, after 60"),  # fmt: skip
        ([{"event": "latency", "data": {"samples": [[0, 0.1], [10**12, 0.1]]}}], "not the next one"),
        ([{"event": "latency", "data": {"first": 10**4000, "ns": []}}], "about 10^"),
    ],
)
def test_a_latency_event_beyond_what_was_asked_ends_the_run_in_one_line(events, refusal):
    connection = _hostile_agent(events)
    try:
        received = []
        with pytest.raises(WireError) as refused:
            RemoteSession(connection).measure(BenchmarkRequest(runs=100), on_sample=lambda i, ms: received.append(i))
        message = refused.value.message
        assert refusal in message and "refused" in message and "\n" not in message and len(message) < 200
        assert len(received) <= 100  # nothing padded, nothing past the run's end reached the caller
        assert connection.alive and connection.call(Op.REPORT) == {"fine": True}  # still talking
        connection.close(timeout=CLEAN_EXIT_S)  # it exits at EOF; its stderr read to the end
        assert any(line.startswith("cancel ") for line in connection.stderr_tail(40).splitlines())  # told to stop
    finally:
        connection.close(timeout=1)


def test_progress_events_with_other_numbers_are_dropped_or_kept_within_the_run():
    from inspector.core.remote.session import _progress_events

    counts = ((1, "1e12"), (2, "1e400"), (2, "1e30"), (3, "-1"), (4, "true"), (5, "1" + "0" * 4000), (6, "50"), ("NaN", "7"))
    seen: list[tuple[float, float]] = []
    handler = _progress_events(lambda done, total: seen.append((done, total)), 100)
    for done, total in counts:  # each as the agent's line: JSON's 1e400 reads as infinity
        line = f'{{"id": 1, "event": "progress", "data": {{"task": "benchmark", "done": {done}, "total": {total}}}}}'
        message = proto.loads(line.encode())
        handler(message["event"], message["data"])
    assert seen == [(1.0, 100.0), (6.0, 50.0)]  # a total past the run's 100 is kept within it
