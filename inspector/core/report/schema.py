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
A latency entry is read as the measurement it is (``measure.measurement.LatencyResult``, the type
``measure_latency`` makes): one type from sampling to file and back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from inspector.core.report import lenient_read as read
from inspector.core.report.entry_reader import mappings, read_entry
from inspector.core.report.field_checks import Fields, ReportSchemaError, checked_text, kind_of
from inspector.core.measure.machine_noise import MachineNoise
from inspector.core.measure.measurement import LatencyResult
from inspector.core.report.sample_figures import contradiction, figures_of
from inspector.core.vocabulary import MAX_SAMPLES


#: What one report may hold: far more than a real one (a benchmark writes one latency entry per
#: device, dtype, mode and input; a torchrun job one per rank), little enough that reading and
#: comparing two reports stay quick. Past any of these a report is refused, naming the field.
MAX_LATENCY_ENTRIES = 10_000  # the report's own and every rank's together
MAX_MOVES = 10_000
MAX_SAMPLES_PER_ENTRY = MAX_SAMPLES  # the most one measurement takes (samples_ms; warmup_samples_ms too)
#: The shortest time a sample can hold, 1 ns: the app's clocks count whole nanoseconds (the host
#: clock, and device events rounded to them), so a sample is 0 (the call took less than the
#: clock shows) or at least this. 1e-12 ms made "31473396998.64× faster"; 5e-324, "inf×".
MIN_SAMPLE_MS = 1e-6
MAX_REPORT_SAMPLES = 2_000_000  # every entry's samples and warm-up samples together


def latency_entry(data: Any, at: str) -> LatencyResult:
    """One latency entry of a report file, checked: the measurement it holds
    (``measure.measurement.LatencyResult``, the type ``measure_latency`` makes), whose figures
    are its samples'. The figures the file states are checked against its samples (a file that
    says one thing and holds another is refused, naming the figure), then left: the
    measurement derives its own. An entry from before schema 2 states no noise: its samples'
    own noise note is taken."""
    f = Fields(data, at)
    device, dtype = f.text("device", required=True) or "", f.text("dtype", required=True) or ""
    samples = _samples(f, "samples_ms", required=True)
    f.number("median_ms", required=True)  # stated for other readers; the property is the samples'
    for key in ("mean_ms", "p5_ms", "p95_ms", "min_ms", "max_ms", "std_ms", "iqr_ms"):
        f.number(key)
    _interval(f, "median_ci_ms")
    f.flag("noisy")  # stated for other readers; the measurement's is ``noise is not None``
    entry = LatencyResult(
        device=device,
        dtype=dtype,
        mode=f.text("mode") or "forward",
        input_shape=f.shape("input_shape"),
        input_shapes=f.shapes("input_shapes"),
        input_dtypes=f.texts("input_dtypes"),
        warmup_ms=f.number("warmup_ms"),
        warmup_samples_ms=_samples(f, "warmup_samples_ms"),
        samples_ms=samples,
        notes=f.texts("notes"),
        runs_ms=(runs := _checked_runs(f, samples)),
        noise=f.text("noise") if _spread_stated(f.data) else _samples_noise(samples),
        timer=f.text("timer"),
        machine=_machine(f),
        warmup_asked=f.whole("warmup_asked"),
        warmup_reason=f.text("warmup_reason"),
        first_calls_ms=f.number("first_calls_ms"),
        runs=f.whole("runs"),
        min_time=f.number("min_time"),
        warmup=f.whole("warmup") or 0,
        pair_id=_pair_id(f),
        runs_spoiled=_checked_spoiled(f, runs),
        threads=f.whole("threads"),
    )
    _check_figures(f, samples)
    return entry


def lenient_latency_entry(data: Any) -> LatencyResult:
    """An entry of a report nobody checked, never raising: a field of the wrong type counts
    as absent (``lenient_read``), samples that are not numbers are left out, and ``runs_ms``
    that are not the samples, in order, count as none."""
    entry: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
    samples = _lenient_samples(entry.get("samples_ms"))
    machine = entry.get("machine")
    shapes = entry.get("input_shapes")
    return LatencyResult(
        device=read.text(entry.get("device")),
        dtype=read.text(entry.get("dtype")),
        mode=read.text(entry.get("mode") or "forward"),
        input_shape=read.shape(entry.get("input_shape")),
        input_shapes=tuple(read.shape(s) for s in shapes[:64]) if isinstance(shapes, list) else (),
        input_dtypes=_lenient_texts(entry.get("input_dtypes")),
        warmup_ms=read.number(entry.get("warmup_ms")),
        warmup_samples_ms=_lenient_samples(entry.get("warmup_samples_ms")),
        samples_ms=samples,
        notes=_lenient_texts(entry.get("notes")),
        runs_ms=(runs := _lenient_runs(entry.get("runs_ms"), samples)),
        noise=read.optional_text(entry.get("noise")) if _spread_stated(entry) else _samples_noise(samples),
        timer=read.optional_text(entry.get("timer")),
        machine=_lenient_machine(machine) if isinstance(machine, Mapping) else None,
        warmup_asked=read.whole(entry.get("warmup_asked")),
        warmup_reason=read.optional_text(entry.get("warmup_reason")),
        first_calls_ms=read.number(entry.get("first_calls_ms")),
        runs=read.whole(entry.get("runs")),
        min_time=read.number(entry.get("min_time")),
        warmup=read.whole(entry.get("warmup")) or 0,
        pair_id=read.text(entry.get("pair_id"), "") or None,
        runs_spoiled=_lenient_spoiled(entry.get("runs_spoiled"), runs),
        threads=read.whole(entry.get("threads")),
    )


