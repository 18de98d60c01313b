"""A distributed plan in the report (issue 48): the fit answer keeps its layout (strategy, world
size, one rank's breakdown) and, when CPU ranks proved it, each rank's measured peak; the JSON
validates against the shipped schema, reads back, and every view shows a row per rank. A file's
plan is read as an attacker wrote it: the views show what they can and never fail on it."""

from __future__ import annotations

import dataclasses
import io
import json
import zipfile

import pandas as pd
import pytest

from inspector.core.files.models import example_model
from inspector.core.measure import ClusterRequest, FitRequest, plan_cluster
from inspector.core.report.csv_view import render_csv_zip
from inspector.core.report.html_view import render_html
from inspector.core.report.markdown_view import render_markdown
from inspector.core.report.modules import MOST_RANK_ROWS
from inspector.core.report.timing_report import build_timing_report, load_report, render_json, save_report
from tests.core.report.test_report_json_schema import STRICT, VALIDATOR, problems
from tests.report_edge import typed


@pytest.fixture(scope="module")
def plans():
    """A DDP plan of 2 ranks not proven, and the same with two ranks' readings (as ``prove``
    returns them; the real proof runs in tests/cli/test_fit_cluster_cli.py)."""
    loaded = example_model()
    plan = plan_cluster(loaded, ClusterRequest(FitRequest("cpu", optimizer="adamw", measure=False), gpus=2, strategy="ddp"))
    peak = plan.rank.estimated_peak_bytes
    proven = dataclasses.replace(plan, measured=(peak + 100, peak - 50), measured_reason="2 CPU ranks (gloo), read")
    return loaded, plan, proven


def _report(plans):
    loaded, plan, proven = plans
    return json.loads(render_json(build_timing_report(loaded, fit=[plan.as_fit(), proven.as_fit()])))


def test_the_report_keeps_the_plan_and_each_ranks_proof_and_validates(plans):
    report = _report(plans)
    assert problems(VALIDATOR, report) == [] and problems(STRICT, report) == []
    planned, proven = report["fit"]
    assert planned["cluster"]["strategy"] == "ddp" and planned["cluster"]["gpus"] == 2
    assert planned["cluster"]["ranks"] == [] and "not asked" in planned["measured_reason"]
    assert planned["gradients_bytes"] > 0 and planned["cluster"]["buckets_bytes"] > 0  # one rank's breakdown
    peak = proven["estimated_peak_bytes"]
    assert [(r["rank"], r["planned_peak_bytes"], r["measured_peak_bytes"]) for r in proven["cluster"]["ranks"]] == [
        (0, peak, peak + 100), (1, peak, peak - 50)]  # fmt: skip
    assert proven["measured_reason"] == proven["cluster"]["measured_reason"] == "2 CPU ranks (gloo), read"


def test_a_one_device_answer_writes_no_cluster_key(plans):
    loaded, plan, _ = plans
    report = json.loads(render_json(build_timing_report(loaded, fit=[plan.rank])))
    assert "cluster" not in report["fit"][0]


def test_a_plan_read_back_from_its_file_and_saved_again_is_unchanged(plans, tmp_path):
    loaded, _, proven = plans
    path = save_report(build_timing_report(loaded, fit=[proven.as_fit()]), tmp_path / "r.json")
    again = save_report(load_report(path), tmp_path / "again.json")
    assert json.loads(again.read_text())["fit"][0]["cluster"] == json.loads(path.read_text())["fit"][0]["cluster"]


@pytest.mark.parametrize("where, value", [("strategy", "zero3"), ("gpus", -1), ("ranks", [{"rank": "0"}]),
                                          ("measured_reason", 3)])  # fmt: skip
def test_the_schema_refuses_a_plan_no_version_writes(plans, where, value):
    report = _report(plans)
    report["fit"][1]["cluster"][where] = value
    assert problems(VALIDATOR, report) != []


def test_every_view_shows_a_row_per_rank_and_one_for_a_plan_not_proven(plans):
    report = typed(_report(plans))
    markdown = render_markdown(report)
    part = markdown[markdown.index("**Will it fit?**"):]
    assert "| cpu, each of 2 ranks (ddp) |" in part
    assert "2 ranks, ddp: each rank's peak; measured: not measured" in part
    assert "2 ranks, ddp: each rank's peak; measured: 2 CPU ranks (gloo), read" in part
    rank_rows = [line for line in part.splitlines() if line.startswith(("| 0 |", "| 1 |", "| each |"))]
    assert [row.split(" | ")[0] for row in rank_rows] == ["| each", "| 0", "| 1"]
    page = render_html(report)
    assert "<td>each</td>" in page and page.count("Measured / planned") == 2
    with zipfile.ZipFile(io.BytesIO(render_csv_zip(report))) as z:
        fits = pd.read_csv(z.open("fit.csv"))
        ranks = pd.read_csv(z.open("fit_ranks.csv"))
    assert fits["strategy"].tolist() == ["ddp", "ddp"] and fits["gpus"].tolist() == [2, 2]
    assert ranks[["fit", "rank"]].values.tolist() == [[1, 0], [1, 1]]
    assert (ranks["measured_peak_bytes"] - ranks["planned_peak_bytes"]).tolist() == [100, -50]


@pytest.mark.parametrize("cluster", [
    "ddp", [1, 2], {"strategy": ["x"], "gpus": True, "ranks": "all", "measured_reason": {"a": 1}},
    {"strategy": "x" * 100_000, "gpus": 10**30, "ranks": [None, 3, {"rank": "0", "ratio": "1"}]},
    {"strategy": "fsdp", "gpus": 5000, "ranks": [{"rank": i, "measured_peak_bytes": i} for i in range(5000)]},
])  # fmt: skip
def test_a_hostile_plan_in_a_file_is_shown_as_far_as_it_reads_never_a_failure(plans, cluster):
    report = _report(plans)
    report["fit"][1]["cluster"] = cluster
    typed_report = typed(report)
    markdown, page = render_markdown(typed_report), render_html(typed_report)
    render_csv_zip(typed_report)
    rows = [line for line in markdown.splitlines() if line.startswith("| ") and line[2:3].isdigit()]
    assert len(rows) <= MOST_RANK_ROWS  # a file's 5,000 ranks: the views list the first 64
    assert "x" * 10_000 not in markdown and "x" * 10_000 not in page


def test_a_sessions_cluster_answer_is_kept_for_its_report_as_one_ranks_answer_with_its_plan():
    """What the window's export writes: the session records the plan as it records a fit answer."""
    from inspector.core.session import LoadRequest, Session

    session = Session()
    session.load(LoadRequest("example"))
    answer = session.fit(ClusterRequest(FitRequest("cpu", optimizer="adamw", measure=False), gpus=4, strategy="ddp"))
    assert answer.cluster is not None and answer.cluster.gpus == 4 and answer.cluster.ranks == ()
    report = json.loads(render_json(session.report()))
    assert problems(STRICT, report) == []
    assert [e["cluster"]["gpus"] for e in report["fit"]] == [4]
