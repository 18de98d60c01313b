"""``bench A --against B``: two models timed turn about, in rounds of fresh processes, and
compared: the way to tell whether a change made code faster.

Two ``bench`` runs made one after the other differ by the machine's run-to-run noise (±14 %
a run on the development VM), so a 10 % change is lost in it. Here each round is one process
that loads both models, moves them alike and times them in alternating slices
(``core.measure.interleaved``): the machine's drift lands on both. Round 1 runs in this
process; rounds 2..N are this command again (``--pair-worker I``), one after another, as
``bench --repeat`` takes its runs (``bench_repeats.worker_argv``, ``core.launcher``). The
rounds' ratios give the interval (``run_ratio.paired_ratio``); the two reports keep every
round (``runs_ms``) and the token that pairs them (``pair_id``), so ``compare A.json B.json``
reads the same verdict later.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.cli.bench_files import _write_report
from inspector.cli.bench_repeats import WORKER_ENTRY, worker_argv
from inspector.core.measure import worker_error, worker_samples
from inspector.cli.compare_table import print_comparison
from inspector.cli.common import _load, _move_request, _session
from inspector.cli.printing import _plain, _print, _ProgressBar, _say

#: The first key of a round worker's line.
WORKER_KEY = "pair_worker"


def _refuse_unsupported(args, targets: list[str]) -> None:
    from inspector.core.errors import InputError

    if len(targets) != 1:
        raise InputError(f"--against times both models on one device; name it with --device (found {', '.join(targets)})")
    for flag, value in (("--per-module", args.per_module), ("--trace", args.trace),
                        ("--memory-snapshot", args.memory_snapshot), ("--runs", args.runs)):  # fmt: skip
        if value:
            extra = " (each round times each side for --min-time seconds)" if flag == "--runs" else ""
            raise InputError(f"{flag} is not supported with --against{extra}")


def _rounds(args) -> int:
    from inspector.core.errors import InputError
    from inspector.core.measure import DEFAULT_ROUNDS
    from inspector.core.vocabulary import MAX_REPEAT

    rounds = args.repeat if args.repeat is not None else DEFAULT_ROUNDS
    if not 2 <= rounds <= MAX_REPEAT:
        raise InputError(f"--repeat must be from 2 to {MAX_REPEAT} with --against: the rounds' ratios give the interval (got {rounds})")
    return rounds


def cmd_against(args, targets: list[str], output) -> int:
    """Load and move both models, time them in rounds, print the comparison, write both reports."""
    from inspector.core.errors import InputError
    from inspector.core.files import check_distinct_outputs, check_output_path
    from inspector.core.files import user_output_to_stderr
    from inspector.core.measure import DEFAULT_ROUND_SECONDS, measure_round, new_pair_id, with_rounds
    from inspector.core.measure import run_share
    from inspector.core.report import build_timing_report
    from inspector.core.report import compare_reports

    _refuse_unsupported(args, targets)
    rounds = _rounds(args)
    output_b = check_output_path(args.against_output) if args.against_output is not None else None
    check_distinct_outputs({"--output": args.output, "--against-output": args.against_output}, stdout_fd=1)
    if output is None and output_b is not None or output is not None and output_b is None:
        raise InputError("--against writes two reports: give both --output (A) and --against-output (B), or neither")
    seconds = args.min_time if args.min_time is not None else DEFAULT_ROUND_SECONDS
    request = _move_request(args.method, targets[0], args.dtype, args.pinned)
    with user_output_to_stderr():
        loaded_a = _load(args)
        loaded_b = _load_against(args)
    sessions = []
    for name, loaded in (("A", loaded_a), ("B", loaded_b)):
        session = _session(loaded)
        with user_output_to_stderr():
            moved = session.move(request, progress=None if args.pair_worker else _ProgressBar(f"move {name} to {targets[0]}"))
        if not moved.ok:
            _say(f"error: {name}: {_plain(moved.error.message)}")
            return 1
        sessions.append(session)
    cap = run_share(rounds)
    round_index = args.pair_worker or 1

    def one_round(index: int):
        with user_output_to_stderr():
            return measure_round(loaded_a, loaded_b, seconds=seconds, b_first=index % 2 == 0, mode=args.mode,
                                 input_shape=args.shape, input_shape_b=args.shape, max_samples=cap)  # fmt: skip

    if args.pair_worker:  # one of the later rounds: its samples and what the machine did, nothing else
        a, b = one_round(round_index)
        _print(json.dumps({WORKER_KEY: round_index, "a": list(a.samples_ms), "b": list(b.samples_ms),
                           "machine": _disturbance(a.machine), "spoiled": _spoiled(a.machine)}))  # fmt: skip
        return 0
    _say(f"round 1 of {rounds}: A and B timed turn about, {seconds:g} s each…")
    first_a, first_b = one_round(1)
    later_a, later_b, notes, disturbed, spoiled = _later_rounds(args, rounds, cap)
    said = _disturbance(first_a.machine)
    disturbed = ([f"round 1: {said}"] if said else []) + disturbed
    spoiled = [_spoiled(first_a.machine), *spoiled]
    pair_id = new_pair_id()
    result_a = with_rounds(first_a, later_a, pair_id, spoiled)
    result_b = with_rounds(first_b, later_b, pair_id, spoiled)
    reports = []
    for session, loaded, result in zip(sessions, (loaded_a, loaded_b), (result_a, result_b)):
        reports.append(build_timing_report(loaded, moves=session.moves, latency=[result],
                                           memory=session.timeline.to_report(),
                                           model_memory=session.timeline.model_report()))  # fmt: skip
    # Each report keeps which rounds the machine stalled (runs_spoiled): compare says "no
    # verdict" when it stalled half of them or more, here and when the two files are compared later.
    comparison = compare_reports(*reports, label_a="A", label_b="B")
    if len(spoiled) == 1 and spoiled[0]:  # one round left (the others failed): no runs to keep flags beside
        comparison = _machine_verdict(comparison, 1, 1)
    if args.json:
        out = comparison.to_dict()
        out["specs"] = {"a": args.spec, "b": args.against}
        out["busy_rounds"] = disturbed  # what a busy machine did to each round it disturbed
        _print(json.dumps(out, indent=2))
    else:
        print_comparison(comparison, args.spec, args.against)
    for note in notes:
        _say(f"note: {note}")
    if disturbed and not args.json:  # the cause, when a busy machine widened the interval
        _print(f"note: the machine was busy in {len(disturbed)} of {rounds} rounds: " + "; ".join(map(_plain, disturbed)))
    if output is not None and output_b is not None:
        _write_report(reports[0], output, measured=True, what=" (A)", language=args.lang)
        _write_report(reports[1], output_b, measured=True, what=" (B)", language=args.lang)
    return 0


def _load_against(args):
    """B, loaded as A is (the same --trust and --arch): the user named both on the command line."""
    from inspector.core.files import load_model

    return load_model(args.against, trust=args.trust, architecture=args.arch)


def _spoiled(machine) -> bool:
    """The machine stalled at least half the round's samples (preemptions of the sampling
    threads or steal in every other sample): its medians are the machine's, not the code's."""
    return bool(machine is not None and machine.spoils_median)


def _machine_verdict(comparison, spoiled: int, rounds: int):
    """The comparison with its verdicts replaced by the machine's part (``compare`` applies the
    same rule from the reports' ``runs_spoiled`` when they hold two rounds or more)."""
    import dataclasses

    from inspector.core.report import machine_verdict_text

    said = machine_verdict_text(spoiled, rounds)
    rows = tuple(dataclasses.replace(r, verdict=said) if r.ratio is not None else r for r in comparison.latency)
    return dataclasses.replace(comparison, latency=rows)


