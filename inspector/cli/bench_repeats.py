"""``bench --repeat N``: N independent runs, each in a fresh process, as pyperf does.

This process takes run 1 as a plain ``bench`` does; runs 2..N are this same command again
(``bench … --repeat-worker``, rebuilt from the parsed options by ``worker_argv`` with every
path made absolute), one after another, never at once, each started by ``core.launcher``:
isolated, by the app's own path, in a folder of its own, ended with this process.
A worker loads, moves and measures as run 1 did, prints its latency entries as one JSON line
and leaves the report, the trace and the per-module run to this process. A fresh process gets
its own memory placement, ASLR and thread start-up, which runs in one process share: on the
development VM, 5 runs of a 1.8 ms MLP in fresh processes spread their medians
``benchmarks/verdict_truth.py --quick`` wider than 5 runs in one process (see README).

Each entry's runs are combined (``core.measure.repeats.combine_runs``): ``runs_ms`` keeps
every run, ``samples_ms`` pools them. What the runs' medians spread is this machine's
run-to-run noise, said and recorded (``core.measure.run_noise.record``); no verdict reads that
record (``compare`` assumes a stated constant for sides of few runs: issue 46). A worker that
fails is named in a note; the runs that worked are kept.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

from inspector.cli.printing import _plain, _say
from inspector.core.files import absolute_spec
from inspector.core.measure import WORKER_ENTRY, worker_error, read_worker, run_key, worker_line

__all__ = ["NOT_PASSED_ON", "PASSED_ON", "WORKER_ENTRY", "record_noise", "run_workers", "worker_argv", "worker_line"]

#: bench's options a worker is given again, by their dest: how each is written back.
#: "flag": store_true; "value": --opt=VALUE; "values": --opt=V once per value; "path": a file
#: made absolute; "spec": a model spec whose file is made absolute. A test checks that every
#: option of bench is here or in ``NOT_PASSED_ON``, so a new one cannot be forgotten.
PASSED_ON = {
    "arch": ("--arch", "spec"), "device": ("--device", "values"), "method": ("--method", "value"),
    "dtype": ("--dtype", "value"), "pinned": ("--pinned", "flag"), "mode": ("--mode", "value"),
    "input_shape": ("--input-shape", "value"), "runs": ("--runs", "value"), "min_time": ("--min-time", "value"),
    "output": ("--output", "path"), "lang": ("--lang", "value"), "json": ("--json", "flag"),
    "trace": ("--trace", "path"), "memory_snapshot": ("--memory-snapshot", "path"),
    "per_module": ("--per-module", "flag"), "repeat": ("--repeat", "value"), "against": ("--against", "spec"),
    "against_output": ("--against-output", "path"), "trust": ("--trust", "flag"), "debug": ("--debug", "flag"),
    "threads": ("--threads", "value"),
}  # fmt: skip
#: Options a worker is not given: the model (first, as a spec), the worker's own role (the
#: caller adds it) and the window's or the parser's own.
NOT_PASSED_ON = frozenset({"spec", "repeat_worker", "pair_worker", "command", "version", "model", "help"})


def worker_argv(args: Any, *role: str) -> list[str]:
    """This bench's command as a worker runs it: the parsed options written back, every path
    absolute (the worker runs in a folder of its own), then ``role`` (``--repeat-worker``)."""
    argv = ["bench"]
    for dest, (flag, kind) in PASSED_ON.items():
        value = getattr(args, dest, None)
        if value is None or value is False:
            continue
        if kind == "flag":
            argv.append(flag)
        elif kind == "values":
            argv.extend(f"{flag}={item}" for item in value)
        elif kind == "path":
            argv.append(f"{flag}={os.path.abspath(value)}")
        elif kind == "spec":
            argv.append(f"{flag}={absolute_spec(value)}")
        else:
            argv.append(f"{flag}={value!r}" if isinstance(value, float) else f"{flag}={value}")
    return [*argv, *role, absolute_spec(args.spec)]


def run_workers(args: Any, latencies: Sequence[Any], repeat: int) -> tuple[list[Any], list[str]]:
    """Runs 2..``repeat`` of this bench (``args``, its parsed options) in fresh processes, one
    at a time; ``latencies`` (run 1's results) each combined with the runs that match it, and
    the notes to say (a worker that failed)."""
    from inspector.core.launcher import run_app_worker
    from inspector.core.measure import combine_runs, run_share

    cap = run_share(repeat)
    later: dict[tuple[Any, ...], list[list[float]]] = {}
    notes: list[str] = []
    argv = worker_argv(args, "--repeat-worker")
    for number in range(2, repeat + 1):
        _say(f"run {number} of {repeat} (a fresh process)…")
        try:
            done = run_app_worker(WORKER_ENTRY, argv)
        except OSError as exc:  # no temporary folder, pipe or process to be had: the runs so far stand
            notes.append(f"run {number} of {repeat} could not start: {_plain(exc.strerror or str(exc))}")
            continue
        found = read_worker(done.stdout, cap)
        if done.returncode != 0 or not found:
            notes.append(f"run {number} of {repeat} failed: {_plain(worker_error(done.stderr))}")
        for key, samples in found.items():
            later.setdefault(key, []).append(samples)
    combined = [combine_runs(r, later.get(run_key(r.device, r.dtype, r.mode, r.input_shape), [])) for r in latencies]
    return combined, notes


def record_noise(latencies: Sequence[Any], spec: str) -> None:
    """Record what each measurement's runs spread as this machine's run-to-run noise, and say it."""
    from inspector.core.measure import RunNoise, record_run_noise, spread_of_runs

    for r in latencies:
        if len(r.runs_ms) < 2:
            continue
        medians = sorted(float(sorted(run)[len(run) // 2]) for run in r.runs_ms)
        pooled = record_run_noise(r.runs_ms, what=f"{spec} on {r.device} {r.dtype} {r.mode}")
        spread = spread_of_runs(r.runs_ms)
        line = (f"note: {r.device} {r.dtype} {r.mode}: {len(r.runs_ms)} runs in fresh processes, run medians "
                f"{medians[0]:.4g}–{medians[-1]:.4g} ms")  # fmt: skip
        if spread is not None:
            line += f", run-to-run {RunNoise(spread[0]).percent()} a run"
        if pooled is not None:
            line += f"; this machine's record is now {pooled.percent()} a run over {pooled.runs} runs (compare uses it)"
        _say(line)
