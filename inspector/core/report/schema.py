"""The timing report's schema: every field a reader of a report relies on, checked.

A report file is read as an attacker might have written it. ``TimingReport.from_dict``
checks each field that the comparison, the renderers and the window read (types, finite
non-negative numbers of sane size, lists of numbers, bounded text), and refuses the first
bad one with a ``ReportSchemaError`` whose one-line message names it, e.g.
``latency[0].samples_ms: expected a list of numbers``. Fields nobody reads pass unchecked,
so a report from a later minor version (with additions) still opens.

Optional fields may be absent or null (older reports lack them; NaN is written as null).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from inspector.core.errors import InputError

#: Larger than any byte count, sample count or time a real report holds (an exabyte), small
#: enough that every reader can turn it into a float and format it.
MAX_NUMBER = 1e18
#: Model specs, paths and notes are short; a megabyte of "device name" is an attack.
MAX_TEXT = 10_000
#: More than any report this version writes (100,000 samples per measurement).
MAX_ITEMS = 1_000_000


class ReportSchemaError(InputError):
    """A report field is missing or holds what its readers cannot use."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _Fields:
    """Typed reads of one mapping of the report; ``at`` names it in errors (``latency[0]``)."""

    def __init__(self, data: Any, at: str) -> None:
        if not isinstance(data, Mapping):
            raise ReportSchemaError(at, f"expected a mapping, not {_kind(data)}")
        self.data: Mapping[str, Any] = data
        self.at = at

    def name(self, key: str) -> str:
        key = _key(key)
        return f"{self.at}.{key}" if self.at else key

    def value(self, key: str, required: bool) -> Any:
        value = self.data.get(key)
        if value is None and required:
            raise ReportSchemaError(self.name(key), "missing" if key not in self.data else "expected a value, not null")
        return value

    def text(self, key: str, *, required: bool = False) -> str | None:
        value = self.value(key, required)
        return None if value is None else _text(value, self.name(key))

    def number(self, key: str, *, required: bool = False) -> float | None:
        value = self.value(key, required)
        return None if value is None else _number(value, self.name(key))

    def whole(self, key: str, *, required: bool = False) -> int | None:
        value = self.value(key, required)
        return None if value is None else _whole(value, self.name(key))

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.value(key, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ReportSchemaError(self.name(key), f"expected true or false, not {_kind(value)}")
        return value

    def numbers(self, key: str, *, required: bool = False) -> tuple[float, ...]:
        items = self.items(key, required=required, what="a list of numbers")
        where = self.name(key)
        if not all(_is_number(v) for v in items):
            raise ReportSchemaError(where, "expected a list of numbers")
        return tuple(_number(v, f"{where}[{i}]") for i, v in enumerate(items))

    def texts(self, key: str) -> tuple[str, ...]:
        where = self.name(key)
        return tuple(_text(v, f"{where}[{i}]") for i, v in enumerate(self.items(key, what="a list of text")))

    def shape(self, key: str) -> tuple[int, ...]:
        where = self.name(key)
        items = self.items(key, what="a list of whole numbers")
        return tuple(_whole(v, f"{where}[{i}]") for i, v in enumerate(items))

    def items(self, key: str, *, required: bool = False, what: str = "a list") -> list[Any]:
        value = self.value(key, required)
        if value is None:
            return []
        if not isinstance(value, list):
            raise ReportSchemaError(self.name(key), f"expected {what}, not {_kind(value)}")
        if len(value) > MAX_ITEMS:
            raise ReportSchemaError(self.name(key), f"holds {len(value):,} items, more than {MAX_ITEMS:,}")
        return value

    def mapping(self, key: str, *, required: bool = False) -> "_Fields":
        value = self.value(key, required)
        return _Fields({} if value is None else value, self.name(key))

    def byte_counts(self, key: str) -> dict[str, float]:
        """``{name: bytes}`` (``by_device``, ``by_dtype``)."""
        fields = self.mapping(key)
        return {_text(k, fields.at): _number(v, fields.name(k)) for k, v in fields.data.items()}


def _key(key: Any) -> str:
    """A key as it can appear in a one-line message: keys come from the file (device names in
    ``memory``, ``by_device``), so anything odd is quoted with its control characters escaped."""
    text = str(key)
    if re.fullmatch(r"[\w:.\-]{1,64}", text, flags=re.ASCII):
        return text
    return json.dumps(text[:40]) + ("…" if len(text) > 40 else "")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if _is_number(value):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return type(value).__name__


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ReportSchemaError(where, f"expected text, not {_kind(value)}")
    if len(value) > MAX_TEXT:
        raise ReportSchemaError(where, f"text of {len(value):,} characters, more than {MAX_TEXT:,}")
    return value


def _number(value: Any, where: str) -> float:
    if not _is_number(value):
        raise ReportSchemaError(where, f"expected a number, not {_kind(value)}")
    # Compared as they are: float() of a 400-digit int raises OverflowError.
    if isinstance(value, float) and not math.isfinite(value):
        raise ReportSchemaError(where, f"expected a finite number, not {value}")
    if value < 0:
        raise ReportSchemaError(where, "expected a number of at least 0")
    if value > MAX_NUMBER:
        raise ReportSchemaError(where, f"expected a number of at most {MAX_NUMBER:g}")
    return float(value)


def _whole(value: Any, where: str) -> int:
    if isinstance(value, float):
        raise ReportSchemaError(where, f"expected a whole number, not {value:g}")
    if not isinstance(value, int) or isinstance(value, bool):
        raise ReportSchemaError(where, f"expected a whole number, not {_kind(value)}")
    _number(value, where)
    return value


# --------------------------------------------------------------------------- sections


@dataclass(frozen=True)
class LatencyEntry:
    device: str
    dtype: str
    mode: str
    input_shape: tuple[int, ...]
    warmup_ms: float | None
    warmup_samples_ms: tuple[float, ...]
    samples_ms: tuple[float, ...]
    median_ms: float
    mean_ms: float | None
    p5_ms: float | None
    p95_ms: float | None
    min_ms: float | None
    max_ms: float | None
    std_ms: float | None
    notes: tuple[str, ...]
    # Schema 2 on (absent from older reports: readers compute them from the samples).
    iqr_ms: float | None = None
    median_ci_ms: tuple[float, float] | None = None
    noisy: bool = False
    noise: str | None = None
    timer: str | None = None

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "LatencyEntry":
        f = _Fields(data, at)
        device, dtype = f.text("device", required=True) or "", f.text("dtype", required=True) or ""
        samples = f.numbers("samples_ms", required=True)
        median = f.number("median_ms", required=True) or 0.0  # required: never None here
        f.whole("runs"), f.number("min_time"), f.whole("warmup")  # how it was asked for: checked, not kept
        return cls(
            device=device,
            dtype=dtype,
            mode=f.text("mode") or "forward",
            input_shape=f.shape("input_shape"),
            warmup_ms=f.number("warmup_ms"),
            warmup_samples_ms=f.numbers("warmup_samples_ms"),
            samples_ms=samples,
            median_ms=median,
            mean_ms=f.number("mean_ms"),
            p5_ms=f.number("p5_ms"),
            p95_ms=f.number("p95_ms"),
            min_ms=f.number("min_ms"),
            max_ms=f.number("max_ms"),
            std_ms=f.number("std_ms"),
            notes=f.texts("notes"),
            iqr_ms=f.number("iqr_ms"),
            median_ci_ms=_interval(f, "median_ci_ms"),
            noisy=f.flag("noisy"),
            noise=f.text("noise"),
            timer=f.text("timer"),
        )


def _interval(f: _Fields, key: str) -> tuple[float, float] | None:
    """``[low, high]`` (two numbers, low <= high), or None when absent."""
    if f.data.get(key) is None:
        return None
    values = f.numbers(key)
    if len(values) != 2 or values[0] > values[1]:
        raise ReportSchemaError(f.name(key), "expected [low, high]: two numbers, low first")
    return values[0], values[1]


@dataclass(frozen=True)
class MoveEntry:
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
    error: str | None  # the message; reports hold {kind, message, detail} (older ones text)
    note: str | None

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "MoveEntry":
        f = _Fields(data, at)
        return cls(
            call=f.text("call"),
            method=f.text("method"),
            source=f.text("source"),
            target=f.text("target"),
            dtype=f.text("dtype"),
            pinned=f.flag("pinned"),
            seconds=f.number("seconds"),
            bytes=f.whole("bytes"),
            gbps=f.number("gbps"),
            ok=f.flag("ok"),
            error=_error(f),
            note=f.text("note"),
        )


def _error(f: _Fields) -> str | None:
    value = f.data.get("error")
    if value is None or isinstance(value, str):
        return f.text("error")
    error = f.mapping("error")
    error.text("kind")
    error.text("detail")
    return error.text("message")


@dataclass(frozen=True)
class MemoryPoint:
    t: float | None
    allocated: float | None
    reserved: float | None
    used: float | None
    total: float | None
    process_rss: float | None = None  # the CPU's resident set (older reports: its "allocated")
    other_processes: float | None = None  # a GPU's memory held by other processes (NVML)

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "MemoryPoint":
        f = _Fields(data, at)
        return cls(*(f.number(k) for k in ("t", "allocated", "reserved", "used", "total", "process_rss", "other_processes")))


@dataclass(frozen=True)
class DeviceEntry:
    id: str | None
    type: str | None
    name: str | None
    total_bytes: float | None

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "DeviceEntry":
        f = _Fields(data, at)
        return cls(f.text("id"), f.text("type"), f.text("name"), f.number("total_bytes"))


_ENVIRONMENT_TEXT = ("python", "python_implementation", "torch", "cuda", "hip", "cudnn", "driver", "os", "machine", "cpu", "cpu_huge_pages")
_ENVIRONMENT_COUNTS = ("cpu_logical_cores", "cpu_physical_cores", "torch_threads", "system_memory_bytes")


@dataclass(frozen=True)
class Environment:
    text: dict[str, str | None]
    counts: dict[str, int | None]
    devices: tuple[DeviceEntry, ...]

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "Environment":
        f = _Fields(data, at)
        devices = f.data.get("devices")
        if isinstance(devices, Mapping):  # discover_devices().to_dict(): {"devices": [...], "notes": [...]}
            inner = f.mapping("devices")
            inner.texts("notes")
            entries, where = inner.items("devices"), inner.name("devices")
        else:
            entries, where = f.items("devices", what="a list or a mapping of devices"), f.name("devices")
        return cls(
            text={k: f.text(k) for k in _ENVIRONMENT_TEXT},
            counts={k: f.whole(k) for k in _ENVIRONMENT_COUNTS},
            devices=tuple(DeviceEntry.from_dict(d, f"{where}[{i}]") for i, d in enumerate(entries)),
        )


@dataclass(frozen=True)
class ModelSection:
    spec: str | None
    class_name: str | None
    source: str | None
    optimizer: str | None
    parameters: int | None
    tensors: int | None
    bytes: int | None
    by_device: dict[str, float]
    by_dtype: dict[str, float]
    notes: tuple[str, ...]

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "ModelSection":
        f = _Fields(data, at)
        for key in ("trainable_parameters", "elements", "meta_bytes"):
            f.whole(key)
        return cls(
            spec=f.text("spec"),
            class_name=f.text("class"),
            source=f.text("source"),
            optimizer=f.text("optimizer"),
            parameters=f.whole("parameters"),
            tensors=f.whole("tensors"),
            bytes=f.whole("bytes"),
            by_device=f.byte_counts("by_device"),
            by_dtype=f.byte_counts("by_dtype"),
            notes=f.texts("notes"),
        )


@dataclass(frozen=True)
class RankEntry:
    """One rank of a torchrun report (``core.remote.ranks``), as the Ranks tab reads it."""

    rank: int
    ok: bool
    host: str | None
    device: str | None
    error: str | None
    latency: tuple[LatencyEntry, ...]
    moves: tuple[MoveEntry, ...]

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "RankEntry":
        f = _Fields(data, at)
        rank = f.whole("rank", required=True) or 0  # required: never None here
        if not isinstance(f.data.get("ok"), bool):
            raise ReportSchemaError(f.name("ok"), f"expected true or false, not {_kind(f.data.get('ok'))}")
        for key in ("local_rank", "world_size"):
            f.whole(key)
        return cls(
            rank=rank,
            ok=f.flag("ok"),
            host=f.text("host"),
            device=f.text("device"),
            error=f.text("error"),
            latency=tuple(
                LatencyEntry.from_dict(e, f"{f.name('latency')}[{i}]")
                for i, e in enumerate(f.items("latency", required=True))
            ),
            moves=tuple(MoveEntry.from_dict(m, f"{f.name('moves')}[{i}]") for i, m in enumerate(f.items("moves"))),
        )


@dataclass(frozen=True)
class TimingReport:
    """A report as this version reads it (the dict it came from is what callers keep)."""

    schema_version: int
    created: str
    tool_version: str | None
    environment: Environment
    model: ModelSection
    moves: tuple[MoveEntry, ...]
    latency: tuple[LatencyEntry, ...]
    memory: dict[str, tuple[MemoryPoint, ...]]
    ranks: tuple[RankEntry, ...] = ()  # a torchrun job's every rank; absent otherwise

    @classmethod
    def from_dict(cls, data: Any) -> "TimingReport":
        """Check every field a reader uses; ``ReportSchemaError`` names the first bad one.

        The schema version is checked (and a newer one refused) by ``report.load_report``.
        """
        f = _Fields(data, "")
        version = f.whole("schema_version", required=True)
        assert version is not None
        tool = f.mapping("tool")
        memory = f.mapping("memory", required=True)
        return cls(
            schema_version=version,
            created=f.text("created", required=True) or "",
            tool_version=tool.text("version"),
            environment=Environment.from_dict(f.value("environment", True), "environment"),
            model=ModelSection.from_dict(f.value("model", True), "model"),
            moves=tuple(MoveEntry.from_dict(m, f"moves[{i}]") for i, m in enumerate(f.items("moves", required=True))),
            latency=tuple(
                LatencyEntry.from_dict(e, f"latency[{i}]") for i, e in enumerate(f.items("latency", required=True))
            ),
            memory={
                _text(device, "memory"): tuple(
                    MemoryPoint.from_dict(p, f"{memory.name(device)}[{i}]")
                    for i, p in enumerate(memory.items(device, what="a list of readings"))
                )
                for device in memory.data
            },
            ranks=tuple(RankEntry.from_dict(r, f"ranks[{i}]") for i, r in enumerate(f.items("ranks"))),
        )
