"""Chrome Trace Event JSON: one complete event per sample, pid per rank, bounded size."""

import json

from inspector.core.measure.trace import STREAMS, RankSpans, Span, TraceRecorder, build_trace, render_trace, write_trace


def _measure_span(samples, warmup=(5.0, 1.0), start_us=1_000_000.0):
    return Span("samples", "latency on cpu", start_us, 10_000.0, {"device": "cpu"}, tuple(warmup), tuple(samples))


def test_each_sample_is_one_complete_event_in_microseconds():
    samples = [0.5, 0.25, 0.75]
    trace = json.loads(render_trace(build_trace([RankSpans(0, "rank 0", (_measure_span(samples),))])))
    complete = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    sample_events = [e for e in complete if e["tid"] == STREAMS["samples"] and e["name"].startswith("sample ")]
    assert [e["dur"] for e in sample_events] == [500.0, 250.0, 750.0]  # ms -> µs
    warm = [e for e in complete if e["tid"] == STREAMS["warm-up"]]
    assert [e["dur"] for e in warm] == [5000.0, 1000.0]
    # laid end to end after the warm-up, inside their measurement
    assert sample_events[0]["ts"] == 6000.0 and sample_events[1]["ts"] == 6500.0
    assert trace["otherData"]["samples_aggregated"] == 1


def test_each_rank_is_a_process_with_named_streams():
    ranks = [RankSpans(r, f"rank {r}", (_measure_span([1.0], start_us=1e6 + r),)) for r in range(3)]
    trace = build_trace(ranks)
    names = {(e["pid"], e["args"]["name"]) for e in trace["traceEvents"] if e["name"] == "process_name"}
    assert names == {(0, "rank 0"), (1, "rank 1"), (2, "rank 2")}
    threads = {e["args"]["name"] for e in trace["traceEvents"] if e["name"] == "thread_name"}
    assert threads == {"moves", "warm-up", "samples"}


def test_a_large_run_is_aggregated_below_the_cap_and_says_so():
    samples = [0.01] * 50_000
    ranks = [RankSpans(r, f"rank {r}", (_measure_span(samples),)) for r in range(8)]
    trace = build_trace(ranks, max_sample_events=10_000)
    sample_events = [e for e in trace["traceEvents"] if e["ph"] == "X" and e["tid"] != STREAMS["moves"] and "count" in e["args"]]
    assert len(sample_events) <= 10_000 + 16
    assert sum(e["args"]["count"] for e in sample_events) == 8 * (50_000 + 2)
    assert trace["otherData"]["samples_aggregated"] > 1 and "note" in trace["otherData"]


def test_default_cap_keeps_a_million_samples_under_100_mb(tmp_path):
    ranks = [RankSpans(r, f"rank {r}", (_measure_span([0.01] * 125_000),)) for r in range(8)]
    path = write_trace(build_trace(ranks), tmp_path / "big.json")
    assert path.stat().st_size < 100 * 1024 * 1024
    assert json.loads(path.read_text())["otherData"]["samples_aggregated"] > 1


def test_the_recorder_keeps_what_the_block_adds():
    recorder = TraceRecorder()
    with recorder.span("moves", "move to cpu", call="model.to('cpu')") as extra:
        extra["bytes"] = 44
    with recorder.span("samples", "latency on cpu") as extra:
        extra.update(warmup_ms=(1.0,), samples_ms=(0.5, 0.5))
    move, measure = recorder.spans
    assert move.args == {"call": "model.to('cpu')", "bytes": 44} and move.dur_us >= 0
    assert measure.samples_ms == (0.5, 0.5) and "samples_ms" not in measure.args
    assert Span.from_dict(measure.to_dict()) == measure


def test_a_preempted_clock_read_is_not_taken_and_what_remains_is_stated(monkeypatch):
    """A busy machine can preempt the thread between the wall-clock and perf-counter reads that
    tie the two clocks, shifting every event of the span by as much: the tightest of a few
    brackets is kept, and the trace states its half-width instead of assuming it away."""
    from inspector.core.measure import trace as trace_module

    # time_ns reads: a 5 ms preemption inside the first bracket, 200 ns brackets after it
    walls = iter([1_000_000_000, 1_005_000_000, 1_005_000_100, 1_005_000_300] + [2_000_000_000, 2_000_000_200] * 3)
    perfs = iter([10_000, 5_010_000, 6_000_000, 7_000_000, 8_000_000])
    monkeypatch.setattr(trace_module.time, "time_ns", lambda: next(walls))
    monkeypatch.setattr(trace_module.time, "perf_counter_ns", lambda: next(perfs))
    wall, perf, error = trace_module.tie_clocks()
    assert (wall, perf, error) == (1_005_000_200, 5_010_000, 100)
    span = Span("samples", "latency on cpu", 1e6, 1.0, clock_error_us=error / 1000)
    assert Span.from_dict(span.to_dict()).clock_error_us == 0.1  # the rank's spans cross the wire with it
    trace = build_trace([RankSpans(0, "rank 0", (span,))])
    assert trace["otherData"]["clock_error_us"] == 0.1
