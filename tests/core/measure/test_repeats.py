"""A measurement of several independent runs: kept apart in the report, pooled in its figures,
and read back (issue 33, "Verdicts that survive a rerun")."""

from __future__ import annotations

import json

import pytest

from inspector.core.errors import InputError
from inspector.core.files.models import example_model
from inspector.core.measure.repeats import combine_runs, run_share
from inspector.core.report.sample_figures import figures_of
from inspector.core.report.timing_report import load_report, save_report
from inspector.core.session import BenchmarkRequest, Session
from inspector.core.vocabulary import MAX_SAMPLES


@pytest.fixture(scope="module")
def measured():
    session = Session()
    session.adopt(example_model())
    seen: list[int] = []
    result = session.measure(BenchmarkRequest(runs=20, repeat=3), on_sample=lambda i, _ms: seen.append(i))
    return session, result, seen


def test_the_runs_are_kept_apart_and_pooled_in_the_figures(measured):
    session, result, seen = measured
    assert [len(r) for r in result.runs_ms] == [20, 20, 20]
    assert result.samples_ms == tuple(v for run in result.runs_ms for v in run)
    assert seen == list(range(60))  # a plot gets the runs one after another, in order
    figures = figures_of(result.samples_ms)
    assert result.median_ms == figures.median_ms and result.p95_ms == figures.p95_ms
    assert any("3 independent runs" in n for n in result.notes)
    assert BenchmarkRequest(runs=20, repeat=3).call() == "forward ×20 · 3 runs"


def test_repeats_are_stored_in_the_report_and_read_back(measured, tmp_path):
    session, _result, _ = measured
    path = save_report(session.report(with_memory=False), tmp_path / "r.json")
    entry = load_report(path).to_dict()["latency"][0]
    assert len(entry["runs_ms"]) == 3 and sum(map(len, entry["runs_ms"])) == len(entry["samples_ms"]) == 60
    # An old reader takes samples_ms, whose figures are the entry's: the figures check holds.
    assert entry["median_ms"] == figures_of(entry["samples_ms"]).median_ms


@pytest.mark.parametrize(
    ("runs", "problem"),
    [
        (lambda runs: runs[:2], "runs_ms: its runs together are not the entry's 60 samples_ms, in order"),
        (lambda runs: [runs[1], runs[0], runs[2]], "runs_ms: its runs together are not the entry's 60 samples_ms, in order"),
        (lambda runs: [sum(runs, [])], "runs_ms: expected two runs or more, each with samples"),
        (lambda runs: [*runs, []], "runs_ms: expected two runs or more, each with samples"),
        (lambda runs: [runs[0], "x"], "runs_ms[1]: expected a list of numbers, not text"),
    ],
)
def test_runs_that_are_not_the_samples_are_refused_naming_the_field(measured, tmp_path, runs, problem):
    session, _result, _ = measured
    report = json.loads(json.dumps(session.report(with_memory=False).to_dict()))
    entry = report["latency"][0]
    entry["runs_ms"] = runs(entry["runs_ms"])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report))
    with pytest.raises(InputError) as caught:
        load_report(path)
    assert caught.value.message.endswith(f"latency[0].{problem}")


def test_several_runs_together_keep_no_more_samples_than_one_measurement(measured):
    _session, result, _ = measured
    assert run_share(3) * 3 <= MAX_SAMPLES and run_share(MAX_SAMPLES + 1) == 1
    session = Session()
    session.adopt(example_model())
    one = session.measure(BenchmarkRequest(runs=MAX_SAMPLES), runs_elsewhere=MAX_SAMPLES // 2 - 1)
    assert len(one.samples_ms) == 2 and any("capped at 2 samples" in n for n in one.notes)
    assert combine_runs(result, []) is result  # one run: nothing changes
