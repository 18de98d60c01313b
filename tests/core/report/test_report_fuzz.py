"""The report reader against random damage: a real report, mutated a few hundred ways (seeded).

For each mutation the reader either loads the file or refuses it with one ``InputError``
line; ``compare_reports`` never raises, on what the reader accepted and on the raw damaged
dict alike; and an accepted report renders in every format.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from inspector.cli import exit_code
from inspector.core.report.compare import compare_reports
from inspector.core.errors import InputError
from inspector.core.files.models import example_model
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import move_model
from inspector.core.remote.ranks import ranks_summary
from inspector.core.report.csv_view import render_csv, render_csv_zip
from inspector.core.report.html_view import render_html
from inspector.core.report.markdown_view import render_markdown
from inspector.core.report.timing_report import build_report, load_report, render_json
from inspector.core.measure.timing import measure_latency
from tests.report_edge import typed

CASES = 400
DEEP = "__deeply nested__"  # replaced in the file's text by thousands of nested lists

HOSTILE: tuple[Any, ...] = (
    None, 0, -1, 5, 0.0, -0.0, 1e-320, 1e308, 10**400, -(10**400), float("nan"), float("inf"),
    float("-inf"), True, False, "", "5", "x" * 20_000, "\x1b[31merror: fake\n", [], {}, [1, "a"],
    [None], [[1, 2]], {"a": 1}, {"devices": 5}, [float("nan")], [10**400], DEEP,
)  # fmt: skip

ODD_KEYS = ("", "5", "k" * 20_000, "\x1b[31merror: fake\n", "cuda:0")


@pytest.fixture(scope="module")
def real_report() -> dict:
    loaded = example_model()
    moves = [move_model(loaded, MoveRequest("to", "cpu", "float64")), move_model(loaded, MoveRequest("cuda"))]
    latency = [measure_latency(loaded, runs=5), measure_latency(loaded, runs=5, mode="train-step")]
    memory = {"cpu": [{"t": 0.0, "allocated": 1, "reserved": None, "used": 2, "total": 3}] * 3}
    report = json.loads(render_json(typed(build_report(loaded, moves=moves, latency=latency, memory=memory))))
    # A torchrun job's section too: the Ranks tab reads it from opened reports.
    report["ranks"] = [
        {"rank": 0, "local_rank": 0, "world_size": 2, "host": "a", "device": "cpu", "ok": True, "error": None,
         "moves": report["moves"][:1], "latency": report["latency"][:1]},
        {"rank": 1, "local_rank": 1, "world_size": 2, "host": "a", "device": "cuda:1", "ok": False,
         "error": "no CUDA", "moves": [], "latency": []},
    ]  # fmt: skip
    return report


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in the tree (keys and list indices) a mutation can hit."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:4]):  # samples lists are long: their first items will do
            out += _paths(v, prefix + (i,))
    return out


def _mutate(report: dict, rng: random.Random) -> dict:
    damaged = copy.deepcopy(report)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        path = rng.choice(_paths(damaged)[1:])
        parent = damaged
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        action = rng.random()
        if action < 0.15 and isinstance(parent, dict):
            del parent[key]
        elif action < 0.25:
            parent[key] = [parent[key]]  # wrapped one level deeper
        elif action < 0.30 and isinstance(parent, dict):
            parent[rng.choice(ODD_KEYS)] = parent[key]  # an odd key next to a real one
        else:
            parent[key] = copy.deepcopy(rng.choice(HOSTILE))
    return damaged


def _file_text(report: dict) -> str:
    text = json.dumps(report)  # NaN and Infinity written as JSON's lenient readers accept them
    return text.replace(json.dumps(DEEP), "[" * 50_000 + "]" * 50_000)


def test_damaged_reports_load_or_are_refused_in_one_line_and_compare_never_raises(real_report, tmp_path):
    rng = random.Random(20261130)
    path = tmp_path / "damaged.json"
    outcomes = {"loaded": 0, "refused": 0}
    for case in range(CASES):
        damaged = _mutate(real_report, rng)
        path.write_text(_file_text(damaged))
        try:
            loaded = load_report(path)
        except InputError as exc:
            outcomes["refused"] += 1
            assert "\n" not in exc.message and "\r" not in exc.message, (case, exc.message)
            assert len(exc.message) < 600, (case, exc.message)
            assert exit_code(exc) == 2
        else:
            outcomes["loaded"] += 1
            for other in (real_report, None):
                compare_reports(loaded, typed(other)).to_dict()
            compare_reports(typed(real_report), loaded).to_dict()
            for render in (render_json, render_csv, render_csv_zip, render_markdown, render_html):
                render(loaded)
            ranks_summary(loaded.ranks)
        # The comparison takes any dict: even one nobody checked.
        compare_reports(typed(damaged), typed(real_report)).to_dict()
        compare_reports(typed(real_report), typed(damaged)).to_dict()
    # Both branches were really exercised.
    assert outcomes["loaded"] > CASES // 10 and outcomes["refused"] > CASES // 3, outcomes
