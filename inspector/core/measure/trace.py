"""A bench run as Chrome Trace Event JSON, the format Perfetto and ``chrome://tracing`` open.

What is recorded: each move and each latency measurement as a span with its wall-clock start
(``time.time_ns``, so ranks on one host line up) and its duration (``perf_counter_ns``).
Each piece of work is drawn when it really ran: a move's event is the move's measured call
(``MoveResult.started_ns``, ``seconds``), the progress bar, memory reads and bookkeeping
around it an event of their own ("bookkeeping: …"); a measurement's event runs from its first
warm-up call to its last sample, with its set-up and wrap-up beside it; each warm-up call at
its recorded start, each sample in its chunk (``sampling.SampleTimeline``: the chunk's real
start and end, the loop's few hundred nanoseconds between calls spread over the chunk), so a
sample is drawn within microseconds of when it ran, however long the run.

Layout (the Trace Event Format's own terms, as torch.profiler writes them): one process
(``pid``) per rank, one thread (``tid``) per stream of work: moves, warm-up, samples and
``--per-module``'s run. Every event is a complete event (``ph: "X"``) with a category
(``cat``: its stream; the per-module run's events are ``user_annotation``s, as
``record_function`` writes them), ``ts`` and ``dur`` in microseconds; ``ts`` counts from
``baseTimeNanoseconds`` (ns since the Unix epoch), as torch.profiler's export does, so a trace
of ours and one of torch.profiler's made during the same job line up (HolisticTraceAnalysis
reads ours: ``tests``). Times stay integer nanoseconds until written, as µs from the origin:
a double of µs since the epoch would hold nothing finer than 0.25 µs.

Size: every sample is one event (~150 bytes) up to ``MAX_SAMPLE_EVENTS`` over the whole
trace; beyond it runs of consecutive samples are merged into one event each (their total
duration, with count, mean, min and max in ``args``), so a large multi-rank run stays far
below 100 MB. ``otherData.samples_aggregated`` says how many samples each event then holds.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.core.atomic_write import write_atomically, write_reason
from inspector.core.errors import InspectorError

#: Stream name -> thread id in the trace.
STREAMS: dict[str, int] = {"moves": 1, "warm-up": 2, "samples": 3, "per-module": 4}
#: Streams written as annotations (``cat: "user_annotation"``, torch.profiler's category for
#: ``record_function``), which HolisticTraceAnalysis's CPU-op groupings take in
#: (``hta.common.types.CPU_OP_CATEGORY_PATTERN``): ``bench --per-module``'s run and its steps.
ANNOTATIONS = frozenset({"per-module"})
#: Sample events in one trace before runs of samples are merged (~30 MB of JSON at most).
MAX_SAMPLE_EVENTS = 200_000


@dataclass(frozen=True)
class Span:
    """One recorded piece of work, in whole nanoseconds: ``start_ns`` on the wall clock (since
    the epoch), every length from ``perf_counter_ns``. Kept as integers until the trace is
    built: a float of µs since the epoch (~1.8e15) holds nothing finer than 0.25 µs, 2 % of a
    12 µs forward."""

    stream: str
    name: str
    start_ns: int
    dur_ns: int
    args: dict[str, Any] = field(default_factory=dict)
    #: For a latency measurement: each warm-up call and each timed sample, in ms.
    warmup_ms: tuple[float, ...] = ()
    samples_ms: tuple[float, ...] = ()
    #: The work itself inside the span (start ns since the epoch, duration ns): a move's
    #: measured call, or a measurement from its first warm-up call to its last sample. None:
    #: the whole span is the work.
    inner: tuple[int, int] | None = None
    #: When the calls ran (ns since the epoch): each warm-up call's start, each chunk's
    #: start, end and sample count, and how many of the first chunk's calls went to the warm-up.
    warmup_starts_ns: tuple[int, ...] = ()
    chunks_ns: tuple[tuple[int, int, int], ...] = ()
    absorbed: int = 0
    #: Each call of the chunks' own start (ns since the epoch), where recorded (a model on the CPU).
    call_starts_ns: tuple[int, ...] = ()
    #: How far the span's wall-clock times may be off (ns): half the tightest bracket of two
    #: ``time_ns`` reads around the ``perf_counter_ns`` read that ties the two clocks.
    clock_error_ns: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "stream": self.stream,
            "name": self.name,
            "start_ns": self.start_ns,
            "dur_ns": self.dur_ns,
            "args": dict(self.args),
            "warmup_ms": list(self.warmup_ms),
            "samples_ms": list(self.samples_ms),
            "inner": list(self.inner) if self.inner is not None else None,
            "warmup_starts_ns": list(self.warmup_starts_ns),
            "chunks_ns": [list(c) for c in self.chunks_ns],
            "absorbed": self.absorbed,
            "call_starts_ns": list(self.call_starts_ns),
            "clock_error_ns": self.clock_error_ns,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Span:
        return cls(
            stream=str(data["stream"]),
            name=str(data["name"]),
            start_ns=int(data["start_ns"]),
            dur_ns=int(data["dur_ns"]),
            args=dict(data.get("args", {})),
            warmup_ms=tuple(float(x) for x in data.get("warmup_ms", ())),
            samples_ms=tuple(float(x) for x in data.get("samples_ms", ())),
            inner=_pair(data.get("inner")),
            warmup_starts_ns=tuple(int(x) for x in data.get("warmup_starts_ns", ())),
            chunks_ns=tuple((int(c[0]), int(c[1]), int(c[2])) for c in data.get("chunks_ns", ())),
            absorbed=int(data.get("absorbed", 0)),
            call_starts_ns=tuple(int(x) for x in data.get("call_starts_ns", ())),
            clock_error_ns=int(data.get("clock_error_ns", 0)),
        )


def _pair(value: Any) -> tuple[int, int] | None:
    return None if value is None else (int(value[0]), int(value[1]))


#: Reads of the two clocks a span takes to tie them, keeping the tightest.
CLOCK_TRIES = 5


def tie_clocks() -> tuple[int, int, int]:
    """A wall-clock time (ns since the epoch), the ``perf_counter_ns`` reading taken at it, and
    how far off that pairing may be (ns): ``time_ns`` is read on both sides of the perf read
    and the midpoint kept. The thread can be preempted between two reads on a busy machine,
    which would shift every event of the span by as much: of ``CLOCK_TRIES`` brackets the
    tightest is kept, and its half-width is stated in the trace rather than assumed away."""
    best = (0, 0, -1)
    for _ in range(CLOCK_TRIES):
        before = time.time_ns()
        perf = time.perf_counter_ns()
        after = time.time_ns()
        half = max(0, after - before) // 2
        if best[2] < 0 or half < best[2]:
            best = ((before + after) // 2, perf, half)
    return best


class TraceRecorder:
    """Collects spans while a bench runs; cheap enough to leave on (two clock reads a span)."""

    def __init__(self) -> None:
        self.spans: list[Span] = []

    @contextmanager
    def span(self, stream: str, name: str, **args: Any) -> Iterator[dict[str, Any]]:
        """Time the block; the yielded dict may be filled with ``args``, per-sample figures
        (keys ``warmup_ms`` / ``samples_ms``), when the calls ran (``timeline``: a
        ``sampling.SampleTimeline``) or the work's own start and length (``started_ns``, on
        ``perf_counter_ns``, and ``seconds``: a move's call) before the block ends."""
        extra: dict[str, Any] = dict(args)
        wall, start, error_ns = tie_clocks()
        try:
            yield extra
        finally:
            dur = time.perf_counter_ns() - start

            def at(perf_ns: int) -> int:  # the host clock's reading, ns since the epoch (an integer: exact)
                return wall + perf_ns - start

            warmup = tuple(extra.pop("warmup_ms", ()))
            samples = tuple(extra.pop("samples_ms", ()))
            timeline = extra.pop("timeline", None)
            started, seconds = extra.pop("started_ns", 0), extra.pop("seconds", None)
            inner: tuple[int, int] | None = None
            starts: tuple[int, ...] = ()
            chunks: tuple[tuple[int, int, int], ...] = ()
            absorbed = 0
            calls: tuple[int, ...] = ()
            if timeline is not None and timeline.chunks:
                starts = tuple(at(t) for t in timeline.warmup_starts_ns)
                calls = tuple(at(t) for t in timeline.call_starts_ns)
                chunks = tuple((at(a), at(b), n) for a, b, n in timeline.chunks)
                first = starts[0] if starts else chunks[0][0]
                inner, absorbed = (first, chunks[-1][1] - first), timeline.absorbed
            elif started and seconds is not None:
                inner = (at(started), round(seconds * 1e9))
            self.spans.append(Span(stream, name, wall, dur, extra, warmup, samples, inner, starts, chunks, absorbed,
                                   calls, error_ns))  # fmt: skip


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
    # A whole µs since the epoch (ns, an integer): ts then counts from baseTimeNanoseconds
    # exactly, and every time below is an integer ns offset from it until it is written.
    origin = min((s.start_ns for r in ranks for s in r.spans), default=0) // 1000 * 1000
    events: list[dict[str, Any]] = []
    for r in ranks:
        events.append(_meta(r.rank, 0, "process_name", r.label))
        events.append(_meta(r.rank, 0, "process_sort_index", r.rank, key="sort_index"))
        for stream, tid in STREAMS.items():
            events.append(_meta(r.rank, tid, "thread_name", stream))
            events.append(_meta(r.rank, tid, "thread_sort_index", tid, key="sort_index"))
        for span in r.spans:
            events.extend(_span_events(r.rank, span, origin, per_event))
    other: dict[str, Any] = {
        "producer": "torch-device-inspector",
        "clock": "wall clock, µs from baseTimeNanoseconds",
        "origin_unix_us": origin // 1000,
        # Each event's wall-clock time may be off by this much (µs): the worst span's clock tie.
        "clock_error_us": max((s.clock_error_ns for r in ranks for s in r.spans), default=0) / 1000,
        "sample_layout": "each warm-up call at its recorded start; each sample in its chunk, from the chunk's "
        "recorded start, the loop's time between calls spread evenly over the chunk",
        "samples_aggregated": per_event,
    }
    if per_event > 1:
        other["note"] = (
            f"{total_samples} samples are more than {max_sample_events} events: each sample "
            f"event holds {per_event} consecutive samples (count, mean, min, max in args)"
        )
    trace: dict[str, Any] = {"traceEvents": events, "displayTimeUnit": "ms", "baseTimeNanoseconds": origin,
                             "otherData": other}  # fmt: skip
    if len(ranks) == 1:  # HolisticTraceAnalysis reads a file's rank here (one file per rank, as torch.profiler writes)
        trace["distributedInfo"] = {"rank": ranks[0].rank}
    return trace


