"""``bench A --against B``: two models timed turn about in rounds of fresh processes, the
comparison's interval from the rounds' ratios, both reports kept and paired (issue 33)."""

from __future__ import annotations

import errno
import json

from inspector.cli import main
from inspector.cli.bench_against import WORKER_KEY, _read_round
from tests.report_edge import typed

MODELS = """
import os
import torch
from torch import nn

def small():
    torch.manual_seed(0)
    return nn.Linear(8, 8), torch.randn(2, 8)

def wider():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 64), nn.Linear(64, 8)), torch.randn(2, 8)

def once_only():
    # A model that loads in the first process only: a later round's process fails to load it.
    marker = os.path.join(os.path.dirname(__file__), "loaded-once")
    if os.path.exists(marker):
        raise RuntimeError("this model loads only once")
    open(marker, "w").close()
    return small()
"""


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_both_models_are_timed_in_rounds_and_the_reports_pair_up_for_compare(capsys, tmp_path):
    models = tmp_path / "models.py"
    models.write_text(MODELS)
    a_path, b_path = tmp_path / "A.json", tmp_path / "B.json"
    code, out, err = run(capsys, "bench", f"{models}:small", "--against", f"{models}:wider", "--device", "cpu", "--repeat", "3",
                         "--min-time", "0.02", "--output", str(a_path), "--against-output", str(b_path))  # fmt: skip
    assert code == 0, err
    assert "round 2 of 3 (a fresh process)…" in err and "round 3 of 3 (a fresh process)…" in err
    assert "timed turn about in 3 rounds" in out
    a, b = (json.loads(p.read_text())["latency"][0] for p in (a_path, b_path))
    # Every round is a run on both sides, marked with the one token that pairs them.
    assert len(a["runs_ms"]) == len(b["runs_ms"]) == 3
    assert a["pair_id"] == b["pair_id"] and len(a["pair_id"]) == 32
    assert a["samples_ms"] == [v for run in a["runs_ms"] for v in run]
    assert json.loads(a_path.read_text())["model"]["parameters"] == 72 and json.loads(b_path.read_text())["model"]["parameters"] == 1096
    # compare reads the pair later and gives the same verdict as bench printed.
    code, again, err = run(capsys, "compare", str(a_path), str(b_path), "--json")
    assert code == 0, err
    [row] = json.loads(again)["latency"]
    assert "timed turn about in 3 rounds" in row["run_noise_note"]
    assert row["verdict"] in out


def test_a_round_that_fails_is_left_out_on_both_sides(capsys, tmp_path):
    models = tmp_path / "models.py"
    models.write_text(MODELS)
    code, out, err = run(capsys, "bench", f"{models}:once_only", "--against", f"{models}:small", "--device", "cpu",
                         "--repeat", "2", "--min-time", "0.02", "--json")  # fmt: skip
    assert code == 0, err
    assert "note: round 2 of 2 failed: " in err and "loads only once" in err
    found = json.loads(out)  # stdout is the JSON alone, whatever the machine did
    [row] = found["latency"]
    assert isinstance(found["busy_rounds"], list)
    assert row["runs_a"] == row["runs_b"] == 1  # round 1 only, on both sides
    # One round shows nothing of how far a rerun lands: the machine's run-to-run noise stands in.
    assert row["run_noise_note"].startswith("one run on each side")


def test_what_against_cannot_do_is_refused_before_anything_is_measured(capsys, tmp_path):
    cases = {
        ("--per-module",): "error: --per-module is not supported with --against",
        ("--runs", "10"): "error: --runs is not supported with --against (each round times each side for --min-time seconds)",
        ("--repeat", "1"): "error: --repeat must be from 2 to 50 with --against: the rounds' ratios give the interval (got 1)",
        ("--output", str(tmp_path / "a.json")): "error: --against writes two reports: give both --output (A) and --against-output (B), or neither",
    }
    for extra, said in cases.items():
        code, out, err = run(capsys, "bench", "example", "--against", "example", "--device", "cpu", *extra)
        assert code == 2 and out == "", err
        assert err.strip() == said


def test_a_round_workers_output_is_taken_only_when_it_is_what_a_round_gives():
    line = json.dumps({WORKER_KEY: 2, "a": [0.1, 0.2], "b": [0.3], "machine": "85% of the run's CPU went to other processes"})
    assert _read_round(f"printed by the model\n{line}\n", cap=10) == ([0.1, 0.2], [0.3], "85% of the run's CPU went to other processes", False)
    odd = {WORKER_KEY: 2, "a": [0.1], "b": [0.3], "machine": ["not words"], "spoiled": "yes"}
    assert _read_round(json.dumps(odd), cap=10) == ([0.1], [0.3], "", False)
    for bad in ([], [-1.0], [float("nan")], ["1"], [0.1] * 11):
        assert _read_round(json.dumps({WORKER_KEY: 2, "a": bad, "b": [0.3]}), cap=10) is None
    assert _read_round("no line of ours", cap=10) is None and _read_round('{"pair_worker": [', cap=10) is None


