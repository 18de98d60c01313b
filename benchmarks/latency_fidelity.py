"""Does our timing agree with torch.utils.benchmark's? (target: within 3 %)

Same model, same input, same thread count, both under ``torch.inference_mode()`` with the
model in eval mode; ours runs with callbacks like the window's (a sample stream, progress,
a cancel check) and times a whole number of the Timer's blocks. Rounds alternate the order,
so drift in the machine's load hits both alike; each figure is the median over rounds of
the per-round ratio. Many short rounds (by default 401 of 0.02 s a side: one 1000-call
block each for the example Net) beat a few long ones on a shared machine: a burst of
contention, or a phase where the core runs at half speed, then spoils one round, not the
figure.

Two statistics are in play, and they estimate different things when calls have a right
tail (a preempted call, an interrupt, an allocator slow path):

- the app reports the MEDIAN OF SINGLE CALLS: a typical call, robust to the machine's
  other work; every sample is kept for the plots, percentiles and the noise flag;
- ``Timer.blocked_autorange`` reports the MEDIAN OF BLOCK MEANS: each block times
  ``number_per_run`` calls back to back (1000 for a 20 µs call, 1 for a 7 ms one) and
  divides, so a block's figure is a mean, slow calls included.

How sure the figure is: each per-round ratio swings by several per cent on a shared VM, so
the figure is the MEDIAN of the per-round ratios with its 95 % bootstrap interval (rounds
resampled with replacement) and the rounds' IQR. A target is "met" only when the whole
interval lies within ±3 %. The interval is within one process: a new process lays out its
code and data afresh, and two loops of the same calls then differ by up to ~1.5 % either
way, so quote several runs. With ``--threads 1`` the process is pinned to one CPU (both
sides alike), so neither side is moved between cores mid-block; the load average and each
CPU's busy and steal time are printed per model, so a run on a busy machine reads as one.

So three ratios are printed per model:

1. ``blocks``  (the ±3 % target): our own samples summarised the Timer's way (median of the
   means of consecutive blocks of the Timer's block size) / blocked_autorange. Same calls,
   same statistic: any gap is in how the calls are timed, which is what fidelity means.
2. ``median``: our median / blocked_autorange, what the app shows next to what the Timer
   prints. Next to it, ``tail``: our median / our block statistic from the SAME samples. The
   two agree when the gap is the statistic (the tail of the calls), not the timing. On a
   quiet machine, or a call long enough that Timer blocks hold one call, the tail is near 1
   and so is this ratio.
3. ``per call``: our median / the median of ``Timer.timeit(number=1)`` calls merged, the
   Timer's own per-call figure. Each of its timed calls follows the Timer's bookkeeping and
   two warm-up calls, which a 20 µs call feels; shown, not targeted.

    python benchmarks/latency_fidelity.py [--min-time 0.02] [--rounds 401] [--threads 1] [--cpu N]
        [--device cpu] [--per-call] [--only net|mlp] [--quiet]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import threading
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.utils.benchmark as benchmark
from torch import nn
from torch.utils.benchmark.utils.common import Measurement

from inspector.core.devices.discovery import resolve_device
from inspector.core.files.models import LoadedModel, example_model
from inspector.core.measure.time_left import TimeLeft
from inspector.core.measure.model_input import make_input
from inspector.core.measure.run_control import RunControl
from inspector.core.measure.timing import LatencyResult, measure_latency

TARGET = 0.03
BOOTSTRAP_RESAMPLES = 10_000


def big_mlp(device: torch.device) -> LoadedModel:
    layers = nn.Sequential(
        nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024)
    )
    return LoadedModel(spec="3x Linear(1024, 1024)", module=layers.to(device),
                       example_input=torch.randn(64, 1024))


def block_statistic(samples: np.ndarray, block: int) -> float:
    """The median of the means of consecutive blocks of ``block`` samples (the remainder
    dropped): ``blocked_autorange``'s statistic, computed from single-call samples."""
    if len(samples) < block:
        return float(samples.mean())
    count = len(samples) // block
    return float(np.median(samples[: count * block].reshape(count, block).mean(axis=1)))


def ours_like_the_window(loaded: LoadedModel, runs: int) -> LatencyResult:
    """``measure_latency`` with the callbacks the window gives it (stream, progress, cancel)."""
    streamed: list[tuple[int, float]] = []
    time_left = TimeLeft()
    cancel = threading.Event()
    return measure_latency(
        loaded,
        runs=runs,
        warmup=10,
        control=RunControl(on_sample=lambda i, ms: streamed.append((i, ms)), progress=time_left.update,
                           should_cancel=cancel.is_set),
    )


