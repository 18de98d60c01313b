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

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from inspector.core.report import lenient_read as read
from inspector.core.report.field_checks import Fields, ReportSchemaError, checked_text, kind_of
from inspector.core.report.sample_figures import SampleFigures, contradiction, figures_of
from inspector.core.vocabulary import MAX_SAMPLES

if TYPE_CHECKING:  # measure.timing imports torch; a report is read without it
    from inspector.core.measure.timing import LatencyResult

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


@dataclass(frozen=True)
class LatencyEntry:
    """One latency measurement of a report: its samples, and what it was.

    Its statistics (``median_ms``, ``p95_ms``, ``iqr_ms``, ...) are properties of its samples
    (``sample_figures``), as ``torch.utils.benchmark``'s ``Measurement`` derives its own from
    ``raw_times``: the file states them too, for other consumers, and a checked file whose stated
    figures its samples contradict is refused, so the two never differ. A measurement made in
    this process (``measure.timing.LatencyResult``) becomes one by ``from_result``: its dict, read
    back (the one conversion between the two types).
    """

    device: str
    dtype: str
    mode: str
    input_shape: tuple[int, ...]
    warmup_ms: float | None
    warmup_samples_ms: tuple[float, ...]
    samples_ms: tuple[float, ...]
    notes: tuple[str, ...] = ()
    #: Each independent run's samples (``bench --repeat``): two or more that together, in order,
    #: are ``samples_ms``; () for one run (then ``runs`` is the samples as one run).
    runs_ms: tuple[tuple[float, ...], ...] = ()
    # Schema 2 on (absent from older reports).
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
    #: Per run: the machine stalled at least half its samples (``bench --against``'s rounds), so
    #: ``compare`` gives the machine's "no verdict" as ``bench`` did; () when not recorded.
    runs_spoiled: tuple[bool, ...] = ()
    #: ``torch.get_num_threads()`` during the run (issue 34 on).
    threads: int | None = None
    #: The entry states its spread (``iqr_ms`` or ``noise``: schema 2 on); an older one's noise
    #: note is computed from its samples (``noise_note``).
    spread_stated: bool = False

    # ----------------------------------------------------------- derived from the samples

    @functools.cached_property
    def figures(self) -> SampleFigures | None:
        """The statistics of ``samples_ms`` (computed once); None for an entry without a sample
        (only a report read leniently has one)."""
        return figures_of(self.samples_ms) if self.samples_ms else None

    def _figure(self, name: str) -> float | None:
        figures = self.figures
        return None if figures is None else float(getattr(figures, name))

    @property
    def count(self) -> int:
        return len(self.samples_ms)

    @property
    def median_ms(self) -> float | None:
        return self._figure("median_ms")

    @property
    def mean_ms(self) -> float | None:
        return self._figure("mean_ms")

    @property
    def p5_ms(self) -> float | None:
        return self._figure("p5_ms")

    @property
    def p95_ms(self) -> float | None:
        return self._figure("p95_ms")

    @property
    def min_ms(self) -> float | None:
        return self._figure("min_ms")

    @property
    def max_ms(self) -> float | None:
        return self._figure("max_ms")

    @property
    def std_ms(self) -> float | None:
        return self._figure("std_ms")

    @property
    def iqr_ms(self) -> float | None:
        return self._figure("iqr_ms")

    @property
    def median_ci_ms(self) -> tuple[float, float] | None:
        return self.figures.median_ci_ms if self.figures is not None else None

    @property
    def noise_note(self) -> str | None:
        """The noise flag's words: as the measurement said them (schema 2 on), or, for an
        older entry, what its samples say."""
        if self.spread_stated:
            return self.noise
        return self.figures.noise if self.figures is not None else None

    @property
    def runs(self) -> tuple[tuple[float, ...], ...]:
        """The independent runs: ``runs_ms``, or the samples as one run (none without samples)."""
        return self.runs_ms or ((self.samples_ms,) if self.samples_ms else ())

    @property
    def key(self) -> tuple[str, str, str, tuple[int, ...]]:
        """What a comparison matches entries by: device, dtype, mode, input shape."""
        return self.device, self.dtype, self.mode, self.input_shape

    # ----------------------------------------------------------- read

    @classmethod
    def from_result(cls, result: "LatencyResult") -> "LatencyEntry":
        """A measurement of this process (``measure.timing.LatencyResult``) as a report entry:
        what the report file holds of it (``to_dict``), read back. The one conversion between
        the two types: a report's entry is exactly what the file keeps of a measurement."""
        return cls.lenient(result.to_dict())

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "LatencyEntry":
        f = Fields(data, at)
        device, dtype = f.text("device", required=True) or "", f.text("dtype", required=True) or ""
        samples = _samples(f, "samples_ms", required=True)
        f.number("median_ms", required=True)  # stated for other readers; the property is the samples'
        for key in ("mean_ms", "p5_ms", "p95_ms", "min_ms", "max_ms", "std_ms", "iqr_ms"):
            f.number(key)
        _interval(f, "median_ci_ms")
        f.whole("runs"), f.number("min_time"), f.whole("warmup")  # how it was asked for: checked, not kept
        entry = cls(
            device=device,
            dtype=dtype,
            mode=f.text("mode") or "forward",
            input_shape=f.shape("input_shape"),
            warmup_ms=f.number("warmup_ms"),
            warmup_samples_ms=_samples(f, "warmup_samples_ms"),
            samples_ms=samples,
            notes=f.texts("notes"),
            runs_ms=(runs := _checked_runs(f, samples)),
            noisy=f.flag("noisy"),
            noise=f.text("noise"),
            timer=f.text("timer"),
            machine=MachineEntry.read(f),
            warmup_asked=f.whole("warmup_asked"),
            warmup_reason=f.text("warmup_reason"),
            first_calls_ms=f.number("first_calls_ms"),
            pair_id=_pair_id(f),
            runs_spoiled=_checked_spoiled(f, runs),
            threads=f.whole("threads"),
            spread_stated="iqr_ms" in f.data or "noise" in f.data,
        )
        _check_figures(f, samples)
        return entry

    @classmethod
    def lenient(cls, data: Any) -> "LatencyEntry":
        """An entry of a report nobody checked, never raising: a field of the wrong type counts
        as absent (``lenient_read``), samples that are not numbers are left out, and ``runs_ms``
        that are not the samples, in order, count as none."""
        entry: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
        samples = _lenient_samples(entry.get("samples_ms"))
        machine = entry.get("machine")
        return cls(
            device=read.text(entry.get("device")),
            dtype=read.text(entry.get("dtype")),
            mode=read.text(entry.get("mode") or "forward"),
            input_shape=read.shape(entry.get("input_shape")),
            warmup_ms=read.number(entry.get("warmup_ms")),
            warmup_samples_ms=_lenient_samples(entry.get("warmup_samples_ms")),
            samples_ms=samples,
            notes=_lenient_texts(entry.get("notes")),
            runs_ms=(runs := _lenient_runs(entry.get("runs_ms"), samples)),
            noisy=entry.get("noisy") is True,
            noise=read.optional_text(entry.get("noise")),
            timer=read.optional_text(entry.get("timer")),
            machine=MachineEntry.lenient(machine) if isinstance(machine, Mapping) else None,
            warmup_asked=read.whole(entry.get("warmup_asked")),
            warmup_reason=read.optional_text(entry.get("warmup_reason")),
            first_calls_ms=read.number(entry.get("first_calls_ms")),
            pair_id=read.text(entry.get("pair_id"), "") or None,
            runs_spoiled=_lenient_spoiled(entry.get("runs_spoiled"), runs),
            threads=read.whole(entry.get("threads")),
            spread_stated="iqr_ms" in entry or "noise" in entry,
        )


