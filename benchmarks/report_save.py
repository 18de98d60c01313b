"""How long ``save_report`` takes to write a big run's report in each format, from the file's
dict (a script's: read once by ``TimingReport.lenient``, then written) and from a
``TimingReport`` (as the CLI does, and the window's exporter on its pool thread). A window closed mid-export waits 2 s for the file
(``shell.window.shutdown``).

    PYTHONPATH=. python3 benchmarks/report_save.py [--samples 100000] [--points 36000] [--repeats 3]

The report: the example model, 4 latency runs of ``--samples`` samples each, 9 devices of
``--points`` memory readings each (an hour at 10 Hz). Best of ``--repeats``, in one process.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.core.files.models import example_model  # noqa: E402
from inspector.core.measure.timing import measure_latency  # noqa: E402
from inspector.core.report import TimingReport  # noqa: E402
from inspector.core.report.timing_report import build_report, save_report  # noqa: E402

FORMATS = (".json", ".csv", ".zip", ".md", ".html")


def big_report(samples: int, points: int) -> dict:
    loaded = example_model()
    report = build_report(loaded, latency=[measure_latency(loaded, runs=20)])
    run = report["latency"][0]
    rng = random.Random(0)
    report["latency"] = [dict(run, samples_ms=[rng.uniform(0.01, 0.02) for _ in range(samples)]) for _ in range(4)]
    report["memory"] = {
        f"cuda:{d}": [{"t": i * 0.1, "allocated": 10**9 + i, "reserved": 2 * 10**9, "used": 3 * 10**9, "total": 8 * 10**10}
                      for i in range(points)]
        for d in range(9)
    }  # fmt: skip
    return report


def best_of(repeats: int, write) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        write()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--points", type=int, default=36_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    report = big_report(args.samples, args.points)
    typed = TimingReport.lenient(report)
    folder = Path(tempfile.mkdtemp(prefix="report-save-"))
    print(f"4 runs x {args.samples:,} samples, 9 devices x {args.points:,} readings; best of {args.repeats}")
    for suffix in FORMATS:
        as_dict = best_of(args.repeats, lambda: save_report(TimingReport.lenient(report), folder / f"dict{suffix}"))
        as_type = best_of(args.repeats, lambda: save_report(typed, folder / f"typed{suffix}"))
        size = (folder / f"dict{suffix}").stat().st_size
        print(f"  {suffix:5}  the file's dict {as_dict:6.2f} s   a TimingReport {as_type:6.2f} s   ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