def _spread_stated(entry: Mapping[str, Any]) -> bool:
    """The entry states its spread (``iqr_ms`` or ``noise``: schema 2 on)."""
    return "iqr_ms" in entry or "noise" in entry


def _samples_noise(samples: tuple[float, ...]) -> str | None:
    """An older entry's noise note: what its samples say."""
    figures = figures_of(samples) if samples else None
    return figures.noise if figures is not None else None


def _machine(entry: Fields) -> MachineNoise | None:
    """What the machine did during a run (``measure.machine_noise``): shares of the machine's
    CPU (0 to 1) and counts, each None where not measured; ``note`` says it in words. The
    ``disturbed`` the file states is checked; the measurement derives its own from the figures."""
    if entry.data.get("machine") is None:
        return None
    f = entry.mapping("machine")
    shares = {key: f.number(key) for key in ("other_cpu_share", "steal_share")}
    for key, share in shares.items():
        if share is not None and share > 1:
            raise ReportSchemaError(f.name(key), f"expected a share from 0 to 1, not {share:g}")
    f.flag("disturbed")
    return MachineNoise(f.flag("measured"), f.text("note"), shares["other_cpu_share"], shares["steal_share"],
                        f.whole("involuntary_switches"), f.whole("sampling_threads") or 0, f.whole("samples") or 0,
                        f.whole("cpu_ticks") or 0, f.whole("cores") or 0)  # fmt: skip


def _lenient_machine(data: Mapping[str, Any]) -> MachineNoise:
    other, steal = (s if (s := read.number(data.get(k))) is not None and s <= 1 else None
                    for k in ("other_cpu_share", "steal_share"))  # fmt: skip
    counts = (read.whole(data.get(k)) or 0 for k in ("sampling_threads", "samples", "cpu_ticks", "cores"))
    return MachineNoise(data.get("measured") is True, read.optional_text(data.get("note")), other, steal,
                        read.whole(data.get("involuntary_switches")), *counts)  # fmt: skip


#: The most samples a lenient read takes from one list (more than any report holds).
_MAX_SAMPLES_READ = 1_000_000
_MAX_RUNS_READ = 1000


def _lenient_texts(values: Any) -> tuple[str, ...]:
    return tuple(v for v in values if isinstance(v, str)) if isinstance(values, list) else ()


def _lenient_samples(values: Any) -> tuple[float, ...]:
    if not isinstance(values, list):
        return ()
    samples = tuple(n for v in values[:_MAX_SAMPLES_READ] if (n := read.number(v)) is not None)
    # A time no clock measures makes the list no samples, as a value of the wrong type would.
    return () if any(0 < n < MIN_SAMPLE_MS for n in samples) else samples


def _checked_spoiled(f: Fields, runs: tuple[tuple[float, ...], ...]) -> tuple[bool, ...]:
    """``runs_spoiled`` (optional): one true or false per run of ``runs_ms``."""
    if f.data.get("runs_spoiled") is None:
        return ()
    values = f.items("runs_spoiled")
    if len(values) != len(runs) or len(runs) < 2 or not all(isinstance(v, bool) for v in values):
        raise ReportSchemaError(f.name("runs_spoiled"), f"expected one true or false per run of runs_ms ({len(runs)})")
    return tuple(values)


def _lenient_spoiled(values: Any, runs: tuple[tuple[float, ...], ...]) -> tuple[bool, ...]:
    """``runs_spoiled`` when it is one boolean per run; else () (not recorded)."""
    if not isinstance(values, list) or len(values) != len(runs) or len(runs) < 2:
        return ()
    return tuple(values) if all(isinstance(v, bool) for v in values) else ()