def test_a_round_says_what_a_busy_machine_did_to_it():
    from inspector.cli.bench_against import _disturbance
    from inspector.core.files.models import load_model
    from inspector.core.measure.interleaved import measure_round
    from inspector.core.measure.machine_noise import MachineNoise

    a, b = measure_round(load_model("example"), load_model("example"), seconds=0.02)
    # Both sides carry what the machine did over the whole round (one watch for both).
    assert a.machine is not None and a.machine is b.machine
    busy = MachineNoise(measured=True, other_cpu_share=0.85, samples=1000, cpu_ticks=400, cores=2)
    assert _disturbance(busy).startswith("85")  # the cause in words: other processes' share
    assert _disturbance(MachineNoise(measured=True, other_cpu_share=0.0, samples=1000, cpu_ticks=400, cores=2)) == ""


def test_when_the_machine_stalls_most_rounds_the_verdict_is_the_machines_in_bench_and_in_a_later_compare(capsys, tmp_path, monkeypatch):
    from inspector.cli import bench_against
    from inspector.core.measure.machine_noise import MachineNoise
    from inspector.core.report.compare import compare_reports

    # Every sample preempted (two busy loops on two cores): the medians are the machine's.
    stalled = MachineNoise(measured=True, other_cpu_share=0.9, involuntary_switches=2000, samples=1000, cpu_ticks=400, cores=2)
    assert bench_against._spoiled(stalled) and not bench_against._spoiled(None)
    monkeypatch.setattr(bench_against, "_spoiled", lambda machine: True)  # round 1 (this process) stalled
    a_path, b_path = tmp_path / "A.json", tmp_path / "B.json"
    models = tmp_path / "models.py"
    models.write_text(MODELS)
    assert main(["bench", f"{models}:small", "--against", f"{models}:small", "--device", "cpu", "--repeat", "2",
                 "--min-time", "0.02", "--output", str(a_path), "--against-output", str(b_path)]) == 0  # fmt: skip
    said = capsys.readouterr().out
    # Round 2 ran in a fresh process, which watched the machine itself: 1 or 2 of 2 stalled.
    a, b = json.loads(a_path.read_text()), json.loads(b_path.read_text())
    kept = a["latency"][0]["runs_spoiled"]
    assert kept == b["latency"][0]["runs_spoiled"] and kept[0] is True and len(kept) == 2
    busy = f"no verdict: the machine stalled the sampling threads in {sum(kept)} of 2 rounds"
    assert busy in said
    # The files keep which rounds were stalled, so comparing them later says the same.
    [row] = compare_reports(typed(a), typed(b)).latency
    assert str(row.verdict).startswith(busy)
    # One stalled round of two is half: still the machine's; none stalled: the code's verdict.
    for flags, machines in (([True, False], True), ([False, False], False)):
        for report in (a, b):
            report["latency"][0]["runs_spoiled"] = flags
        [row] = compare_reports(typed(a), typed(b)).latency
        assert str(row.verdict).startswith("no verdict") is machines


def test_a_stalled_round_left_alone_by_failed_rounds_still_gets_no_verdict(capsys, tmp_path, monkeypatch):
    """Round 1 stalled and every later round failed: one run per side, no flags to keep beside
    runs, and still the machine's "no verdict" (as before compare learned the rule)."""
    from inspector.cli import bench_against

    monkeypatch.setattr(bench_against, "_spoiled", lambda machine: True)
    monkeypatch.setattr(bench_against, "_later_rounds",
                        lambda argv, rounds, cap: ([], [], ["round 2 of 2 failed: gone"], [], []))  # fmt: skip
    models = tmp_path / "models.py"
    models.write_text(MODELS)
    assert main(["bench", f"{models}:small", "--against", f"{models}:small", "--device", "cpu", "--repeat", "2",
                 "--min-time", "0.02"]) == 0  # fmt: skip
    said = capsys.readouterr().out
    assert "no verdict: the machine stalled the sampling threads in 1 of 1 rounds" in said


def test_a_round_that_cannot_start_is_noted_and_round_1_is_compared(capsys, tmp_path, monkeypatch):
    # No pipe, temporary folder or process to be had: bench says so for that round and
    # compares the rounds it has, rather than ending in ``error: OSError``.
    from inspector.core import launcher

    def no_process(*_args, **_kwargs):
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(launcher, "run_app_worker", no_process)
    models = tmp_path / "models.py"
    models.write_text(MODELS)
    code, out, err = run(capsys, "bench", f"{models}:small", "--against", f"{models}:wider", "--device", "cpu",
                         "--repeat", "2", "--min-time", "0.02", "--json")  # fmt: skip
    assert code == 0, err
    assert "note: round 2 of 2 could not start: Too many open files; the other rounds are compared" in err
    assert "error:" not in err
    [row] = json.loads(out)["latency"]
    assert row["runs_a"] == row["runs_b"] == 1  # round 1 only, on both sides
