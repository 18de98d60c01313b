"""Do `compare`'s verdicts survive a rerun? False positives on identical code, detection of a
real 10 % difference, and what a comparison costs (issue 33, "Verdicts that survive a rerun").

As a user does it, with default settings, in fresh processes. The way the README gives for
telling whether a change made code faster (``--workflow against``, the default):

    python -m inspector bench mlp.py:build --against mlp.py:wide --device cpu --json

(A and B timed turn about in 5 rounds, each a fresh process), and the way that compares two
separate runs (``--workflow separate``; ``both`` runs both):

    python -m inspector bench mlp.py:build --device cpu --min-time 1 --output A.json
    python -m inspector bench mlp.py:build --device cpu --min-time 1 --output B.json
    python -m inspector compare A.json B.json

K pairs of identical runs (build vs build) and K pairs with 10 % more work (build vs wide: the
hidden layer 10 % wider, so both matrix products do 10 % more multiply-adds), interleaved, the
order inside a pair alternated. A verdict "claims a difference" when its interval excludes 1
and it is not "about the same"; for the 10 % pairs it must also say B slower.

With ``separate``, one run per side is given the stated run-to-run noise
(``core.measure.run_noise.stated_noise``), never this machine's record of earlier ``bench
--repeat`` runs (issue 46). To show it, each pair's two files are compared under each seeded
record (``--records``: ``empty``, none; ``quiet``, σ 0.02; ``noisy``, σ 0.54, as the issue's
machine had recorded), each in a record file of its own (the user's is not touched); false
positives and detection are counted per record, and a pair whose verdicts differ between
records is counted and printed. --repeat N runs every bench of the pairs with N runs instead
(then each side's own runs give the interval).

--option also prints the figures behind ``bench --repeat``'s choice of fresh processes: the
spread of run medians (sd of their logs) of R runs in R fresh processes against R runs one
after another in one process, alternated, a few rounds.

    PYTHONPATH=. python benchmarks/verdict_truth.py [--quick] [--pairs K] [--workflow against|separate|both]
        [--repeat N] [--records empty,quiet,noisy] [--option]

Targets: false positives <= 5 %, detection of the 10 % difference >= 80 %. Say the machine's
load when quoting figures: on a 2-core VM shared with other work, medians of this MLP moved
from 1.6 to 40 ms between runs a minute apart.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: ~1.8 ms per forward on the development VM (2 threads); WIDE is 10 % more work.
HIDDEN, WIDE = 960, 1056
MODEL = f"""
import torch
from torch import nn

def _mlp(hidden):
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(1024, hidden), nn.ReLU(), nn.Linear(hidden, 1024)), torch.randn(64, 1024)

def build():
    return _mlp({HIDDEN})

def wide():  # the hidden layer 10 % wider: both matrix products do 10 % more multiply-adds
    return _mlp({WIDE})
"""


def inspector(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "inspector", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          check=False)  # fmt: skip


def bench(factory: str, out: Path, args, env, cwd) -> float:
    """One bench into ``out``; its wall time."""
    start = time.perf_counter()
    extra = ["--repeat", str(args.repeat)] if args.repeat > 1 else []
    done = inspector("bench", f"{cwd / 'mlp.py'}:{factory}", "--device", "cpu", "--min-time", str(args.min_time),
                     "--output", str(out), *extra, env=env, cwd=cwd)  # fmt: skip
    if done.returncode != 0:
        sys.exit(f"bench failed: {done.stderr.strip().splitlines()[-1:]}")
    return time.perf_counter() - start


def compare(a: Path, b: Path, env, cwd) -> tuple[dict, float]:
    start = time.perf_counter()
    done = inspector("compare", str(a), str(b), "--json", env=env, cwd=cwd)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"compare failed: {done.stderr.strip()}")
    [row] = json.loads(done.stdout)["latency"]
    return row, elapsed


#: The records ``--workflow separate`` seeds: sd of the log run medians (None: no record).
RECORDS = {"empty": None, "quiet": 0.02, "noisy": 0.54}


def seed_record(path: Path, sigma: float | None) -> None:
    """A run-to-run noise record as ``bench --repeat`` would leave it on this machine."""
    from inspector.core.measure.run_noise import machine_key

    path.unlink(missing_ok=True)
    if sigma is not None:
        records = [{"sd": sigma, "df": 19, "when": "2026-12-01T00:00:00+00:00", "what": "verdict_truth seed"}]
        path.write_text(json.dumps({"version": 1, "machines": {machine_key(): {"records": records}}}))


def claimed(row: dict) -> bool:
    low, high = row.get("ratio_low"), row.get("ratio_high")
    clear = low is not None and high is not None and (low > 1 or high < 1)
    # "no verdict: ... too noisy to tell" (a noisy single run) keeps its interval but claims nothing
    return clear and not str(row["verdict"]).startswith(("about the same", "no verdict"))


def against(a: str, b: str, args, env, cwd) -> tuple[dict, float]:
    """``bench A --against B`` with its defaults: the comparison's row and its wall time."""
    start = time.perf_counter()
    extra = ["--repeat", str(args.repeat)] if args.repeat > 1 else []
    done = inspector("bench", f"{cwd / 'mlp.py'}:{a}", "--against", f"{cwd / 'mlp.py'}:{b}", "--device", "cpu",
                     "--json", *extra, env=env, cwd=cwd)  # fmt: skip
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"bench --against failed: {done.stderr.strip().splitlines()[-1:]}")
    found = json.loads(done.stdout)
    [row] = found["latency"]
    row["busy_rounds"] = len(found.get("busy_rounds", []))
    return row, elapsed