@dataclass(frozen=True)
class MachineEntry:
    """What the machine did during a run (``measure.machine_noise``): shares of the machine's
    CPU (0 to 1) and a count, each None where not measured; ``note`` says it in words."""

    measured: bool
    note: str | None
    other_cpu_share: float | None
    steal_share: float | None
    involuntary_switches: int | None
    disturbed: bool = False  # the machine took enough of the run to say so (``note`` says how)

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
                   f.whole("involuntary_switches"), f.flag("disturbed"))  # fmt: skip

    @classmethod
    def lenient(cls, data: Mapping[str, Any]) -> "MachineEntry":
        other, steal = (s if (s := read.number(data.get(k))) is not None and s <= 1 else None
                        for k in ("other_cpu_share", "steal_share"))  # fmt: skip
        return cls(data.get("measured") is True, read.optional_text(data.get("note")), other, steal,
                   read.whole(data.get("involuntary_switches")), data.get("disturbed") is True)  # fmt: skip


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
    error_kind: str | None = None  # the error's ``kind`` ("oom", "cancelled", ...), where it has one

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
            error_kind=f.mapping("error").text("kind") if isinstance(f.data.get("error"), Mapping) else None,
        )

    @classmethod
    def lenient(cls, data: Any) -> "MoveEntry":
        m: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
        error = m.get("error")
        return cls(
            call=read.optional_text(m.get("call")),
            method=read.optional_text(m.get("method")),
            source=read.optional_text(m.get("source")),
            target=read.optional_text(m.get("target")),
            dtype=read.optional_text(m.get("dtype")),
            pinned=m.get("pinned") is True,
            seconds=read.number(m.get("seconds")),
            bytes=read.whole(m.get("bytes")),
            gbps=read.number(m.get("gbps")),
            ok=m.get("ok") is True,
            error=read.optional_text(error.get("message") if isinstance(error, Mapping) else error),
            note=read.optional_text(m.get("note")),
            error_kind=read.optional_text(error.get("kind")) if isinstance(error, Mapping) else None,
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
        return cls(*(f.number(k) for k in _MEMORY_KEYS))

    @classmethod
    def lenient(cls, data: Any) -> "MemoryPoint":
        point: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
        return cls(*(read.number(point.get(k)) for k in _MEMORY_KEYS))


_MEMORY_KEYS = ("t", "allocated", "reserved", "used", "total", "process_rss", "other_processes")


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

    @classmethod
    def lenient(cls, data: Mapping[str, Any]) -> "DeviceEntry":
        text = read.optional_text
        return cls(text(data.get("id")), text(data.get("type")), text(data.get("name")), read.number(data.get("total_bytes")))


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

    @classmethod
    def lenient(cls, report: Mapping[str, Any]) -> "Environment":
        """``report``'s environment (the whole report: devices may sit one level down)."""
        section = read.section(report, "environment")
        return cls(
            text={k: read.optional_text(section.get(k)) for k in _ENVIRONMENT_TEXT},
            counts={k: read.whole(section.get(k)) for k in _ENVIRONMENT_COUNTS},
            devices=tuple(DeviceEntry.lenient(d) for d in read.device_entries(report)),
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
    #: The file the spec names, absolute (issue 34 on): one file named from two folders is one model.
    resolved_spec: str | None = None
    meta_bytes: int | None = None  # what the meta tensors would take

    @classmethod
    def from_dict(cls, data: Any, at: str) -> "ModelSection":
        f = Fields(data, at)
        for key in ("trainable_parameters", "elements"):
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
            resolved_spec=f.text("resolved_spec"),
            meta_bytes=f.whole("meta_bytes"),
        )

    @classmethod
    def lenient(cls, data: Mapping[str, Any]) -> "ModelSection":
        def counts(key: str) -> dict[str, float]:
            return {str(k): n for k, v in read.section(data, key).items() if (n := read.number(v)) is not None}

        return cls(
            spec=read.optional_text(data.get("spec")),
            class_name=read.optional_text(data.get("class")),
            source=read.optional_text(data.get("source")),
            optimizer=read.optional_text(data.get("optimizer")),
            parameters=read.whole(data.get("parameters")),
            tensors=read.whole(data.get("tensors")),
            bytes=read.whole(data.get("bytes")),
            by_device=counts("by_device"),
            by_dtype=counts("by_dtype"),
            notes=_lenient_texts(data.get("notes")),
            resolved_spec=read.optional_text(data.get("resolved_spec")),
            meta_bytes=read.whole(data.get("meta_bytes")),
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

    @classmethod
    def lenient(cls, data: Mapping[str, Any]) -> "RankEntry":
        return cls(
            rank=read.whole(data.get("rank")) or 0,
            ok=data.get("ok") is True,
            host=read.optional_text(data.get("host")),
            device=read.optional_text(data.get("device")),
            error=read.optional_text(data.get("error")),
            latency=tuple(LatencyEntry.lenient(e) for e in read.entries(data, "latency")),
            moves=tuple(MoveEntry.lenient(m) for m in read.entries(data, "moves")),
        )


@dataclass(frozen=True, eq=False)
class TimingReport(Mapping[str, Any]):
    """A timing report, typed: what ``timing_report.load_report`` returns, and what the
    comparison and the views read (``report.latency[0].median_ms``, ``report.model.class_name``).

    ``data`` is the JSON document it was read from (or built as), kept whole: ``to_dict``
    gives it back for the file, so a report loaded and saved again is byte for byte what it
    was, keys a later version added included. Sections nobody types yet (``modules``,
    ``attribution``, ``fit``, ``model_memory``) are read from it. Until every reader takes
    the attributes, a report also reads as the read-only mapping it came from
    (``report["latency"]``), so a reader not yet converted is handed the same object.

    ``from_dict`` checks every field (``ReportSchemaError`` names the first bad one);
    ``lenient`` never raises (a field of the wrong type counts as absent), for a dict nobody
    checked; ``of`` takes either a report or a dict.
    """

    schema_version: int
    created: str
    tool_version: str | None
    environment: Environment
    model: ModelSection
    moves: tuple[MoveEntry, ...]
    latency: tuple[LatencyEntry, ...]
    memory: dict[str, tuple[MemoryPoint, ...]]
    ranks: tuple[RankEntry, ...] = ()  # a torchrun job's every rank; absent otherwise
    data: Mapping[str, Any] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------- the file's form

    def to_dict(self) -> dict[str, Any]:
        """The report as its JSON file holds it (``timing_report.render_json`` writes this)."""
        return dict(self.data)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    # ------------------------------------------------------------- read

    @classmethod
    def of(cls, report: "TimingReport | Mapping[str, Any] | None") -> "TimingReport":
        """``report`` itself, or a dict nobody checked read leniently (None: an empty report)."""
        if isinstance(report, TimingReport):
            return report
        return cls.lenient(report if report is not None else {})

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
            model=ModelSection.lenient(read.section(report, "model")),
            moves=tuple(MoveEntry.lenient(m) for m in read.entries(report, "moves")),
            latency=tuple(LatencyEntry.lenient(e) for e in read.entries(report, "latency")),
            memory={
                str(device): tuple(MemoryPoint.lenient(p) for p in points)
                for device, points in memory.items() if isinstance(points, list)
            },  # fmt: skip
            ranks=tuple(RankEntry.lenient(r) for r in read.entries(report, "ranks")),
            data=report,
        )

    @classmethod
    def from_dict(cls, data: Any) -> "TimingReport":
        """Check every field a reader uses; ``ReportSchemaError`` names the first bad one.

        The schema version is checked (and a newer one refused) by ``report.load_report``.
        """
        if isinstance(data, TimingReport):
            data = data.data
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
            data=data,
        )


def file_dict(report: "TimingReport | Mapping[str, Any]") -> Mapping[str, Any]:
    """The file's dict of ``report``: a ``TimingReport``'s ``to_dict()``, a dict as it is. For
    the readers that read the file's form itself: the CSV tables (a projection of the file)
    and the sections nobody types yet (``modules``, ``attribution``, ``fit``)."""
    return report.to_dict() if isinstance(report, TimingReport) else report
