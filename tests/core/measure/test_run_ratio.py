"""A comparison's interval sees how runs differ (issue 33, "Verdicts that survive a rerun").

Identical code measured in fresh processes lands ±20-40 % apart on a shared machine, while the
samples of one run agree to a percent: an interval made from one run's samples claimed
differences between identical runs. These tests build runs with a run-level shift and check
the verdict a user reads; no clock is read."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from inspector.core.measure import run_noise
from inspector.core.measure.run_noise import RunNoise
from inspector.core.measure.run_ratio import ratio_over_runs
from inspector.core.measure.spread import ratio_of_medians
from inspector.core.report.compare import compare_reports
from tests.core.report.generated import with_samples
from tests.report_edge import typed

QUIET = RunNoise(0.05, runs=12, records=3, when="2026-12-01T10:00:00+00:00")


def _runs(medians, n=400, seed=0):
    """Runs whose medians are ``medians``, each of ``n`` tight samples (1 % spread)."""
    rng = np.random.default_rng(seed)
    return [(m * rng.lognormal(0.0, 0.01, n)).tolist() for m in medians]


def _report(runs):
    pooled = [v for run in runs for v in run]
    entry = {"device": "cpu", "dtype": "float32", "mode": "forward", "input_shape": [64, 3], "samples_ms": pooled}
    if len(runs) > 1:
        entry["runs_ms"] = runs
    return {"latency": [entry], "moves": []}


def test_a_shift_between_runs_widens_the_interval_so_identical_code_gets_no_claimed_difference():
    # Five runs a side of the same code: run medians wander ±8 %, the samples inside a run by 1 %.
    a = _runs([1.00, 0.92, 1.08, 0.97, 1.04], seed=1)
    b = _runs([1.07, 1.01, 0.95, 1.12, 1.03], seed=2)
    pooled_a, pooled_b = (np.concatenate(x) for x in (a, b))
    # What the comparison said before: the samples' interval alone claims B slower.
    before = ratio_of_medians(pooled_a, pooled_b)
    assert before is not None and before.clear and before.low > 1
    row = compare_reports(typed(_report(a)), typed(_report(b)), run_noise=QUIET).latency[0]
    assert row.verdict == "no clear difference"
    assert row.ratio_low < 1 < row.ratio_high
    assert (row.runs_a, row.runs_b) == (5, 5) and row.run_noise_note == ""  # both sides show their own noise


def test_runs_that_agree_keep_a_real_difference_clear():
    a = _runs([1.00, 1.01, 0.99, 1.00, 1.005], seed=3)
    b = _runs([1.20, 1.21, 1.19, 1.20, 1.195], seed=4)
    row = compare_reports(typed(_report(a)), typed(_report(b)), run_noise=QUIET).latency[0]
    assert row.verdict == "B 1.20× slower"
    assert 1.1 < row.ratio_low < 1.2 < row.ratio_high < 1.3


def test_runs_that_agree_more_closely_than_the_machines_do_claim_nothing_under_its_noise():
    # Under load, five runs can all land in one state: 4 % apart, each side's runs within 1 %.
    a = _runs([1.00, 1.01, 0.99, 1.00, 1.005], seed=3)
    b = _runs([1.04, 1.05, 1.03, 1.04, 1.045], seed=4)
    row = compare_reports(typed(_report(a)), typed(_report(b)), run_noise=QUIET).latency[0]
    assert row.verdict.startswith("no clear difference: within run-to-run noise")
    assert row.run_noise_note.startswith(
        "the runs of A and B agree more closely than this machine's usually do: no difference under"
    )


def test_one_run_each_claims_no_difference_under_the_machines_run_to_run_noise():
    # 8 % apart, each run's median known to 0.1 %: the samples alone would claim it.
    a, b = _runs([1.00], seed=5), _runs([1.08], seed=6)
    assert ratio_of_medians(a[0], b[0]).clear
    row = compare_reports(typed(_report(a)), typed(_report(b)), run_noise=QUIET).latency[0]
    floor = math.expm1(1.959963984540054 * 0.05 * math.sqrt(2))  # ±15 %
    assert row.verdict == f"no clear difference: within run-to-run noise (±{floor:.0%})".replace("%", " %")
    assert row.run_noise_note == (
        "one run on each side: how far a rerun lands is unknown, so no difference under ±15 % is claimed "
        "(this machine's run-to-run noise, ±5 % a run, measured by bench --repeat in 12 runs, last on 2026-12-01)"
    )
    # Beyond the noise, it is claimed.
    far = compare_reports(typed(_report(a)), typed(_report(_runs([1.30], seed=7))), run_noise=QUIET).latency[0]
    assert far.verdict == "B 1.30× slower" and far.run_noise_note.startswith("one run on each side")


def test_by_default_the_stated_noise_is_used_and_said_whatever_the_record_holds(tmp_path, monkeypatch):
    path = tmp_path / "run_noise.json"
    monkeypatch.setenv(run_noise.ENV_FILE, str(path))
    run_noise.record(_runs([1.0, 1.01, 0.99, 1.005]), "quiet runs", path)  # a quiet record: never read
    a, b = _runs([1.00], seed=5), _runs([1.10], seed=6)
    row = compare_reports(typed(_report(a)), typed(_report(b))).latency[0]
    assert row.verdict.startswith("no clear difference: within run-to-run noise (±47 %)")  # 10 %, under the ~47 %
    assert "a constant stated for separate benches minutes apart" in row.run_noise_note
    assert "bench A --against B" in row.run_noise_note
    far = compare_reports(typed(_report(a)), typed(_report(_runs([2.00], seed=6)))).latency[0]
    assert far.verdict.startswith("B 2.0") and "slower" in far.verdict  # 2x: beyond it, claimed


def test_a_side_of_few_runs_borrows_the_machine_noise_and_says_which_side():
    a = _runs([1.00, 0.92, 1.08, 0.97, 1.04], seed=1)
    b = _runs([1.06], seed=2)
    row = compare_reports(typed(_report(a)), typed(_report(b)), run_noise=QUIET).latency[0]
    assert (row.runs_a, row.runs_b) == (5, 1)
    assert row.run_noise_note.startswith("A holds 5 runs and B 1: fewer than 3 cannot show how far a rerun lands")


def test_the_interval_of_runs_of_100000_samples_is_the_same_every_time():
    a, b = _runs([1.0, 1.1, 0.9], n=100_000, seed=8), _runs([1.2, 1.1, 1.3], n=100_000, seed=9)
    first, again = ratio_over_runs(a, b, QUIET), ratio_over_runs(a, b, QUIET)
    assert first == again


def test_the_machine_record_is_pooled_kept_per_machine_and_a_damaged_one_is_no_record(tmp_path):
    path = tmp_path / "run_noise.json"
    assert run_noise.this_machine(path) == run_noise.default_noise()
    run_noise.record(_runs([1.0, 1.1, 0.9, 1.05]), "m.py:build on cpu", path)
    run_noise.record(_runs([1.0, 1.02]), "m.py:build on cpu", path)
    pooled = run_noise.this_machine(path)
    assert pooled.measured and pooled.records == 2 and pooled.runs == 6
    logs = [np.log(np.median(r)) for r in _runs([1.0, 1.1, 0.9, 1.05])]
    one = np.std(logs, ddof=1) ** 2 * 3
    two = np.std([np.log(np.median(r)) for r in _runs([1.0, 1.02])], ddof=1) ** 2
    assert pooled.sigma == pytest.approx(math.sqrt((one + two) / 4))
    data = json.loads(path.read_text())
    assert list(data["machines"]) == [run_noise.machine_key()]
    path.write_text('{"machines": {"%s": {"records": [{"sd": "x", "df": -1}]}}}' % run_noise.machine_key())
    assert run_noise.this_machine(path) == run_noise.default_noise()  # a record, its entries unusable
    path.write_text("not json")
    damaged = run_noise.this_machine(path)
    assert damaged.sigma == run_noise.DEFAULT_SIGMA and not damaged.measured and "is not a noise record" in damaged.unread


def _paired_reports(a, b, token="0" * 31 + "1", token_b=None):
    ra, rb = _report(a), _report(b)
    ra["latency"][0]["pair_id"] = token
    rb["latency"][0]["pair_id"] = token if token_b is None else token_b
    return ra, rb


def test_rounds_timed_turn_about_find_a_10_percent_difference_the_machines_drift_would_hide():
    # The machine drifts ±20 % from round to round; within a round B does 10 % more work.
    drift = [1.00, 0.80, 1.25, 0.90, 1.15]
    a = _runs(drift, seed=5)
    b = _runs([d * 1.10 for d in drift], seed=6)
    paired = compare_reports(*map(typed, _paired_reports(a, b)), run_noise=QUIET).latency[0]
    assert paired.verdict == "B 1.10× slower"
    assert 1.05 < paired.ratio_low < 1.10 < paired.ratio_high < 1.15
    assert paired.run_noise_note.startswith("A and B were timed turn about in 5 rounds")
    # The same runs without the token that pairs them: the drift is all the comparison sees.
    unpaired = compare_reports(*map(typed, _paired_reports(a, b, token_b="0" * 31 + "2")), run_noise=QUIET).latency[0]
    assert unpaired.verdict == "no clear difference" and unpaired.ratio_low < 1 < unpaired.ratio_high


def test_identical_code_turn_about_claims_nothing_and_a_mismatched_pair_is_not_read_as_one():
    drift = [1.00, 0.80, 1.25, 0.90, 1.15]
    a, b = _runs(drift, seed=7), _runs([d * r for d, r in zip(drift, [1.01, 0.99, 1.005, 0.995, 1.0])], seed=8)
    row = compare_reports(*map(typed, _paired_reports(a, b)), run_noise=QUIET).latency[0]
    assert row.ratio_low < 1 < row.ratio_high
    assert not row.verdict.startswith("B")
    # One side lost a round: the runs no longer pair up, so they are compared as runs apart.
    short = compare_reports(*map(typed, _paired_reports(a, b[:4])), run_noise=QUIET).latency[0]
    assert not short.run_noise_note.startswith("A and B were timed turn about")
    assert short.pairing_note == (  # and that is said, not done silently (issue 43)
        "A and B are one interleaved comparison but hold 5 and 4 runs: their runs are compared as runs apart, "
        "not round by round"
    )


def test_halves_of_two_different_interleaved_comparisons_say_their_pairing_is_not_used(capsys, tmp_path):
    from inspector.cli import main

    drift = [1.00, 0.80, 1.25, 0.90, 1.15]
    a, b = _runs(drift, seed=7), _runs([d * 1.01 for d in drift], seed=8)
    ra, rb = _paired_reports(a, b, token="0" * 31 + "1", token_b="0" * 31 + "2")
    row = compare_reports(typed(ra), typed(rb), run_noise=QUIET).latency[0]
    said = ("A and B come from different interleaved comparisons (their pair_id differ): their runs are compared "
            "as runs apart, not round by round")  # fmt: skip
    assert row.pairing_note == said and not row.run_noise_note.startswith("A and B were timed turn about")
    same = compare_reports(*map(typed, _paired_reports(a, b)), run_noise=QUIET).latency[0]
    assert same.pairing_note == "" and same.run_noise_note.startswith("A and B were timed turn about")
    # compare prints it under the table
    from tests.core.report.generated import real_report

    base = real_report(runs=2)
    paths = []
    for name, report in (("a.json", ra), ("b.json", rb)):
        entry = {**base["latency"][0], **report["latency"][0]}
        paths.append(tmp_path / name)
        paths[-1].write_text(json.dumps({**base, "latency": [with_samples(entry, entry["samples_ms"])]}))
    assert main(["compare", str(paths[0]), str(paths[1])]) == 0
    assert f"note: {said}" in capsys.readouterr().out.splitlines()


def _bench_entry():
    from inspector.core.files.models import load_model
    from inspector.core.measure.timing import measure_latency

    return measure_latency(load_model("example"), runs=10).to_dict()


def test_a_pair_id_that_is_not_a_token_is_refused_by_the_schema(tmp_path):
    from inspector.core.errors import InputError
    from inspector.core.report.timing_report import build_report, load_report
    from inspector.core.files.models import load_model

    report = build_report(load_model("example"))
    report["latency"] = [dict(_bench_entry(), pair_id="0" * 32)]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report))
    load_report(path)  # a token of 32 hex digits is read
    report["latency"][0]["pair_id"] = "../../etc/passwd"
    path.write_text(json.dumps(report))
    with pytest.raises(InputError, match=r"latency\[0\]\.pair_id: expected the 32 hex digits"):
        load_report(path)
