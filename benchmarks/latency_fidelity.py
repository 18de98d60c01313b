"""Does our median agree with torch.utils.benchmark's? (target: within 3 %)

Same model, same input, same thread count, both under ``torch.inference_mode()`` with the
model in eval mode. Rounds alternate ours / Timer so drift hits both alike; each round's
ratio is printed, then the median ratio. Many short rounds beat a few long ones on a shared
machine: a burst of contention then spoils one pair, not the figure.

    python benchmarks/latency_fidelity.py [--min-time 0.3] [--rounds 9] [--device cpu]
"""

from __future__ import annotations

import argparse
import statistics

import torch
import torch.utils.benchmark as benchmark
from torch import nn

from inspector.core.devices import resolve_device
from inspector.core.models import LoadedModel, example_model
from inspector.core.timing import make_input, measure_latency


def big_mlp(device: torch.device) -> LoadedModel:
    layers = nn.Sequential(
        nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024)
    )
    return LoadedModel(spec="3x Linear(1024, 1024)", module=layers.to(device),
                       example_input=torch.randn(64, 1024))


def timer_measurement(loaded: LoadedModel, min_time: float) -> benchmark.Measurement:
    x = make_input(loaded)  # the very input measure_latency builds: same device, same dtype
    timer = benchmark.Timer(
        stmt="model(x)",
        globals={"model": loaded.module, "x": x},
        num_threads=torch.get_num_threads(),
    )
    loaded.module.eval()
    with torch.inference_mode():
        return timer.blocked_autorange(min_run_time=min_time)


def compare(loaded: LoadedModel, min_time: float, rounds: int) -> float:
    print(f"{loaded.spec}, input {tuple(make_input(loaded).shape)}:")
    ratios = []
    for i in range(rounds):
        # Which goes first swaps every round, so a drift in the machine's load hits both alike.
        if i % 2:
            measurement = timer_measurement(loaded, min_time)
            ours = measure_latency(loaded, min_time=min_time, warmup=10)
        else:
            ours = measure_latency(loaded, min_time=min_time, warmup=10)
            measurement = timer_measurement(loaded, min_time)
        theirs = measurement.median * 1e3
        ratios.append(ours.median_ms / theirs)
        print(
            f"  round {i + 1}: ours {ours.median_ms * 1e3:9.2f} µs ({len(ours.samples_ms)} samples)"
            f"   torch.utils.benchmark {theirs * 1e3:9.2f} µs (blocks of {measurement.number_per_run})"
            f"   ratio {ratios[-1]:.4f}   ({ours.timer})"
        )
    ratio = statistics.median(ratios)
    print(f"  median ratio {ratio:.4f}  ({(ratio - 1) * 100:+.2f} %, target within ±3 %)")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-time", type=float, default=0.3, help="seconds measured per figure")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, help="torch.set_num_threads first (both sides use it)")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    device = resolve_device(args.device)
    print(f"torch {torch.__version__} on {device}, {torch.get_num_threads()} threads")
    net = example_model()
    net.module.to(device)
    compare(net, args.min_time, args.rounds)
    compare(big_mlp(device), args.min_time, args.rounds)


if __name__ == "__main__":
    main()