def _meta(pid: int, tid: int, name: str, value: Any, key: str = "name") -> dict[str, Any]:
    return {"ph": "M", "cat": "__metadata", "pid": pid, "tid": tid, "ts": 0, "name": name, "args": {key: value}}


def _span_events(pid: int, span: Span, origin: int, per_event: int) -> list[dict[str, Any]]:
    """The span's events, in ns from ``origin`` (integers where the clock gave them): the work
    itself, what surrounded it, its warm-up calls and samples where they ran."""
    tid = STREAMS.get(span.stream, STREAMS["samples"])
    cat = "user_annotation" if span.stream in ANNOTATIONS else span.stream
    ts, end = span.start_ns - origin, span.start_ns - origin + span.dur_ns
    if span.inner is None:
        events = [_complete(pid, tid, cat, span.name, ts, span.dur_ns, span.args)]
    else:
        begin, length = span.inner[0] - origin, span.inner[1]
        events = [_complete(pid, tid, cat, span.name, begin, length, span.args)]
        word = "bookkeeping" if span.stream == "moves" else "set-up"
        if begin - ts > 0:
            events.append(_complete(pid, tid, cat, f"{word}: {span.name}", ts, begin - ts, {}))
        if end - (begin + length) > 0:
            word = "bookkeeping" if span.stream == "moves" else "wrap-up"
            events.append(_complete(pid, tid, cat, f"{word}: {span.name}", begin + length, end - begin - length, {}))
    warm_starts, sample_starts = _call_starts(span, origin)
    cursor: float = ts
    for stream, values, starts in (("warm-up", span.warmup_ms, warm_starts), ("samples", span.samples_ms, sample_starts)):
        label = "warm-up call" if stream == "warm-up" else "sample"
        for first in range(0, len(values), per_event):
            chunk = values[first : first + per_event]
            if starts is not None:  # where they ran: from the first's start to the last's end
                at = starts[first]
                dur = starts[first + len(chunk) - 1] - at + chunk[-1] * 1e6
            else:  # no timeline (a span from an older rank): end to end from the span's start
                at, dur = cursor, sum(chunk) * 1e6
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
            events.append(_complete(pid, STREAMS[stream], stream, name, at, dur, args))
            cursor = at + dur
    return events


