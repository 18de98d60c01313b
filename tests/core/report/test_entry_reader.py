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


def test_the_last_twins_read_once_in_two_modes_a_valid_report_alike(report):
    """Issue 44 §4: the latency entry, the machine's noise, the environment and the whole
    report have one reader each; strictly and leniently a valid report reads the same."""
    from inspector.core.report.schema import latency_entry, read_report

    entry = report["latency"][0]
    assert latency_entry(entry, "latency[0]") == latency_entry(entry)
    checked, unchecked = read_report(report, ""), read_report(report)
    for name in ("schema_version", "created", "tool_version", "environment", "model", "moves", "latency", "memory", "ranks"):
        assert getattr(checked, name) == getattr(unchecked, name), name
    assert checked.latency[0].machine is not None or entry.get("machine") is None


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"machine": {"measured": True, "other_cpu_share": 4}}, "latency[0].machine.other_cpu_share: expected a share from 0 to 1, not 4"),
        ({"runs_ms": [[1.0]]}, "latency[0].runs_ms: expected two runs or more, each with samples"),
        ({"pair_id": "nope"}, "latency[0].pair_id: expected the 32 hex digits of an interleaved comparison's token"),
        ({"samples_ms": [1.0, "x"]}, "latency[0].samples_ms: expected a list of numbers"),
    ],
)
def test_a_bad_latency_field_is_refused_strictly_and_reads_as_absent_leniently(report, change, named):
    from inspector.core.report.schema import latency_entry

    data = {**report["latency"][0], **change}
    with pytest.raises(ReportSchemaError) as refused:
        latency_entry(data, "latency[0]")
    assert refused.value.message == named
    lenient = latency_entry(data)  # never raises: the field reads as absent (a list keeps its numbers)
    key = next(iter(change))
    assert {"machine": lenient.machine is not None and lenient.machine.other_cpu_share is None,
            "runs_ms": lenient.runs_ms == (), "pair_id": lenient.pair_id is None,
            "samples_ms": lenient.samples_ms == (1.0,)}[key]  # fmt: skip


def test_the_wire_reads_through_the_same_reader_by_its_own_rules(monkeypatch):
    """Issue 44 §4: one decoder for file and wire. What the agent sends is read by
    ``entry_reader``'s strict mode (the wire's rules: any number, a ``Text``, every field sent)."""
    from inspector.core.measure.machine_noise import MachineNoise
    from inspector.core.remote import wire
    from inspector.core.report import entry_reader

    walked = []
    real = entry_reader.read_fields
    monkeypatch.setattr(entry_reader, "read_fields", lambda cls, f, **k: walked.append((cls, f.rules)) or real(cls, f, **k))
    noise = MachineNoise(True, "quiet", 0.01, None, 3, 2, 100, 500, 4)
    assert wire.decode(MachineNoise, wire.encode(noise), "machine") == noise
    assert walked == [(MachineNoise, wire.WIRE)]  # its fields, walked by the one reader in the wire's rules
    with pytest.raises(wire.WireError, match=r"^machine\.note: expected text, got a list$"):
        wire.decode(MachineNoise, {**wire.encode(noise), "note": [1]}, "machine")
    with pytest.raises(wire.WireError, match=r"^machine: field 'measured' is missing$"):
        wire.decode(MachineNoise, {"note": "x"}, "machine")
    # The file's rules for the same type: a null note reads as absent, a missing flag as false.
    assert read_entry(MachineNoise, {"note": None}, "machine") == MachineNoise(False)
