"""``bench``: move the model to each device in turn, time it, print the table and write the
timing report; under torchrun each rank measures its own device (``bench_ranks``).

The measuring itself is ``bench_run``; the files it writes (report, trace) are ``bench_files``.
"""

from __future__ import annotations

import json
from typing import Sequence

from inspector.cli import exits
from inspector.cli.bench_files import _check_file, _write_report, _write_trace, report_language
from inspector.cli.bench_ranks import _bench_ranks
from inspector.cli.bench_repeats import record_noise, run_workers, worker_line
from inspector.cli.bench_run import _run_bench
from inspector.cli.common import _device_name, _load, _move_request
from inspector.cli.printing import _plain, _print, _say, _table
from inspector.core.files import user_output_to_stderr
from inspector.core.units import format_bytes, format_ms


def _bench_targets(args) -> list[str]:
    """The devices to measure on: those asked for, else every device the method can reach."""
    from inspector.core.devices import available_device_ids

    if args.device:
        return list(dict.fromkeys(_device_name(d, args.method) for d in args.device))
    present = available_device_ids()
    if args.method == "cpu":
        return ["cpu"]
    if args.method == "cuda":
        # None present: still try cuda:0, so the user gets the move engine's clear answer.
        return [d for d in present if d.startswith("cuda")] or ["cuda:0"]
    return present


def cmd_bench(args) -> int:
    from inspector.core.errors import InputError
    from inspector.core.files import check_distinct_outputs, check_output_path
    from inspector.core.remote import rank_env
    from inspector.core.files import parse_inputs
    from inspector.core.measure import request_caps
    from inspector.core.measure import RankSpans, TraceRecorder

    if args.runs is not None and args.runs < 1:
        raise InputError("--runs must be at least 1")
    repeat = _repeat(args)
    if args.min_time is not None and not args.min_time > 0:  # NaN too: it is not more than 0
        raise InputError(f"--min-time must be more than 0 seconds (got {args.min_time:g})")
    # Before loading or measuring anything: a path or a language that cannot work fails now, not after.
    args.lang = report_language(args.lang)
    output = check_output_path(args.output) if args.output is not None else None
    if args.trace:
        _check_file("--trace", args.trace, (".json",))
    if args.memory_snapshot:
        from inspector.core.measure import check_snapshot_available

        _check_file("--memory-snapshot", args.memory_snapshot, (".pickle", ".pkl"))
        check_snapshot_available()
    check_distinct_outputs({"--output": args.output, "--trace": args.trace, "--memory-snapshot": args.memory_snapshot},
                           stdout_fd=1)  # fmt: skip
    if args.threads is not None:  # before the model loads: a team, once started, stays
        from inspector.core.measure import use_threads

        use_threads(args.threads)
    shape = parse_inputs(args.input_shape) if args.input_shape else None
    announced = request_caps(args.runs, args.min_time)
    for note in announced:  # now, not after an hour: the user may rather stop and ask again
        _say(f"note: {note}")
    env = rank_env()
    if env is not None and repeat > 1:
        raise InputError("--repeat is not supported under torchrun: each rank measures once")
    if env is not None:
        exits._LEAVE_AT_ONCE = True  # entry() reads it once main returns
        return _bench_ranks(args, env, shape, output)
    targets = _bench_targets(args)
    if args.against:  # two models, turn about, compared
        from inspector.cli.bench_against import cmd_against

        args.shape = shape
        return cmd_against(args, targets, output)
    requests = [_move_request(args.method, t, args.dtype, args.pinned) for t in targets]
    with user_output_to_stderr():
        loaded = _load(args)
    recorder = TraceRecorder()
    if getattr(args, "repeat_worker", False):  # one of bench --repeat's runs: its samples, nothing else
        worker = _run_bench(args, loaded, targets, requests, shape, recorder, worker=True)
        _print(worker_line(worker.latencies))
        for failure in worker.failures:  # the parent names the last one (a note of bench --repeat, the window's)
            _say(f"error: {_plain(failure)}")
        return 1 if worker.failures else 0
    run = _run_bench(args, loaded, targets, requests, shape, recorder, snapshot_path=args.memory_snapshot)
    latencies, repeat_notes = list(run.latencies), []
    if repeat > 1 and latencies:  # runs 2..N in fresh processes, each entry's runs kept
        latencies, repeat_notes = run_workers(args, latencies, repeat)
        record_noise(latencies, args.spec)
    # The session's report, as the window builds it (a TimingReport from here until it is written),
    # with the runs joined from the other processes and the per-module runs measured beside it.
    report = run.session.report(latency=latencies, attribution=run.attributions)
    rows = _latency_rows(latencies)
    if args.json:
        _print(json.dumps(report.to_dict(), indent=2))
    elif rows:
        _print(_table(_LATENCY_HEADERS, rows, right={4, 5, 6, 7, 8, 9}))
    if run.attributions and not args.json:
        _print()
        _print(_modules_text(run.attributions))
    _print_notes(latencies, announced)
    for note in repeat_notes:
        _say(f"note: {note}")
    if output is not None:
        _write_report(report, output, measured=bool(latencies), language=args.lang)
    if args.trace:
        import socket

        _write_trace(args.trace, [RankSpans(0, f"torch-device-inspector bench ({socket.gethostname()})", tuple(recorder.spans))])
    failures = run.failures
    if failures:
        _say(f"error: {_plain(failures[0])}" + (f" (and {len(failures) - 1} more failures)" if len(failures) > 1 else ""))
        return 1
    return 0