def _call_starts(span: Span, origin: int) -> tuple[list[float] | None, list[float] | None]:
    """When each warm-up call and each sample started (ns from ``origin``), from the span's
    timeline; (None, None) without one, or one that does not hold the span's calls."""
    absorbed = span.absorbed
    warm_own = len(span.warmup_ms) - absorbed
    if not span.chunks_ns or len(span.warmup_starts_ns) != warm_own or absorbed < 0 or warm_own < 0:
        return None, None
    in_chunks = [*span.warmup_ms[warm_own:], *span.samples_ms]  # the order the chunks ran them in
    if sum(n for _, _, n in span.chunks_ns) != len(in_chunks):
        return None, None
    warm: list[float] = [float(t - origin) for t in span.warmup_starts_ns]
    starts: list[float] = []
    if len(span.call_starts_ns) == len(in_chunks):  # each call's own start was kept
        starts = [float(t - origin) for t in span.call_starts_ns]
        return [*warm, *starts[:absorbed]], starts[absorbed:]
    for begin, end, count in span.chunks_ns:
        durations = [ms * 1e6 for ms in in_chunks[len(starts) : len(starts) + count]]
        gap = max(0.0, (end - begin - sum(durations)) / count) if count else 0.0
        cursor = float(begin - origin)
        for dur in durations:
            starts.append(cursor)
            cursor += dur + gap
    return [*warm, *starts[:absorbed]], starts[absorbed:]