def _lenient_runs(values: Any, samples: tuple[float, ...]) -> tuple[tuple[float, ...], ...]:
    """``runs_ms`` when they are two or more and together are ``samples``, in order; else ()."""
    if not isinstance(values, list) or not 2 <= len(values) <= _MAX_RUNS_READ:
        return ()
    runs = []
    for run in values:
        if not isinstance(run, list) or not run:
            return ()
        runs.append(_lenient_samples(run))
    if sum(map(len, runs)) != len(samples) or tuple(v for run in runs for v in run) != samples:
        return ()
    return tuple(runs)


def _samples(f: Fields, key: str, *, required: bool = False) -> tuple[float, ...]:
    """A list of samples, no longer than one measurement takes, each 0 or at least 1 ns."""
    items = f.items(key, required=required, what="a list of numbers")
    if len(items) > MAX_SAMPLES_PER_ENTRY:
        raise ReportSchemaError(f.name(key), f"holds {len(items):,} samples, more than the {MAX_SAMPLES_PER_ENTRY:,} one measurement takes")
    values = f.numbers(key, required=required)
    for i, value in enumerate(values):
        if 0 < value < MIN_SAMPLE_MS:
            raise ReportSchemaError(f"{f.name(key)}[{i}]", f"{value:g} ms is under 1 ns, finer than any clock measures "
                                    "(a sample is 0 or at least 1e-06 ms)")  # fmt: skip
    return values


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


def _checked_runs(f: Fields, samples: tuple[float, ...]) -> tuple[tuple[float, ...], ...]:
    """``runs_ms`` (optional: each independent run's samples) holds at least two runs, none
    empty, which together, in order, are the entry's ``samples_ms``: a reader that takes
    the pooled samples and one that takes the runs see the same measurement."""
    if f.data.get("runs_ms") is None:
        return ()
    if len(f.items("runs_ms")) > MAX_RUNS_PER_ENTRY:
        raise ReportSchemaError(f.name("runs_ms"), f"holds more than the {MAX_RUNS_PER_ENTRY:,} runs one measurement takes")
    runs = f.number_lists("runs_ms")
    if len(runs) < 2 or not all(runs):
        raise ReportSchemaError(f.name("runs_ms"), "expected two runs or more, each with samples")
    if sum(len(r) for r in runs) != len(samples) or tuple(v for r in runs for v in r) != samples:
        raise ReportSchemaError(f.name("runs_ms"), f"its runs together are not the entry's {len(samples):,} samples_ms, in order")
    return runs


class _Capacity:
    """Counts a report's latency entries and samples as they are read, refusing the one that
    goes past what a report may hold."""

    def __init__(self) -> None:
        self.entries = 0
        self.samples = 0

    def latency(self, f: Fields, *, required: bool = False) -> tuple["LatencyResult", ...]:
        where = f.name("latency")
        items = f.items("latency", required=required)
        self.entries += len(items)
        if self.entries > MAX_LATENCY_ENTRIES:
            held = f"holds {len(items):,} entries" if self.entries == len(items) else f"brings the report to {self.entries:,} entries"
            raise ReportSchemaError(where, f"{held}, more than the {MAX_LATENCY_ENTRIES:,} a report may hold")
        out = []
        for i, item in enumerate(items):
            entry = latency_entry(item, f"{where}[{i}]")
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
    return tuple(read_entry(MoveEntry, m, f"{f.name('moves')}[{i}]") for i, m in enumerate(items))


def _interval(f: Fields, key: str) -> tuple[float, float] | None:
    """``[low, high]`` (two numbers, low <= high), or None when absent."""
    if f.data.get(key) is None:
        return None
    values = f.numbers(key)
    if len(values) != 2 or values[0] > values[1]:
        raise ReportSchemaError(f.name(key), "expected [low, high]: two numbers, low first")
    return values[0], values[1]


def _lenient_error(value: Any) -> str | None:
    return read.optional_text(value.get("message") if isinstance(value, Mapping) else value)


def _error_kind(f: Fields, key: str) -> str | None:
    return f.mapping(key).text("kind") if isinstance(f.data.get(key), Mapping) else None


