"""Which rounds of ``bench --against`` the machine stalled is kept in each report
(``runs_spoiled``), so a later ``compare`` of the two files gives the verdict ``bench`` gave."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from inspector.core.files.models import load_model
from inspector.core.measure.interleaved import measure_round, new_pair_id, with_rounds
from inspector.core.report.compare import compare_reports
from inspector.core.report.schema import ReportSchemaError, TimingReport
from inspector.core.report.timing_report import build_report, render_json
from tests.report_edge import typed

SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "resources" / "report.schema.json").read_text())


def _pair(spoiled: list[bool]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two reports of one interleaved comparison: round 1 measured, the later rounds its copies."""
    loaded_a, loaded_b = load_model("example"), load_model("example")
    a, b = measure_round(loaded_a, loaded_b, seconds=0.02)
    later = [list(a.samples_ms)] * (len(spoiled) - 1)
    later_b = [list(b.samples_ms)] * (len(spoiled) - 1)
    token = new_pair_id()
    ra, rb = with_rounds(a, later, token, spoiled), with_rounds(b, later_b, token, spoiled)
    return (json.loads(render_json(typed(build_report(loaded_a, latency=[ra])))),
            json.loads(render_json(typed(build_report(loaded_b, latency=[rb])))))  # fmt: skip


def test_the_rounds_the_machine_stalled_are_written_checked_and_read_back():
    a, b = _pair([True, False, True])
    assert a["latency"][0]["runs_spoiled"] == [True, False, True]
    jsonschema.validate(a, SCHEMA)  # the shipped schema knows the field
    assert TimingReport.from_dict(a).latency[0].runs_spoiled == (True, False, True)
    [row] = compare_reports(typed(a), typed(b)).latency
    assert str(row.verdict).startswith("no verdict: the machine stalled the sampling threads in 2 of 3 rounds")


def test_a_machine_that_let_most_rounds_be_leaves_the_codes_verdict():
    a, b = _pair([False, True, False])
    [row] = compare_reports(typed(a), typed(b)).latency
    assert not str(row.verdict).startswith("no verdict")


# The shipped schema sees a flag list's type and least length; one flag per run only our reader sees.
@pytest.mark.parametrize("bad, schema_sees", [([True], True), ([True, False, True, False], False),
                                              (["yes", False, True], True), (1, True)])
def test_a_runs_spoiled_that_is_not_one_flag_per_run_is_refused_naming_it(bad, schema_sees):
    a, _ = _pair([True, False, True])
    a["latency"][0]["runs_spoiled"] = bad
    with pytest.raises(ReportSchemaError, match="runs_spoiled"):
        TimingReport.from_dict(a)
    assert (not jsonschema.Draft202012Validator(SCHEMA).is_valid(a)) is schema_sees
    # Read without checks, it counts as not recorded.
    assert TimingReport.lenient(a).latency[0].runs_spoiled == ()


def test_rounds_not_watched_write_no_flags():
    loaded = load_model("example")
    a, _ = measure_round(loaded, load_model("example"), seconds=0.02)
    joined = with_rounds(a, [list(a.samples_ms)], new_pair_id())
    assert joined.runs_spoiled == () and "runs_spoiled" not in joined.to_dict()
