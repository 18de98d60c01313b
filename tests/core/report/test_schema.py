"""The report reader against the hostile reports of issue 9, each built here from a real one.

Each bad file is refused with one ``InputError`` line that names the field (exit code 2 in a
CLI), and the comparison takes what the reader accepts without raising.
"""

from __future__ import annotations

import json
import os
import threading

import pytest

from inspector.cli import exit_code
from inspector.core.report import timing_report as report_module
from inspector.core.report.compare import compare_reports
from inspector.core.errors import InputError
from inspector.core.files.models import example_model
from inspector.core.report.timing_report import build_report, load_report, render_json, save_report
from inspector.core.report.field_checks import ReportSchemaError
from inspector.core.report.schema import TimingReport
from inspector.core.measure.timing import measure_latency
from tests.processes import GENEROUS_S
from tests.report_edge import typed

GPU = {"id": "cuda:0", "type": "cuda", "index": 0, "name": "NVIDIA H200", "total_bytes": 150 << 30}


@pytest.fixture(scope="module")
def good() -> dict:
    loaded = example_model()
    memory = {"cpu": [{"t": 0.0, "allocated": 1, "reserved": None, "used": 2, "total": 3}]}
    report = json.loads(render_json(typed(build_report(loaded, latency=[measure_latency(loaded, runs=5)], memory=memory))))
    report["environment"]["devices"]["devices"].append(GPU)
    return report


def _with(report: dict, where: str, value_text: str) -> str:
    """The report's JSON with the field at dotted ``where`` (list indices as numbers) set to
    the raw JSON ``value_text``, so the file can hold what json.dumps would never write."""
    damaged = json.loads(json.dumps(report))
    *parents, last = [int(p) if p.isdigit() else p for p in where.split(".")]
    node = damaged
    for step in parents:
        node = node[step]
    node[last] = "__here__"
    return json.dumps(damaged).replace('"__here__"', value_text)


def _refusal(tmp_path, text: str) -> str:
    path = tmp_path / "r.json"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        load_report(path)
    message = info.value.message
    assert "\n" not in message and exit_code(info.value) == 2
    assert message.startswith(f"{path} is not")
    return message


@pytest.mark.parametrize(
    ("where", "value", "expected"),
    [
        ("latency.0.samples_ms", "5", "latency[0].samples_ms: expected a list of numbers, not a number"),
        ("latency.0.samples_ms", '[1, "2"]', "latency[0].samples_ms: expected a list of numbers"),
        ("latency.0.samples_ms", "[1, -2]", "latency[0].samples_ms[1]: expected a number of at least 0"),
        ("latency.0.median_ms", "1" + "0" * 400, "latency[0].median_ms: expected a number of at most 1e+18"),
        ("latency.0.median_ms", "NaN", "latency[0].median_ms: expected a finite number, not nan"),
        ("latency.0.median_ms", "null", "latency[0].median_ms: expected a value, not null"),
        ("latency.0.p5_ms", "Infinity", "latency[0].p5_ms: expected a finite number, not inf"),
        ("latency.0.input_shape", "[64, 3.5]", "latency[0].input_shape[1]: expected a whole number, not 3.5"),
        ("latency.0.device", '{"id": "cpu"}', "latency[0].device: expected text, not a mapping"),
        ("latency.0", "[]", "latency[0]: expected a mapping, not a list"),
        ("latency", "{}", "latency: expected a list, not a mapping"),
        ("moves", "5", "moves: expected a list, not a number"),
        ("memory.cpu", "7", "memory.cpu: expected a list of readings, not a number"),
        ("memory.cpu.0.allocated", '"1 GiB"', "memory.cpu[0].allocated: expected a number, not text"),
        ("model.by_dtype.float32", "-44", "model.by_dtype.float32: expected a number of at least 0"),
        ("model.bytes", "true", "model.bytes: expected a whole number, not true/false"),
        ("environment.devices.devices.1.total_bytes", '"lots"', "environment.devices.devices[1].total_bytes: expected a number, not text"),
        ("environment.os", json.dumps("x" * 10_001), "environment.os: text of 10,001 characters, more than 10,000"),
        ("tool", "[1]", "tool: expected a mapping, not a list"),
        ("created", "1", "created: expected text, not a number"),
        ("latency.0.samples_ms", "[" * 100_000 + "]" * 100_000, "it is nested too deeply"),
        ("model.parameters", "1" * 5000, "it holds a number too long to read"),
    ],
)
def test_a_bad_field_is_refused_in_one_line_that_names_it(tmp_path, good, where, value, expected):
    message = _refusal(tmp_path, _with(good, where, value))
    assert message.endswith(expected), message


