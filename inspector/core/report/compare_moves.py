"""The moves of two timing reports side by side (``compare``'s move rows): per kind of move
(route, method, dtype, pinned), the median seconds and GB/s of its successful moves on each
side, B's GB/s over A's, and a verdict in words. Linear in the moves: each is read once."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any, Iterable

from inspector.core.messages import Text
from inspector.core.report import lenient_read as read
from inspector.core.report.schema import MoveEntry, TimingReport
from inspector.core.units import format_ratio

#: Move ratios within this fraction of 1 read as "about the same": a move is one
#: measurement, with no samples to judge its noise by. Latency ratios are judged by the
#: confidence interval of their medians instead (``core.measure.spread``).
SAME_WITHIN = 0.03


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


def describe_ratio(ratio: float | None, label: str, *, higher_is_better: bool = False) -> str:
    """``ratio`` of B over A in words from B's side, e.g. "B 2.10× faster"."""
    if ratio is None:
        return ""
    if abs(ratio - 1) <= SAME_WITHIN:
        return Text("verdict.same")
    better = ratio > 1 if higher_is_better else ratio < 1
    factor = ratio if ratio >= 1 else 1 / ratio
    return Text("verdict.faster" if better else "verdict.slower", label=label, factor=format_ratio(factor))


def _move_key(move: MoveEntry) -> tuple[str, str, str, str | None, bool]:
    def shown(value: str | None) -> str:
        return value if value is not None else "?"

    return shown(move.source), shown(move.target), shown(move.method), move.dtype, move.pinned


@dataclass(frozen=True)
class _MoveSummary:
    count: int = 0
    failed: int = 0
    bytes: int | None = None
    seconds: float | None = None
    gbps: float | None = None


def _move_summaries(report: TimingReport) -> dict[tuple[Any, ...], _MoveSummary]:
    groups: dict[tuple[Any, ...], list[MoveEntry]] = {}
    for move in report.moves:
        groups.setdefault(_move_key(move), []).append(move)
    out = {}
    for key, moves in groups.items():
        ok = [m for m in moves if m.ok]
        seconds = [m.seconds for m in ok if m.seconds is not None]
        gbps = [m.gbps for m in ok if m.gbps is not None]
        sizes = [m.bytes for m in ok if m.bytes is not None]
        out[key] = _MoveSummary(
            count=len(moves), failed=len(moves) - len(ok),
            bytes=max(sizes) if sizes else None,
            seconds=statistics.median(seconds) if seconds else None,
            gbps=statistics.median(gbps) if gbps else None,
        )  # fmt: skip
    return out


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    # A zero on either side is no measurement to compare against (and 1/0 in the words).
    if numerator is None or denominator is None or numerator <= 0 or denominator <= 0:
        return None
    ratio = numerator / denominator
    return ratio if math.isfinite(ratio) and ratio > 0 else None


def move_rows(a: TimingReport, b: TimingReport, label_a: str, label_b: str, paired: bool) -> Iterable[MoveRow]:
    summaries_a, summaries_b = _move_summaries(a), _move_summaries(b)
    for key in read.union(summaries_a, summaries_b):
        sa, sb = summaries_a.get(key, _MoveSummary()), summaries_b.get(key, _MoveSummary())
        ratio = _ratio(sb.gbps, sa.gbps)
        if ratio is not None:
            verdict = describe_ratio(ratio, label_b, higher_is_better=True)
        elif paired and (key in summaries_a) != (key in summaries_b):
            verdict = Text("verdict.only_in", label=label_a if key in summaries_a else label_b)
        else:
            verdict = ""
        yield MoveRow(
            source=key[0], target=key[1], method=key[2], dtype=key[3], pinned=key[4],
            count_a=sa.count, failed_a=sa.failed, bytes_a=sa.bytes, seconds_a=sa.seconds, gbps_a=sa.gbps,
            count_b=sb.count, failed_b=sb.failed, bytes_b=sb.bytes, seconds_b=sb.seconds, gbps_b=sb.gbps,
            ratio=ratio, verdict=verdict,
        )  # fmt: skip