def _timer(loaded: LoadedModel) -> benchmark.Timer:
    x = make_input(loaded)  # the very input measure_latency builds: same device, same dtype
    return benchmark.Timer(
        stmt="model(x)",
        globals={"model": loaded.module, "x": x},
        num_threads=torch.get_num_threads(),
    )


def timer_blocked(timer: benchmark.Timer, min_time: float) -> Measurement:
    with torch.inference_mode():
        return timer.blocked_autorange(min_run_time=min_time)


def timer_per_call(timer: benchmark.Timer, min_time: float) -> Measurement:
    """``Timer.timeit(number=1)`` repeated and merged: the Timer's median of single calls.
    Each makes two warm-up calls first, so a third of ``min_time`` is timed."""
    single: list[Measurement] = []
    timed = 0.0
    with torch.inference_mode():
        while timed < min_time / 3 or not single:
            single.append(timer.timeit(number=1))
            timed += single[-1].median
    return Measurement.merge(single)[0]


@dataclass(frozen=True)
class Fidelity:
    """Median over rounds of each per-round ratio (ours / the Timer's unless said)."""

    blocks: float  # our block statistic / blocked_autorange: the target
    median: float  # our median / blocked_autorange
    tail: float  # our median / our block statistic, same samples
    per_call: float  # our median / Timer.timeit(1) merged
    rounds: int
    blocks_ci: tuple[float, float] = (float("nan"), float("nan"))  # 95 % bootstrap interval of ``blocks``
    blocks_iqr: tuple[float, float] = (float("nan"), float("nan"))  # the rounds' spread (p25, p75)

    @property
    def met(self) -> bool:
        """The whole 95 % interval of the like-with-like ratio lies within ±TARGET."""
        low, high = self.blocks_ci
        return 1 - TARGET <= low and high <= 1 + TARGET


def median_interval(values: list[float], resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float, float]:
    """(median, low, high): the median of ``values`` and its 95 % percentile-bootstrap
    interval (the values resampled with replacement, a fixed seed so a run reprints)."""
    x = np.asarray(values, dtype=np.float64)
    if x.size < 2:
        return float(np.median(x)), float(x.min()), float(x.max())
    picks = np.random.default_rng(0).integers(0, x.size, size=(resamples, x.size))
    low, high = np.percentile(np.median(x[picks], axis=1), [2.5, 97.5])
    return float(np.median(x)), float(low), float(high)


def _summary(values: list[float]) -> str:
    q1, q3 = np.percentile(values, [25, 75])
    mid, low, high = median_interval(values)
    return (f"{mid:.4f} ({(mid - 1) * 100:+.2f} %; 95 % CI {low:.4f}-{high:.4f}, "
            f"{(low - 1) * 100:+.2f} to {(high - 1) * 100:+.2f} %; rounds' IQR {q1:.3f}-{q3:.3f})")


def load_average() -> str:
    return "load average " + ", ".join(f"{v:.2f}" for v in os.getloadavg()) + " (1, 5, 15 min)"


