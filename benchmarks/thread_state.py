"""Is a short call's speed the process's or the thread's? (issue 46 item 3)

In each fresh process, the example's forward is timed in 4 ms blocks (200 calls) taken in turn
by the main thread and a worker thread, 30 blocks each; printed per process: each thread's
median block and how many of its blocks were slow (over 1.3x the process's fastest block), and
per vCPU (where the thread was when its block ended) the fast and slow blocks. Two threads of
one process in different states at the same time put the state in the thread (or its vCPU),
not in the process.

    PYTHONPATH=. python benchmarks/thread_state.py [PROCESSES]        # default 6
    LOAD_IN_WORKER=1 ...                                               # the worker loads the model
"""

from __future__ import annotations

import json
import os
import queue
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(HERE))


def child(blocks: int = 30, calls: int = 200) -> None:
    sys.path.insert(0, ROOT)
    import torch

    from inspector.core.files.models import load_model
    from inspector.core.measure.model_input import as_args, make_input

    held: dict = {}

    def load() -> None:
        loaded = load_model("example")
        held["model"], held["args"] = loaded.module.eval(), as_args(make_input(loaded, None))

    def block() -> tuple[float, str]:
        model, args, clock, times = held["model"], held["args"], time.perf_counter_ns, []
        with torch.inference_mode():
            for _ in range(calls):
                start = clock()
                model(*args)
                times.append(clock() - start)
        stat = open("/proc/thread-self/stat").read()
        return statistics.median(times) / 1e3, stat[stat.rindex(")") + 2 :].split()[36]

    asks: queue.Queue = queue.Queue()
    answers: queue.Queue = queue.Queue()

    def worker() -> None:
        if os.environ.get("LOAD_IN_WORKER"):
            load()
        answers.put(None)
        while asks.get():
            answers.put(block())

    if not os.environ.get("LOAD_IN_WORKER"):
        load()
    threading.Thread(target=worker, daemon=True).start()
    answers.get()
    block()  # warm
    rows = []
    for _ in range(blocks):
        mine = block()
        asks.put(True)
        rows.append((*mine, *answers.get()))
    asks.put(False)
    print(json.dumps(rows))


def main() -> int:
    processes = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    per_cpu: dict[str, list[int]] = {}
    print(f"{processes} processes, load average {os.getloadavg()[0]:.2f} at start"
          + (", the worker loads the model" if os.environ.get("LOAD_IN_WORKER") else ""))  # fmt: skip
    for number in range(processes):
        done = subprocess.run([sys.executable, HERE, "--child"], capture_output=True, text=True, check=True)
        rows = json.loads(done.stdout.strip().splitlines()[-1])
        fastest = min(min(r[0], r[2]) for r in rows)
        main_us, main_cpu, work_us, work_cpu = zip(*rows)
        for us, cpu in [*zip(main_us, main_cpu), *zip(work_us, work_cpu)]:
            per_cpu.setdefault(cpu, [0, 0])[us > 1.3 * fastest] += 1
        print(f"process {number}: main thread {statistics.median(main_us):.1f} µs, "
              f"{sum(u > 1.3 * fastest for u in main_us)}/{len(rows)} blocks slow; worker "
              f"{statistics.median(work_us):.1f} µs, {sum(u > 1.3 * fastest for u in work_us)}/{len(rows)} slow")  # fmt: skip
    for cpu, (fast, slow) in sorted(per_cpu.items()):
        print(f"vCPU {cpu}: {fast} fast blocks, {slow} slow")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        child()
        sys.exit(0)
    sys.exit(main())