def pairs(args, env, work: Path, workflow: str) -> None:
    k = args.pairs
    print(f"workflow: {workflow}")
    records = [None] if workflow == "against" else args.records
    same_claims = dict.fromkeys(records, 0)
    found = dict.fromkeys(records, 0)
    costs, ratios, ratios_same, notes, busy, split = [], [], [], set(), 0, 0
    for i in range(2 * k):
        different = i % 2 == 1
        if workflow == "against":
            row, cost = against("build", "wide" if different else "build", args, env, work)
            costs.append(cost)
            rows = {None: row}
        else:
            a, b = work / "A.json", work / "B.json"
            order = [("build", a), ("wide" if different else "build", b)]
            if (i // 2) % 2:
                order.reverse()  # which side runs first alternates, so a drift does not pick a side
            cost = sum(bench(factory, path, args, env, work) for factory, path in order)
            rows = {}
            for name in records:  # the same two files under each seeded record
                seed_record(work / "run_noise.json", RECORDS[name])
                rows[name], compare_s = compare(a, b, env, work)
            costs.append(cost + compare_s)
            if len({(r["verdict"], r["ratio_low"], r["ratio_high"]) for r in rows.values()}) > 1:
                split += 1
                print(f"  pair {i // 2 + 1}: verdicts differ between records: "
                      f"{ {n: r['verdict'] for n, r in rows.items()} }")  # fmt: skip
        row = next(iter(rows.values()))
        if row.get("run_noise_note"):
            notes.add(row["run_noise_note"])
        busy += row.get("busy_rounds", 0)
        (ratios if different else ratios_same).append(row["ratio"])
        for name, each in rows.items():
            claim = claimed(each)
            if different:
                found[name] += claim and each["ratio"] > 1
            else:
                same_claims[name] += claim
        kind = "10 % more" if different else "identical"
        print(f"  pair {i // 2 + 1:>2} {kind:<9}  A {row['median_a']:.3f} ms  B {row['median_b']:.3f} ms  "
              f"B/A {row['ratio']:.3f} [{row['ratio_low'] or 0:.3f}–{row['ratio_high'] or 0:.3f}]  {row['verdict']}",
              flush=True)  # fmt: skip
    print()
    for note in sorted(notes):
        print(f"note (from compare): {note}")
    for name in records:
        said = "" if name is None else f"[record: {name}] "
        print(f"{said}false positives (identical code, a difference claimed): {same_claims[name]}/{k} = "
              f"{same_claims[name] / k:.0%}   target <= 5 %  {'MET' if same_claims[name] / k <= 0.05 else 'NOT MET'}")  # fmt: skip
        print(f"{said}detection (10 % more work, B slower claimed):          {found[name]}/{k} = "
              f"{found[name] / k:.0%}   target >= 80 %  {'MET' if found[name] / k >= 0.8 else 'NOT MET'}")  # fmt: skip
    if workflow == "separate":
        print(f"pairs whose verdict differed between the records {', '.join(records)}: {split} of {2 * k} "
              f"(target 0)")  # fmt: skip
    if workflow == "against":
        print(f"rounds the machine disturbed (other processes' CPU, steal, preemptions; said next to the verdict): "
              f"{busy} of {2 * k * (args.repeat if args.repeat > 1 else 5)}")  # fmt: skip
    print(f"observed B/A: identical pairs median {statistics.median(ratios_same):.3f}, 10 % pairs median "
          f"{statistics.median(ratios):.3f}")  # fmt: skip
    runs = f" --repeat {args.repeat}" if args.repeat > 1 else ""
    how = (f"bench --against{runs}" if workflow == "against"
           else f"2 × bench --min-time {args.min_time:g}{runs} + compare")  # fmt: skip
    print(f"a comparison costs the user {statistics.median(costs):.1f} s wall (median; {how})")


_IN_PROCESS = """
import json, sys
from inspector.core.files.models import load_model
from inspector.core.measure.timing import measure_latency
m = load_model(sys.argv[1])
print(json.dumps([measure_latency(m, min_time=float(sys.argv[3])).median_ms for _ in range(int(sys.argv[2]))]))
"""


def sd_log(values: list[float]) -> float:
    return statistics.stdev(math.log(v) for v in values)


def option(args, env, work: Path) -> None:
    """Run-to-run spread: R fresh processes against R runs in one process, alternated."""
    fresh, inproc = [], []
    spec = f"{work / 'mlp.py'}:build"
    for r in range(args.rounds):
        start = time.perf_counter()
        medians = []
        for _ in range(args.runs_per_round):
            done = inspector(
                "bench", spec, "--device", "cpu", "--min-time", str(args.min_time), "--json", env=env, cwd=work
            )
            medians.append(json.loads(done.stdout)["latency"][0]["median_ms"])
        fresh_s = time.perf_counter() - start
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _IN_PROCESS, spec, str(args.runs_per_round), str(args.min_time)],
                              cwd=work, env=env, capture_output=True, text=True, check=True)  # fmt: skip
        one = json.loads(done.stdout)
        inproc_s = time.perf_counter() - start
        fresh.append(sd_log(medians))
        inproc.append(sd_log(one))
        print(f"  round {r + 1}: fresh processes {[round(m, 3) for m in medians]} sd(log) {fresh[-1]:.3f} "
              f"({fresh_s:.1f} s) | one process {[round(m, 3) for m in one]} sd(log) {inproc[-1]:.3f} ({inproc_s:.1f} s)",
              flush=True)  # fmt: skip
    print(f"run-to-run spread, median over {args.rounds} rounds of {args.runs_per_round} runs: fresh processes "
          f"sd(log median) {statistics.median(fresh):.3f}, one process {statistics.median(inproc):.3f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="4 pairs of each kind, 2 option rounds")
    parser.add_argument("--pairs", type=int, default=20, help="pairs of each kind (default 20; 0: --option only)")
    parser.add_argument("--min-time", type=float, default=1.0, help="bench --min-time (default 1, the issue's)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="bench --repeat for the pairs (default 1: default settings)"
    )
    parser.add_argument("--records", type=lambda text: [r for r in text.split(",") if r in RECORDS],
                        default=list(RECORDS), help="seeded noise records for --workflow separate "
                        "(default empty,quiet,noisy): the same files are compared under each")  # fmt: skip
    parser.add_argument("--workflow", choices=("against", "separate", "both"), default="against",
                        help="bench --against (default), two separate benches and compare, or both")
    parser.add_argument("--option", action="store_true", help="also: fresh processes vs one process, run-to-run spread")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs-per-round", type=int, default=5)
    args = parser.parse_args()
    if args.quick:
        args.pairs, args.rounds = min(args.pairs, 4), min(args.rounds, 2)
    with tempfile.TemporaryDirectory(prefix="verdict-truth-") as tmp:
        work = Path(tmp)
        (work / "mlp.py").write_text(MODEL)
        env = dict(os.environ, PYTHONPATH=str(ROOT), INSPECTOR_RUN_NOISE_FILE=str(work / "run_noise.json"))
        print(f"verdict_truth: MLP 1024-{HIDDEN}-1024 (wide: {WIDE}), batch 64, {os.cpu_count()} CPUs, "
              f"load average {os.getloadavg()[0]:.2f} at start")  # fmt: skip
        if args.option:
            option(args, env, work)
        if args.pairs > 0:
            flows = ["against", "separate"] if args.workflow == "both" else [args.workflow]
            for flow in flows:
                pairs(args, env, work, flow)
        print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
