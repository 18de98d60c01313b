"""Two timing reports side by side: latency per device with ratios, moves with GB/s, environments.

Pure data (no Qt): the GUI's comparison view shows these rows; a script could print them.
Reports are ``TimingReport``s (``schema``): the one ``load_report`` gives, checked, is read by
its typed entries. A dict (``build_report``'s, or one nobody checked) is read first, by its
caller, as ``TimingReport.lenient`` reads it, where any field of the wrong type counts as absent, so a
comparison never raises (``tests/core/report/test_report_fuzz.py`` holds it to that); entries
written by older versions may lack optional keys, so every read here tolerates absence. The environments side by side
are ``compare_environment``'s; the runs of one session, like with like, ``run_verdicts``'.

Latency figures are those of each entry's own samples (``sample_figures``), never the ones a
file states: a report whose median says one thing and whose samples another cannot move a
ratio. A latency ratio's interval comes from run-level variation (``measure.run_ratio``): an
entry of several runs (``runs_ms``, ``bench --repeat``) shows its own; a side of fewer than
three runs is given the stated run-to-run noise (``measure.run_noise.stated_noise``, a
constant: never this machine's record, so the same two files get the same verdict anywhere),
and the row says so and names the commands that can tell a smaller difference
(``run_noise_note``); such a side whose samples are flagged noisy gets no verdict at all, only
the command that can tell (``RunRatio.too_noisy``). The moves' rows are ``compare_moves``'. Work is linear in the entries: each entry is read once, and the nearest counterpart of
an unmatched one is looked up in an index, not found by a scan of the other report.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Iterable

from inspector.core.measure.run_noise import RunNoise, stated_noise
from inspector.core.measure.run_ratio import MIN_RUNS, RunRatio, paired_ratio, ratio_over_runs
from inspector.core.measure.spread import RatioEstimate, ratio_verdict
from inspector.core.messages import Text, joined
from inspector.core.report import lenient_read as read
from inspector.core.report.compare_environment import EnvironmentRow, environment_rows
from inspector.core.report.compare_moves import SAME_WITHIN, MoveRow, describe_ratio, move_rows

__all__ = ["SAME_WITHIN", "Comparison", "LatencyRow", "MoveRow", "compare_reports", "describe_ratio"]
from inspector.core.report.sample_figures import SampleFigures
from inspector.core.measure.measurement import LatencyResult
from inspector.core.report.schema import TimingReport



@dataclass(frozen=True)
class LatencyRow:
    """One (device, dtype, mode, input shape) measured in A and/or B. Times in ms, from the
    entries' samples (a median or percentile the file states is not read).

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
    #: Independent runs on each side (``runs_ms``; 1 for an entry without), and, when either
    #: side has fewer than three, the sentence saying the run-to-run noise assumed for it,
    #: the smallest difference that can come out clear, and where that figure came from.
    runs_a: int = 0
    runs_b: int = 0
    run_noise_note: str = ""
    #: When both entries carry a ``pair_id`` (each from a ``bench --against``) but are not one
    #: pair (other tokens, or a round lost on one side): the sentence saying they were compared
    #: as runs apart, not round by round; "" otherwise.
    pairing_note: str = ""

    @property
    def interval_text(self) -> str:
        """``'1.93–2.08×'``, or ``'—'`` without an interval."""
        if self.ratio is None:
            return "—"
        return RatioEstimate(self.ratio, self.ratio_low, self.ratio_high).interval_text()


@dataclass(frozen=True)
class Comparison:
    label_a: str
    label_b: str | None  # None: one report shown on its own
    latency: tuple[LatencyRow, ...]
    moves: tuple[MoveRow, ...]
    environment: tuple[EnvironmentRow, ...]

    @property
    def same_measurement(self) -> bool:
        """A and B hold the same measurements: every latency entry on both sides, with
        identical samples (``compare r.json r.json``, or a copy of a report)."""
        return self.label_b is not None and bool(self.latency) and all(
            getattr(row.verdict, "key", None) == "verdict.same_measurement" for row in self.latency
        )

    def same_measurement_text(self) -> str:
        """The line saying so, or ""."""
        if not self.same_measurement:
            return ""
        return Text("verdict.same_report", label_a=self.label_a, label_b=self.label_b)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for row, source in zip(out["moves"], self.moves):
            row["route"] = source.route
        out["same_measurement"] = self.same_measurement
        return out


# --------------------------------------------------------------------------- entry point


