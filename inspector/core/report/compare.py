"""Two timing reports side by side: latency per device with ratios, moves with GB/s, environments.

Pure data (no Qt): the GUI's comparison view shows these rows; a script could print them.
Reports are the dicts ``inspector.core.report.timing_report.build_report``/``load_report`` give; entries
written by older versions may lack optional keys, so every read here tolerates absence. A
dict nobody checked is read safely too: any field of the wrong type counts as absent, so a
comparison never raises (``tests/core/test_report_fuzz.py`` holds it to that).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Mapping, Sequence, TypeVar

from inspector.core.measure.spread import RatioEstimate, ratio_of_medians, ratio_verdict, spread_of
from inspector.core.units import format_bytes

#: Move ratios within this fraction of 1 read as "about the same": a move is one
#: measurement, with no samples to judge its noise by. Latency ratios are judged by the
#: confidence interval of their medians instead (``core.measure.spread``).
SAME_WITHIN = 0.03


@dataclass(frozen=True)
class LatencyRow:
    """One (device, dtype, mode, input shape) measured in A and/or B. Times in ms.

    ``ratio`` is B's median divided by A's (above 1: B is slower), ``ratio_low``/``ratio_high``
    its 95 % bootstrap interval (None: too few samples); the verdict says "no clear
    difference" when the interval holds 1. Only entries alike in device, dtype, mode and
    input shape get a ratio; an entry whose counterpart differs in one of those gets a
    verdict naming the difference. ``noise_*``: that side's noise flag, or None.
    ``speedup_vs_cpu_*`` is that report's own CPU median for the same dtype/mode/shape
    divided by this median.
    """

    device: str
    dtype: str
    mode: str
    input_shape: tuple[int, ...]
    device_name_a: str | None
    device_name_b: str | None
    median_a: float | None
    p5_a: float | None
    p95_a: float | None
    samples_a: int
    median_b: float | None
    p5_b: float | None
    p95_b: float | None
    samples_b: int
    ratio: float | None
    speedup_vs_cpu_a: float | None
    speedup_vs_cpu_b: float | None
    verdict: str
    ratio_low: float | None = None
    ratio_high: float | None = None
    noise_a: str | None = None
    noise_b: str | None = None

    @property
    def interval_text(self) -> str:
        """``'1.93–2.08×'``, or ``'—'`` without an interval."""
        if self.ratio is None:
            return "—"
        return RatioEstimate(self.ratio, self.ratio_low, self.ratio_high).interval_text()


@dataclass(frozen=True)
class MoveRow:
    """One kind of move (route, method, dtype, pinned) in A and/or B.

    Seconds and GB/s are medians over the successful moves of that kind; ``ratio`` is B's
    GB/s divided by A's (above 1: B moves faster).
    """

    source: str
    target: str
    method: str
    dtype: str | None
    pinned: bool
    count_a: int
    failed_a: int
    bytes_a: int | None
    seconds_a: float | None
    gbps_a: float | None
    count_b: int
    failed_b: int
    bytes_b: int | None
    seconds_b: float | None
    gbps_b: float | None
    ratio: float | None
    verdict: str

    @property
    def route(self) -> str:
        return f"{self.source} → {self.target}"


@dataclass(frozen=True)
class EnvironmentRow:
    """One fact about where a report was made (``section``: report, environment, device, model)."""

    section: str
    name: str
    a: str
    b: str
    differs: bool


@dataclass(frozen=True)
class Comparison:
    label_a: str
    label_b: str | None  # None: one report shown on its own
    latency: tuple[LatencyRow, ...]
    moves: tuple[MoveRow, ...]
    environment: tuple[EnvironmentRow, ...]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for row, source in zip(out["moves"], self.moves):
            row["route"] = source.route
        return out


# --------------------------------------------------------------------------- entry point


def compare_reports(a: Mapping[str, Any], b: Mapping[str, Any] | None = None, *,
                    label_a: str = "A", label_b: str = "B") -> Comparison:  # fmt: skip
    """Rows comparing report ``a`` with ``b`` (or describing ``a`` alone when ``b`` is None)."""
    empty: Mapping[str, Any] = {}
    other = b if b is not None else empty
    return Comparison(
        label_a=label_a,
        label_b=label_b if b is not None else None,
        latency=tuple(_latency_rows(a, other, label_a, label_b)),
        moves=tuple(_move_rows(a, other, label_a, label_b)),
        environment=tuple(_environment_rows(a, other)),
    )


def describe_ratio(ratio: float | None, label: str, *, higher_is_better: bool = False) -> str:
    """``ratio`` of B over A in words from B's side, e.g. "B 2.10× faster"."""
    if ratio is None:
        return ""
    if abs(ratio - 1) <= SAME_WITHIN:
        return "about the same"
    better = ratio > 1 if higher_is_better else ratio < 1
    factor = ratio if ratio >= 1 else 1 / ratio
    return f"{label} {factor:.2f}× {'faster' if better else 'slower'}"


