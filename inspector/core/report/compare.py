"""Two timing reports side by side: latency per device with ratios, moves with GB/s, environments.

Pure data (no Qt): the GUI's comparison view shows these rows; a script could print them.
Reports are the dicts ``inspector.core.report.timing_report.build_report``/``load_report`` give; entries
written by older versions may lack optional keys, so every read here tolerates absence. A
dict nobody checked is read safely too: every read goes through ``lenient_read``, where any
field of the wrong type counts as absent, so a comparison never raises
(``tests/core/report/test_report_fuzz.py`` holds it to that). The environments side by side
are ``compare_environment``'s; the runs of one session, like with like, ``run_verdicts``'.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Mapping

from inspector.core.measure.spread import RatioEstimate, ratio_of_medians, ratio_verdict, spread_of
from inspector.core.messages import Text, joined
from inspector.core.report import lenient_read as read
from inspector.core.report.compare_environment import EnvironmentRow, environment_rows

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
        environment=tuple(environment_rows(a, other)),
    )


def describe_ratio(ratio: float | None, label: str, *, higher_is_better: bool = False) -> str:
    """``ratio`` of B over A in words from B's side, e.g. "B 2.10× faster"."""
    if ratio is None:
        return ""
    if abs(ratio - 1) <= SAME_WITHIN:
        return Text("verdict.same")
    better = ratio > 1 if higher_is_better else ratio < 1
    factor = ratio if ratio >= 1 else 1 / ratio
    return Text("verdict.faster" if better else "verdict.slower", label=label, factor=f"{factor:.2f}")


# --------------------------------------------------------------------------- latency


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    # A zero on either side is no measurement to compare against (and 1/0 in the words).
    if numerator is None or denominator is None or numerator <= 0 or denominator <= 0:
        return None
    ratio = numerator / denominator
    return ratio if math.isfinite(ratio) and ratio > 0 else None


def _latency_key(entry: Mapping[str, Any]) -> tuple[str, str, str, tuple[int, ...]]:
    return (read.text(entry.get("device")), read.text(entry.get("dtype")),
            read.text(entry.get("mode") or "forward"), read.shape(entry.get("input_shape")))  # fmt: skip


def _latency_by_key(report: Mapping[str, Any]) -> dict[tuple[Any, ...], Mapping[str, Any]]:
    # A re-run of the same measurement replaces the earlier one: the latest is what counts.
    return {_latency_key(e): e for e in read.entries(report, "latency")}


def _cpu_speedup(key: tuple[Any, ...], entries: Mapping[tuple[Any, ...], Mapping[str, Any]]) -> float | None:
    device, dtype, mode, shape = key
    if device == "cpu":
        return None
    cpu = entries.get(("cpu", dtype, mode, shape))
    if cpu is None:
        return None
    return _ratio(read.number(cpu.get("median_ms")), read.number(entries[key].get("median_ms")))


def _device_names(report: Mapping[str, Any]) -> dict[str, str]:
    names = {}
    for entry in read.device_entries(report):
        ident, name = read.text(entry.get("id"), ""), read.text(entry.get("name"), "")
        if ident and name:
            names[ident] = name
    return names


_MAX_SAMPLES_READ = 1_000_000  # more than any report holds (100,000 per measurement)


def _samples(entry: Mapping[str, Any]) -> list[float]:
    values = entry.get("samples_ms")
    if not isinstance(values, list):
        return []
    return [n for v in values[:_MAX_SAMPLES_READ] if (n := read.number(v)) is not None]


def _noise(entry: Mapping[str, Any]) -> str | None:
    """The entry's noise flag: as written (schema 2 on), else judged from its samples."""
    if not entry:
        return None
    if "noise" in entry or "noisy" in entry:
        noise = entry.get("noise")
        if isinstance(noise, str) and noise:
            # Written by this app from these samples: the same flag as a Text, which the window
            # can say in its language (a file is plain text); any other wording as written.
            samples = _samples(entry)
            judged = spread_of(samples).noise if samples else None
            return judged if judged is not None and str(judged) == noise else noise
        return "noisy" if entry.get("noisy") is True else None
    samples = _samples(entry)
    return spread_of(samples).noise if samples else None


def _estimate(ea: Mapping[str, Any], eb: Mapping[str, Any]) -> RatioEstimate | None:
    median_a, median_b = read.number(ea.get("median_ms")), read.number(eb.get("median_ms"))
    if _ratio(median_b, median_a) is None:
        return None
    return ratio_of_medians(_samples(ea), _samples(eb), median_a=median_a, median_b=median_b)


_KEY_PARTS = ((1, "verdict.differs_dtype"), (2, "verdict.differs_mode"), (3, "verdict.differs_input_shape"))



def _differences(key: tuple[Any, ...], other: tuple[Any, ...]) -> list[str]:
    """How two entries of the same device differ: ["mode (forward vs train-step)", ...]."""
    out: list[str] = []
    for index, text in _KEY_PARTS:
        if key[index] != other[index]:
            mine, theirs = key[index], other[index]
            if index == 3:
                mine, theirs = read.shape_words(mine), read.shape_words(theirs)
            out.append(Text(text, mine=mine, theirs=theirs))
    return out