def cpu_ticks() -> dict[str, list[int]]:
    """Per-CPU tick counters from /proc/stat (user nice system idle iowait irq softirq steal);
    empty where there is no /proc (not Linux)."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            lines = [line.split() for line in stat if line.startswith("cpu") and not line.startswith("cpu ")]
    except OSError:
        return {}
    return {fields[0]: [int(v) for v in fields[1:9]] for fields in lines}


def cpu_use(before: dict[str, list[int]], after: dict[str, list[int]]) -> str:
    """How busy each CPU was between two ``cpu_ticks`` (ours included on the pinned one), and
    the time the hypervisor gave to others (steal): the other users of a shared machine."""
    parts = []
    for cpu, end in after.items():
        delta = [b - a for a, b in zip(before.get(cpu, end), end)]
        total = max(sum(delta), 1)
        busy = total - delta[3] - delta[4]
        parts.append(f"{cpu} {busy / total * 100:.0f} % busy, steal {delta[7] / total * 100:.1f} %")
    return "; ".join(parts) or "per-CPU use unknown"


def compare(loaded: LoadedModel, min_time: float, rounds: int, *, per_call: bool = False,
            verbose: bool = True) -> Fidelity:
    print(f"{loaded.spec}, input {tuple(make_input(loaded).shape)}; {load_average()}:")
    loaded.module.eval()
    timer = _timer(loaded)
    # Our side times a whole number of the Timer's blocks, as many as the Timer takes to pass
    # ``min_time`` (its stopping rule), so each block mean holds as many calls as the Timer's
    # and both medians are over about as many blocks.
    first = timer_blocked(timer, min_time)
    block = int(first.number_per_run)
    runs = block * max(1, math.ceil(min_time / (first.median * block)))
    print(f"  Timer blocks of {block} calls ({first.median * 1e6:.2f} µs per call); ours: {runs} runs per round")
    ratios: dict[str, list[float]] = {"blocks": [], "median": [], "tail": [], "per_call": []}
    started, ticks = time.monotonic(), cpu_ticks()
    for i in range(rounds):
        # Which goes first swaps every round, so a drift in the machine's load hits both alike.
        ours: LatencyResult | None = None
        blocked = single = None
        for which in ("ours", "blocked", "single")[:: 1 if i % 2 == 0 else -1]:
            if which == "ours":
                ours = ours_like_the_window(loaded, runs)
            elif which == "blocked":
                blocked = timer_blocked(timer, min_time)
            elif per_call:
                single = timer_per_call(timer, min_time)
        assert ours is not None and blocked is not None
        samples = np.asarray(ours.samples_ms) * 1e3  # µs
        block = int(blocked.number_per_run)
        ours_blocks = block_statistic(samples, block)
        theirs = blocked.median * 1e6
        ratios["blocks"].append(ours_blocks / theirs)
        ratios["median"].append(ours.median_ms * 1e3 / theirs)
        ratios["tail"].append(ours.median_ms * 1e3 / ours_blocks)
        line = (
            f"  round {i + 1:3d}: ours median {ours.median_ms * 1e3:9.2f} µs, blocks {ours_blocks:9.2f} µs"
            f" ({len(samples)} samples) | Timer blocked {theirs:9.2f} µs ({len(blocked.times)} blocks of {block})"
        )
        if single is not None:
            ratios["per_call"].append(ours.median_ms / (single.median * 1e3))
            line += f", per call {single.median * 1e6:9.2f} µs ({len(single.raw_times)} calls)"
        if verbose:
            print(line + f" | blocks ratio {ratios['blocks'][-1]:.4f}")
    blocks, low, high = median_interval(ratios["blocks"])
    q1, q3 = np.percentile(ratios["blocks"], [25, 75])
    result = Fidelity(
        blocks=blocks,
        median=statistics.median(ratios["median"]),
        tail=statistics.median(ratios["tail"]),
        per_call=statistics.median(ratios["per_call"]) if ratios["per_call"] else float("nan"),
        rounds=rounds,
        blocks_ci=(low, high),
        blocks_iqr=(float(q1), float(q3)),
    )
    print(f"  over {rounds} rounds ({time.monotonic() - started:.0f} s; {load_average()}; "
          f"{cpu_use(ticks, cpu_ticks())}), median ratio of the rounds with its 95 % bootstrap interval:")
    print(f"    blocks   (ours / Timer, both as medians of block means; TARGET ±3 %): {_summary(ratios['blocks'])}"
          f"  -> {'met' if result.met else 'NOT met'} (met: the whole interval within ±3 %)")
    print(f"    median   (our median of single calls / Timer's median of block means): {_summary(ratios['median'])}")
    print(f"    tail     (our median / our block statistic, same samples):            {_summary(ratios['tail'])}")
    if ratios["per_call"]:
        print(f"    per call (our median / median of Timer.timeit(1) calls):                {_summary(ratios['per_call'])}")
    return result


def pin_to_one_cpu(cpu: int | None) -> int | None:
    """Pin this process to ``cpu`` (default: the last one it may use); None where the OS
    cannot pin (not Linux). Both sides run in this process, so they share the pin."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[-1] if cpu is None else cpu
    os.sched_setaffinity(0, {chosen})
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--min-time", type=float, default=0.02, help="seconds measured per figure and round")
    parser.add_argument("--rounds", type=int, default=401)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, help="torch.set_num_threads first (both sides use it)")
    parser.add_argument("--cpu", type=int, help="with --threads 1: the CPU to pin to (default: the last allowed)")
    parser.add_argument("--no-pin", action="store_true", help="with --threads 1: do not pin to one CPU")
    parser.add_argument("--per-call", action="store_true", help="also compare with Timer.timeit(1) calls (slower rounds)")
    parser.add_argument("--quiet", action="store_true", help="no line per round, only the figures")
    parser.add_argument("--only", choices=("net", "mlp"), help="measure one of the two models")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    pinned = pin_to_one_cpu(args.cpu) if torch.get_num_threads() == 1 and not args.no_pin else None
    device = resolve_device(args.device)
    print(f"torch {torch.__version__} on {device}, {torch.get_num_threads()} threads"
          f"{f', pinned to CPU {pinned}' if pinned is not None else ''} of {os.cpu_count()}, "
          f"{args.rounds} rounds of {args.min_time:g} s per figure; {load_average()}")
    models = []
    if args.only != "mlp":
        net = example_model()
        net.module.to(device)
        models.append(net)
    if args.only != "net":
        models.append(big_mlp(device))
    for loaded in models:
        compare(loaded, args.min_time, args.rounds, per_call=args.per_call, verbose=not args.quiet)


if __name__ == "__main__":
    main()