def _repeat(args) -> int:
    """``--repeat``: 1 to ``MAX_REPEAT`` independent runs (each in a fresh process)."""
    from inspector.core.errors import InputError
    from inspector.core.measure import MAX_REPEAT

    repeat = getattr(args, "repeat", None)
    if repeat is None:
        return 1
    if not 1 <= repeat <= MAX_REPEAT:
        raise InputError(f"--repeat must be from 1 to {MAX_REPEAT} (got {repeat})")
    return int(repeat)


def _interval(r) -> str:
    ci = getattr(r, "median_ci_ms", None)
    return "—" if not ci else f"{format_ms(ci[0], unit=False)}–{format_ms(ci[1], unit=False)}"


def _latency_rows(latencies) -> list[list[str]]:
    return [
        [r.device, r.dtype, r.mode, "; ".join("x".join(map(str, s)) for s in (r.input_shapes or (r.input_shape,))),
         str(len(r.samples_ms)), format_ms(r.median_ms, unit=False), _interval(r), format_ms(r.p5_ms, unit=False),
         format_ms(r.p95_ms, unit=False), format_ms(r.warmup_ms, unit=False)]
        for r in latencies
    ]  # fmt: skip


_LATENCY_HEADERS = ["DEVICE", "DTYPE", "MODE", "INPUT", "N", "MEDIAN ms", "95% CI ms", "P5 ms", "P95 ms", "FIRST CALL ms"]


def _modules_text(attributions) -> str:
    from inspector.core.report import format_flops

    parts = []
    for run in attributions:
        rows = [
            [m.name or "(model)", m.type, ", ".join("x".join(map(str, s)) for s in m.output_shapes) or "—",
             format_ms(m.self_ms, unit=False), format_ms(m.median_ms, unit=False), f"{100 * m.share:.1f}", format_flops(m.flops),
             format_bytes(m.activation_bytes)]
            for m in run.top(5)
        ]
        parts.append(f"Top modules on {run.device} (self time, of {len(run.modules)} modules; all in the report):")
        parts += [f"  caution, per-module figures not reliable: {_plain(w)}" for w in run.warnings]
        parts.append(_table(["MODULE", "TYPE", "OUTPUT", "SELF ms", "INCL ms", "% FWD", "FLOPS", "ACTIVATIONS"], rows, right={3, 4, 5, 6, 7}))
    return "\n".join(parts)


def _print_notes(latencies, announced: Sequence[str]) -> None:
    """The measurements' notes (a cap reached, a mode that could not be set) on stderr."""
    for note in dict.fromkeys(n for r in latencies for n in r.notes if n not in announced):
        _say(f"note: {_plain(note)}")
    for r in latencies:
        if getattr(r, "noise", None):  # it names the machine's part, where it was measured
            _say(f"note: {r.device} {r.dtype} {r.mode}: {_plain(r.noise)}")
        elif getattr(r, "machine", None) is not None and r.machine.note:  # what the machine did meanwhile
            _say(f"note: {r.device} {r.dtype} {r.mode}: {_plain(r.machine.note)}")