def _lenient_error_kind(value: Any) -> str | None:
    return read.optional_text(value.get("kind")) if isinstance(value, Mapping) else None


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
    error: str | None = field(metadata={"read": (lambda f, k: _error(f), _lenient_error)})
    note: str | None
    #: The error's ``kind`` ("oom", "cancelled", ...), where it has one.
    error_kind: str | None = field(default=None, metadata={"key": "error", "read": (_error_kind, _lenient_error_kind)})


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
    """One memory reading of a report's ``memory`` section."""

    t: float | None
    allocated: float | None
    reserved: float | None
    used: float | None
    total: float | None
    process_rss: float | None = None  # the CPU's resident set (older reports: its "allocated")
    other_processes: float | None = None  # a GPU's memory held by other processes (NVML)


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
            devices=tuple(read_entry(DeviceEntry, d, f"{where}[{i}]") for i, d in enumerate(entries)),
        )

    @classmethod
    def lenient(cls, report: Mapping[str, Any]) -> "Environment":
        """``report``'s environment (the whole report: devices may sit one level down)."""
        section = read.section(report, "environment")
        return cls(
            text={k: read.optional_text(section.get(k)) for k in _ENVIRONMENT_TEXT},
            counts={k: read.whole(section.get(k)) for k in _ENVIRONMENT_COUNTS},
            devices=tuple(read_entry(DeviceEntry, d) for d in read.device_entries(report)),
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


def _lenient_latencies(value: Any) -> tuple[LatencyResult, ...]:
    return tuple(lenient_latency_entry(e) for e in mappings(value))


def _required_flag(f: Fields, key: str) -> bool:
    if not isinstance(f.data.get(key), bool):
        raise ReportSchemaError(f.name(key), f"expected true or false, not {kind_of(f.data.get(key))}")
    return f.flag(key)


@dataclass(frozen=True)
class RankEntry:
    """One rank of a torchrun report (``core.remote.ranks``), as the Ranks tab reads it
    (``entry_reader`` reads it, strict or lenient, by these fields)."""

    #: Whole numbers the file states that nobody reads yet: checked, not kept.
    __checked_only__ = (("local_rank", "whole"), ("world_size", "whole"))

    rank: int = field(metadata={"read": (lambda f, k: f.whole(k, required=True) or 0, lambda v: read.whole(v) or 0)})
    ok: bool = field(metadata={"read": (_required_flag, lambda v: v is True)})
    host: str | None
    device: str | None
    error: str | None
    #: Strict reads count the entries and samples against the whole report's (``_Capacity``).
    latency: tuple[LatencyResult, ...] = field(metadata={"read": (
        lambda f, k: _Capacity().latency(f, required=True), lambda v: _lenient_latencies(v))})  # fmt: skip
    moves: tuple[MoveEntry, ...] = field(metadata={"read": (
        lambda f, k: _moves(f), lambda v: tuple(read_entry(MoveEntry, m) for m in mappings(v)))})  # fmt: skip


@dataclass(frozen=True, eq=False)
class TimingReport:
    """A timing report, typed: what ``timing_report.load_report`` returns, what a session's
    ``report()`` builds, and what the comparison, the views and the writer take
    (``report.latency[0].median_ms``, ``report.model.class_name``). A plain value, not a mapping:
    a dict (a script's, an agent's) is read once, at the edge, by ``lenient`` or ``from_dict``.

    ``data`` is the JSON document it was read from (or built as), kept whole: ``to_dict``
    gives it back for the file, so a report loaded and saved again is byte for byte what it
    was, keys a later version added included. Sections nobody types yet (``modules``,
    ``attribution``, ``fit``, ``model_memory``) are read from it (``section``).

    ``from_dict`` checks every field (``ReportSchemaError`` names the first bad one);
    ``lenient`` never raises (a field of the wrong type counts as absent), for a dict nobody
    checked.
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

    # ------------------------------------------------------------- read

    @classmethod
    def lenient(cls, data: Any) -> "TimingReport":
        """A report nobody checked (one a script made, an old file), never raising: a field of
        the wrong type reads as absent (None, "?", nothing), as ``lenient_read`` reads it."""
        report: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
        memory = read.section(report, "memory")
        return cls(
            schema_version=read.whole(report.get("schema_version")) or 0,
            created=read.text(report.get("created"), ""),
            tool_version=read.optional_text(read.section(report, "tool").get("version")),
            environment=Environment.lenient(report),
            model=read_entry(ModelSection, read.section(report, "model")),
            moves=tuple(read_entry(MoveEntry, m) for m in read.entries(report, "moves")),
            latency=tuple(lenient_latency_entry(e) for e in read.entries(report, "latency")),
            memory={
                str(device): tuple(read_entry(MemoryPoint, p) for p in points)
                for device, points in memory.items() if isinstance(points, list)
            },  # fmt: skip
            ranks=tuple(read_entry(RankEntry, r) for r in read.entries(report, "ranks")),
            data=report,
        )

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
            model=read_entry(ModelSection, f.value("model", True), "model"),
            moves=_moves(f, required=True),
            latency=capacity.latency(f, required=True),
            memory={
                checked_text(device, "memory"): tuple(
                    read_entry(MemoryPoint, p, f"{memory.name(device)}[{i}]")
                    for i, p in enumerate(memory.items(device, what="a list of readings"))
                )
                for device in memory.data
            },
            ranks=tuple(read_entry(RankEntry, r, f"ranks[{i}]", reads={"latency": (
                lambda f, k: capacity.latency(f, required=True), _lenient_latencies)}) for i, r in enumerate(f.items("ranks"))),  # fmt: skip
            data=data,
        )
