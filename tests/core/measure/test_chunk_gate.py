"""The sample loop calls a front end's chunk gate around its chunks, and only where the call is short.

Durations come from a fake clock that each call of the step advances, so the decisions are
asserted by counts of calls, never by wall-clock time.
"""

from __future__ import annotations

import pytest

from inspector.core.measure import chunk_gate, sampling, warm_up
from inspector.core.measure.run_control import RunControl


class FakeTime:
    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def fake_time(monkeypatch):
    clock = FakeTime()
    monkeypatch.setattr(sampling, "_clock", clock)
    monkeypatch.setattr(chunk_gate, "_clock", clock)
    return clock


class Recorder:
    """A gate that logs its calls, and a step that logs its own, each call taking ``call_ns``."""

    def __init__(self, clock: FakeTime, call_ns: int) -> None:
        self.clock, self.call_ns = clock, call_ns
        self.events: list[str] = []
        self.gate = chunk_gate.ChunkGate(
            enter=lambda: self.events.append("enter"), leave=lambda: self.events.append("leave")
        )

    def step(self) -> None:
        self.events.append("call")
        self.clock.now += self.call_ns


def run(recorder: Recorder, *, runs: int, gated: bool = True) -> list[int]:
    with chunk_gate.gated(recorder.gate if gated else None):
        how = sampling.Sampling((runs, None), warm_up.WarmUp(3))
        _, samples = sampling.take_samples(recorder.step, how, RunControl(), [])
    return samples


def test_short_calls_are_timed_only_inside_the_gate_and_in_short_chunks(fake_time):
    rec = Recorder(fake_time, call_ns=1_000_000)  # 1 ms: ten to a gated chunk
    assert run(rec, runs=100) == [1_000_000] * 100
    # The first warm-up call is not gated (its length is not known yet); every later call is.
    assert rec.events[0] == "call"
    rest = rec.events[1:]
    inside = False
    for event in rest:
        assert event != "call" or inside, "a call outside the gate"
        if event in ("enter", "leave"):
            assert inside == (event == "leave"), "enter and leave alternate"
            inside = event == "enter"
    assert not inside
    chunks = "".join("c" if e == "call" else "|" for e in rest).split("|")
    sizes = [len(c) for c in chunks if c]
    assert sizes[:2] == [1, 1]  # the two gated warm-up calls
    assert sizes[2:] == [10] * 10  # 10 ms chunks while gated (CHUNK_SECONDS would be 50)


def test_a_long_call_is_never_gated(fake_time):
    rec = Recorder(fake_time, call_ns=60_000_000)  # longer than the first gated try allows
    run(rec, runs=5)
    assert rec.events == ["call"] * 8


def test_a_call_between_the_chunk_and_the_first_try_is_gated_once_then_not(fake_time):
    rec = Recorder(fake_time, call_ns=20_000_000)
    run(rec, runs=5)
    assert rec.events == ["call", "enter", "call", "leave"] + ["call"] * 6


def test_without_a_gate_nothing_is_called_around_the_chunks(fake_time):
    rec = Recorder(fake_time, call_ns=1_000_000)
    run(rec, runs=100, gated=False)
    assert set(rec.events) == {"call"} and len(rec.events) == 103


# --------------------------------------------------------------------------- a per-module run after the plain one


def per_module_events(rec: Recorder, forward_ms: float | None, forwards: int = 6) -> list[str]:
    """The gate's calls around a per-module run's forwards (attribution's own batching)."""
    from inspector.core.measure.attribution import _GatedBatches

    with chunk_gate.gated(rec.gate), _GatedBatches(forward_ms) as batches:
        for _ in range(forwards):
            batches.next_iteration()
            rec.step()
    return rec.events


def test_a_per_module_run_of_a_short_forward_just_timed_gates_its_first_forward_too(fake_time):
    events = per_module_events(Recorder(fake_time, call_ns=1_000_000), forward_ms=1.0)
    assert events[0] == "enter" and events.count("call") == 6
    assert events[-1] == "leave"


def test_a_per_module_run_of_a_long_forward_never_holds_the_window_for_one(fake_time):
    # A 210 ms forward (ui_stall's 1 GiB model): its first per-module forward was gated all the
    # same, and the window stood still for ~200 ms (issue 46 item 4).
    events = per_module_events(Recorder(fake_time, call_ns=210_000_000), forward_ms=210.0)
    assert events == ["call"] * 6


def test_a_per_module_run_with_no_forward_timed_before_decides_by_its_first_forward(fake_time):
    assert per_module_events(Recorder(fake_time, call_ns=210_000_000), forward_ms=None) == ["call"] * 6
    short = per_module_events(Recorder(fake_time, call_ns=1_000_000), forward_ms=None)
    assert short[:2] == ["call", "enter"]


def test_the_session_hands_its_plain_runs_time_to_the_per_module_run():
    """Through the session, as the window runs them: a forward of at least 60 ms, timed plain
    then per module inside the window's gate, is never gated (sleep makes it long; load only
    makes it longer)."""
    import time

    import torch
    from torch import nn

    from inspector.core.files.models import LoadedModel
    from inspector.core.session import BenchmarkRequest, Session

    class Slow(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x):
            time.sleep(0.06)
            return self.fc(x)

    session = Session()
    session.adopt(LoadedModel(spec="slow", module=Slow(), example_input=torch.zeros(2, 4)))
    entered: list[str] = []
    gate = chunk_gate.ChunkGate(enter=lambda: entered.append("enter"), leave=lambda: entered.append("leave"))
    with chunk_gate.gated(gate):
        session.measure(BenchmarkRequest(runs=2))
    with chunk_gate.gated(gate):
        session.attribute(BenchmarkRequest(runs=2))
    assert entered == []