# --------------------------------------------------------------------------- latency


#: Past this a "number" from a file is nonsense (and some would not even convert to float).
_LARGEST = 1e18


def _number(value: Any) -> float | None:
    """A finite number in [0, 1e18], or None for anything else (text, NaN, 10**400, -1)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int) and not -_LARGEST <= value <= _LARGEST:
        return None  # float() of a 400-digit int raises OverflowError
    number = float(value)
    return number if math.isfinite(number) and 0 <= number <= _LARGEST else None


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and _number(value) is not None else None


def _text(value: Any, default: str = "?") -> str:
    """Text to show for a value from a report: text and numbers as they are, else ``default``."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or (isinstance(value, (int, float)) and _number(abs(value)) is not None):
        return str(value)
    return default


def _section(report: Any, key: str) -> Mapping[str, Any]:
    value = report.get(key) if isinstance(report, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def _entries(report: Any, key: str) -> list[Mapping[str, Any]]:
    value = report.get(key) if isinstance(report, Mapping) else None
    return [e for e in value if isinstance(e, Mapping)] if isinstance(value, list) else []


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list) else 0


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    # A zero on either side is no measurement to compare against (and 1/0 in the words).
    if numerator is None or denominator is None or numerator <= 0 or denominator <= 0:
        return None
    ratio = numerator / denominator
    return ratio if math.isfinite(ratio) and ratio > 0 else None


