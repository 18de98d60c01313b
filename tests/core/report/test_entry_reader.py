"""A report's entries are read, strictly or leniently, by one reader driven by each type's own
fields (``report.entry_reader``, issue 44): the two reads cannot drift apart."""

from __future__ import annotations

import dataclasses
import json

import pytest

from inspector.core.report.entry_reader import read_entry
from inspector.core.report.field_checks import ReportSchemaError
from inspector.core.report.schema import DeviceEntry, MemoryPoint, ModelSection, MoveEntry, RankEntry
from tests.core.report.generated import real_report


@pytest.fixture(scope="module")
def report() -> dict:
    report = real_report(runs=5)
    report["moves"] = [{"call": "model.to('cpu')", "method": "to", "source": "cpu", "target": "cpu", "dtype": None,
                        "pinned": False, "seconds": 0.01, "bytes": 44, "gbps": 0.0044, "ok": False, "note": None,
                        "error": {"kind": "oom", "message": "out of memory", "detail": "CUDA OOM"}}]  # fmt: skip
    report["memory"] = {"cpu": [{"t": 0.5, "allocated": None, "reserved": None, "used": 2, "total": 3, "process_rss": 1}]}
    report["ranks"] = [{"rank": 0, "local_rank": 0, "world_size": 2, "host": "node-a", "device": "cpu", "ok": True,
                        "latency": report["latency"], "moves": report["moves"]},
                       {"rank": 1, "ok": False, "error": "out of memory", "latency": []}]  # fmt: skip
    return json.loads(json.dumps(report))


def _entries(report: dict) -> list[tuple[type, object]]:
    devices = report["environment"]["devices"]
    devices = devices["devices"] if isinstance(devices, dict) else devices
    memory = [p for points in report["memory"].values() for p in points]
    return [(MoveEntry, m) for m in report["moves"]] + [(DeviceEntry, d) for d in devices] + \
        [(MemoryPoint, p) for p in memory] + [(ModelSection, report["model"])] + [(RankEntry, r) for r in report["ranks"]]  # fmt: skip


def test_a_valid_entry_reads_the_same_strictly_and_leniently(report):
    entries = _entries(report)
    assert {cls for cls, _ in entries} == {MoveEntry, DeviceEntry, MemoryPoint, ModelSection, RankEntry}
    for cls, data in entries:
        assert read_entry(cls, data, "x") == read_entry(cls, data), cls.__name__
    move = read_entry(MoveEntry, report["moves"][0], "moves[0]")
    assert (move.error, move.error_kind, move.ok) == ("out of memory", "oom", False)
    assert read_entry(ModelSection, report["model"], "model").class_name == report["model"]["class"]


@pytest.mark.parametrize(
    ("cls", "data", "named"),
    [
        (MoveEntry, {"seconds": -1}, "moves[0].seconds: expected a number of at least 0"),
        (MoveEntry, {"error": {"kind": [3]}}, "moves[0].error.kind: expected text, not a list"),
        (ModelSection, {"class": ["Net"]}, "moves[0].class: expected text, not a list"),
        (ModelSection, {"elements": 2.5}, "moves[0].elements: expected a whole number, not 2.5"),  # checked, not kept
        (ModelSection, {"by_device": {"cpu": "44"}}, "moves[0].by_device.cpu: expected a number, not text"),
        (MemoryPoint, {"t": "now"}, "moves[0].t: expected a number, not text"),
        (DeviceEntry, "cuda", "moves[0]: expected a mapping, not text"),
        (RankEntry, {"rank": 1, "ok": "yes", "latency": []}, "moves[0].ok: expected true or false, not text"),
        (RankEntry, {"rank": 1, "ok": True}, "moves[0].latency: missing"),
        (RankEntry, {"rank": 1, "ok": True, "latency": [], "world_size": -2}, "moves[0].world_size: expected a number of at least 0"),
    ],
)
def test_a_bad_field_is_refused_strictly_naming_it_and_reads_as_absent_leniently(cls, data, named):
    with pytest.raises(ReportSchemaError) as refused:
        read_entry(cls, data, "moves[0]")
    assert refused.value.message == named
    bad = named.split(":")[0].split(".")[1] if "." in named.split(":")[0] else None
    kept = {k: v for k, v in data.items() if k != bad} if isinstance(data, dict) and bad else {}
    assert read_entry(cls, data) == read_entry(cls, kept)  # the field of the wrong type reads as absent


def test_the_reader_follows_the_fields_of_the_type():
    """A type's fields are all the reader knows: their annotations, keys and defaults."""

    @dataclasses.dataclass(frozen=True)
    class Probe:
        name: str | None
        size: int | None = dataclasses.field(metadata={"key": "bytes"})
        tags: tuple[str, ...] = ()
        live: bool = False

    data = {"name": "fc1", "bytes": 12, "tags": ["a", 3], "live": True}
    assert read_entry(Probe, data) == Probe("fc1", 12, ("a",), True)
    with pytest.raises(ReportSchemaError, match=r"p\.tags\[1\]: expected text"):
        read_entry(Probe, data, "p")
    assert read_entry(Probe, {**data, "tags": ["a"]}, "p") == Probe("fc1", 12, ("a",), True)
