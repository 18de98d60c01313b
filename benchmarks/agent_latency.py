"""Latency through the agent vs a local ``bench`` of the same model (target: within 3 %).

The agent is ``python -m inspector agent`` on this machine (the window's "remote" command,
minus ssh), streaming memory at 10 Hz as it does for the window; the window's side is this
process (it decodes every sample, as the window's link does). The local figure is what
``bench`` measures: ``Session.measure`` with a 10 Hz memory sampler beside it, in this
process. Same spec, same input, same runs, same thread count on both sides.

On a machine shared with other work the speed of a core changes from one fraction of a
second to the next (the example Net's median flips between ~21 and ~40 µs in one process),
so a handful of long rounds measures the machine's mood, not the agent. Here each side runs
many short chunks, alternated (local, agent, ... and, with ``--legacy``, an agent speaking
protocol 1.0, which sends every sample as a JSON ``[index, ms]`` pair), and the figure per
model is the median over cycles of agent/local, the two chunks of a cycle taken back to back.

Also printed: CPU each side spends per sample beyond the model (the agent's process beyond
its samples' own time, the client's process while it waits), since that is work the
protocol adds while the model is timed.

    PYTHONPATH=. python benchmarks/agent_latency.py [--cycles 30] [--threads 1] [--legacy]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import psutil
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.core.remote.client import AgentConnection, local_agent_command  # noqa: E402
from inspector.core.devices.huge_pages import prefer_huge_pages  # noqa: E402
from inspector.core.measure.memory_log import BackgroundSampler  # noqa: E402
from inspector.core.remote.session import RemoteSession  # noqa: E402
from inspector.core.session import BenchmarkRequest, LoadRequest, Session  # noqa: E402

HERE = Path(__file__).resolve()


def mlp():
    """A model of ~0.2 ms per forward on one core (the example Net is ~20 µs)."""
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 256)), torch.randn(16, 256)


class Side:
    """One way of measuring: ``measure(runs)`` returns the median (ms) and records costs."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.medians: list[float] = []
        self.extra_cpu_s = 0.0  # agent process beyond its samples' time
        self.client_cpu_s = 0.0  # this process while the agent measured
        self.samples = 0


def cpu_s(process: psutil.Process) -> float:
    t = process.cpu_times()
    return t.user + t.system


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=30, help="alternated chunks per side and model")
    parser.add_argument("--threads", type=int, default=1, help="torch threads on both sides (OMP_NUM_THREADS)")
    parser.add_argument("--legacy", action="store_true", help="also an agent on protocol 1.0 ([index, ms] pairs)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply each chunk's runs")
    args = parser.parse_args()
    prefer_huge_pages()  # as the commands (bench, agent) do before torch allocates
    torch.set_num_threads(args.threads)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": str(args.threads)}
    # (label, spec, runs per chunk: ~0.1-0.2 s each)
    models = [("example Net (Linear 3-2-1, batch 64)", "example", 5000), ("MLP 256-512-256, batch 16", f"{HERE}:mlp", 800)]
    print(f"torch {torch.__version__}, {os.cpu_count()} cores, {torch.get_num_threads()} torch thread(s) on both sides "
          f"(OMP_NUM_THREADS={args.threads}); machine shared with other work: figures are ratios of back-to-back chunks")
    agents = {"agent": RemoteSession(AgentConnection.open(local_agent_command(), env=env))}
    if args.legacy:
        agents["agent 1.0"] = RemoteSession(AgentConnection.open(local_agent_command(), env=env, protocol="1.0"))
    me = psutil.Process()
    ratios: dict[str, list[float]] = {name: [] for name in agents}
    started = time.perf_counter()
    try:
        for label, spec, runs in models:
            runs = max(1, int(runs * args.scale))
            local = Session()
            local.load(LoadRequest(spec))
            for remote in agents.values():
                remote.load(LoadRequest(spec))
            sides = [Side("local"), *(Side(name) for name in agents)]
            request = BenchmarkRequest(runs=runs)

            def measure(side: Side) -> float:
                if side.name == "local":  # what `bench` does: Session.measure, a sampler beside it
                    with BackgroundSampler(local.timeline, ["cpu"]):
                        return local.measure(request).median_ms
                remote = agents[side.name]
                agent = psutil.Process(remote.connection.pid)
                remote.start_memory(10.0, lambda readings: None)  # the window streams memory throughout
                got: list[float] = []
                a0, c0 = cpu_s(agent), cpu_s(me)
                result = remote.measure(request, on_sample=lambda i, ms: got.append(ms))
                a1, c1 = cpu_s(agent), cpu_s(me)
                remote.stop_memory()
                assert len(got) == len(result.samples_ms), "every sample streamed"
                side.extra_cpu_s += (a1 - a0) - sum(result.samples_ms) / 1000 - sum(result.warmup_samples_ms) / 1000
                side.client_cpu_s += c1 - c0
                side.samples += len(got)
                return result.median_ms

            for side in sides:  # warm-up chunk, not counted
                measure(side)
            per_cycle: dict[str, list[float]] = {name: [] for name in agents}
            for cycle in range(args.cycles):
                shift = cycle % len(sides)
                order = sides[shift:] + sides[:shift]
                for side in order:
                    side.medians.append(measure(side))
                for side in sides[1:]:
                    per_cycle[side.name].append(side.medians[-1] / sides[0].medians[-1])
            base = statistics.median(sides[0].medians)
            print(f"{label}  ({runs} runs per chunk, {args.cycles} cycles)")
            print(f"  local (bench's Session.measure): median of chunk medians {base * 1000:8.2f} µs, "
                  f"quietest chunk {min(sides[0].medians) * 1000:.2f} µs")
            for side in sides[1:]:
                ratio = statistics.median(per_cycle[side.name])
                ratios[side.name].append(ratio)
                print(f"  {side.name:<9} median of chunk medians {statistics.median(side.medians) * 1000:8.2f} µs, "
                      f"quietest chunk {min(side.medians) * 1000:.2f} µs; agent/local per cycle: median {ratio:.3f} "
                      f"({'within' if abs(ratio - 1) <= 0.03 else 'OUTSIDE'} 3 %), quietest chunks "
                      f"{min(side.medians) / min(sides[0].medians):.3f}; protocol CPU per sample: agent "
                      f"{side.extra_cpu_s / side.samples * 1e6:.2f} µs, client {side.client_cpu_s / side.samples * 1e6:.2f} µs")
    finally:
        for remote in agents.values():
            remote.close()
    for name, values in ratios.items():
        middle = statistics.median(values)
        print(f"{name}: agent/local per model {', '.join(f'{r:.3f}' for r in values)}; median {middle:.3f} "
              f"({'within' if abs(middle - 1) <= 0.03 else 'OUTSIDE'} 3 %)")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
