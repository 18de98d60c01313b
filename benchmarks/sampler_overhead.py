"""CPU cost of sampling every device's memory at 10 Hz (target: <= 2 % of one core).

Two samplers, each run for ``--seconds`` while the process does nothing else:

* ``core``: ``inspector.core.measure.memory_log.BackgroundSampler`` (the CLI's daemon thread);
* ``qt``: the window's ``MemorySampler`` on its own QThread with a running event loop,
  its readings emitted to a receiver on the main thread as in the window.

The share is this process's CPU time (``time.process_time``: every thread, user + system)
over the wall time, so it counts the reads, the ring-buffer appends, the signals and the
timers alike. An idle stretch of the same set-up is measured first and printed beside it.

    python benchmarks/sampler_overhead.py [--seconds 20] [--hz 10] [--only core|qt]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import torch  # noqa: F401  (before Qt, as the app does)

from inspector.core.devices.discovery import available_device_ids, memory_reading
from inspector.core.measure.memory_log import BackgroundSampler, MemoryTimeline


def cpu_share(seconds: float, wait) -> float:
    """Percent of one core this process used while ``wait(seconds)`` ran."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    wait(seconds)
    return 100 * (time.process_time() - cpu0) / (time.perf_counter() - wall0)


def reading_cost_us(device_ids: list[str], repeats: int = 2000) -> dict[str, float]:
    """Median microseconds of one ``memory_reading`` per device (blocks of 100 calls)."""
    costs = {}
    for ident in device_ids:
        blocks = []
        for _ in range(repeats // 100):
            start = time.perf_counter_ns()
            for _ in range(100):
                memory_reading(ident)
            blocks.append((time.perf_counter_ns() - start) / 100 / 1e3)
        costs[ident] = statistics.median(blocks)
    return costs


def run_core(device_ids: list[str], seconds: float, hz: float) -> tuple[float, float, int]:
    idle = cpu_share(min(seconds, 5.0), time.sleep)
    timeline = MemoryTimeline()
    with BackgroundSampler(timeline, device_ids, hz=hz):
        busy = cpu_share(seconds, time.sleep)
    return idle, busy, len(timeline.series(device_ids[0])["t"])


def run_qt(seconds: float, hz: float) -> tuple[float, float, int] | str:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer

    from inspector.gui.shell.app import qt_binding_problem

    problem = qt_binding_problem()
    if problem is not None:
        return f"skipped: {problem}"
    from inspector.gui.state.sampler import MemorySampler
    from inspector.gui.state.threads import start_in_thread, stop_threads

    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])

    def spin(duration: float) -> None:
        # The main thread runs its event loop, as the window's does, so queued signals land.
        loop = QEventLoop()
        QTimer.singleShot(round(duration * 1000), loop.quit)
        loop.exec()

    idle = cpu_share(min(seconds, 5.0), spin)
    timeline = MemoryTimeline()
    sampler = MemorySampler(timeline, hz)
    received = []
    sampler.samples.connect(received.append)
    thread = start_in_thread(sampler, "memory-sampler", on_started=sampler.start)
    spin(0.5)  # discovery and the first reading happen once at start: not the steady state
    received.clear()
    busy = cpu_share(seconds, spin)
    stop_threads([thread])
    del app
    return idle, busy, len(received)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--hz", type=float, default=10.0)
    parser.add_argument("--only", choices=("core", "qt"))
    args = parser.parse_args()

    device_ids = available_device_ids()
    print(f"devices sampled: {', '.join(device_ids)}  |  rate {args.hz:g} Hz  |  {args.seconds:g} s per sampler")
    for ident, us in reading_cost_us(device_ids).items():
        print(f"  one memory_reading({ident!r}): {us:.1f} µs")
    if args.only in (None, "core"):
        idle, busy, n = run_core(device_ids, args.seconds, args.hz)
        print(f"core BackgroundSampler: {busy:.2f} % of one core while sampling "
              f"(idle process {idle:.2f} %), {n} readings per device")  # fmt: skip
    if args.only in (None, "qt"):
        outcome = run_qt(args.seconds, args.hz)
        if isinstance(outcome, str):
            print(f"qt MemorySampler: {outcome}")
        else:
            idle, busy, n = outcome
            print(f"qt MemorySampler (QThread + event loop): {busy:.2f} % of one core while sampling "
                  f"(idle event loop {idle:.2f} %), {n} batches received")  # fmt: skip
    print("target: <= 2 % of one core")


if __name__ == "__main__":
    main()
