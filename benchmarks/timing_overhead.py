"""How much our per-sample timing adds to what it reports (target: <= 2 µs per sample, CPU).

Compares ``measure_latency``'s mean sample with the per-call time of a tight ``for`` loop of
the same calls, timed as one block (where one clock pair is shared by thousands of calls, so
its cost vanishes), on the example Net and on a no-op module. Rounds alternate between the
two so drift (frequency scaling, other users of the machine) hits both alike.

    python benchmarks/timing_overhead.py [--calls 20000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

import torch
from torch import nn

from inspector.core.files.models import LoadedModel, example_model
from inspector.core.measure.timing import measure_latency


def block_per_call_us(module: nn.Module, x: torch.Tensor, calls: int) -> float:
    """Per-call time of a bare loop under the same conditions measure_latency uses
    (inference mode, garbage collector paused as timeit and measure_latency do)."""
    gc.disable()
    try:
        with torch.inference_mode():
            start = time.perf_counter_ns()
            for _ in range(calls):
                module(x)
            return (time.perf_counter_ns() - start) / calls / 1e3
    finally:
        gc.enable()


def ours_us(loaded: LoadedModel, calls: int) -> tuple[float, float, float]:
    """(mean sample, median sample, wall time per sample including the loop between samples)."""
    start = time.perf_counter_ns()
    result = measure_latency(loaded, runs=calls, warmup=10)
    wall = (time.perf_counter_ns() - start) / calls / 1e3
    return result.mean_ms * 1e3, result.median_ms * 1e3, wall


def compare(name: str, loaded: LoadedModel, calls: int, rounds: int) -> None:
    x = loaded.example_input
    loaded.module.eval()
    block_per_call_us(loaded.module, x, calls // 10)  # warm both paths up
    blocks, means, medians, walls = [], [], [], []
    for _ in range(rounds):
        blocks.append(block_per_call_us(loaded.module, x, calls))
        mean, median, wall = ours_us(loaded, calls)
        means.append(mean)
        medians.append(median)
        walls.append(wall)
    block = statistics.median(blocks)
    mean = statistics.median(means)
    print(f"{name}:")
    print(f"  tight loop, per call           {block:8.3f} µs")
    print(f"  measure_latency mean sample    {mean:8.3f} µs   (median sample {statistics.median(medians):.3f} µs)")
    print(f"  overhead per sample            {mean - block:8.3f} µs   (target <= 2 µs)")
    print(f"  wall time per sample, all in   {statistics.median(walls):8.3f} µs   (loop between samples included)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, {args.calls} calls x {args.rounds} rounds")
    compare("example Net, input (64, 3)", example_model(), args.calls, args.rounds)
    noop = LoadedModel(spec="nn.Identity", module=nn.Identity(), example_input=torch.randn(64, 3))
    compare("no-op module (nn.Identity)", noop, args.calls, args.rounds)


if __name__ == "__main__":
    main()
