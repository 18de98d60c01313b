"""Per-module attribution: what its hooks cost, and whether the leaves' times add up.

For a CPU MLP and a small CNN, each round runs the plain benchmark (``measure_latency``,
no hooks) and then the per-module run, which itself alternates hooked and plain forwards
sample by sample, so drift on a shared machine hits both alike. Each round prints:

- overhead: the forward's median with the hooks on over the interleaved plain median (the
  cost of attribution; the plain benchmark path has no hooks at all, so "off" costs nothing);
- leaf sum: the sum of the leaf modules' self times over the interleaved plain median
  (target: within 15 % of 1: the attribution accounts for the forward's time without
  inventing any), and over the plain benchmark's median as a second reference;
- self sum: every module's self time (median) summed, over the interleaved plain median,
  as the hooks left it ("raw") and with their calibrated cost taken out (what is shown;
  target: 0.9..1.1, or a flag), and the flags the run raised (``Attribution.warnings``).

The example model (two Linear layers, ~12 us) is the case where the hooks dominate: its
raw sum is ~1.4x the forward, and its flag says so.

    PYTHONPATH=. python3 benchmarks/attribution_overhead.py [--rounds 7] [--runs 50] [--threads 1] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.core.measure.attribution import measure_attribution  # noqa: E402
from inspector.core.files.models import LoadedModel  # noqa: E402
from inspector.core.measure.timing import measure_latency  # noqa: E402


def example() -> LoadedModel:
    from inspector.core.files.models import example_model

    return example_model()


def mlp() -> LoadedModel:
    layers = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 256))
    return LoadedModel(spec="MLP 512-1024-1024-256", module=layers, example_input=torch.randn(64, 512))


def cnn() -> LoadedModel:
    layers = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(32, 10),
    )
    return LoadedModel(spec="small CNN (2 conv + BN)", module=layers, example_input=torch.randn(8, 3, 64, 64))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1: steadier on a shared machine)")
    parser.add_argument("--quick", action="store_true", help="3 rounds of 20 runs: a try, not a figure")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.runs = 3, 20
    torch.set_num_threads(args.threads)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, CPU (machine shared with other work)")
    for loaded in (example(), mlp(), cnn()):
        overheads, sums, raw_sums, self_sums, flagged = [], [], [], [], 0
        for i in range(args.rounds):
            plain = measure_latency(loaded, runs=args.runs)
            attributed = measure_attribution(loaded, runs=args.runs)
            interleaved = attributed.forward_without_hooks_ms
            overhead = attributed.forward_with_hooks_ms / interleaved
            leaf = attributed.leaf_self_ms / interleaved
            overheads.append(overhead)
            sums.append(leaf)
            raw_sums.append(attributed.raw_self_sum_ms / interleaved)
            self_sums.append(attributed.self_sum_ms / interleaved)
            flagged += bool(attributed.warnings)
            print(f"  {loaded.spec} round {i + 1}: plain benchmark {plain.median_ms:.4f} ms; interleaved plain "
                  f"{interleaved:.4f} ms, with hooks {attributed.forward_with_hooks_ms:.4f} ms "
                  f"(overhead {overhead:.3f}x); leaf self-time sum {attributed.leaf_self_ms:.4f} ms "
                  f"({leaf:.3f} of interleaved plain, {attributed.leaf_self_ms / plain.median_ms:.3f} of the benchmark); "
                  f"self sum / plain {raw_sums[-1]:.3f} raw, {self_sums[-1]:.3f} with the hooks' "
                  f"{(attributed.hook_inner_ms + attributed.hook_outer_ms) * 1e3:.2f} us a call taken out")
            for warning in attributed.warnings:
                print(f"    flag: {warning}")
        print(f"{loaded.spec}: median overhead {statistics.median(overheads):.3f}x, "
              f"median leaf-sum / plain {statistics.median(sums):.3f} (target 0.85..1.15), "
              f"median self-sum / plain {statistics.median(raw_sums):.3f} raw, {statistics.median(self_sums):.3f} shown "
              f"(target 0.9..1.1 or a flag); flagged in {flagged} of {args.rounds} rounds\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
