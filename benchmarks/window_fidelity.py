"""The window's figures against the CLI's, on the same models, taken in turn (issue 33).

Each case is measured by the real window on an X screen (Xvfb: the offscreen platform paints
too little to show the gap), by ``torch-device-inspector bench … --json`` and, for the plain
runs, by ``torch.utils.benchmark.Timer``, each in a fresh process, one after another and in
alternating order, ``--repeats`` times. The window is driven as a user drives it: the model
opened, the dtype chosen and moved to, the runs and "per module" set, Benchmark clicked; its
figures are read from its session when the run ends.

Cases: the example (float32, float16, bfloat16), an MLP of ~1 ms, a CNN with BatchNorm of
~20 ms, ``torch.nn:Transformer`` with its two inputs; each plain and per module.

Printed per case (medians over the repeats): window median / CLI median, window p95 / CLI
p95, per-module sum of self times / forward median (window, CLI), and window median / Timer
median. Targets: medians within 5 %, p95 within 2x, per-module sum <= 1.1x the forward (or
the run says it is not: flagged), Timer within 5 %. Also printed: the CPU time other
processes took during the runs (a p95 blown up by them is the machine's, not the app's).

    xvfb-run is used when no X display is set (Xvfb must be installed).
    python benchmarks/window_fidelity.py [--quick] [--repeats 3] [--cases example-float16,mlp]
                                         [--against DIR]   # the window of another checkout too
    python benchmarks/window_fidelity.py --pairs 10 [--cases ...]   # issue 46's 10-pair mode
    python benchmarks/window_fidelity.py --pairs 10 --fresh 3       # Repeat x3, fresh processes, against bench --repeat 3

``--pairs N`` (issue 46 item 3): N alternated pairs of a fresh window and a fresh CLI per case
(plain runs; default cases the example in float32 and float16 and the MLP), every median
printed, and the target: the window's median of medians within the CLI's own process-to-process
spread (between the lowest and the highest of the CLI's N medians).

Diagnostics: ``FIDELITY_NO_PROBE=1`` runs the window without the 1 ms stall probe (its own
wake-ups on the GUI thread); ``FIDELITY_THREADS=1`` prints the window process's threads (name,
nice, CPU ticks) on stderr when its run ends.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass

HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(HERE))
XVFB = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24"]


# --------------------------------------------------------------------------- the models


def make_mlp():
    """~1 ms on two cores: 32 x (512 -> 1024 -> 1024 -> 10)."""
    import torch
    from torch import nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))
    return model, torch.randn(32, 512)


def make_cnn():
    """~20 ms on two cores: two conv + BatchNorm + ReLU blocks, pooling and a classifier."""
    import torch
    from torch import nn

    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10),
    )  # fmt: skip
    return model, torch.randn(8, 3, 64, 64)


@dataclass(frozen=True)
class Case:
    name: str
    spec: str
    dtype: str = "float32"
    input_shape: str = ""
    runs: int = 300
    quick_runs: int = 300


CASES = (
    Case("example-float32", "example"),
    Case("example-float16", "example", "float16"),
    Case("example-bfloat16", "example", "bfloat16"),
    Case("mlp", f"{HERE}:make_mlp", runs=300, quick_runs=200),
    Case("cnn-bn", f"{HERE}:make_cnn", runs=100, quick_runs=30),
    Case("transformer", "torch.nn:Transformer", input_shape="10,32,512; 20,32,512", runs=20, quick_runs=5),
)


# --------------------------------------------------------------------------- children


def window_child(case: Case, runs: int, per_module: bool) -> dict:
    """One fresh window measures ``case`` (in this process, on the X screen given)."""
    sys.path.insert(0, os.environ.get("FIDELITY_APP") or ROOT)
    from PySide6.QtCore import QEventLoop, Qt, QTimer

    try:
        from inspector.gui.shell.app import create_window, ensure_application
    except ImportError:  # a checkout from before the window's layers (issue 37), measured --against
        from inspector.gui.app import create_window, ensure_application  # type: ignore[no-redef]

    app = ensure_application()
    window = create_window(model_spec=case.spec)
    window.show()
    wait(app, lambda: window.model_state is not None and window.busy_task is None and window.inventory is not None)
    bar = window.action_bar
    if case.input_shape:
        bar.inputShapeEdit.setText(case.input_shape)
    if case.dtype != "float32":
        bar.set_target_device("cpu")
        bar.set_dtype(case.dtype)
        pause = QEventLoop()  # a hand goes from the dtype box to the button
        QTimer.singleShot(250, pause.quit)
        pause.exec()
        assert window.move_to_target()
        wait(app, lambda: window.busy_task is None)
    bar.runsSpin.setValue(runs)
    bar.perModuleCheck.setChecked(per_module)
    fresh = int(os.environ.get("FIDELITY_FRESH") or 0)
    if fresh > 1:  # --fresh N: Repeat xN, every run in a fresh process
        bar.repeatSpin.setValue(fresh)
        bar.freshProcessesCheck.setChecked(True)
    loop = QEventLoop()
    window.tasks.busyChanged.connect(lambda task: task is None and loop.quit())
    # The event loop's gaps meanwhile (a 1 ms timer, as benchmarks/ui_stall.py): what parking costs the window.
    stamps: list[float] = []
    probe = QTimer()
    probe.setTimerType(Qt.TimerType.PreciseTimer)
    probe.setInterval(1)
    probe.timeout.connect(lambda: stamps.append(time.perf_counter()))
    # Not with --fresh: nothing is gated there, and a timer waking the GUI 1000 times a second while
    # a worker runs is this script's load, not the app's (the MLP's team read 1.20x the CLI with it,
    # 0.99x without, 10 pairs each).
    if not os.environ.get("FIDELITY_NO_PROBE") and not os.environ.get("FIDELITY_FRESH"):
        probe.start()
    assert window.run_benchmark(), "the window refused the benchmark"
    loop.exec()
    probe.stop()
    gaps = [(b - a) * 1e3 for a, b in zip(stamps, stamps[1:])] or [0.0]
    if os.environ.get("FIDELITY_THREADS"):
        import glob

        for f in sorted(glob.glob("/proc/self/task/*/stat")):
            text = open(f).read()
            rest = text[text.rindex(")") + 2 :].split()
            print(f.split("/")[4], text[text.index("(") + 1 : text.rindex(")")], "nice", rest[16], "cpu_ticks",
                  int(rest[11]) + int(rest[12]), file=sys.stderr)  # fmt: skip
    entry = window.historyView.history.entries()[-1]
    assert entry.ok, entry
    session = window.worker.session
    latency = session.latencies[-1]
    out = {
        "samples_ms": list(latency.samples_ms),
        "dtype": latency.dtype,
        "input_shapes": [list(s) for s in latency.input_shapes],
        "warmup_ms": list(latency.warmup_samples_ms),
        "stall_max_ms": max(gaps),
        "stall_p99_ms": pct(gaps, 99),
    }
    if per_module:
        out["attribution"] = attribution_summary(session.attributions[-1])
    window.close()
    return out


def wait(app, condition, timeout_s: float = 600) -> None:
    end = time.monotonic() + timeout_s
    while not condition():
        app.processEvents()
        time.sleep(0.005)
        if time.monotonic() > end:
            raise SystemExit("timed out waiting for the window")


def attribution_summary(run) -> dict:
    """The sum of the modules' self times, the forward without hooks, and any flag."""
    get = run.get if isinstance(run, dict) else lambda key, default=None: getattr(run, key, default)
    modules = get("modules") or ()
    self_sum = sum((m["self_ms"] if isinstance(m, dict) else m.self_ms) for m in modules)
    warnings = get("warnings", ()) or ()
    return {"self_sum_ms": self_sum, "forward_ms": get("forward_without_hooks_ms"), "flagged": bool(warnings)}