def compare_reports(a: TimingReport, b: TimingReport | None = None, *,
                    label_a: str = "A", label_b: str = "B", run_noise: RunNoise | None = None) -> Comparison:  # fmt: skip
    """Rows comparing report ``a`` with ``b`` (or describing ``a`` alone when ``b`` is None).

    A dict (a script's) is read first, at the edge: ``TimingReport.lenient`` (never raising).
    ``run_noise``: the run-to-run noise assumed for a side of few runs; None (every caller of
    the app) is the stated constant (``measure.run_noise.stated_noise``), so a verdict depends
    only on the two reports: never on this machine's record of what ran here before. A test
    or a simulation may state another."""
    report_a, other = a, b if b is not None else TimingReport.lenient({})
    paired = bool(other.data)  # a report holding anything at all to set beside ``a`` (an empty one: ``a`` alone)
    noise = run_noise if run_noise is not None else stated_noise()

    return Comparison(
        label_a=label_a,
        label_b=label_b if b is not None else None,
        latency=tuple(_latency_rows(report_a, other, label_a, label_b, noise, paired)),
        moves=tuple(move_rows(report_a, other, label_a, label_b, paired)),
        environment=tuple(environment_rows(report_a, other if paired else None)),
    )


# --------------------------------------------------------------------------- latency


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    # A zero on either side is no measurement to compare against (and 1/0 in the words).
    if numerator is None or denominator is None or numerator <= 0 or denominator <= 0:
        return None
    ratio = numerator / denominator
    return ratio if math.isfinite(ratio) and ratio > 0 else None


def _latency_by_key(report: TimingReport) -> dict[tuple[Any, ...], LatencyResult]:
    # A re-run of the same measurement replaces the earlier one: the latest is what counts.
    return {e.key: e for e in report.latency}


#: Where to look for an entry's nearest counterpart on the same device, nearest first: each
#: tier names the key parts a counterpart shares with it (besides the device). Fewest
#: differences first, and at equal counts the same mode first (a train step differs more from a
#: forward pass than from a train step on another input). Parts: 1 dtype, 2 mode, 3 input shape.
_NEAREST_TIERS: tuple[tuple[tuple[int, ...], ...], ...] = (
    ((1, 2), (2, 3)),  # differs in input shape, or in dtype
    ((1, 3),),  # in mode
    ((2,),),  # in dtype and input shape
    ((1,), (3,)),  # in mode and input shape, or mode and dtype
    ((),),  # in all three
)


