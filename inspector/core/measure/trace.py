"""A bench run as Chrome Trace Event JSON, the format Perfetto and ``chrome://tracing`` open.

What is recorded: each move and each latency measurement as a span with its wall-clock start
(``time.time_ns``, so ranks on one host line up) and its duration (``perf_counter_ns``).
Inside a measurement the warm-up calls and the timed samples are laid end to end from the
span's start, with their measured durations: the timing loop keeps each sample's length,
not its start, so the short gaps between samples (the loop's own bookkeeping) are not shown.
The trace says so in ``otherData``.

Layout (the Trace Event Format's own terms): one process (``pid``) per rank, one thread
(``tid``) per stream of work: moves, warm-up, samples. Every event is a complete event
(``ph: "X"``) with ``ts`` and ``dur`` in microseconds.

Size: every sample is one event (~150 bytes) up to ``MAX_SAMPLE_EVENTS`` over the whole
trace; beyond it runs of consecutive samples are merged into one event each (their total
duration, with count, mean, min and max in ``args``), so a large multi-rank run stays far
below 100 MB. ``otherData.samples_aggregated`` says how many samples each event then holds.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.core.errors import InspectorError

#: Stream name -> thread id in the trace.
STREAMS: dict[str, int] = {"moves": 1, "warm-up": 2, "samples": 3}
#: Sample events in one trace before runs of samples are merged (~30 MB of JSON at most).
MAX_SAMPLE_EVENTS = 200_000


@dataclass(frozen=True)
class Span:
    """One recorded piece of work. ``start_us`` is wall-clock (µs since the epoch)."""

    stream: str
    name: str
    start_us: float
    dur_us: float
    args: dict[str, Any] = field(default_factory=dict)
    #: For a latency measurement: each warm-up call and each timed sample, in ms.
    warmup_ms: tuple[float, ...] = ()
    samples_ms: tuple[float, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "stream": self.stream,
            "name": self.name,
            "start_us": self.start_us,
            "dur_us": self.dur_us,
            "args": dict(self.args),
            "warmup_ms": list(self.warmup_ms),
            "samples_ms": list(self.samples_ms),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Span:
        return cls(
            stream=str(data["stream"]),
            name=str(data["name"]),
            start_us=float(data["start_us"]),
            dur_us=float(data["dur_us"]),
            args=dict(data.get("args", {})),
            warmup_ms=tuple(float(x) for x in data.get("warmup_ms", ())),
            samples_ms=tuple(float(x) for x in data.get("samples_ms", ())),
        )


class TraceRecorder:
    """Collects spans while a bench runs; cheap enough to leave on (two clock reads a span)."""

    def __init__(self) -> None:
        self.spans: list[Span] = []

    @contextmanager
    def span(self, stream: str, name: str, **args: Any) -> Iterator[dict[str, Any]]:
        """Time the block; the yielded dict may be filled with ``args`` or per-sample figures
        (keys ``warmup_ms`` / ``samples_ms``) before the block ends."""
        extra: dict[str, Any] = dict(args)
        wall = time.time_ns()
        start = time.perf_counter_ns()
        try:
            yield extra
        finally:
            dur = time.perf_counter_ns() - start
            warmup = tuple(extra.pop("warmup_ms", ()))
            samples = tuple(extra.pop("samples_ms", ()))
            self.spans.append(Span(stream, name, wall / 1000, dur / 1000, extra, warmup, samples))


@dataclass(frozen=True)
class RankSpans:
    """One rank's spans and how to label its process in the trace."""

    rank: int
    label: str
    spans: tuple[Span, ...]


def build_trace(ranks: Sequence[RankSpans], *, max_sample_events: int = MAX_SAMPLE_EVENTS) -> dict[str, Any]:
    """The Trace Event JSON object (``traceEvents`` + ``otherData``) for every rank's spans."""
    total_samples = sum(len(s.samples_ms) + len(s.warmup_ms) for r in ranks for s in r.spans)
    per_event = max(1, math.ceil(total_samples / max_sample_events)) if max_sample_events > 0 else 1
    origin = min((s.start_us for r in ranks for s in r.spans), default=0.0)
    events: list[dict[str, Any]] = []
    for r in ranks:
        events.append(_meta(r.rank, 0, "process_name", r.label))
        events.append(_meta(r.rank, 0, "process_sort_index", r.rank, key="sort_index"))
        for stream, tid in STREAMS.items():
            events.append(_meta(r.rank, tid, "thread_name", stream))
            events.append(_meta(r.rank, tid, "thread_sort_index", tid, key="sort_index"))
        for span in r.spans:
            events.extend(_span_events(r.rank, span, span.start_us - origin, per_event))
    other: dict[str, Any] = {
        "producer": "torch-device-inspector",
        "clock": "wall clock, µs from the first recorded span",
        "origin_unix_us": origin,
        "sample_layout": "warm-up calls and samples laid end to end from the start of their "
        "measurement; the short gaps between samples are not recorded",
        "samples_aggregated": per_event,
    }
    if per_event > 1:
        other["note"] = (
            f"{total_samples} samples are more than {max_sample_events} events: each sample "
            f"event holds {per_event} consecutive samples (count, mean, min, max in args)"
        )
    return {"traceEvents": events, "displayTimeUnit": "ms", "otherData": other}


def _meta(pid: int, tid: int, name: str, value: Any, key: str = "name") -> dict[str, Any]:
    return {"ph": "M", "pid": pid, "tid": tid, "name": name, "args": {key: value}}


def _span_events(pid: int, span: Span, ts: float, per_event: int) -> list[dict[str, Any]]:
    tid = STREAMS.get(span.stream, STREAMS["samples"])
    events = [_complete(pid, tid, span.name, ts, span.dur_us, span.args)]
    cursor = ts
    for stream, values in (("warm-up", span.warmup_ms), ("samples", span.samples_ms)):
        label = "warm-up call" if stream == "warm-up" else "sample"
        for first in range(0, len(values), per_event):
            chunk = values[first : first + per_event]
            dur = sum(chunk) * 1000.0
            if len(chunk) == 1:
                args: dict[str, Any] = {"index": first, "ms": chunk[0]}
                name = f"{label} {first}"
            else:
                args = {
                    "first": first,
                    "count": len(chunk),
                    "mean_ms": sum(chunk) / len(chunk),
                    "min_ms": min(chunk),
                    "max_ms": max(chunk),
                }
                name = f"{label}s {first}-{first + len(chunk) - 1}"
            events.append(_complete(pid, STREAMS[stream], name, cursor, dur, args))
            cursor += dur
    return events


def _complete(pid: int, tid: int, name: str, ts: float, dur: float, args: Mapping[str, Any]) -> dict[str, Any]:
    # Three decimals: nanosecond resolution, no float noise in the file.
    return {
        "ph": "X",
        "pid": pid,
        "tid": tid,
        "name": name,
        "ts": round(ts, 3),
        "dur": round(dur, 3),
        "args": dict(args),
    }


def render_trace(trace: Mapping[str, Any]) -> bytes:
    """Compact JSON bytes (no indentation: a large trace is a third smaller)."""
    return json.dumps(trace, separators=(",", ":"), allow_nan=False).encode("utf-8")


def write_trace(trace: Mapping[str, Any], path: str | Path) -> Path:
    """Write the trace atomically: a failed write leaves any earlier file as it was."""
    target = Path(path).expanduser()
    data = render_trace(trace)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=str(target.parent))
    except OSError as exc:
        raise InspectorError(f"cannot write the trace to {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InspectorError(f"cannot write the trace to {target}: {exc.strerror or exc}") from None
    return target