def test_a_key_from_the_file_is_quoted_with_its_control_characters_escaped(tmp_path, good):
    text = _with(good, "memory", json.dumps({"\x1b[31merror: fake\ncuda": [{"t": "soon"}]}))
    message = _refusal(tmp_path, text)
    assert message.endswith('memory."\\u001b[31merror: fake\\ncuda"[0].t: expected a number, not text')


def test_a_report_too_big_to_be_one_is_refused_before_it_is_read(tmp_path, good, monkeypatch):
    monkeypatch.setattr(report_module, "MAX_REPORT_BYTES", 1000)
    message = _refusal(tmp_path, json.dumps(good))
    assert "more than the 1000 B a report can be" in message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "r.json"
    os.mkfifo(fifo)
    outcome: list[BaseException | dict] = []
    reader = threading.Thread(target=lambda: outcome.append(_catch(fifo)), daemon=True)
    reader.start()
    reader.join(GENEROUS_S)  # a refusal returns at once; only a blocked open reaches this
    if reader.is_alive():  # unblock the reader so the test process can end, then fail
        with open(fifo, "w"):
            pass
        pytest.fail("load_report blocked on a FIFO")
    [error] = outcome
    assert isinstance(error, InputError) and error.message.endswith("is not a timing report: it is not a regular file")


def _catch(path):
    try:
        return load_report(path)
    except InputError as exc:
        return exc


def test_a_report_of_this_version_loads_whole_and_keeps_keys_added_later(tmp_path, good):
    later = json.loads(json.dumps(good))
    later["latency"][0]["mad_ms"] = [0.1, 0.2]  # additions a later minor version may make
    later["modules"] = [{"name": "fc1", "deeply": {"nested": [[[1]]]}}]
    loaded = load_report(save_report(typed(later), tmp_path / "r.json"))
    assert loaded.to_dict() == later
    parsed = TimingReport.from_dict(loaded.to_dict())
    assert parsed.latency[0].samples_ms == tuple(good["latency"][0]["samples_ms"])
    assert [d.id for d in parsed.environment.devices] == ["cpu", "cuda:0"]
    assert parsed.model.class_name == "Net"


def test_the_schema_error_names_the_field_on_its_own():
    with pytest.raises(ReportSchemaError) as info:
        TimingReport.from_dict({"schema_version": 1, "created": "x", "environment": {}, "model": {},
                                "moves": [], "latency": [{"device": "cpu"}], "memory": {}})  # fmt: skip
    assert (info.value.field, info.value.problem) == ("latency[0].dtype", "missing")


def test_a_zero_median_its_samples_contradict_is_refused(tmp_path, good):
    """(A zero median of samples of zero loads, and gets no ratio: ``test_report_figures``.)"""
    message = _refusal(tmp_path, _with(good, "latency.0.median_ms", "0"))
    assert "latency[0].median_ms: says 0 ms, but its 5 samples give" in message


def test_compare_takes_even_unchecked_numbers_it_cannot_use(good):
    """The comparison is also called on dicts that never went through the reader."""
    damaged = json.loads(json.dumps(good))
    damaged["latency"][0].update(median_ms=10**400, samples_ms=5, input_shape=[float("inf")])
    damaged["model"]["bytes"] = 10**400
    damaged["environment"]["devices"] = {"devices": [{"id": ["x"], "total_bytes": float("nan")}]}
    comparison = compare_reports(typed(good), typed(damaged))
    row = comparison.latency[-1]
    assert (row.median_b, row.samples_b, row.ratio) == (None, 0, None)
    size = next(r for r in comparison.environment if r.name == "Size")
    assert size.b == "—"