class _Entries:
    """One report's latency entries by key, each entry's samples and figures read once, and
    an index that finds the nearest counterpart of an entry the report lacks without a scan."""

    def __init__(self, report: TimingReport) -> None:
        self.by_key = _latency_by_key(report)
        self._first: dict[tuple[Any, ...], tuple[int, tuple[Any, ...]]] | None = None

    def samples(self, key: tuple[Any, ...]) -> tuple[float, ...]:
        entry = self.by_key.get(key)
        return entry.samples_ms if entry is not None else ()

    def runs(self, key: tuple[Any, ...]) -> list[list[float]]:
        """The entry's independent runs: ``runs_ms``, or its samples as one run."""
        entry = self.by_key.get(key)
        return [list(run) for run in entry.run_samples] if entry is not None else []

    def figures(self, key: tuple[Any, ...]) -> SampleFigures | None:
        """The figures of the entry's own samples (never those the file states); None without one."""
        entry = self.by_key.get(key)
        return entry.figures if entry is not None else None

    def median(self, key: tuple[Any, ...]) -> float | None:
        figures = self.figures(key)
        return figures.median_ms if figures is not None else None

    def nearest(self, key: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """The first entry on ``key``'s device that differs from it least (``_NEAREST_TIERS``)."""
        if self._first is None:  # built on the first lookup: one pass, the first entry per shared part
            self._first = {}
            for position, mine in enumerate(self.by_key):
                for tier in _NEAREST_TIERS:
                    for parts in tier:
                        self._first.setdefault(_shared(mine, parts), (position, mine))
        for tier in _NEAREST_TIERS:
            found = [self._first[shared] for parts in tier if (shared := _shared(key, parts)) in self._first]
            if found:
                return min(found)[1]
        return None


def _shared(key: tuple[Any, ...], parts: tuple[int, ...]) -> tuple[Any, ...]:
    """The device and the ``parts`` of ``key``: what a counterpart sharing them has in common."""
    return (parts, key[0], *(key[i] for i in parts))


def _cpu_speedup(key: tuple[Any, ...], side: _Entries) -> float | None:
    device, dtype, mode, shape = key
    if device == "cpu":
        return None
    cpu = ("cpu", dtype, mode, shape)
    if cpu not in side.by_key:
        return None
    return _ratio(side.median(cpu), side.median(key))


def _device_names(report: TimingReport) -> dict[str, str]:
    return {d.id: d.name for d in report.environment.devices if d.id and d.name}


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


_KEY_PARTS = ((1, "verdict.differs_dtype"), (2, "verdict.differs_mode"), (3, "verdict.differs_input_shape"))


def _unmatched(key: tuple[Any, ...], others: _Entries, label: str, other_label: str) -> str:
    """Why an entry of ``label``'s report has no ratio: its nearest counterpart on the same
    device differs in dtype, mode or input shape (named), or there is none."""
    nearest = others.nearest(key)
    if nearest is None:
        return Text("verdict.only_in", label=label)
    return Text("verdict.not_compared_differs", label=other_label, device=key[0],
                differences=joined(_differences(key, nearest), "list.and"))  # fmt: skip


def _verdict(found: RunRatio, noise_a: str | None, noise_b: str | None, label_a: str, label_b: str) -> str:
    estimate = found.estimate
    if found.too_noisy:  # a noisy run of fewer than 3 a side: its median may land anywhere on a rerun
        return _too_noisy(found.too_noisy)
    if found.within_noise and found.floor is not None:  # the samples alone would have claimed one
        return Text("verdict.within_run_noise", floor=found.floor_text())
    verdict = ratio_verdict(estimate, label_b)
    noisy = [label for label, noise in ((label_a, noise_a), (label_b, noise_b)) if noise]
    if noisy and estimate.clear:  # the interval sees one run's noise, not what changes between runs
        if len(noisy) == 1:
            return Text("verdict.noisy_one", verdict=verdict, label=noisy[0])
        return Text("verdict.noisy_both", verdict=verdict, label_a=noisy[0], label_b=noisy[1])
    return verdict


def _too_noisy(labels: tuple[str, ...]) -> str:
    """No claim from a side of fewer than ``MIN_RUNS`` runs flagged noisy, and the command that can tell."""
    if len(labels) == 1:
        return Text("verdict.too_noisy_one", label=labels[0], least=MIN_RUNS)
    return Text("verdict.too_noisy_both", label_a=labels[0], label_b=labels[1], least=MIN_RUNS)


def _no_ratio(fa: SampleFigures | None, fb: SampleFigures | None, label_a: str, label_b: str) -> str:
    """Why two alike entries get no ratio: a side without samples (a dict's, read leniently), or
    a median of 0 (every call shorter than the clock shows: nothing to divide by)."""
    sides = ((label_a, fa), (label_b, fb))
    empty = [label for label, figures in sides if figures is None]
    if empty:
        return Text("verdict.no_samples", labels=joined(empty, "list.and"))
    zero = [label for label, figures in sides if figures is not None and not figures.median_ms > 0]
    if zero:
        return Text("verdict.zero_median", labels=joined(zero, "list.and"))
    return Text("verdict.no_ratio")


def _paired(side_a: "_Entries", side_b: "_Entries", key: tuple[Any, ...]) -> RunRatio | None:
    """The rounds' ratio when both entries come from one interleaved comparison (the same
    ``pair_id``, as many runs each); None otherwise."""
    token_a = side_a.by_key[key].pair_id
    if not token_a or token_a != side_b.by_key[key].pair_id:
        return None
    runs_a, runs_b = side_a.runs(key), side_b.runs(key)
    return paired_ratio(runs_a, runs_b) if len(runs_a) == len(runs_b) >= 2 else None


def _pairing_note(side_a: "_Entries", side_b: "_Entries", key: tuple[Any, ...], label_a: str, label_b: str) -> str:
    """Why two entries that each come from an interleaved comparison are not read as one pair."""
    token_a, token_b = side_a.by_key[key].pair_id, side_b.by_key[key].pair_id
    if not token_a or not token_b:
        return ""
    if token_a != token_b:
        return Text("run_noise.pairs_differ", label_a=label_a, label_b=label_b)
    runs_a, runs_b = len(side_a.runs(key)), len(side_b.runs(key))
    if runs_a != runs_b or runs_a < 2:
        return Text("run_noise.pair_incomplete", label_a=label_a, label_b=label_b, runs_a=runs_a, runs_b=runs_b)
    return ""


def machine_verdict_text(spoiled: int, rounds: int) -> Text:
    """What replaces a verdict when the machine stalled ``spoiled`` of ``rounds`` rounds."""
    return Text("verdict.machine_too_busy", spoiled=spoiled, rounds=rounds)


def _stalled_rounds(side_a: "_Entries", side_b: "_Entries", key: tuple[Any, ...]) -> tuple[int, int] | None:
    """(rounds the machine stalled, rounds) when it stalled half the rounds of an interleaved
    pair or more (``runs_spoiled``): the medians are then the machine's, not the code's. Under
    two busy loops on two cores both models read 39 ms a forward, ratio 1.000, "about the
    same", for code 10 % apart. None when the rounds were not watched or the machine let most be."""
    rounds = len(side_a.runs(key))
    flags = [f for f in (side_a.by_key[key].runs_spoiled, side_b.by_key[key].runs_spoiled) if len(f) == rounds]
    if not flags:
        return None
    spoiled = sum(any(f[i] for f in flags) for i in range(rounds))
    return (spoiled, rounds) if spoiled and 2 * spoiled >= rounds else None


def run_noise_note(found: RunRatio, label_a: str, label_b: str) -> str:
    """Why a side's runs cannot show their own run-to-run noise, the smallest difference that
    can come out clear, and where the noise assumed came from; "" when both sides show theirs."""
    if found.paired:
        return Text("run_noise.paired", label_a=label_a, label_b=label_b, rounds=found.runs_a)
    if found.floor is None or found.noise is None:
        return ""
    noise = found.noise
    if found.noise_from:
        source = Text("run_noise.from_runs", label=found.noise_from, percent=noise.percent())
    elif noise.measured:
        source = Text("run_noise.measured", percent=noise.percent(), runs=noise.runs, when=(noise.when or "?")[:10])
    else:  # the stated constant: the same on every machine, and the commands that can do better
        source = Text("run_noise.stated", percent=noise.percent())
    if found.runs_a == found.runs_b == 1:
        return Text("run_noise.one_run_each", floor=found.floor_text(), source=source)
    if found.runs_agree:
        return Text("run_noise.runs_agree", label_a=label_a, label_b=label_b, floor=found.floor_text(), source=source)
    return Text("run_noise.few_runs", label_a=label_a, runs_a=found.runs_a, label_b=label_b, runs_b=found.runs_b,
                least=MIN_RUNS, floor=found.floor_text(), source=source)  # fmt: skip


def _latency_rows(a: TimingReport, b: TimingReport, label_a: str, label_b: str,
                  noise: RunNoise, paired: bool) -> Iterable[LatencyRow]:  # fmt: skip
    side_a, side_b = _Entries(a), _Entries(b)
    names_a, names_b = _device_names(a), _device_names(b)
    for key in read.union(side_a.by_key, side_b.by_key):
        in_a, in_b = key in side_a.by_key, key in side_b.by_key
        fa, fb = side_a.figures(key), side_b.figures(key)
        noise_a = fa.noise if fa is not None else None
        noise_b = fb.noise if fb is not None else None
        estimate: RatioEstimate | None = None
        found: RunRatio | None = None
        pairing = ""
        verdict: str
        if fa is not None and fb is not None and side_a.samples(key) == side_b.samples(key):
            # One measurement on both sides (the same file, or a copy): nothing to divide, and
            # never "B 1.00× slower? too few samples".
            verdict = Text("verdict.same_measurement")
        elif fa is not None and fb is not None:
            found = _paired(side_a, side_b, key)
            if found is None:
                pairing = _pairing_note(side_a, side_b, key, label_a, label_b)
                found = ratio_over_runs(side_a.runs(key), side_b.runs(key), noise, labels=(label_a, label_b))
            estimate = found.estimate if found is not None else None
            if found is not None:
                verdict = _verdict(found, noise_a, noise_b, label_a, label_b)
            else:  # a median of 0: say so, never an empty verdict
                verdict = _no_ratio(fa, fb, label_a, label_b)
            stalled = _stalled_rounds(side_a, side_b, key) if found is not None and found.paired else None
            if stalled is not None:
                verdict = machine_verdict_text(*stalled)
        elif paired and not in_b:
            verdict = _unmatched(key, side_b, label_a, label_b)
        elif paired and not in_a:
            verdict = _unmatched(key, side_a, label_b, label_a)
        elif paired:  # alike on both sides, but a side holds no samples to divide
            verdict = _no_ratio(fa, fb, label_a, label_b)
        else:
            verdict = ""
        yield LatencyRow(
            device=key[0], dtype=key[1], mode=key[2], input_shape=key[3],
            device_name_a=names_a.get(key[0]) if in_a else None,
            device_name_b=names_b.get(key[0]) if in_b else None,
            median_a=fa.median_ms if fa else None, p5_a=fa.p5_ms if fa else None, p95_a=fa.p95_ms if fa else None,
            samples_a=fa.count if fa else 0,
            median_b=fb.median_ms if fb else None, p5_b=fb.p5_ms if fb else None, p95_b=fb.p95_ms if fb else None,
            samples_b=fb.count if fb else 0,
            ratio=estimate.ratio if estimate is not None else None,
            speedup_vs_cpu_a=_cpu_speedup(key, side_a) if in_a else None,
            speedup_vs_cpu_b=_cpu_speedup(key, side_b) if in_b else None,
            verdict=verdict,
            ratio_low=estimate.low if estimate is not None else None,
            ratio_high=estimate.high if estimate is not None else None,
            noise_a=noise_a, noise_b=noise_b,
            runs_a=len(side_a.runs(key)) if fa else 0, runs_b=len(side_b.runs(key)) if fb else 0,
            run_noise_note=run_noise_note(found, label_a, label_b) if found is not None else "",
            pairing_note=pairing,
        )  # fmt: skip