def timer_child(case: Case) -> dict:
    """``torch.utils.benchmark.Timer`` on the model as the app runs it (eval, inference_mode)."""
    import torch
    from torch.utils import benchmark

    from inspector.core.files.inputs import parse_inputs
    from inspector.core.files.models import load_model
    from inspector.core.measure.model_input import as_args, make_input

    loaded = load_model(case.spec)
    loaded.module.to(getattr(torch, case.dtype)).eval()
    args = as_args(make_input(loaded, parse_inputs(case.input_shape) if case.input_shape else None))
    with torch.inference_mode():
        timer = benchmark.Timer("model(*args)", globals={"model": loaded.module, "args": args},
                                num_threads=torch.get_num_threads())  # fmt: skip
        measurement = timer.blocked_autorange(min_run_time=1.0)
    return {"median_ms": measurement.median * 1e3}


def cli_child(case: Case, runs: int, per_module: bool) -> dict:
    cli = shutil.which("torch-device-inspector", path=os.path.dirname(sys.executable)) or "torch-device-inspector"
    cmd = [cli, "bench", case.spec, "--device", "cpu", "--runs", str(runs), "--json"]
    if case.dtype != "float32":
        cmd += ["--dtype", case.dtype]
    if case.input_shape:
        cmd += ["--input-shape", case.input_shape]
    if per_module:
        cmd.append("--per-module")
    fresh = int(os.environ.get("FIDELITY_FRESH") or 0)
    if fresh > 1:  # --fresh N: bench --repeat N, as the window's Repeat xN with fresh processes
        cmd += ["--repeat", str(fresh)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=False)
    if done.returncode != 0:
        raise SystemExit(f"error: the CLI failed on {case.name}: {done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    latency = report["latency"][0]
    out = {
        "samples_ms": latency["samples_ms"],
        "dtype": latency["dtype"],
        "input_shapes": latency["input_shapes"],
        "warmup_ms": latency["warmup_samples_ms"],
    }
    if per_module:
        # The report keeps the modules apart from the run's own figures.
        out["attribution"] = attribution_summary(dict(report["attribution"][0], modules=report.get("modules") or ()))
    return out


# --------------------------------------------------------------------------- the parent


def cpu_busy_ms() -> float:
    """CPU time all processes have taken so far, every CPU together (ms; /proc/stat)."""
    try:
        with open("/proc/stat") as stat:
            values = [int(v) for v in stat.readline().split()[1:]]
        return (sum(values) - values[3] - values[4]) * 1000 / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        return 0.0


def children_cpu_ms() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def run_child(kind: str, case: Case, runs: int, per_module: bool, app: str | None = None) -> dict:
    cmd = [sys.executable, HERE, "--child", kind, "--case", case.name, "--runs", str(runs)]
    if per_module:
        cmd.append("--per-module")
    env = dict(os.environ, FIDELITY_APP=app or "")
    if kind == "window":
        env["QT_QPA_PLATFORM"] = "xcb"
        if not os.environ.get("DISPLAY"):
            cmd = XVFB + cmd
    busy, own, started = cpu_busy_ms(), children_cpu_ms(), time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, check=False, env=env)
    if done.returncode != 0:
        raise SystemExit(f"error: the {kind} child failed on {case.name}:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # What other processes took meanwhile (the child's own CPU, and its X server's, left out), in cores.
    others = (cpu_busy_ms() - busy) - (children_cpu_ms() - own)
    result["others_share"] = max(0.0, others) / 1000 / max(time.monotonic() - started, 1e-9)
    return result


def pct(samples: list[float], q: float) -> float:
    import numpy as np

    return float(np.percentile(np.asarray(samples, dtype=float), q))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer runs, one repeat, no per-module Transformer")
    parser.add_argument(
        "--repeats", type=int, default=None, help="window/CLI pairs per case (default 3; 1 with --quick)"
    )
    parser.add_argument(
        "--cases", default="", help="comma-separated names (default: all): " + ", ".join(c.name for c in CASES)
    )
    parser.add_argument(
        "--against", metavar="DIR", help="also the window of the app in DIR (git worktree add DIR <commit>)"
    )
    parser.add_argument("--pairs", type=int, default=0, help="N alternated window/CLI pairs per case, plain runs "
                        "(issue 46: the window's median of medians within the CLI's own spread)")  # fmt: skip
    parser.add_argument("--fresh", type=int, default=0, metavar="N", help="with --pairs: the window's Repeat xN with "
                        "fresh processes against bench --repeat N (issue 46 item 3)")  # fmt: skip
    parser.add_argument("--child", choices=("window", "cli", "timer"), help=argparse.SUPPRESS)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--per-module", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    by_name = {c.name: c for c in CASES}
    if args.child:
        case = by_name[args.case]
        if args.child == "window":
            result = window_child(case, args.runs, args.per_module)
        elif args.child == "cli":
            result = cli_child(case, args.runs, args.per_module)
        else:
            result = timer_child(case)
        print(json.dumps(result))
        return 0

    if not os.environ.get("DISPLAY") and not shutil.which("xvfb-run"):
        print(
            "error: no X display and no xvfb-run: install Xvfb (the window is measured on a real X screen)",
            file=sys.stderr,
        )
        return 1
    default = PAIR_CASES if args.pairs else [c.name for c in CASES]
    names = [n for n in args.cases.split(",") if n] or default
    unknown = [n for n in names if n not in by_name]
    if unknown:
        print(f"error: unknown case(s) {', '.join(unknown)}; known: {', '.join(by_name)}", file=sys.stderr)
        return 2
    repeats = args.repeats or (1 if args.quick else 3)
    import torch

    if args.fresh > 1:
        os.environ["FIDELITY_FRESH"] = str(args.fresh)  # (read by the children)
    if args.pairs:
        return pairs_mode([by_name[n] for n in names], args.pairs, args.quick)

    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, CPUs {os.cpu_count()}, "
          f"repeats {repeats}{' (quick)' if args.quick else ''}, X: {os.environ.get('DISPLAY') or 'xvfb-run'}")  # fmt: skip
    windows = ["window"] + (["against"] if args.against else [])
    rows = []
    for name in names:
        case = by_name[name]
        runs = case.quick_runs if args.quick else case.runs
        for per_module in (False, True):
            if per_module and args.quick and case.name == "transformer":
                continue
            got: dict[str, list[dict]] = {k: [] for k in windows + ["cli", "timer"]}
            for r in range(repeats):
                order = windows + ["cli"] if r % 2 == 0 else ["cli"] + windows[::-1]
                for kind in order:
                    app = args.against if kind == "against" else None
                    got[kind].append(run_child("window" if kind == "against" else kind, case, runs, per_module, app))
                if not per_module:
                    got["timer"].append(run_child("timer", case, runs, False))
            rows.append((case, runs, per_module, got))
            print_row(case, runs, per_module, got, windows)
            sys.stdout.flush()
    print_targets()
    return 0


