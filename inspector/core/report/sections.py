"""The typed entries of a report's sections: a move, a memory reading, a device, the
environment, the model, a torchrun rank.

Each is a frozen dataclass read by ``entry_reader`` from its own fields, strict or lenient
(``field_checks.Fields``' two modes); a field held in a shape of its own names its one read
(``{"read": read}``), which reads in either mode. The environment's devices may sit one level
down (``{"devices": {"devices": [...]}}``), so it has a reader of its own, in both modes too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from inspector.core.measure.measurement import LatencyResult
from inspector.core.report.entry_reader import read_fields
from inspector.core.report.field_checks import Fields
from inspector.core.report.latency_reader import Capacity

MAX_MOVES = 10_000


def moves(f: Fields, *, required: bool = False) -> tuple["MoveEntry", ...]:
    """``f``'s ``moves``, at most ``MAX_MOVES`` of them."""
    items = f.entries("moves", required=required)
    if len(items) > MAX_MOVES:
        f.refuse(f.name("moves"), f"holds {len(items):,} moves, more than the {MAX_MOVES:,} a report may hold")
    return tuple(read_fields(MoveEntry, f.entry(f"{f.name('moves')}[{i}]", m)) for i, m in enumerate(items))


def _error(f: Fields, key: str) -> str | None:
    """The message; reports hold {kind, message, detail} (older ones text)."""
    value = f.data.get(key)
    if not isinstance(value, Mapping) and (not f.strict or value is None or isinstance(value, str)):
        return f.text(key)
    error = f.mapping(key)
    error.text("kind")
    error.text("detail")
    return error.text("message")


def _error_kind(f: Fields, key: str) -> str | None:
    return f.mapping(key).text("kind") if isinstance(f.data.get(key), Mapping) else None


@dataclass(frozen=True)
class MoveEntry:
    """One move of a report (``entry_reader`` reads it, strict or lenient, by these fields)."""

    call: str | None
    method: str | None
    source: str | None
    target: str | None
    dtype: str | None
    pinned: bool
    seconds: float | None
    bytes: int | None
    gbps: float | None
    ok: bool
    #: The message; reports hold {kind, message, detail} (older ones text).
    error: str | None = field(metadata={"read": _error})
    note: str | None
    #: The error's ``kind`` ("oom", "cancelled", ...), where it has one.
    error_kind: str | None = field(default=None, metadata={"key": "error", "read": _error_kind})


@dataclass(frozen=True)
class MemoryPoint:
    """One memory reading of a report's ``memory`` section."""

    t: float | None
    allocated: float | None
    reserved: float | None
    used: float | None
    total: float | None
    process_rss: float | None = None  # the CPU's resident set (older reports: its "allocated")
    other_processes: float | None = None  # a GPU's memory held by other processes (NVML)


def memory(f: Fields) -> dict[str, tuple[MemoryPoint, ...]]:
    """The report's ``memory``: ``{device: readings}`` (leniently, the devices with a list)."""
    section = f.mapping("memory", required=True)
    out = {}
    for device, points in section.data.items():
        if not section.strict and not isinstance(points, list):
            continue
        items = section.items(device, what="a list of readings")
        out[section.key(device)] = tuple(
            read_fields(MemoryPoint, section.entry(f"{section.name(device)}[{i}]", p)) for i, p in enumerate(items)
        )
    return out


@dataclass(frozen=True)
class DeviceEntry:
    """One device of a report's environment."""

    id: str | None
    type: str | None
    name: str | None
    total_bytes: float | None


_ENVIRONMENT_TEXT = ("python", "python_implementation", "torch", "cuda", "hip", "cudnn", "driver", "os", "machine", "cpu", "cpu_huge_pages")
_ENVIRONMENT_COUNTS = ("cpu_logical_cores", "cpu_physical_cores", "torch_threads", "torch_interop_threads", "system_memory_bytes")


@dataclass(frozen=True)
class Environment:
    text: dict[str, str | None]
    counts: dict[str, int | None]
    devices: tuple[DeviceEntry, ...]


def environment(report: Fields) -> Environment:
    """The report's ``environment``; its devices a list, or inside ``{"devices": [...]}``
    (``discover_devices().to_dict()``)."""
    f = report.mapping("environment", required=True)
    if isinstance(f.data.get("devices"), Mapping):
        inner = f.mapping("devices")
        inner.texts("notes")
        entries, where = inner.entries("devices"), inner.name("devices")
    else:
        entries, where = f.entries("devices", what="a list or a mapping of devices"), f.name("devices")
    return Environment(
        text={k: f.text(k) for k in _ENVIRONMENT_TEXT},
        counts={k: f.whole(k) for k in _ENVIRONMENT_COUNTS},
        devices=tuple(read_fields(DeviceEntry, f.entry(f"{where}[{i}]", d)) for i, d in enumerate(entries)),
    )


@dataclass(frozen=True)
class ModelSection:
    """The report's ``model`` section."""

    #: Whole numbers the file states that nobody reads yet: checked, not kept.
    __checked_only__ = (("trainable_parameters", "whole"), ("elements", "whole"))

    spec: str | None
    class_name: str | None = field(metadata={"key": "class"})
    source: str | None
    optimizer: str | None
    parameters: int | None
    tensors: int | None
    bytes: int | None
    by_device: dict[str, float]
    by_dtype: dict[str, float]
    notes: tuple[str, ...]
    #: The file the spec names, absolute (issue 34 on): one file named from two folders is one model.
    resolved_spec: str | None = None
    meta_bytes: int | None = None  # what the meta tensors would take


@dataclass(frozen=True)
class RankEntry:
    """One rank of a torchrun report (``core.remote.ranks``), as the Ranks tab reads it
    (``entry_reader`` reads it, strict or lenient, by these fields)."""

    #: Whole numbers the file states that nobody reads yet: checked, not kept.
    __checked_only__ = (("local_rank", "whole"), ("world_size", "whole"))

    rank: int = field(metadata={"read": lambda f, k: f.whole(k, required=True) or 0})
    ok: bool = field(metadata={"read": lambda f, k: f.flag(k, required=True)})
    host: str | None
    device: str | None
    error: str | None
    #: A whole report's read counts the entries and samples against the report's (``Capacity``).
    latency: tuple[LatencyResult, ...] = field(metadata={"read": lambda f, k: Capacity().latency(f, required=True)})
    moves: tuple[MoveEntry, ...] = field(metadata={"read": lambda f, k: moves(f)})
