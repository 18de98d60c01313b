"""``bench`` under torchrun: each rank measures its own device; rank 0 gathers every rank's
result and writes the one report (key ``ranks``)."""

from __future__ import annotations

import json
import sys

from inspector.cli.bench_files import _write_report, _write_trace
from inspector.cli.bench_run import _run_bench
from inspector.cli.exits import exit_code
from inspector.cli.common import _device_name, _load, _move_request
from inspector.cli.printing import _plain, _print, _say, _table
from inspector.core.errors import InspectorError
from inspector.core.files import user_output_to_stderr
from inspector.core.units import format_ms


def _bench_ranks(args, env, shape, output) -> int:
    """One rank of a torchrun job: measure this rank's device; rank 0 writes the one report.

    Other ranks print nothing on stdout, write nothing and exit 0 once their results reached
    rank 0 (exiting non-zero would make torchrun tear the job down before rank 0 writes);
    a rank's failure is in rank 0's report, and rank 0 exits non-zero for it.
    """
    from inspector.core.measure import snapshot_rank_path
    from inspector.core.report import build_timing_report, json_ready
    from inspector.core.errors import InputError
    from inspector.core.remote import RankGroup, RankResult, missing_ranks, rank_device
    from inspector.core.measure import RankSpans, Span, TraceRecorder

    prefix = f"[rank {env.rank}] "
    recorder = TraceRecorder()
    loaded, run, device, own_error = None, None, "cpu", None
    with RankGroup(env) as group:
        try:
            asked = [_device_name(d, args.method) for d in args.device or []]
            if any(d != "cpu" for d in asked):
                raise InputError("under torchrun each rank measures its own device (cuda:LOCAL_RANK, else the CPU); --device may only say cpu")
            device = "cpu" if asked else rank_device(env)
            request = _move_request(args.method, device, args.dtype, args.pinned)
            with user_output_to_stderr():
                loaded = _load(args)
            snapshot = snapshot_rank_path(args.memory_snapshot, env.rank, env.world_size) if args.memory_snapshot else None
            run = _run_bench(args, loaded, [device], [request], shape, recorder, prefix=prefix, snapshot_path=snapshot,
                             rank=True)  # fmt: skip
            failure = run.failures[0] if run.failures else None
        except InspectorError as exc:
            own_error, failure = exc, exc.message
        except Exception as exc:  # noqa: BLE001 -- recorded in the report, as one line
            own_error, failure = InspectorError(str(exc)), f"{type(exc).__name__}: {exc}".splitlines()[0]
        if failure is not None:
            _say(f"{prefix}error: {_plain(failure)}")
        result = RankResult(
            rank=env.rank,
            local_rank=env.local_rank,
            world_size=env.world_size,
            host=env.host,
            device=device,
            ok=failure is None,
            error=failure,
            moves=tuple(json_ready(m.to_dict()) for m in (run.moves if run else [])),
            latency=tuple(json_ready(r.to_dict()) for r in (run.latencies if run else [])),
            spans=tuple(s.to_dict() for s in recorder.spans),
        )
        gathered = group.gather(result)
    if gathered is None:
        return 0
    entries = [r.to_report() for r in gathered]
    for lost in missing_ranks(gathered, env.world_size):
        entries.append({"rank": lost, "ok": False, "error": "this rank sent no result", "moves": [], "latency": []})
    failed = [e for e in entries if not e["ok"]]
    rows = [
        [str(e["rank"]), e.get("host", "?"), e.get("device", "?"),
         format_ms(e['latency'][0]['median_ms'], unit=False) if e["latency"] else "-",
         "ok" if e["ok"] else f"failed: {e['error']}"]
        for e in entries
    ]
    if loaded is not None and run is not None:
        report = build_timing_report(loaded, moves=run.moves, latency=run.latencies, memory=run.timeline.to_report(), ranks=entries)
        if args.json:
            _print(json.dumps(report.to_dict(), indent=2))
        else:
            _print(_table(["RANK", "HOST", "DEVICE", "MEDIAN ms", "STATUS"], rows, right={3}))
        if output is not None:
            _write_report(report, output, measured=any(e["latency"] for e in entries), what=f" ({len(entries)} ranks)",
                          language=args.lang)  # fmt: skip
    else:
        _print(_table(["RANK", "HOST", "DEVICE", "MEDIAN ms", "STATUS"], rows, right={3}))
        print("error: rank 0 could not load or measure the model, so no report was written", file=sys.stderr)
    if args.trace:
        _write_trace(
            args.trace,
            [RankSpans(r.rank, f"rank {r.rank} ({r.host}, {r.device})", tuple(Span.from_dict(s) for s in r.spans)) for r in gathered],
        )
    if own_error is not None and exit_code(own_error) != 1:
        return exit_code(own_error)
    if failed:
        _say(f"error: {len(failed)} of {env.world_size} ranks failed (rank {failed[0]['rank']}: {_plain(failed[0]['error'])})")
        return 1
    return 0
