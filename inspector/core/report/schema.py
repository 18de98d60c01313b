"""The timing report's schema: every field a reader of a report relies on, checked.

A report file is read as an attacker might have written it. ``TimingReport.from_dict``
checks each field that the comparison, the renderers and the window read (types, finite
non-negative numbers of sane size, lists of numbers, bounded text), and refuses the first
bad one with a ``ReportSchemaError`` whose one-line message names it, e.g.
``latency[0].samples_ms: expected a list of numbers``. Fields nobody reads pass unchecked,
so a report from a later minor version (with additions) still opens.

Optional fields may be absent or null (older reports lack them; NaN is written as null).
A latency entry of several independent runs (``bench --repeat``, the window's repeat
setting) adds ``runs_ms``: each run's samples, a list of lists; its ``samples_ms`` stays all of
them pooled, in run order (checked), so a reader that knows nothing of runs reads the same
measurement, and every figure the entry states is the pooled samples' own.
Each field is read through ``field_checks``; this module says which fields each section has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from inspector.core.report.field_checks import Fields, ReportSchemaError, checked_text, kind_of
from inspector.core.report.sample_figures import contradiction, figures_of
from inspector.core.vocabulary import MAX_SAMPLES

#: What one report may hold: far more than a real one (a benchmark writes one latency entry per
#: device, dtype, mode and input; a torchrun job one per rank), little enough that reading and
#: comparing two reports stay quick. Past any of these a report is refused, naming the field.
MAX_LATENCY_ENTRIES = 10_000  # the report's own and every rank's together
MAX_MOVES = 10_000
MAX_SAMPLES_PER_ENTRY = MAX_SAMPLES  # the most one measurement takes (samples_ms; warmup_samples_ms too)
MAX_REPORT_SAMPLES = 2_000_000  # every entry's samples and warm-up samples together


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
    # Issue 33 on (absent from older reports): what the machine did to the run, and the warm-up.
    machine: "MachineEntry | None" = None
    warmup_asked: int | None = None
    warmup_reason: str | None = None
    first_calls_ms: float | None = None
    #: Both sides of an interleaved comparison carry it (``bench --against``): their runs pair up.
    pair_id: str | None = None
    #: ``torch.get_num_threads()`` during the run (issue 34 on).
    threads: int | None = None

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "LatencyEntry":
        f = Fields(data, at)
        device, dtype = f.text("device", required=True) or "", f.text("dtype", required=True) or ""
        samples = _samples(f, "samples_ms", required=True)
        median = f.number("median_ms", required=True) or 0.0  # required: never None here
        f.whole("runs"), f.number("min_time"), f.whole("warmup")  # how it was asked for: checked, not kept
        entry = cls(
            device=device,
            dtype=dtype,
            mode=f.text("mode") or "forward",
            input_shape=f.shape("input_shape"),
            warmup_ms=f.number("warmup_ms"),
            warmup_samples_ms=_samples(f, "warmup_samples_ms"),
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
            machine=MachineEntry.read(f),
            warmup_asked=f.whole("warmup_asked"),
            warmup_reason=f.text("warmup_reason"),
            first_calls_ms=f.number("first_calls_ms"),
            pair_id=_pair_id(f),
            threads=f.whole("threads"),
        )
        _check_figures(f, samples)
        _check_runs(f, samples)
        return entry


@dataclass(frozen=True)
class MachineEntry:
    """What the machine did during a run (``measure.machine_noise``): shares of the machine's
    CPU (0 to 1) and a count, each None where not measured; ``note`` says it in words."""

    measured: bool
    note: str | None
    other_cpu_share: float | None
    steal_share: float | None
    involuntary_switches: int | None

    @classmethod
    def read(cls, entry: Fields) -> "MachineEntry | None":
        if entry.data.get("machine") is None:
            return None
        f = entry.mapping("machine")
        shares = {key: f.number(key) for key in ("other_cpu_share", "steal_share")}
        for key, share in shares.items():
            if share is not None and share > 1:
                raise ReportSchemaError(f.name(key), f"expected a share from 0 to 1, not {share:g}")
        f.whole("sampling_threads"), f.whole("samples"), f.whole("cpu_ticks"), f.whole("cores")  # checked, not kept
        return cls(f.flag("measured"), f.text("note"), shares["other_cpu_share"], shares["steal_share"],
                   f.whole("involuntary_switches"))  # fmt: skip


def _samples(f: Fields, key: str, *, required: bool = False) -> tuple[float, ...]:
    """A list of samples, no longer than one measurement takes."""
    items = f.items(key, required=required, what="a list of numbers")
    if len(items) > MAX_SAMPLES_PER_ENTRY:
        raise ReportSchemaError(f.name(key), f"holds {len(items):,} samples, more than the {MAX_SAMPLES_PER_ENTRY:,} one measurement takes")
    return f.numbers(key, required=required)


def _check_figures(f: Fields, samples: tuple[float, ...]) -> None:
    """The figures the entry states are its samples' own: a report that says one thing and
    holds another is refused, naming the figure (its readers believe the samples)."""
    figures = figures_of(samples)
    if figures is None:
        raise ReportSchemaError(f.name("samples_ms"), "holds no sample: an entry's figures come from its samples")
    wrong = contradiction(f.data, figures)
    if wrong is not None:
        key, problem = wrong
        raise ReportSchemaError(f.name(key), problem)


def _pair_id(f: Fields) -> str | None:
    """``pair_id`` (optional): the token of an interleaved comparison, 32 hex digits."""
    value = f.text("pair_id")
    if value is not None and (len(value) != 32 or any(c not in "0123456789abcdef" for c in value)):
        raise ReportSchemaError(f.name("pair_id"), "expected the 32 hex digits of an interleaved comparison's token")
    return value


#: The most runs one entry holds (``core.measure.repeats.MAX_REPEAT``, with room).
MAX_RUNS_PER_ENTRY = 1000


def _check_runs(f: Fields, samples: tuple[float, ...]) -> None:
    """``runs_ms`` (optional: each independent run's samples) holds at least two runs, none
    empty, which together, in order, are the entry's ``samples_ms``: a reader that takes
    the pooled samples and one that takes the runs see the same measurement."""
    if f.data.get("runs_ms") is None:
        return
    if len(f.items("runs_ms")) > MAX_RUNS_PER_ENTRY:
        raise ReportSchemaError(f.name("runs_ms"), f"holds more than the {MAX_RUNS_PER_ENTRY:,} runs one measurement takes")
    runs = f.number_lists("runs_ms")
    if len(runs) < 2 or not all(runs):
        raise ReportSchemaError(f.name("runs_ms"), "expected two runs or more, each with samples")
    if sum(len(r) for r in runs) != len(samples) or tuple(v for r in runs for v in r) != samples:
        raise ReportSchemaError(f.name("runs_ms"), f"its runs together are not the entry's {len(samples):,} samples_ms, in order")


class _Capacity:
    """Counts a report's latency entries and samples as they are read, refusing the one that
    goes past what a report may hold."""

    def __init__(self) -> None:
        self.entries = 0
        self.samples = 0

    def latency(self, f: Fields, *, required: bool = False) -> tuple["LatencyEntry", ...]:
        where = f.name("latency")
        items = f.items("latency", required=required)
        self.entries += len(items)
        if self.entries > MAX_LATENCY_ENTRIES:
            held = f"holds {len(items):,} entries" if self.entries == len(items) else f"brings the report to {self.entries:,} entries"
            raise ReportSchemaError(where, f"{held}, more than the {MAX_LATENCY_ENTRIES:,} a report may hold")
        out = []
        for i, item in enumerate(items):
            entry = LatencyEntry.from_dict(item, f"{where}[{i}]")
            self.samples += len(entry.samples_ms) + len(entry.warmup_samples_ms)
            if self.samples > MAX_REPORT_SAMPLES:
                raise ReportSchemaError(f"{where}[{i}]", f"brings the report to {self.samples:,} samples, "
                                                         f"more than the {MAX_REPORT_SAMPLES:,} a report may hold")  # fmt: skip
            out.append(entry)
        return tuple(out)


def _moves(f: Fields, *, required: bool = False) -> tuple["MoveEntry", ...]:
    items = f.items("moves", required=required)
    if len(items) > MAX_MOVES:
        raise ReportSchemaError(f.name("moves"), f"holds {len(items):,} moves, more than the {MAX_MOVES:,} a report may hold")
    return tuple(MoveEntry.from_dict(m, f"{f.name('moves')}[{i}]") for i, m in enumerate(items))


def _interval(f: Fields, key: str) -> tuple[float, float] | None:
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
        f = Fields(data, at)
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


def _error(f: Fields) -> str | None:
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
        f = Fields(data, at)
        return cls(*(f.number(k) for k in ("t", "allocated", "reserved", "used", "total", "process_rss", "other_processes")))


@dataclass(frozen=True)
class DeviceEntry:
    id: str | None
    type: str | None
    name: str | None
    total_bytes: float | None

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "DeviceEntry":
        f = Fields(data, at)
        return cls(f.text("id"), f.text("type"), f.text("name"), f.number("total_bytes"))


_ENVIRONMENT_TEXT = ("python", "python_implementation", "torch", "cuda", "hip", "cudnn", "driver", "os", "machine", "cpu", "cpu_huge_pages")
_ENVIRONMENT_COUNTS = ("cpu_logical_cores", "cpu_physical_cores", "torch_threads", "torch_interop_threads", "system_memory_bytes")


@dataclass(frozen=True)
class Environment:
    text: dict[str, str | None]
    counts: dict[str, int | None]
    devices: tuple[DeviceEntry, ...]

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "Environment":
        f = Fields(data, at)
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
        f = Fields(data, at)
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
    def from_dict(cls, data: Any, at: str, capacity: _Capacity | None = None) -> "RankEntry":
        f = Fields(data, at)
        capacity = capacity or _Capacity()
        rank = f.whole("rank", required=True) or 0  # required: never None here
        if not isinstance(f.data.get("ok"), bool):
            raise ReportSchemaError(f.name("ok"), f"expected true or false, not {kind_of(f.data.get('ok'))}")
        for key in ("local_rank", "world_size"):
            f.whole(key)
        return cls(
            rank=rank,
            ok=f.flag("ok"),
            host=f.text("host"),
            device=f.text("device"),
            error=f.text("error"),
            latency=capacity.latency(f, required=True),
            moves=_moves(f),
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
        f = Fields(data, "")
        version = f.whole("schema_version", required=True)
        assert version is not None
        tool = f.mapping("tool")
        memory = f.mapping("memory", required=True)
        capacity = _Capacity()
        return cls(
            schema_version=version,
            created=f.text("created", required=True) or "",
            tool_version=tool.text("version"),
            environment=Environment.from_dict(f.value("environment", True), "environment"),
            model=ModelSection.from_dict(f.value("model", True), "model"),
            moves=_moves(f, required=True),
            latency=capacity.latency(f, required=True),
            memory={
                checked_text(device, "memory"): tuple(
                    MemoryPoint.from_dict(p, f"{memory.name(device)}[{i}]")
                    for i, p in enumerate(memory.items(device, what="a list of readings"))
                )
                for device in memory.data
            },
            ranks=tuple(RankEntry.from_dict(r, f"ranks[{i}]", capacity) for i, r in enumerate(f.items("ranks"))),
        )
