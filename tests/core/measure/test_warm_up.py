"""The warm-up goes on until the calls are steady, and a slow start of the run goes to it:
counted in calls on a fake clock, never in wall time."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from inspector.core.files.models import LoadedModel
from inspector.core.measure import machine_noise, sampling, warm_up
from inspector.core.measure.timing import measure_latency
from tests.fake_clock import FakeClock

FAST_NS = 10_000  # a steady call: 10 µs
SLOW_NS = 5_000_000  # a call during lazy set-up: 5 ms


class SlowFirst(nn.Module):
    """A model whose first ``slow_calls`` forward calls take SLOW_NS on ``clock``, the rest FAST_NS."""

    def __init__(self, clock: FakeClock, slow_calls: int, first_ns: int = SLOW_NS):
        super().__init__()
        self.linear = nn.Linear(3, 1)
        self.clock = clock
        self.slow_calls = slow_calls
        self.first_ns = first_ns
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        if self.calls == 1:
            self.clock.now += self.first_ns
        else:
            self.clock.now += SLOW_NS if self.calls <= self.slow_calls else FAST_NS
        return self.linear(x)


@pytest.fixture
def clock(monkeypatch):
    clock = FakeClock(read_ns=0)
    monkeypatch.setattr(sampling, "_clock", clock)
    # The slow calls are the model's: no preemption of this (real) process is taken for them.
    monkeypatch.setattr(machine_noise.MachineWatch, "preempted", lambda self: 0)
    return clock


def _measure(clock: FakeClock, slow_calls: int, runs: int = 200, **kwargs):
    model = SlowFirst(clock, slow_calls, **kwargs)
    result = measure_latency(LoadedModel("slow-first", model, example_input=torch.zeros(2, 3)), runs=runs)
    return model, result


@pytest.mark.parametrize("slow_calls", [2, 5, 9])
def test_the_timed_samples_hold_none_of_a_slow_start(clock, slow_calls):
    # The first calls are slow for a reason that is not noise (a dtype's kernels set up
    # lazily): steady slow calls, so the warm-up of 3 cannot see them end. The run's first
    # chunk shows them: they go to the warm-up, and the run still has every sample asked for.
    model, result = _measure(clock, slow_calls)
    assert result.samples_ms == pytest.approx([FAST_NS / 1e6] * 200)
    assert result.warmup >= slow_calls
    assert sum(1 for w in result.warmup_samples_ms if w >= SLOW_NS / 1e6) == slow_calls
    assert model.calls == result.warmup + 200
    assert result.warmup_reason in (warm_up.SLOW_START, warm_up.STEADY) and result.warmup_asked == 3
    # What it absorbed is the first calls' cost: the slow calls beyond the run's median
    assert result.first_calls_ms == pytest.approx(slow_calls * (SLOW_NS - FAST_NS) / 1e6)
    assert any(note.startswith(f"warm-up took {result.warmup} calls, not 3") for note in result.notes)
    assert result.to_dict()["first_calls_ms"] == result.first_calls_ms and result.to_dict()["warmup_asked"] == 3


def test_a_steady_model_still_warms_up_three_times(clock):
    # Its first call is slower (its cost is the first call's), the rest are steady.
    model, result = _measure(clock, slow_calls=1, first_ns=SLOW_NS)
    assert result.warmup == 3 and model.calls == 203
    assert result.warmup_reason == warm_up.AS_ASKED and not any("warm-up took" in n for n in result.notes)
    assert result.warmup_ms == pytest.approx(SLOW_NS / 1e6)


def test_calls_that_settle_slowly_are_warmed_up_until_steady():
    # 400, 200, 100, 50, 25, 12.5, 10, 10, ... µs: not steady until the halving stops.
    calls = [400_000 >> i for i in range(6)]
    warming = warm_up.WarmUp(3)
    made: list[int] = []
    while warming.wants_more(made):
        made.append(calls[len(made)] if len(made) < len(calls) else 10_000)
    assert warming.reason == warm_up.STEADY
    assert made[:5] == calls[:5] and 6 <= len(made) <= len(calls) + 3  # 400 down to 25 µs all warm-up
    assert max(made[-3:]) <= 1.25 * sorted(made[-3:])[1]


def test_a_model_that_never_settles_stops_at_the_call_cap_and_says_so():
    warming = warm_up.WarmUp(3)
    made: list[int] = []
    while warming.wants_more(made):
        made.append(10_000 if len(made) % 2 else 30_000)  # forever 3x apart
    assert len(made) == warm_up.MAX_CALLS and warming.reason == warm_up.CALL_CAP
    said = warm_up.notes(warming.outcome(made, [20_000] * 10))
    assert said and said[0].startswith(f"warm-up stopped at its cap of {warm_up.MAX_CALLS:,} calls")


def test_a_slow_start_while_the_threads_were_preempted_stays_in_the_samples():
    # Slow samples with at least one preemption each are the machine's: kept, and said.
    chunk = [SLOW_NS] * 4 + [FAST_NS] * 40
    warming = warm_up.WarmUp(3)
    assert warming.absorb([SLOW_NS, FAST_NS, FAST_NS], chunk, preempted=16) == 0
    said = warm_up.notes(warming.outcome([SLOW_NS, FAST_NS, FAST_NS], chunk))
    assert any("first 4 samples were slower" in n and "preempted 16 times" in n for n in said)
    assert warm_up.WarmUp(3).absorb([SLOW_NS, FAST_NS, FAST_NS], chunk, preempted=0) == 4


def test_one_slow_first_sample_is_an_outlier_not_a_slow_start():
    assert warm_up.slow_start([SLOW_NS] + [FAST_NS] * 40) == 0
    assert warm_up.slow_start([SLOW_NS] * 30 + [FAST_NS] * 30) == 0  # half of it: maybe the model's own level


def test_the_first_chunk_is_judged_once(clock, monkeypatch):
    # A slow phase in a later chunk is the run's (or the machine's), not a warm-up's.
    looked: list[int] = []
    real = warm_up.WarmUp.absorb

    def absorb(self, calls, chunk, preempted):
        looked.append(len(chunk))
        return real(self, calls, chunk, preempted)

    monkeypatch.setattr(warm_up.WarmUp, "absorb", absorb)
    monkeypatch.setattr(sampling, "CHUNK_SAMPLES", 50)
    _measure(clock, slow_calls=5, runs=200)
    assert len(looked) == 1
