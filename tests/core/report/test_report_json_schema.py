"""The timing report's JSON Schema (``resources/report.schema.json``, ``inspector.resources`` in a
wheel): what someone outside the app validates a report with (jsonschema, as a CI job would).

It must accept what ``bench`` writes (a per-module run of two independent runs, both reports of
``bench A --against B``, a session's report with a failed move and a "will it fit?" answer, a
torchrun job's ranks), refuse what the Python reader refuses for a type, and name every key this
version writes: a field added to ``LatencyResult.to_dict`` (or to a move, a module, a fit answer)
without the schema fails here. Every report the other tests save is validated too (``tests/conftest.py``).
"""

from __future__ import annotations

import copy
import dataclasses
import json
from importlib import resources
from typing import Any

import jsonschema
import pytest

from inspector.cli import main
from inspector.core.files.models import example_model
from inspector.core.measure.timing import measure_latency
from inspector.core.report.field_checks import ReportSchemaError
from inspector.core.report.schema import TimingReport
from inspector.core.report.timing_report import build_report, json_ready

MODELS = """
import torch
from torch import nn

def small():
    torch.manual_seed(0)
    return nn.Linear(8, 8), torch.randn(2, 8)
"""


def shipped_schema() -> dict[str, Any]:
    """The schema as an installed copy of the app holds it."""
    text = resources.files("inspector.resources").joinpath("report.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def closed(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with every object that lists its properties closed to any other key (the
    shipped one leaves them open, as the reader does, for a later version's additions): what
    this version writes must be named, section by section, the top level and environment too."""
    strict = copy.deepcopy(schema)

    def close(node: Any) -> None:
        if isinstance(node, dict):
            if "properties" in node:
                node["additionalProperties"] = False
            for value in node.values():
                close(value)
        elif isinstance(node, list):
            for value in node:
                close(value)

    close(strict)
    return strict


SCHEMA = shipped_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
STRICT = jsonschema.Draft202012Validator(closed(SCHEMA))


def problems(validator: jsonschema.Draft202012Validator, report: dict[str, Any]) -> list[str]:
    return [f"{e.json_path}: {e.message[:200]}" for e in validator.iter_errors(report)]


@pytest.fixture(scope="module")
def bench_reports(tmp_path_factory) -> dict[str, dict[str, Any]]:
    """What ``bench`` wrote: the example, per module, in two independent runs; and both sides of
    ``bench A --against B`` (two rounds)."""
    folder = tmp_path_factory.mktemp("bench")
    models = folder / "models.py"
    models.write_text(MODELS)
    plain = folder / "per-module.json"
    assert main(["bench", "example", "--device", "cpu", "--runs", "20", "--per-module", "--repeat", "2",
                 "--output", str(plain)]) == 0  # fmt: skip
    a, b = folder / "A.json", folder / "B.json"
    assert main(["bench", "example", "--against", f"{models}:small", "--device", "cpu", "--repeat", "2",
                 "--min-time", "0.02", "--output", str(a), "--against-output", str(b)]) == 0  # fmt: skip
    return {
        name: json.loads(path.read_text(encoding="utf-8")) for name, path in (("per-module", plain), ("A", a), ("B", b))
    }


@pytest.fixture(scope="module")
def session_report() -> dict[str, Any]:
    """A session's report (as the window exports it) with a move that failed and was rolled
    back, a per-module run and a "will it fit?" answer."""
    from inspector.core.measure.fit import FitRequest
    from inspector.core.moves.request import MoveRequest
    from inspector.core.session import BenchmarkRequest, LoadRequest, Session

    session = Session()
    session.load(LoadRequest("example"))
    assert session.move(MoveRequest("to", "cuda:99")).ok is False  # no machine has a 100th GPU
    session.measure(BenchmarkRequest(runs=10))
    session.attribute(BenchmarkRequest(runs=3, per_module=True))
    session.fit(FitRequest(device="cpu", optimizer="adamw", measure=False))
    return json.loads(json.dumps(json_ready(session.report())))


def test_the_shipped_schema_is_a_valid_draft_2020_12_schema_that_says_what_it_describes():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"].endswith("/report.schema.json") and SCHEMA["title"] and SCHEMA["description"]
    # Open where the reader is, and saying so; closed nowhere a real report would trip over.
    assert (
        SCHEMA["additionalProperties"] is True and SCHEMA["properties"]["environment"]["additionalProperties"] is True
    )
    assert (
        "Unknown keys are allowed" in SCHEMA["description"]
        and "Open" in SCHEMA["properties"]["environment"]["description"]
    )


@pytest.mark.parametrize("name", ["per-module", "A", "B"])
def test_what_bench_writes_validates_and_names_every_key(bench_reports, name):
    report = bench_reports[name]
    assert problems(VALIDATOR, report) == []
    assert problems(STRICT, report) == []  # no key the schema does not name


def test_the_reports_checked_hold_what_the_schema_is_about(bench_reports):
    """The reports above exercise the new fields: repeats' runs, the pair token, threads."""
    plain, a, b = bench_reports["per-module"], bench_reports["A"], bench_reports["B"]
    assert plain["modules"] and plain["attribution"] and len(plain["latency"][0]["runs_ms"]) == 2
    assert a["latency"][0]["pair_id"] == b["latency"][0]["pair_id"]
    assert isinstance(plain["latency"][0]["threads"], int) and isinstance(
        plain["environment"]["torch_interop_threads"], int
    )
    assert a["model"]["resolved_spec"] == "example" and b["model"]["resolved_spec"].endswith("models.py:small")


def test_a_sessions_report_with_a_failed_move_and_a_fit_answer_validates_and_names_every_key(session_report):
    [move] = session_report["moves"]
    assert move["ok"] is False and move["error"]["kind"] == "device"
    assert session_report["fit"] and session_report["modules"] and session_report["model_memory"]
    assert problems(VALIDATOR, session_report) == []
    assert problems(STRICT, session_report) == []


def test_a_torchrun_jobs_report_validates_and_names_every_key():
    from inspector.core.remote.ranks import RankResult

    loaded = example_model()
    result = measure_latency(loaded, runs=5)
    ranks = [
        RankResult(rank=0, local_rank=0, world_size=2, host="node-a", device="cpu", ok=True,
                   latency=(json_ready(result.to_dict()),)).to_report(),
        RankResult(rank=1, local_rank=1, world_size=2, host="node-a", device="cpu", ok=False,
                   error="out of memory").to_report(),
    ]  # fmt: skip
    report = json.loads(json.dumps(build_report(loaded, latency=[result], ranks=ranks)))
    assert problems(VALIDATOR, report) == [] and problems(STRICT, report) == []


def _set(report: dict[str, Any], where: str, value: Any) -> dict[str, Any]:
    """A copy of ``report`` with the field at dotted ``where`` (list indices as numbers) set."""
    damaged = copy.deepcopy(report)
    *parents, last = [int(p) if p.isdigit() else p for p in where.split(".")]
    node = damaged
    for step in parents:
        node = node[step]
    if value is _DROP:
        del node[last]
    else:
        node[last] = value
    return damaged


_DROP = object()


@pytest.mark.parametrize(
    ("where", "value"),
    [
        ("latency.0.samples_ms.1", "fast"),
        ("latency.0.samples_ms.1", 1e-12),  # under 1 ns: finer than any clock measures (issue 43)
        ("latency.0.pair_id", "not a token"),
        ("latency.0.pair_id", "0123456789ABCDEF0123456789ABCDEF"),  # upper case: not the token's hex
        ("latency.0.threads", 2.5),
        ("latency.0.median_ci_ms", [0.1]),
        ("latency.0.runs_ms", [[0.1, 0.2]]),  # one run is not runs
        ("latency.0.warmup_asked", "3"),
        ("latency.0.noisy", "no"),
        ("latency.0.machine.other_cpu_share", 1.5),
        ("latency.0.median_ms", _DROP),
        ("moves.0.bytes", -1),
        ("model.by_device.cpu", "44"),
        ("environment.torch_threads", "2"),
        ("memory.cpu.0.t", "now"),
        ("schema_version", "2"),
    ],
)
def test_what_the_python_reader_refuses_for_its_type_the_schema_refuses_at_the_same_field(bench_reports, where, value):
    report = _set(bench_reports["per-module"], where, value)
    with pytest.raises(ReportSchemaError) as refused:
        TimingReport.from_dict(report)
    errors = list(VALIDATOR.iter_errors(report))
    assert errors, f"the schema accepts {where} = {value!r}, which the reader refuses ({refused.value.message})"
    # Both name the same place (one may name the list where the other names the item in it).
    field = refused.value.field
    assert any(e.json_path[2:].startswith(field) or field.startswith(e.json_path[2:]) for e in errors), (
        [e.json_path for e in errors], field)  # fmt: skip


def test_every_key_a_latency_result_writes_is_named_in_the_schema():
    """Including the keys written only when set (runs_ms, pair_id, runs_spoiled, threads): a field added to
    ``LatencyResult.to_dict`` without the schema fails here, and a key the schema names that
    no result writes any more is found too."""
    from inspector.core.measure.machine_noise import MachineNoise

    result = dataclasses.replace(
        measure_latency(example_model(), runs=6),
        runs_ms=((1.0, 2.0, 3.0), (1.0, 2.0, 3.0)),
        pair_id="0" * 32,
        runs_spoiled=(True, False),
        threads=2,
        machine=MachineNoise(measured=True),
    )
    written = result.to_dict()
    named = SCHEMA["$defs"]["latencyEntry"]["properties"]
    assert set(written) - set(named) == set(), "keys LatencyResult.to_dict writes that report.schema.json does not name"
    assert set(named) - set(written) == set(), (
        "keys report.schema.json names that LatencyResult.to_dict no longer writes"
    )
    assert set(written["machine"]) == set(SCHEMA["$defs"]["machine"]["properties"])
    required = set(SCHEMA["$defs"]["latencyEntry"]["required"])
    assert required == {"device", "dtype", "samples_ms", "median_ms"}  # what schema.latency_entry requires
