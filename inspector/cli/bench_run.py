"""What one process measures for ``bench``: the moves to each device, the latency there and,
with ``--per-module``, each module's share, all kept in a Session; a device that fails is
noted and the others go on."""

from __future__ import annotations

from inspector.cli.common import _session
from inspector.cli.printing import _move_text, _plain, _ProgressBar, _say
from inspector.cli.watchdog import measurement_watchdog
from inspector.core.errors import InspectorError
from inspector.core.files import user_output_to_stderr
from inspector.core.units import format_ms
from inspector.core.vocabulary import MAX_MEASURE_SECONDS


class _BenchRun:
    """What one process measured: the Session's moves, latencies and memory timeline, and
    the failures to report at the end."""

    def __init__(self, loaded) -> None:
        self.session = _session(loaded)
        self.failures: list[str] = []
        self.attributions: list = []  # per-module runs (bench --per-module)

    @property
    def moves(self):
        return self.session.moves

    @property
    def latencies(self):
        return self.session.latencies

    @property
    def timeline(self):
        return self.session.timeline


def _run_bench(args, loaded, targets, requests, shape, recorder, *, prefix: str = "", snapshot_path: str | None = None,
               worker: bool = False, rank: bool = False) -> _BenchRun:  # fmt: skip
    """Move to each target in turn and time it; failures are collected, not raised
    (except an input shape that fails, which fails on every device alike: exit 2).
    ``worker``: one of ``bench --repeat``'s later runs (no per-module run: run 1 has it).
    ``rank``: one rank of a torchrun job (``--repeat`` is refused there). Neither says the
    one-process note: a worker's parent says what applies to the whole measurement."""
    import contextlib

    from inspector.core.devices import available_device_ids
    from inspector.core.errors import InputError
    from inspector.core.measure import BackgroundSampler
    from inspector.core.moves import MoveRequest
    from inspector.core.session import BenchmarkRequest
    from inspector.core.measure import model_device

    run = _BenchRun(loaded)
    benchmark = BenchmarkRequest(mode=args.mode, runs=args.runs, min_time=args.min_time, input_shape=shape)
    elsewhere = max(0, (getattr(args, "repeat", None) or 1) - 1)  # bench --repeat's other runs: each keeps its share

    def move(request, label: str) -> bool:
        with recorder.span("moves", label) as extra, user_output_to_stderr():
            result = run.session.move(request, progress=_ProgressBar(label))
            extra.update(call=result.call, bytes=result.bytes, ok=result.ok, seconds=result.seconds,
                         started_ns=result.started_ns)  # the span draws the move's own call where it ran
        _say(prefix + _move_text(result))
        if not result.ok:
            run.failures.append(result.error.message)
        return result.ok

    snapshotting = contextlib.nullcontext()
    if snapshot_path is not None:
        from inspector.core.measure import memory_history_recorded, take_snapshot, write_snapshot

        snapshotting = memory_history_recorded()
    sampled = sorted({"cpu"} | (set(targets) & set(available_device_ids())))
    with BackgroundSampler(run.timeline, sampled), snapshotting:
        for target, request in zip(targets, requests):
            if request.pinned and target != "cpu" and model_device(loaded.module).type == "cpu":
                # Both figures in one report: the plain copy first, back to the host, then pinned.
                pageable = MoveRequest(request.method, request.device, request.dtype, pinned=False)
                if not (move(pageable, f"move to {target}") and move(MoveRequest("cpu"), "back to cpu")):
                    continue
            if not move(request, f"move to {target}"):
                continue
            try:
                span = recorder.span("samples", f"latency on {target}", device=target, mode=args.mode)
                # (the model's forward may print: to stderr; and it may never return: the watchdog)
                with span as extra, user_output_to_stderr(), measurement_watchdog(f"the benchmark on {target}"):
                    bar = _ProgressBar(f"time on {target}", cap_s=MAX_MEASURE_SECONDS * max(1, benchmark.repeat))
                    result = run.session.measure(benchmark, progress=bar, runs_elsewhere=elsewhere, say_one_process=not (rank or worker))
                    extra.update(median_ms=result.median_ms, warmup_ms=result.warmup_samples_ms, samples_ms=result.samples_ms,
                                 timeline=result.timeline)
            except InputError:
                raise  # a wrong input shape fails on every device alike: the user's input, exit 2
            except InspectorError as exc:
                # Out of memory on one device, say: keep what the others measured, exit 1 at the end.
                _say(f"{prefix}{target}: {_plain(exc.message)}")
                run.failures.append(f"{target}: {exc.message}")
                continue
            if getattr(args, "per_module", False) and not worker:
                try:
                    # In the trace as annotations on a thread of their own: the whole run and each step.
                    with recorder.span("per-module", f"per-module on {target}", device=target) as extra, \
                            user_output_to_stderr(), measurement_watchdog(f"the per-module run on {target}"):
                        found = _per_module(loaded, args, shape, run.latencies[-1], target, prefix, recorder)
                        extra.update(samples=found.samples, modules=len(found.modules),
                                     forward_with_hooks_ms=found.forward_with_hooks_ms,
                                     forward_without_hooks_ms=found.forward_without_hooks_ms)
                    run.attributions.append(found)
                except InputError:
                    raise
                except InspectorError as exc:
                    _say(f"{prefix}{target}: {_plain(exc.message)}")
                    run.failures.append(f"{target}: {exc.message}")
        if snapshot_path is not None:
            path = write_snapshot(take_snapshot(), snapshot_path)
            _say(f"{prefix}memory snapshot written: {_plain(path)} (open it at pytorch.org/memory_viz)")
    return run


def _per_module(loaded, args, shape, latency, target: str, prefix: str = "", recorder=None):
    """Per-module attribution after the plain measurement, its overhead said on stderr; each of
    its steps a span of ``recorder``'s where one is given."""
    from inspector.core.measure import ATTRIBUTION_RUNS as DEFAULT_RUNS, measure_attribution

    def phase(name: str):
        return recorder.span("per-module", f"per-module: {name}", device=target)

    result = measure_attribution(
        loaded, runs=args.runs or DEFAULT_RUNS, input_shape=shape, progress=_ProgressBar(f"modules on {target}"),
        phase=phase if recorder is not None else None,
    )
    line = (
        f"{prefix}per-module on {target}: forward {format_ms(result.forward_with_hooks_ms)} with hooks, "
        f"{format_ms(result.forward_without_hooks_ms)} without"
    )
    if result.overhead_ratio is not None:
        line += f" ({result.overhead_ratio:.2f}x: the hooks' overhead; plain and hooked forwards alternated)"
    line += (
        f"; the hooks' own cost, {format_ms(result.hook_inner_ms + result.hook_outer_ms)} a module call (measured on "
        f"empty modules), is taken out of the modules' times"
    )
    if latency.mode != "forward":
        line += "; the attribution times the forward pass, the figure above is a training step"
    _say(line)
    return result