def _shape(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > 64:
        return ()
    dims = tuple(_whole(d) for d in value)
    return () if any(d is None for d in dims) else tuple(d for d in dims if d is not None)


def _latency_key(entry: Mapping[str, Any]) -> tuple[str, str, str, tuple[int, ...]]:
    return (_text(entry.get("device")), _text(entry.get("dtype")),
            _text(entry.get("mode") or "forward"), _shape(entry.get("input_shape")))  # fmt: skip


def _latency_by_key(report: Mapping[str, Any]) -> dict[tuple[Any, ...], Mapping[str, Any]]:
    # A re-run of the same measurement replaces the earlier one: the latest is what counts.
    return {_latency_key(e): e for e in _entries(report, "latency")}


def _cpu_speedup(key: tuple[Any, ...], entries: Mapping[tuple[Any, ...], Mapping[str, Any]]) -> float | None:
    device, dtype, mode, shape = key
    if device == "cpu":
        return None
    cpu = entries.get(("cpu", dtype, mode, shape))
    if cpu is None:
        return None
    return _ratio(_number(cpu.get("median_ms")), _number(entries[key].get("median_ms")))


def _device_names(report: Mapping[str, Any]) -> dict[str, str]:
    names = {}
    for entry in _device_entries(report):
        ident, name = _text(entry.get("id"), ""), _text(entry.get("name"), "")
        if ident and name:
            names[ident] = name
    return names


_MAX_SAMPLES_READ = 1_000_000  # more than any report holds (100,000 per measurement)


def _samples(entry: Mapping[str, Any]) -> list[float]:
    values = entry.get("samples_ms")
    if not isinstance(values, list):
        return []
    return [n for v in values[:_MAX_SAMPLES_READ] if (n := _number(v)) is not None]


def _noise(entry: Mapping[str, Any]) -> str | None:
    """The entry's noise flag: as written (schema 2 on), else judged from its samples."""
    if not entry:
        return None
    if "noise" in entry or "noisy" in entry:
        noise = entry.get("noise")
        if isinstance(noise, str) and noise:
            return noise
        return "noisy" if entry.get("noisy") is True else None
    samples = _samples(entry)
    return spread_of(samples).noise if samples else None


def _estimate(ea: Mapping[str, Any], eb: Mapping[str, Any]) -> RatioEstimate | None:
    median_a, median_b = _number(ea.get("median_ms")), _number(eb.get("median_ms"))
    if _ratio(median_b, median_a) is None:
        return None
    return ratio_of_medians(_samples(ea), _samples(eb), median_a=median_a, median_b=median_b)


_KEY_PARTS = ((1, "dtype"), (2, "mode"), (3, "input shape"))


def _shape_words(shape: tuple[int, ...]) -> str:
    return "x".join(map(str, shape)) or "?"


def _differences(key: tuple[Any, ...], other: tuple[Any, ...]) -> list[str]:
    """How two entries of the same device differ: ["mode (forward vs train-step)", ...]."""
    out = []
    for index, name in _KEY_PARTS:
        if key[index] != other[index]:
            mine, theirs = (key[index], other[index]) if index != 3 else (_shape_words(key[index]), _shape_words(other[index]))
            out.append(f"{name} ({mine} vs {theirs})")
    return out


def _unmatched(key: tuple[Any, ...], others: Mapping[tuple[Any, ...], Any], label: str, other_label: str) -> str:
    """Why an entry of ``label``'s report has no ratio: its nearest counterpart on the same
    device differs in dtype, mode or input shape (named), or there is none."""
    candidates = [_differences(key, other) for other in others if other[0] == key[0]]
    if not candidates:
        return "only in " + label
    # The nearest counterpart: fewest differences, and the same mode before another mode
    # (a train step differs more from a forward pass than from a train step on another input).
    fewest = min(candidates, key=lambda d: (len(d), any(x.startswith("mode") for x in d)))
    return f"not compared: {other_label}'s {key[0]} run differs in " + " and ".join(fewest)


def _latency_rows(a: Mapping[str, Any], b: Mapping[str, Any], label_a: str, label_b: str) -> Iterable[LatencyRow]:
    entries_a, entries_b = _latency_by_key(a), _latency_by_key(b)
    names_a, names_b = _device_names(a), _device_names(b)
    for key in _union(entries_a, entries_b):
        ea, eb = entries_a.get(key, {}), entries_b.get(key, {})
        median_a, median_b = _number(ea.get("median_ms")), _number(eb.get("median_ms"))
        estimate = _estimate(ea, eb) if ea and eb else None
        noise_a, noise_b = _noise(ea), _noise(eb)
        if estimate is not None:
            verdict = ratio_verdict(estimate, label_b)
            noisy = [label for label, noise in ((label_a, noise_a), (label_b, noise_b)) if noise]
            if noisy and estimate.clear:  # the interval sees one run's noise, not what changes between runs
                verdict += f" ({' and '.join(noisy)} noisy: may not repeat)"
        elif b and key not in entries_b:
            verdict = _unmatched(key, entries_b, label_a, label_b)
        elif b and key not in entries_a:
            verdict = _unmatched(key, entries_a, label_b, label_a)
        else:
            verdict = ""
        yield LatencyRow(
            device=key[0], dtype=key[1], mode=key[2], input_shape=key[3],
            device_name_a=names_a.get(key[0]) if ea else None,
            device_name_b=names_b.get(key[0]) if eb else None,
            median_a=median_a, p5_a=_number(ea.get("p5_ms")), p95_a=_number(ea.get("p95_ms")),
            samples_a=_count(ea.get("samples_ms")),
            median_b=median_b, p5_b=_number(eb.get("p5_ms")), p95_b=_number(eb.get("p95_ms")),
            samples_b=_count(eb.get("samples_ms")),
            ratio=estimate.ratio if estimate is not None else None,
            speedup_vs_cpu_a=_cpu_speedup(key, entries_a) if ea else None,
            speedup_vs_cpu_b=_cpu_speedup(key, entries_b) if eb else None,
            verdict=verdict,
            ratio_low=estimate.low if estimate is not None else None,
            ratio_high=estimate.high if estimate is not None else None,
            noise_a=noise_a, noise_b=noise_b,
        )  # fmt: skip


_K = TypeVar("_K")


def _union(first: Mapping[_K, Any], second: Mapping[_K, Any]) -> list[_K]:
    """Keys of both, first's order then second's new ones (dicts keep insertion order)."""
    return list(dict.fromkeys([*first, *second]))


# --------------------------------------------------------------------------- moves


def _move_key(move: Mapping[str, Any]) -> tuple[str, str, str, str | None, bool]:
    dtype = move.get("dtype")
    return (_text(move.get("source")), _text(move.get("target")), _text(move.get("method")),
            _text(dtype) if dtype is not None else None, move.get("pinned") is True)  # fmt: skip


@dataclass(frozen=True)
class _MoveSummary:
    count: int = 0
    failed: int = 0
    bytes: int | None = None
    seconds: float | None = None
    gbps: float | None = None


def _move_summaries(report: Mapping[str, Any]) -> dict[tuple[Any, ...], _MoveSummary]:
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for move in _entries(report, "moves"):
        groups.setdefault(_move_key(move), []).append(move)
    out = {}
    for key, moves in groups.items():
        ok = [m for m in moves if m.get("ok") is True]
        seconds = [s for m in ok if (s := _number(m.get("seconds"))) is not None]
        gbps = [g for m in ok if (g := _number(m.get("gbps"))) is not None]
        sizes = [b for m in ok if (b := _whole(m.get("bytes"))) is not None]
        out[key] = _MoveSummary(
            count=len(moves), failed=len(moves) - len(ok),
            bytes=max(sizes) if sizes else None,
            seconds=statistics.median(seconds) if seconds else None,
            gbps=statistics.median(gbps) if gbps else None,
        )  # fmt: skip
    return out


def _move_rows(a: Mapping[str, Any], b: Mapping[str, Any], label_a: str, label_b: str) -> Iterable[MoveRow]:
    summaries_a, summaries_b = _move_summaries(a), _move_summaries(b)
    for key in _union(summaries_a, summaries_b):
        sa, sb = summaries_a.get(key, _MoveSummary()), summaries_b.get(key, _MoveSummary())
        ratio = _ratio(sb.gbps, sa.gbps)
        if ratio is not None:
            verdict = describe_ratio(ratio, label_b, higher_is_better=True)
        elif b and (key in summaries_a) != (key in summaries_b):
            verdict = "only in " + (label_a if key in summaries_a else label_b)
        else:
            verdict = ""
        yield MoveRow(
            source=key[0], target=key[1], method=key[2], dtype=key[3], pinned=key[4],
            count_a=sa.count, failed_a=sa.failed, bytes_a=sa.bytes, seconds_a=sa.seconds, gbps_a=sa.gbps,
            count_b=sb.count, failed_b=sb.failed, bytes_b=sb.bytes, seconds_b=sb.seconds, gbps_b=sb.gbps,
            ratio=ratio, verdict=verdict,
        )  # fmt: skip


# --------------------------------------------------------------------------- environment

_ENVIRONMENT_FIELDS = (
    ("python", "Python"),
    ("torch", "PyTorch"),
    ("cuda", "CUDA"),
    ("hip", "ROCm (HIP)"),
    ("cudnn", "cuDNN"),
    ("driver", "Driver"),
    ("os", "OS"),
    ("cpu", "CPU"),
    ("cpu_physical_cores", "CPU cores"),
    ("cpu_logical_cores", "CPU threads"),
    ("torch_threads", "PyTorch threads"),
    ("system_memory_bytes", "System memory"),
    ("cpu_huge_pages", "CPU huge pages"),
)
_MODEL_FIELDS = (
    ("spec", "Model"),
    ("class", "Class"),
    ("parameters", "Parameters"),
    ("bytes", "Size"),
    ("by_dtype", "Dtypes"),
    ("optimizer", "Optimizer"),
)


def _device_entries(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    environment = _section(report, "environment")
    if isinstance(environment.get("devices"), Mapping):  # discover_devices().to_dict(): {"devices": [...]}
        return _entries(environment["devices"], "devices")
    return _entries(environment, "devices")


def _show(value: Any, *, as_bytes: bool = False) -> str:
    if value is None or value == "":
        return "—"
    number = _number(value)
    if as_bytes and number is not None:
        return format_bytes(number)
    if isinstance(value, Mapping):
        return ", ".join(
            f"{_text(k)}: {format_bytes(n) if (n := _number(v)) is not None else _text(v)}" for k, v in value.items()
        )
    if isinstance(value, int) and not isinstance(value, bool) and number is not None:
        return f"{value:,}"
    return _text(value, "—")


def _device_text(entry: Mapping[str, Any]) -> str:
    name = _text(entry.get("name") or entry.get("type") or "?")
    total = _number(entry.get("total_bytes"))
    return f"{name} · {format_bytes(total)}" if total is not None else name


def _environment_rows(a: Mapping[str, Any], b: Mapping[str, Any]) -> Iterable[EnvironmentRow]:
    alone = not b

    def row(section: str, name: str, value_a: str, value_b: str) -> EnvironmentRow:
        return EnvironmentRow(section, name, value_a, "" if alone else value_b,
                              differs=not alone and value_a != value_b)  # fmt: skip

    yield row("report", "Created", _show(a.get("created")), _show(b.get("created")))
    env_a, env_b = _section(a, "environment"), _section(b, "environment")
    for key, name in _ENVIRONMENT_FIELDS:
        as_bytes = key.endswith("_bytes")
        if env_a.get(key) is None and env_b.get(key) is None:
            continue  # e.g. ROCm on two CUDA machines: a row of dashes says nothing
        yield row("environment", name, _show(env_a.get(key), as_bytes=as_bytes), _show(env_b.get(key), as_bytes=as_bytes))
    devices_a = {_text(d.get("id")): _device_text(d) for d in _device_entries(a)}
    devices_b = {_text(d.get("id")): _device_text(d) for d in _device_entries(b)}
    for device in _union(devices_a, devices_b):
        yield row("device", device, devices_a.get(device, "—"), devices_b.get(device, "—"))
    model_a, model_b = _section(a, "model"), _section(b, "model")
    for key, name in _MODEL_FIELDS:
        as_bytes = key == "bytes"
        yield row("model", name, _show(model_a.get(key), as_bytes=as_bytes), _show(model_b.get(key), as_bytes=as_bytes))


# --------------------------------------------------------------------------- runs of one session


@dataclass(frozen=True)
class Run:
    """One latency run of a session (the window's Summary tab): what it measured and its samples."""

    label: str  # "cpu · float32", "cuda:0 · bfloat16 · train-step"
    dtype: str
    mode: str
    input_shape: tuple[int, ...] | None  # None: not known yet (samples still streaming)
    median_ms: float
    samples_ms: tuple[float, ...] = ()


@dataclass(frozen=True)
class RunVerdict:
    """How one run compares with the others: ``short`` for its bar ("fastest", "2.10×
    slower", "no clear difference"), ``sentence`` for the line under the plot ("" if none)."""

    short: str
    sentence: str


def _like(run: Run) -> tuple[str, str, tuple[int, ...] | None]:
    return run.dtype, run.mode, run.input_shape


def _run_differences(run: Run, other: Run) -> str:
    parts = []
    if run.mode != other.mode:
        parts.append(f"mode: {run.mode} vs {other.mode}")
    if run.dtype != other.dtype:
        parts.append(f"dtype: {run.dtype} vs {other.dtype}")
    if run.input_shape != other.input_shape and run.input_shape is not None and other.input_shape is not None:
        parts.append(f"input: {_shape_words(run.input_shape)} vs {_shape_words(other.input_shape)}")
    return "; ".join(parts) or "not alike"


def run_verdicts(runs: Sequence[Run]) -> list[RunVerdict]:
    """Compare like with like: runs of the same dtype, mode and input shape against the
    fastest of them (the device is what differs), each ratio with its 95 % interval; a run
    with no alike run gets no ratio, and a sentence saying what it differs in."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, run in enumerate(runs):
        groups.setdefault(_like(run), []).append(i)
    out = [RunVerdict("", "")] * len(runs)
    said: set[frozenset[str]] = set()  # pairs already named: "A not compared with B" says it for B too
    for members in groups.values():
        if len(members) == 1:
            [i] = members
            others = [r for j, r in enumerate(runs) if j != i]
            if others:
                nearest = min(others, key=lambda r: len(_run_differences(runs[i], r).split(";")))
                pair = frozenset((runs[i].label, nearest.label))
                sentence = "" if pair in said else (
                    f"{runs[i].label}: not compared with {nearest.label} ({_run_differences(runs[i], nearest)}): "
                    "only runs alike in mode, dtype and input shape are compared")  # fmt: skip
                said.add(pair)
                out[i] = RunVerdict("not compared", sentence)
            continue
        fastest = min(members, key=lambda k: runs[k].median_ms)
        reference = runs[fastest]
        out[fastest] = RunVerdict("fastest", "")
        for i in members:
            if i == fastest:
                continue
            run = runs[i]
            estimate = ratio_of_medians(reference.samples_ms, run.samples_ms,
                                        median_a=reference.median_ms, median_b=run.median_ms)  # fmt: skip
            if estimate is None:
                continue
            words = ratio_verdict(estimate, "", than=f" than {reference.label}").strip()
            interval = f" (95 % CI {estimate.interval_text()})" if estimate.has_interval else ""
            if words == "no clear difference" or words.startswith("about the same"):
                sentence = f"{run.label}: {words} from {reference.label}{interval}"
            else:
                sentence = f"{run.label}: {words}{interval}"
            short = words.split(" than ")[0] if " than " in words else words
            out[i] = RunVerdict(short, sentence)
    return out