def _disturbance(machine) -> str:
    """What the machine did to a round, in words, where it disturbed it; "" otherwise."""
    if machine is None or not machine.disturbed:
        return ""
    return "; ".join(str(cause) for cause in machine.causes)


def _later_rounds(
    args: Any, rounds: int, cap: int
) -> tuple[list[list[float]], list[list[float]], list[str], list[str], list[bool]]:
    """Rounds 2..``rounds`` in fresh processes (``core.launcher``), one at a time: each side's
    samples per round (a round that failed is left out on both sides, so the rounds stay
    paired), the notes, what a busy machine did to each round it disturbed, and per round kept
    whether it spoiled it."""
    from inspector.core.launcher import run_app_worker

    later_a: list[list[float]] = []
    later_b: list[list[float]] = []
    notes: list[str] = []
    disturbed: list[str] = []
    spoiled: list[bool] = []
    for index in range(2, rounds + 1):
        _say(f"round {index} of {rounds} (a fresh process)…")
        try:
            done = run_app_worker(WORKER_ENTRY, worker_argv(args, f"--pair-worker={index}"))
        except OSError as exc:  # no temporary folder, pipe or process to be had: the rounds so far stand
            notes.append(f"round {index} of {rounds} could not start: {_plain(exc.strerror or str(exc))}; the other rounds are compared")
            continue
        found = _read_round(done.stdout, cap) if done.returncode == 0 else None
        if found is None:
            notes.append(f"round {index} of {rounds} failed: {_plain(worker_error(done.stderr))}; the other rounds are compared")
            continue
        later_a.append(found[0])
        later_b.append(found[1])
        if found[2]:
            disturbed.append(f"round {index}: {found[2]}")
        spoiled.append(found[3])
    return later_a, later_b, notes, disturbed, spoiled


def _read_round(stdout: str, cap: int) -> tuple[list[float], list[float], str, bool] | None:
    """A worker's two sides, what the machine did (words, "" when quiet) and whether it
    spoiled the round's medians, if its last line is one and holds what a round gives."""
    for line in reversed(stdout.splitlines()):
        if not line.startswith('{"' + WORKER_KEY):
            continue
        try:
            data: Any = json.loads(line)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        a, b = worker_samples(data.get("a"), cap), worker_samples(data.get("b"), cap)
        machine = data.get("machine")
        said = machine[:500] if isinstance(machine, str) else ""
        spoiled = data.get("spoiled") is True
        return (a, b, said, spoiled) if a is not None and b is not None else None
    return None
