"""Figures for issue 15: trace size for big runs, device-map application against Module.to,
and the cost of measuring crossings against a plain forward.

    PYTHONPATH=. python3 benchmarks/formats.py

Ratios are measured in one process, alternating order, best of N (the machine may be shared).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.core.moves.crossings import measure_crossings  # noqa: E402
from inspector.core.moves.device_map import apply_device_map  # noqa: E402
from inspector.core.moves.device_map_file import parse_device_map  # noqa: E402
from inspector.core.measure.trace import RankSpans, Span, build_trace, render_trace  # noqa: E402


def trace_sizes() -> None:
    for ranks, samples in ((1, 100_000), (8, 100_000), (8, 1_000_000 // 8 * 8)):
        spans = [RankSpans(r, f"rank {r}", (Span("samples", "latency on cpu", 1e15, 1e6, {}, (1.0,) * 3, (0.0123,) * samples),)) for r in range(ranks)]
        start = time.perf_counter()
        data = render_trace(build_trace(spans))
        took = time.perf_counter() - start
        agg = build_trace(spans)["otherData"]["samples_aggregated"]
        print(f"trace: {ranks} ranks x {samples:,} samples -> {len(data) / 1e6:.1f} MB ({agg} samples per event), built in {took:.2f} s")


def best(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def map_vs_to() -> None:
    n = 5000  # 10,000 tensors
    dmap = parse_device_map({"": "meta"})
    ours: list[float] = []
    plain: list[float] = []

    def timed(fn, model: nn.Module) -> float:
        start = time.perf_counter()
        fn(model)
        return time.perf_counter() - start

    for i in range(6):
        pair = ((lambda m: m.to("meta"), plain), (lambda m: apply_device_map(m, dmap), ours))
        for fn, into in pair if i % 2 == 0 else pair[::-1]:
            into.append(timed(fn, nn.Sequential(*[nn.Linear(2, 2) for _ in range(n)])))
    o, p = min(ours), min(plain)
    print(f"device map onto meta, 10,000 tensors: apply_device_map {o * 1e3:.0f} ms vs Module.to {p * 1e3:.0f} ms: {o / p:.2f}x (best of 6, alternating)")


def crossings_cost() -> None:
    model = nn.Sequential(*[nn.Linear(256, 256) for _ in range(24)]).eval()
    x = torch.randn(32, 256)

    def plain() -> None:
        with torch.inference_mode():
            model(x)

    for _ in range(3):
        plain()
    a = b = float("inf")
    for i in range(10):
        if i % 2:
            a, b = min(a, best(plain, 1)), min(b, best(lambda: measure_crossings(model, x), 1))
        else:
            b, a = min(b, best(lambda: measure_crossings(model, x), 1)), min(a, best(plain, 1))
    print(f"measure_crossings on a 24-layer MLP: {b * 1e3:.2f} ms vs plain forward {a * 1e3:.2f} ms: {b / a:.2f}x (one forward, never timed)")


if __name__ == "__main__":
    trace_sizes()
    map_vs_to()
    crossings_cost()
