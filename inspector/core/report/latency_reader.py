"""A report's latency entry, read as the measurement it is: ``LatencyResult``, strict or lenient.

A latency entry is read as the type ``measure_latency`` makes (``measure.measurement``): one type
from sampling to file and back. ``latency_entry(data, at)`` checks every field (the first bad one
refused with one line naming it); ``latency_entry(data)`` reads a dict nobody checked, never
raising (``field_checks.Fields``' lenient mode: a field of the wrong type reads as absent). One
function, two modes.

An entry of several independent runs (``bench --repeat``, the window's repeat setting) adds
``runs_ms``: each run's samples, a list of lists; its ``samples_ms`` stays all of them pooled,
in run order (checked), so a reader that knows nothing of runs reads the same measurement, and
every figure the entry states is the pooled samples' own.
"""

from __future__ import annotations

from typing import Any, Mapping

from inspector.core.measure.machine_noise import MachineNoise
from inspector.core.measure.measurement import LatencyResult
from inspector.core.report.field_checks import Fields, ReportSchemaError
from inspector.core.report.sample_figures import contradiction, figures_of
from inspector.core.vocabulary import MAX_SAMPLES

#: What one report may hold: far more than a real one (a benchmark writes one latency entry per
#: device, dtype, mode and input; a torchrun job one per rank), little enough that reading and
#: comparing two reports stay quick. Past any of these a report is refused, naming the field.
MAX_LATENCY_ENTRIES = 10_000  # the report's own and every rank's together
MAX_SAMPLES_PER_ENTRY = MAX_SAMPLES  # the most one measurement takes (samples_ms; warmup_samples_ms too)
#: The shortest time a sample can hold, 1 ns: the app's clocks count whole nanoseconds (the host
#: clock, and device events rounded to them), so a sample is 0 (the call took less than the
#: clock shows) or at least this. 1e-12 ms made "31473396998.64× faster"; 5e-324, "inf×".
MIN_SAMPLE_MS = 1e-6
MAX_REPORT_SAMPLES = 2_000_000  # every entry's samples and warm-up samples together
#: The most runs one entry holds (``core.measure.repeats.MAX_REPEAT``, with room).
MAX_RUNS_PER_ENTRY = 1000


def latency_entry(data: Any, at: str | None = None) -> LatencyResult:
    """One latency entry of a report: the measurement it holds, whose figures are its samples'.

    Strictly (``at`` given) the figures the file states are checked against its samples (a file
    that says one thing and holds another is refused, naming the figure), then left: the
    measurement derives its own. Leniently a field of the wrong type counts as absent, samples
    that are not numbers are left out, and ``runs_ms`` that are not the samples, in order,
    count as none. An entry from before schema 2 states no noise: its samples' own is taken."""
    f = Fields(data, at)
    device, dtype = f.text("device", required=True, default="?") or "", f.text("dtype", required=True, default="?") or ""
    samples = _samples(f, "samples_ms", required=True)
    if f.strict:
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
        runs_ms=(runs := _runs(f, samples)),
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
        runs_spoiled=_spoiled(f, runs),
        threads=f.whole("threads"),
        batch=f.whole("batch"),
    )
    if f.strict:
        _check_figures(f, samples)
    return entry


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
    value = entry.data.get("machine")
    if value is None or (not entry.strict and not isinstance(value, Mapping)):
        return None
    f = entry.mapping("machine")
    shares = {key: f.number(key) for key in ("other_cpu_share", "steal_share")}
    for key, share in shares.items():
        if share is not None and share > 1:
            f.refuse(f.name(key), f"expected a share from 0 to 1, not {share:g}")
            shares[key] = None
    f.flag("disturbed")
    return MachineNoise(f.flag("measured"), f.text("note"), shares["other_cpu_share"], shares["steal_share"],
                        f.whole("involuntary_switches"), f.whole("sampling_threads") or 0, f.whole("samples") or 0,
                        f.whole("cpu_ticks") or 0, f.whole("cores") or 0)  # fmt: skip


