"""Latency through the agent vs a local ``bench`` of the same model (target: within 3 %).

The agent is ``python -m inspector agent`` on this machine (the window's "remote" command,
minus ssh); the local figure is ``python -m inspector bench SPEC --device cpu --json`` in its
own process, as a user runs it. Both time the model the same way (``core.timing``: the
pipe, the JSON and the client are outside the timed region: the agent sends the samples
between them). Rounds alternate (bench, agent, agent, bench, ...) so a load that drifts on a
shared machine falls on both; the figure is the median of each side's per-round medians.

    PYTHONPATH=. python benchmarks/agent_latency.py [--rounds 6] [--runs 2000] [--threads 1]

``--threads`` sets OMP_NUM_THREADS for both processes (default 1: on a small machine shared
with other work, two processes each spinning several threads measure the contention).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.core.agent_client import AgentConnection, local_agent_command  # noqa: E402
from inspector.core.remote_session import RemoteSession  # noqa: E402
from inspector.core.session import BenchmarkRequest, LoadRequest  # noqa: E402

HERE = Path(__file__).resolve()


def mlp():
    """A model of about a millisecond per forward on a laptop core (the tiny example Net is
    ~20 µs: there the figure says how steady the machine is more than anything else)."""
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 256)), torch.randn(16, 256)


def local_bench(spec: str, runs: int, env: dict[str, str]) -> float:
    out = subprocess.run(
        [sys.executable, "-m", "inspector", "bench", spec, "--device", "cpu", "--runs", str(runs), "--json"],
        capture_output=True, text=True, cwd=ROOT, check=True, env=env,
    )
    return float(json.loads(out.stdout)["latency"][0]["median_ms"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": str(args.threads)}
    specs = {"example Net (Linear 3-2-1, batch 64)": "example", "MLP 256-512-256, batch 16": f"{HERE}:mlp"}
    print(f"torch {torch.__version__}, {os.cpu_count()} cores, OMP_NUM_THREADS={args.threads} on both sides; "
          f"machine shared with other work: figures are ratios of alternated rounds")
    connection = AgentConnection.open(local_agent_command(), env=env)
    remote = RemoteSession(connection)
    worst = 0.0
    try:
        for label, spec in specs.items():
            remote.load(LoadRequest(spec))
            local_ms: list[float] = []
            agent_ms: list[float] = []
            for i in range(args.rounds):
                order = ("bench", "agent") if i % 2 == 0 else ("agent", "bench")
                for side in order:
                    if side == "bench":
                        local_ms.append(local_bench(spec, args.runs, env))
                    else:
                        started = time.perf_counter()
                        result, _ = remote.measure(BenchmarkRequest(runs=args.runs))
                        agent_ms.append(result.median_ms)
                        wall = time.perf_counter() - started
                print(f"  {label} round {i + 1}: bench {local_ms[-1] * 1000:8.2f} µs   agent {agent_ms[-1] * 1000:8.2f} µs"
                      f"   (agent request {wall:.2f} s wall)")
            ratio = statistics.median(agent_ms) / statistics.median(local_ms)
            # The quietest round of each side: what the two measure when the machine lets them.
            best = min(agent_ms) / min(local_ms)
            worst = max(worst, abs(ratio - 1))
            print(f"{label}: median of round medians: bench {statistics.median(local_ms) * 1000:.2f} µs, "
                  f"agent {statistics.median(agent_ms) * 1000:.2f} µs, agent/bench = {ratio:.3f} "
                  f"({'within' if abs(ratio - 1) <= 0.03 else 'OUTSIDE'} 3 %); quietest rounds: "
                  f"bench {min(local_ms) * 1000:.2f} µs, agent {min(agent_ms) * 1000:.2f} µs, ratio {best:.3f}; "
                  f"round-to-round spread of bench {(max(local_ms) / min(local_ms) - 1) * 100:.0f} %")
    finally:
        connection.close()
    print(f"largest difference: {worst * 100:.1f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
