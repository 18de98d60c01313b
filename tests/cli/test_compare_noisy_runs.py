"""A single noisy run supports no claim (issue 46 item 1, follow-up).

Two separate benches under load gave identical code "B 1.5× slower (A and B noisy: may not
repeat)" in 1 pair of 9: the stated run-to-run noise (±47 % for one run a side) is a quiet
machine's, and a run whose own samples are flagged noisy landed further than that. Now a side
of fewer than three runs flagged noisy gets no verdict, only the command that can tell; the
rule reads the samples only, so the same two files still get one verdict under any noise
record. Runs timed turn about (``--against``) and three or more runs a side keep their rule.
Fixed samples; no clock is read."""

from __future__ import annotations


import numpy as np
import pytest

from inspector.cli import main
from inspector.core.files.models import example_model
from inspector.core.report.compare import compare_reports
from inspector.core.report.run_verdicts import Run, run_verdicts
from inspector.core.report.timing_report import build_report
from tests.cli.test_compare_same_verdict import RECORDS, _samples as _quiet, _save, _verdicts as _rows
from tests.report_edge import typed

COMMANDS = ("bench A --against B", "bench --repeat 5")


def _noisy(median: float, seed: int, n: int = 300) -> list[float]:
    """A run flagged noisy by its tail: 85 % of calls tight around ``median``, 15 % at 3× it
    (p95 3× the median), as a run on a loaded machine reads."""
    samples = _quiet(median, seed, n)
    rng = np.random.default_rng(seed + 100)
    for i in rng.choice(n, size=n * 15 // 100, replace=False):
        samples[i] = 3 * median
    return samples


@pytest.fixture(scope="module")
def base():
    return build_report(example_model())


def test_a_noisy_pair_one_and_a_half_times_apart_claims_nothing_and_names_the_command_that_can(
    capsys, monkeypatch, tmp_path, base
):
    a = _save(base, tmp_path, "a.json", _noisy(1.0, 1))
    b = _save(base, tmp_path, "b.json", _noisy(1.5, 2))
    rows = _rows(capsys, monkeypatch, tmp_path, a, b)
    # Before: "B 1.50× slower (A and B noisy: may not repeat)" under every record.
    said = {row["verdict"] for row in rows.values()}
    assert said == {
        "no verdict: A's and B's runs are too noisy to tell (flagged noisy, under 3 runs); "
        "bench A --against B, or bench --repeat 5 on each side on a quieter machine, can tell"
    }
    assert all(row["noise_a"] and row["noise_b"] for row in rows.values())
    # The table shows the whole verdict, commands included (a cell is cut past 200 characters).
    assert main(["compare", a, b]) == 0
    [line] = [line for line in capsys.readouterr().out.splitlines() if line.startswith("cpu ")]
    assert all(command in line for command in COMMANDS) and "…" not in line


def test_one_noisy_side_is_named(capsys, monkeypatch, tmp_path, base):
    a = _save(base, tmp_path, "a.json", _quiet(1.0, 3))
    b = _save(base, tmp_path, "b.json", _noisy(1.5, 4))
    rows = _rows(capsys, monkeypatch, tmp_path, a, b)
    assert {row["verdict"] for row in rows.values()} == {
        "no verdict: B's run is too noisy to tell (flagged noisy, under 3 runs); "
        "bench A --against B, or bench --repeat 5 on each side on a quieter machine, can tell"
    }


def test_a_quiet_pair_twice_apart_is_still_called_slower_under_every_record(capsys, monkeypatch, tmp_path, base):
    a = _save(base, tmp_path, "a.json", _quiet(1.0, 5))
    b = _save(base, tmp_path, "b.json", _quiet(2.0, 6))
    rows = _rows(capsys, monkeypatch, tmp_path, a, b)
    assert {name: row["verdict"] for name, row in rows.items()} == dict.fromkeys(RECORDS, "B 2.00× slower")


def _entry_of(runs: list[list[float]], pair_id: str | None = None) -> dict:
    entry = {"device": "cpu", "dtype": "float32", "mode": "forward", "input_shape": [64, 3],
             "samples_ms": [v for run in runs for v in run]}  # fmt: skip
    if len(runs) > 1:
        entry["runs_ms"] = runs
    if pair_id:
        entry["pair_id"] = pair_id
    return {"latency": [entry], "moves": []}


def test_runs_timed_turn_about_or_three_runs_a_side_keep_todays_rule():
    a = [_noisy(m, 10 + i) for i, m in enumerate((1.00, 1.01, 0.99, 1.00, 1.005))]
    b = [_noisy(1.5 * m, 20 + i) for i, m in enumerate((1.00, 1.01, 0.99, 1.00, 1.005))]
    token = "0" * 31 + "1"
    for reports in ((_entry_of(a, token), _entry_of(b, token)), (_entry_of(a), _entry_of(b))):
        [row] = compare_reports(*map(typed, reports)).latency
        assert row.verdict == "B 1.50× slower (A and B noisy: may not repeat)"


def test_the_windows_history_gives_a_noisy_single_run_no_verdict_and_a_noisy_repeat_one():
    fast = Run("cpu · float32", "float32", "forward", (64, 3), 1.0, tuple(_noisy(1.0, 7)))
    slow = Run("meta · float32", "float32", "forward", (64, 3), 1.5, tuple(_noisy(1.5, 8)))
    [first, second] = run_verdicts([fast, slow])
    assert first.short.key == "verdict.fastest"
    assert str(second.short) == "too noisy to tell"
    assert str(second.sentence) == (
        "meta · float32: no verdict against cpu · float32: too noisy to tell (cpu · float32 and meta · float32 "
        "flagged noisy, under 3 runs); a repeat of 5 on a quieter machine, or bench A --against B, can tell"
    )
    # A repeat of 3 shows its own run-to-run noise: the difference is said.
    fast_runs = tuple(tuple(_noisy(m, 30 + i)) for i, m in enumerate((1.00, 1.01, 0.99)))
    slow_runs = tuple(tuple(_noisy(1.5 * m, 40 + i)) for i, m in enumerate((1.00, 1.01, 0.99)))
    fast = Run("cpu · float32", "float32", "forward", (64, 3), 1.0, sum(fast_runs, ()), runs_ms=fast_runs)
    slow = Run("meta · float32", "float32", "forward", (64, 3), 1.5, sum(slow_runs, ()), runs_ms=slow_runs)
    assert str(run_verdicts([fast, slow])[1].short) == "1.50× slower"