def _unmatched(key: tuple[Any, ...], others: Mapping[tuple[Any, ...], Any], label: str, other_label: str) -> str:
    """Why an entry of ``label``'s report has no ratio: its nearest counterpart on the same
    device differs in dtype, mode or input shape (named), or there is none."""
    candidates = [_differences(key, other) for other in others if other[0] == key[0]]
    if not candidates:
        return Text("verdict.only_in", label=label)
    # The nearest counterpart: fewest differences, and the same mode before another mode
    # (a train step differs more from a forward pass than from a train step on another input).
    fewest = min(candidates, key=lambda d: (len(d), any(x.startswith("mode") for x in d)))
    return Text("verdict.not_compared_differs", label=other_label, device=key[0], differences=joined(fewest, "list.and"))


def _latency_rows(a: Mapping[str, Any], b: Mapping[str, Any], label_a: str, label_b: str) -> Iterable[LatencyRow]:
    entries_a, entries_b = _latency_by_key(a), _latency_by_key(b)
    names_a, names_b = _device_names(a), _device_names(b)
    for key in read.union(entries_a, entries_b):
        ea, eb = entries_a.get(key, {}), entries_b.get(key, {})
        median_a, median_b = read.number(ea.get("median_ms")), read.number(eb.get("median_ms"))
        estimate = _estimate(ea, eb) if ea and eb else None
        noise_a, noise_b = _noise(ea), _noise(eb)
        if estimate is not None:
            verdict = ratio_verdict(estimate, label_b)
            noisy = [label for label, noise in ((label_a, noise_a), (label_b, noise_b)) if noise]
            if noisy and estimate.clear:  # the interval sees one run's noise, not what changes between runs
                if len(noisy) == 1:
                    verdict = Text("verdict.noisy_one", verdict=verdict, label=noisy[0])
                else:
                    verdict = Text("verdict.noisy_both", verdict=verdict, label_a=noisy[0], label_b=noisy[1])
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
            median_a=median_a, p5_a=read.number(ea.get("p5_ms")), p95_a=read.number(ea.get("p95_ms")),
            samples_a=read.count(ea.get("samples_ms")),
            median_b=median_b, p5_b=read.number(eb.get("p5_ms")), p95_b=read.number(eb.get("p95_ms")),
            samples_b=read.count(eb.get("samples_ms")),
            ratio=estimate.ratio if estimate is not None else None,
            speedup_vs_cpu_a=_cpu_speedup(key, entries_a) if ea else None,
            speedup_vs_cpu_b=_cpu_speedup(key, entries_b) if eb else None,
            verdict=verdict,
            ratio_low=estimate.low if estimate is not None else None,
            ratio_high=estimate.high if estimate is not None else None,
            noise_a=noise_a, noise_b=noise_b,
        )  # fmt: skip




# --------------------------------------------------------------------------- moves


def _move_key(move: Mapping[str, Any]) -> tuple[str, str, str, str | None, bool]:
    dtype = move.get("dtype")
    return (read.text(move.get("source")), read.text(move.get("target")), read.text(move.get("method")),
            read.text(dtype) if dtype is not None else None, move.get("pinned") is True)  # fmt: skip


@dataclass(frozen=True)
class _MoveSummary:
    count: int = 0
    failed: int = 0
    bytes: int | None = None
    seconds: float | None = None
    gbps: float | None = None


def _move_summaries(report: Mapping[str, Any]) -> dict[tuple[Any, ...], _MoveSummary]:
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for move in read.entries(report, "moves"):
        groups.setdefault(_move_key(move), []).append(move)
    out = {}
    for key, moves in groups.items():
        ok = [m for m in moves if m.get("ok") is True]
        seconds = [s for m in ok if (s := read.number(m.get("seconds"))) is not None]
        gbps = [g for m in ok if (g := read.number(m.get("gbps"))) is not None]
        sizes = [b for m in ok if (b := read.whole(m.get("bytes"))) is not None]
        out[key] = _MoveSummary(
            count=len(moves), failed=len(moves) - len(ok),
            bytes=max(sizes) if sizes else None,
            seconds=statistics.median(seconds) if seconds else None,
            gbps=statistics.median(gbps) if gbps else None,
        )  # fmt: skip
    return out


def _move_rows(a: Mapping[str, Any], b: Mapping[str, Any], label_a: str, label_b: str) -> Iterable[MoveRow]:
    summaries_a, summaries_b = _move_summaries(a), _move_summaries(b)
    for key in read.union(summaries_a, summaries_b):
        sa, sb = summaries_a.get(key, _MoveSummary()), summaries_b.get(key, _MoveSummary())
        ratio = _ratio(sb.gbps, sa.gbps)
        if ratio is not None:
            verdict = describe_ratio(ratio, label_b, higher_is_better=True)
        elif b and (key in summaries_a) != (key in summaries_b):
            verdict = Text("verdict.only_in", label=label_a if key in summaries_a else label_b)
        else:
            verdict = ""
        yield MoveRow(
            source=key[0], target=key[1], method=key[2], dtype=key[3], pinned=key[4],
            count_a=sa.count, failed_a=sa.failed, bytes_a=sa.bytes, seconds_a=sa.seconds, gbps_a=sa.gbps,
            count_b=sb.count, failed_b=sb.failed, bytes_b=sb.bytes, seconds_b=sb.seconds, gbps_b=sb.gbps,
            ratio=ratio, verdict=verdict,
        )  # fmt: skip
