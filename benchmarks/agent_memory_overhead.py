"""CPU cost of memory sampling through the agent at 10 Hz, on each side (target: <= 2 % of a core).

An agent (``python -m inspector agent``, as the window starts it, minus ssh) streams every
device's memory at ``--hz``; this process is the client: the reader thread decodes each
``memory`` event into ``MemoryReading``s, rebases their clock and hands them on, as the
window's link does (the window's timer and plot are ``sampler_overhead.py``'s ``qt`` case).

Each side's share is its CPU time (user + system, all threads; the agent's from psutil) over
the wall time, for ``--seconds`` of streaming and, first, the same stretch idle (connected,
no stream), printed beside it.

    PYTHONPATH=. python benchmarks/agent_memory_overhead.py [--seconds 20] [--hz 10]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.core.remote.client import AgentConnection, local_agent_command  # noqa: E402
from inspector.core.measure.memory_log import MemoryTimeline  # noqa: E402
from inspector.core.remote.session import RemoteSession  # noqa: E402


def shares(agent: psutil.Process, seconds: float) -> tuple[float, float]:
    """(agent %, client %) of one core over ``seconds``."""
    a0, c0, w0 = agent.cpu_times(), time.process_time(), time.perf_counter()
    time.sleep(seconds)
    a1, c1, w1 = agent.cpu_times(), time.process_time(), time.perf_counter()
    wall = w1 - w0
    return 100 * ((a1.user + a1.system) - (a0.user + a0.system)) / wall, 100 * (c1 - c0) / wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--hz", type=float, default=10.0)
    args = parser.parse_args()
    connection = AgentConnection.open(local_agent_command(), env={**os.environ, "PYTHONPATH": str(ROOT)})
    remote = RemoteSession(connection)
    agent = psutil.Process(connection.pid)
    timeline = MemoryTimeline()
    rounds = [0]

    def on_readings(readings) -> None:
        timeline.add(readings)
        rounds[0] += 1

    try:
        devices = remote.devices().ids()
        time.sleep(1.0)  # let the agent settle after the hello and the import
        idle_agent, idle_client = shares(agent, args.seconds)
        remote.start_memory(args.hz, on_readings)
        time.sleep(1.0)
        before = rounds[0]
        busy_agent, busy_client = shares(agent, args.seconds)
        got = rounds[0] - before
        remote.stop_memory()
    finally:
        connection.close()
    print(f"{psutil.cpu_count()} cores, shared with other work; devices {devices}; {args.seconds:g} s each")
    print(f"rounds received: {got} in {args.seconds:g} s ({got / args.seconds:.1f} Hz, asked {args.hz:g})")
    print(f"agent : idle {idle_agent:.2f} %  streaming {busy_agent:.2f} %  -> sampling costs {busy_agent - idle_agent:.2f} % of a core")
    print(f"client: idle {idle_client:.2f} %  streaming {busy_client:.2f} %  -> sampling costs {busy_client - idle_client:.2f} % of a core")
    ok = busy_agent <= 2 and busy_client <= 2
    print(f"target <= 2 % of one core on each side (streaming, idle included): {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