def _complete(pid: int, tid: int, cat: str, name: str, ts_ns: float, dur_ns: float, args: Mapping[str, Any]) -> dict[str, Any]:
    # µs from the origin, to the nanosecond (three decimals, no float noise in the file): an
    # offset of hours is still exact to far below a nanosecond as a double.
    return {
        "ph": "X",
        "cat": cat,
        "pid": pid,
        "tid": tid,
        "name": name,
        "ts": round(ts_ns / 1000, 3),
        "dur": round(dur_ns / 1000, 3),
        "args": dict(args),
    }


def render_trace(trace: Mapping[str, Any]) -> bytes:
    """Compact JSON bytes (no indentation: a large trace is a third smaller), ``distributedInfo``
    first and spaced as torch.profiler writes it: HolisticTraceAnalysis finds a file's rank with
    the regex ``"rank":\\s+(\\d+)`` (``hta.common.trace_file``), which compact JSON's ``"rank":0``
    never matches (it then takes every file for rank 0, and keeps one), and the first match in
    the file wins, so no event's name or argument can come before ours."""
    body = json.dumps({k: v for k, v in trace.items() if k != "distributedInfo"}, separators=(",", ":"), allow_nan=False)
    if "distributedInfo" not in trace:
        return body.encode("utf-8")
    head = json.dumps({"distributedInfo": trace["distributedInfo"]}, separators=(", ", ": "), allow_nan=False)
    return (head[:-1] + ("," + body[1:] if body != "{}" else "}")).encode("utf-8")


def write_trace(trace: Mapping[str, Any], path: str | Path) -> Path:
    """Write the trace atomically: a failed write leaves any earlier file as it was."""
    target = Path(path).expanduser()
    try:
        write_atomically(target, render_trace(trace))  # the app's one writer, as for the report beside it
    except OSError as exc:
        raise InspectorError(f"cannot write the trace to {target}: {write_reason(target, exc)}") from None
    return target