#: The cases of ``--pairs`` unless ``--cases`` names others (issue 46's).
PAIR_CASES = ["example-float32", "example-float16", "mlp"]


def pairs_mode(cases: list[Case], pairs: int, quick: bool) -> int:
    """``pairs`` alternated (window, CLI) pairs per case, plain runs: is the window's median of
    medians within the CLI's own spread between processes?"""
    import numpy as np
    import torch

    print(f"--pairs {pairs}: torch {torch.__version__}, threads {torch.get_num_threads()}, CPUs {os.cpu_count()}, "
          f"load average {os.getloadavg()[0]:.2f} at start, X: {os.environ.get('DISPLAY') or 'xvfb-run'}"
          + (f"; window Repeat x{os.environ['FIDELITY_FRESH']} with fresh processes against bench --repeat "
             f"{os.environ['FIDELITY_FRESH']}" if os.environ.get("FIDELITY_FRESH") else ""))  # fmt: skip
    met = 0
    for case in cases:
        runs = case.quick_runs if quick else case.runs
        medians: dict[str, list[float]] = {"window": [], "cli": []}
        others: list[float] = []
        for r in range(pairs):
            for kind in (("window", "cli") if r % 2 == 0 else ("cli", "window")):
                got = run_child(kind, case, runs, False)
                medians[kind].append(float(np.median(got["samples_ms"])))
                others.append(got["others_share"])
        window, cli = float(np.median(medians["window"])), float(np.median(medians["cli"]))
        low, high = min(medians["cli"]), max(medians["cli"])
        ok = low <= window <= high
        met += ok
        print(f"\n{case.name} (x{runs}), {pairs} pairs; other processes took {float(np.median(others)):.2f} cores")
        for kind in ("window", "cli"):
            print(f"  {kind:<6} medians: {', '.join(fmt_ms(m) for m in medians[kind])}")
        print(f"  window median of medians {fmt_ms(window)} = {window / cli:.2f}x the CLI's {fmt_ms(cli)}; the CLI's own "
              f"spread {fmt_ms(low)}-{fmt_ms(high)} [{'ok' if ok else 'MISS'}]")  # fmt: skip
        sys.stdout.flush()
    print(f"\nwithin the CLI's own spread: {met} of {len(cases)} cases; load average {os.getloadavg()[0]:.2f} at the end")
    return 0


