"""The Summary tab's verdicts see how runs differ, as compare's do (issue 33): two single runs
5 % apart are within this machine's run-to-run noise, not "1.05× slower" on the strength of
their samples, while runs of a repeat that agree show a real difference."""

from __future__ import annotations

import numpy as np

from inspector.core.measure.run_noise import RunNoise
from inspector.core.report.run_verdicts import Run, run_verdicts

MACHINE = RunNoise(0.14, runs=20, records=1, when="2026-12-01T00:00:00+00:00")


def _samples(median: float, n: int = 400, seed: int = 0) -> tuple[float, ...]:
    return tuple((median * np.random.default_rng(seed).lognormal(0, 0.01, n)).tolist())


def test_two_single_runs_five_percent_apart_are_within_run_to_run_noise():
    fast = Run("cpu · float32", "float32", "forward", (64, 3), 1.0, _samples(1.0, seed=1))
    slow = Run("meta · float32", "float32", "forward", (64, 3), 1.05, _samples(1.05, seed=2))
    _, verdict = run_verdicts([fast, slow], noise=MACHINE)
    assert verdict.short.key == "verdict.within_run_noise"
    assert str(verdict.sentence).startswith("meta · float32: no clear difference from cpu · float32: within run-to-run noise")


def test_runs_of_a_repeat_that_agree_show_a_real_difference():
    fast_runs = tuple(_samples(m, 200, seed=i) for i, m in enumerate((1.00, 1.01, 0.99)))
    slow_runs = tuple(_samples(m, 200, seed=10 + i) for i, m in enumerate((1.20, 1.21, 1.19)))
    fast = Run("cpu · float32", "float32", "forward", (64, 3), 1.0, sum(fast_runs, ()), runs_ms=fast_runs)
    slow = Run("meta · float32", "float32", "forward", (64, 3), 1.2, sum(slow_runs, ()), runs_ms=slow_runs)
    first, second = run_verdicts([fast, slow], noise=RunNoise(0.01, runs=20, records=1, when="2026-12-01T00:00:00+00:00"))
    assert first.short.key == "verdict.fastest"
    assert str(second.short) == "1.20× slower"


def test_a_twofold_difference_between_single_runs_is_still_said():
    fast = Run("cpu · float32", "float32", "forward", (64, 3), 1.0, _samples(1.0, seed=3))
    slow = Run("meta · float32", "float32", "forward", (64, 3), 4.0, _samples(4.0, seed=4))
    _, verdict = run_verdicts([fast, slow], noise=MACHINE)
    assert str(verdict.short) == "4.00× slower"
