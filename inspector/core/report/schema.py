"""The timing report's schema: every field a reader of a report relies on, typed and read.

A report file is read as an attacker might have written it. ``read_report(data, "")`` checks
each field that the comparison, the renderers and the window read (types, finite non-negative
numbers of sane size, lists of numbers, bounded text), and refuses the first bad one with a
``ReportSchemaError`` whose one-line message names it, e.g. ``latency[0].samples_ms: expected a
list of numbers``; ``read_report(data)`` reads a dict nobody checked, never raising. One reader,
two modes (``field_checks.Fields``): each section's type says what it holds (``sections``), a
latency entry is read as the measurement it is (``latency_reader``). Fields nobody reads pass
unchecked, so a report from a later minor version (with additions) still opens.

Optional fields may be absent or null (older reports lack them; NaN is written as null).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from inspector.core.measure.measurement import LatencyResult
from inspector.core.report.entry_reader import read_fields
from inspector.core.report.field_checks import Fields, ReportSchemaError
from inspector.core.report.latency_reader import (
    MAX_LATENCY_ENTRIES,
    MAX_REPORT_SAMPLES,
    MAX_RUNS_PER_ENTRY,
    MAX_SAMPLES_PER_ENTRY,
    MIN_SAMPLE_MS,
    Capacity,
    latency_entry,
)
from inspector.core.report.sections import (
    MAX_MOVES,
    DeviceEntry,
    Environment,
    MemoryPoint,
    ModelSection,
    MoveEntry,
    RankEntry,
    environment,
    memory,
    moves,
)

__all__ = [
    "MAX_LATENCY_ENTRIES", "MAX_MOVES", "MAX_REPORT_SAMPLES", "MAX_RUNS_PER_ENTRY", "MAX_SAMPLES_PER_ENTRY",
    "MIN_SAMPLE_MS", "DeviceEntry", "Environment", "MemoryPoint", "ModelSection", "MoveEntry", "RankEntry",
    "ReportSchemaError", "TimingReport", "latency_entry", "read_report",
]  # fmt: skip


@dataclass(frozen=True, eq=False)
class TimingReport:
    """A timing report, typed: what ``timing_report.load_report`` returns, what a session's
    ``report()`` builds, and what the comparison, the views and the writer take
    (``report.latency[0].median_ms``, ``report.model.class_name``). A plain value, not a mapping:
    a dict (a script's, an agent's) is read once, at the edge, by ``read_report``.

    ``data`` is the JSON document it was read from (or built as), kept whole: ``to_dict``
    gives it back for the file, so a report loaded and saved again is byte for byte what it
    was, keys a later version added included. Sections nobody types yet (``modules``,
    ``attribution``, ``fit``, ``model_memory``) are read from it (``section``).
    """

    schema_version: int
    created: str
    tool_version: str | None
    environment: Environment
    model: ModelSection
    moves: tuple[MoveEntry, ...]
    latency: tuple[LatencyResult, ...]
    memory: dict[str, tuple[MemoryPoint, ...]]
    ranks: tuple[RankEntry, ...] = ()  # a torchrun job's every rank; absent otherwise
    data: Mapping[str, Any] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------- the file's form

    def to_dict(self) -> dict[str, Any]:
        """The report as its JSON file holds it (``timing_report.render_json`` writes this)."""
        return dict(self.data)

    def section(self, key: str) -> list[dict[str, Any]]:
        """The mappings of an untyped list section of the file (``modules``, ``attribution``,
        ``fit``); anything else in it, or a section that is no list, reads as none."""
        value = self.data.get(key)
        return [m for m in value if isinstance(m, dict)] if isinstance(value, list) else []

    # ------------------------------------------------------------- read (``read_report``'s two modes)

    @classmethod
    def lenient(cls, data: Any) -> "TimingReport":
        """``read_report(data)``: a report nobody checked, never raising."""
        return read_report(data)

    @classmethod
    def from_dict(cls, data: Any) -> "TimingReport":
        """``read_report(data, "")``: every field checked (the schema version is checked, and a
        newer one refused, by ``timing_report.load_report``)."""
        return read_report(data, "")


def read_report(data: Any, at: str | None = None) -> TimingReport:
    """``data`` as a ``TimingReport``: with ``at`` (``""`` for a whole file) every field a reader
    uses is checked and the first bad one refused (``ReportSchemaError`` names it); without, a
    dict nobody checked (one a script made, an old file) is read never raising: a field of the
    wrong type reads as absent (None, "?", nothing)."""
    f = Fields(data, at)
    capacity = Capacity()  # the report's own latency entries and every rank's, together
    return TimingReport(
        schema_version=f.whole("schema_version", required=True) or 0,
        created=f.text("created", required=True, default="") or "",
        tool_version=f.mapping("tool").text("version"),
        environment=environment(f),
        model=read_fields(ModelSection, f.mapping("model", required=True)),
        moves=moves(f, required=True),
        latency=capacity.latency(f, required=True),
        memory=memory(f),
        ranks=tuple(
            read_fields(RankEntry, f.entry(f"ranks[{i}]", r), reads={"latency": lambda g, _: capacity.latency(g, required=True)})
            for i, r in enumerate(f.entries("ranks"))
        ),
        data=f.data,
    )