def summary(results: list[dict]) -> dict:
    import numpy as np

    med = float(np.median([np.median(r["samples_ms"]) for r in results]))
    p95 = float(np.median([pct(r["samples_ms"], 95) for r in results]))
    out = {"median": med, "p95": p95, "others": float(np.median([r["others_share"] for r in results]))}
    if all("stall_max_ms" in r for r in results):
        out["stall_max"] = max(r["stall_max_ms"] for r in results)
        out["stall_p99"] = float(np.median([r["stall_p99_ms"] for r in results]))
    attrs = [r["attribution"] for r in results if "attribution" in r]
    if attrs:
        out["sum_ratio"] = float(np.median([a["self_sum_ms"] / a["forward_ms"] for a in attrs if a["forward_ms"]]))
        out["flagged"] = sum(a["flagged"] for a in attrs)
    return out


def fmt_ms(ms: float) -> str:
    return f"{ms * 1e3:.1f} µs" if ms < 1 else f"{ms:.2f} ms"


def print_row(case: Case, runs: int, per_module: bool, got: dict, windows: list[str]) -> None:
    cli = summary(got["cli"])
    label = f"{case.name} {'per module' if per_module else 'plain'} (x{runs})"
    print(f"\n{label}: CLI median {fmt_ms(cli['median'])}, p95 {fmt_ms(cli['p95'])}; "
          f"other processes took {cli['others']:.2f} cores")  # fmt: skip
    if len(got["cli"]) > 1:  # the floor: how far the CLI lands from itself between repeats
        import numpy as np

        medians = [float(np.median(r["samples_ms"])) for r in got["cli"]]
        print(f"  floor: the CLI's own medians spread {max(medians) / min(medians) - 1:.1%} between its "
              f"{len(medians)} runs (a window median closer to the CLI's than that cannot be asked)")  # fmt: skip
    for kind in windows:
        w = summary(got[kind])
        med_ratio, p95_ratio = w["median"] / cli["median"], w["p95"] / cli["p95"]
        ok = ("ok" if abs(med_ratio - 1) <= 0.05 else "MISS", "ok" if p95_ratio <= 2 else "MISS")
        name = "window" if kind == "window" else "window (against)"
        line = (f"  {name:<17} median {fmt_ms(w['median']):>10} = {med_ratio:5.2f}x CLI [{ok[0]}]   "
                f"p95 {fmt_ms(w['p95']):>10} = {p95_ratio:6.2f}x CLI [{ok[1]}]   "
                f"others {w['others']:.2f} cores")  # fmt: skip
        line += f"   GUI stall max {w['stall_max']:.0f} ms, p99 {w['stall_p99']:.0f} ms"
        if got["timer"]:
            timer = float(sum(t["median_ms"] for t in got["timer"]) / len(got["timer"]))
            line += f"   Timer {fmt_ms(timer)}: window {w['median'] / timer:4.2f}x, CLI {cli['median'] / timer:4.2f}x"
        print(line)
        if per_module:
            for who, s in ((name, w), ("CLI", cli)):
                verdict = "ok" if s.get("sum_ratio", 0) <= 1.1 else ("flagged" if s.get("flagged") else "MISS")
                print(f"  {who:<17} per-module sum / forward median {s.get('sum_ratio', float('nan')):5.2f} "
                      f"[{verdict}] (flagged in {s.get('flagged', 0)} of {len(got['cli'])})")  # fmt: skip


def print_targets() -> None:
    print("\nTargets: window median within 5 % of the CLI's; window p95 within 2x the CLI's; per-module sum of self"
          " times <= 1.1x the forward median, or the run flags it; plain medians within 5 % of torch.utils.benchmark.Timer;"
          " the window's longest event-loop stall during the run <= 50 ms, p99 <= 16 ms (issue 25)."
          "\nA p95 miss with other processes taking a large share of the CPUs is the machine's: rerun on a quiet machine.")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
