"""Per-module attribution: what its hooks cost, and whether the leaves' times add up.

For a CPU MLP and a small CNN, rounds alternate (plain forward median via
``measure_latency``, then the per-module run) so drift on a shared machine hits both alike.
Each round prints:

- overhead: the forward's median with the hooks on over the plain median (the cost of
  attribution; the plain benchmark path has no hooks at all, so "off" costs nothing);
- leaf sum: the sum of the leaf modules' self times over the plain median (target: within
  15 % of 1, i.e. the attribution accounts for the forward's time without inventing any).

    PYTHONPATH=. python3 benchmarks/attribution_overhead.py [--rounds 7] [--runs 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.core.attribution import measure_attribution  # noqa: E402
from inspector.core.models import LoadedModel  # noqa: E402
from inspector.core.timing import measure_latency  # noqa: E402


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
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, CPU (machine shared with other work)")
    for loaded in (mlp(), cnn()):
        overheads, sums = [], []
        for i in range(args.rounds):
            plain = measure_latency(loaded, runs=args.runs)
            attributed = measure_attribution(loaded, runs=args.runs, plain_median_ms=plain.median_ms)
            overhead = attributed.forward_with_hooks_ms / plain.median_ms
            leaf = attributed.leaf_self_ms / plain.median_ms
            overheads.append(overhead)
            sums.append(leaf)
            print(f"  {loaded.spec} round {i + 1}: plain {plain.median_ms:.4f} ms, with hooks "
                  f"{attributed.forward_with_hooks_ms:.4f} ms (overhead {overhead:.3f}x), "
                  f"leaf self-time sum {attributed.leaf_self_ms:.4f} ms ({leaf:.3f} of plain)")
        print(f"{loaded.spec}: median overhead {statistics.median(overheads):.3f}x, "
              f"median leaf-sum / plain {statistics.median(sums):.3f} (target 0.85..1.15)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