def _samples(f: Fields, key: str, *, required: bool = False) -> tuple[float, ...]:
    """A list of samples, no longer than one measurement takes, each 0 or at least 1 ns
    (leniently: a time no clock measures makes the list no samples, as a wrong type would)."""
    items = f.items(key, required=required, what="a list of numbers")
    if len(items) > MAX_SAMPLES_PER_ENTRY:
        f.refuse(f.name(key), f"holds {len(items):,} samples, more than the {MAX_SAMPLES_PER_ENTRY:,} one measurement takes")
    values = f.numbers(key, required=required)
    for i, value in enumerate(values):
        if 0 < value < MIN_SAMPLE_MS:
            f.refuse(f"{f.name(key)}[{i}]", f"{value:g} ms is under 1 ns, finer than any clock measures "
                     "(a sample is 0 or at least 1e-06 ms)")  # fmt: skip
            return ()
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


def _interval(f: Fields, key: str) -> tuple[float, float] | None:
    """``[low, high]`` (two numbers, low <= high), or None when absent."""
    if f.data.get(key) is None:
        return None
    values = f.numbers(key)
    if len(values) != 2 or values[0] > values[1]:
        raise ReportSchemaError(f.name(key), "expected [low, high]: two numbers, low first")
    return values[0], values[1]


def _pair_id(f: Fields) -> str | None:
    """``pair_id`` (optional): the token of an interleaved comparison, 32 hex digits."""
    value = f.text("pair_id")
    if value is not None and (len(value) != 32 or any(c not in "0123456789abcdef" for c in value)):
        f.refuse(f.name("pair_id"), "expected the 32 hex digits of an interleaved comparison's token")
        return None
    return value or None


def _runs(f: Fields, samples: tuple[float, ...]) -> tuple[tuple[float, ...], ...]:
    """``runs_ms`` (optional: each independent run's samples) holds at least two runs, none
    empty, which together, in order, are the entry's ``samples_ms``: a reader that takes
    the pooled samples and one that takes the runs see the same measurement. Leniently,
    runs that are not that count as none."""
    if f.data.get("runs_ms") is None:
        return ()
    if len(f.items("runs_ms")) > MAX_RUNS_PER_ENTRY:
        f.refuse(f.name("runs_ms"), f"holds more than the {MAX_RUNS_PER_ENTRY:,} runs one measurement takes")
        return ()
    runs = f.number_lists("runs_ms")
    if len(runs) < 2 or not all(runs):
        f.refuse(f.name("runs_ms"), "expected two runs or more, each with samples")
        return ()
    if sum(len(r) for r in runs) != len(samples) or tuple(v for r in runs for v in r) != samples:
        f.refuse(f.name("runs_ms"), f"its runs together are not the entry's {len(samples):,} samples_ms, in order")
        return ()
    return runs


def _spoiled(f: Fields, runs: tuple[tuple[float, ...], ...]) -> tuple[bool, ...]:
    """``runs_spoiled`` (optional): one true or false per run of ``runs_ms`` (leniently: () else)."""
    if f.data.get("runs_spoiled") is None:
        return ()
    values = f.items("runs_spoiled")
    if len(values) != len(runs) or len(runs) < 2 or not all(isinstance(v, bool) for v in values):
        f.refuse(f.name("runs_spoiled"), f"expected one true or false per run of runs_ms ({len(runs)})")
        return ()
    return tuple(values)


class Capacity:
    """Counts a report's latency entries and samples as they are read, refusing the one that
    goes past what a report may hold (a lenient read takes them all)."""

    def __init__(self) -> None:
        self.entries = 0
        self.samples = 0

    def latency(self, f: Fields, *, required: bool = False) -> tuple[LatencyResult, ...]:
        where = f.name("latency")
        items = f.entries("latency", required=required)
        self.entries += len(items)
        if self.entries > MAX_LATENCY_ENTRIES:
            held = f"holds {len(items):,} entries" if self.entries == len(items) else f"brings the report to {self.entries:,} entries"
            f.refuse(where, f"{held}, more than the {MAX_LATENCY_ENTRIES:,} a report may hold")
        out = []
        for i, item in enumerate(items):
            entry = latency_entry(item, f"{where}[{i}]" if f.strict else None)
            self.samples += len(entry.samples_ms) + len(entry.warmup_samples_ms)
            if self.samples > MAX_REPORT_SAMPLES:
                f.refuse(f"{where}[{i}]", f"brings the report to {self.samples:,} samples, "
                                          f"more than the {MAX_REPORT_SAMPLES:,} a report may hold")  # fmt: skip
            out.append(entry)
        return tuple(out)
