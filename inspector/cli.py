"""The command line: no sub-command opens the window; sub-commands are headless.

Nothing here imports Qt at module level, so `devices`, `inspect` and `bench` run on a GPU
server where PySide6 is not installed.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
import typing
from typing import Sequence

from inspector.core.errors import InspectorError
from inspector.core.devices.huge_pages import prefer_huge_pages
from inspector.core.files.terminal_text import escape_control
from inspector.core.units import format_bytes, format_ms
from inspector.core.files.user_output import user_output_to_stderr
from inspector.core.vocabulary import DEFAULT_RUNS, BenchMode, DType, MoveMethod

DTYPES = tuple(d.value for d in DType)
METHODS = tuple(m.value for m in MoveMethod)
MODES = tuple(m.value for m in BenchMode)
# The caps on a benchmark request, stated in --help (the same numbers timing.py enforces;
# a test keeps them equal without importing torch here).
MAX_SAMPLES = 100_000
MAX_MEASURE_SECONDS = 3600.0


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line starting with ``error:`` (exit 2), like every
    other error of this program, instead of the usage block followed by the message."""

    def error(self, message: str) -> typing.NoReturn:
        self.exit(2, f"error: {escape_control(message)} (see {self.prog} --help)\n")


def _common(default=False) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--trust", action="store_true", default=default, help="load a model file even if it needs arbitrary code (only for files you trust)")
    p.add_argument("--debug", action="store_true", default=default, help="show tracebacks")
    return p


def _model_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", nargs="?", default="example", help="model spec: example (default), file.py:factory, package.module:factory, or a model file")
    p.add_argument("--arch", metavar="SPEC", help="architecture for a state dict / .safetensors file (file.py:factory or package.module:factory)")


def _move_args(p: argparse.ArgumentParser, *, device_flag: str) -> None:
    p.add_argument("--method", choices=METHODS, default=MoveMethod.TO.value, help="how to move: model.to(device), model.cuda() or model.cpu() (default: to)")
    p.add_argument("--dtype", choices=DTYPES, help="cast floating tensors to this dtype while moving")
    p.add_argument("--pinned", action="store_true", help="pin host memory and copy with non_blocking=True")


def build_parser() -> argparse.ArgumentParser:
    # Sub-commands accept the same flags after their name; SUPPRESS keeps them from
    # overwriting a flag given before the sub-command (an argparse quirk).
    common, sub_common = _common(), _common(default=argparse.SUPPRESS)
    parser = _Parser(
        prog="torch-device-inspector",
        description="See where every tensor of a PyTorch model lives, move it between devices, and time it. "
        "Without a sub-command, opens the window.",
        parents=[common],
    )
    parser.add_argument("--version", action="store_true", help="print the versions of the app, Python, torch and Qt")
    parser.add_argument("--model", metavar="SPEC", default="example", help="model to load in the window (default: example)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("devices", parents=[sub_common], help="list devices and their memory")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="machine-readable output")
    shown.add_argument("--prometheus", action="store_true", help="Prometheus text exposition: memory gauges in bytes labelled device, uuid, host")

    p = sub.add_parser("inspect", parents=[sub_common], help="load a model, move it if asked, print where each tensor lives")
    _model_args(p)
    p.add_argument("--to", metavar="DEVICE", dest="to", help="move to this device first (cpu, cuda, cuda:1, mps, xpu)")
    _move_args(p, device_flag="--to")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--device-map", metavar="FILE.json", help="place modules as this map says (module name -> device, accelerate's JSON), then explain the placement and the activations that cross devices")
    p.add_argument("--input-shape", metavar="SHAPE", help="with --device-map: input(s) for the forward that measures crossings, for models without an example input; e.g. 1,3,224,224, or 10,32,512; 20,32,512 for two inputs, each with an optional :dtype")

    p = sub.add_parser("bench", parents=[sub_common], help="move the model to each device, time it, and write a timing report")
    _model_args(p)
    p.add_argument("--device", action="append", metavar="D", help="device to measure on (repeat; default: every device present)")
    _move_args(p, device_flag="--device")
    p.add_argument("--mode", choices=MODES, default=BenchMode.FORWARD.value, help="what to time (default: forward)")
    p.add_argument("--input-shape", metavar="SHAPE", help="input shape(s) for models without an example input, e.g. 1,3,224,224; several inputs separated by ';', each with an optional :dtype (10,32,512; 20,32,512 or 8,128:int64)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--runs", type=int, metavar="N", help=f"timed samples per device (default: {DEFAULT_RUNS}; capped at {MAX_SAMPLES:,}, and a run stops after {MAX_MEASURE_SECONDS:,g} s)")
    group.add_argument("--min-time", type=float, metavar="S", help=f"sample for at least S seconds per device (capped at {MAX_MEASURE_SECONDS:,g} s or {MAX_SAMPLES:,} samples)")
    p.add_argument("--output", metavar="FILE", help="write the timing report (.json, .csv, .md or .html)")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument("--trace", metavar="FILE.json", help="write a Chrome Trace Event file (Perfetto, chrome://tracing): moves, warm-up and every sample")
    p.add_argument("--memory-snapshot", metavar="FILE.pickle", help="CUDA only: record the allocator around the moves and timing, write a snapshot pytorch.org/memory_viz opens")
    p.add_argument("--per-module", action="store_true", help="also time each module (inclusive and self time), record output shapes, FLOPs and activation bytes (report key: modules)")

    p = sub.add_parser("fit", parents=[sub_common], help="will one step fit on a device? estimated without allocating, then proven by one real step")
    _fit_args(p)

    p = sub.add_parser("compare", parents=[sub_common], help="compare two timing reports: latency ratios with 95 % confidence intervals, moves, environments")
    p.add_argument("report_a", metavar="A.json", help="a timing report written by bench or the window (.json)")
    p.add_argument("report_b", metavar="B.json", help="the report to compare with A (ratios are B over A)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    sub.add_parser(
        "agent",
        parents=[sub_common],
        help="serve a session over JSON lines on stdin/stdout, for the window's Connect to server… "
        "(run it through ssh; it never listens on a socket and exits when stdin closes)",
    )
    return parser


def _fit_args(p: argparse.ArgumentParser) -> None:
    _model_args(p)
    p.add_argument("--device", default="cpu", metavar="D", help="device to fit on (default: cpu)")
    p.add_argument("--dtype", choices=DTYPES, help="dtype of the floating parameters (default: the model's)")
    p.add_argument("--optimizer", required=True, choices=("none", "sgd", "sgd-momentum", "adam", "adamw"), help="optimizer whose state the training step creates")
    p.add_argument("--mode", choices=MODES, default=BenchMode.TRAIN_STEP.value, help=f"what one step is (default: {BenchMode.TRAIN_STEP.value})")
    p.add_argument("--input-shape", metavar="SHAPE", help="input shape(s), e.g. 1,3,224,224; several inputs separated by ';', each with an optional :dtype (10,32,512; 20,32,512 or 8,128:int64)")
    p.add_argument("--no-measure", action="store_true", help="estimate only: skip the real step that proves the estimate")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int] = frozenset()) -> str:
    # Hand-written: a few lines here beat a dependency (tabulate/rich) on a GPU server.
    # Cells may hold names from a file: escaped, so none can start a line of its own.
    rows = [[_plain(cell) for cell in row] for row in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)] if rows else [len(h) for h in headers]
    def line(cells):
        return "  ".join(
            (str(c).rjust(w) if i in right else str(c).ljust(w)) for i, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def _plain(value: object) -> str:
    """Text that came from a file or a model, as one line with its control characters escaped."""
    return escape_control(str(value))


def _print(text: str = "") -> None:
    print(escape_control(text, keep_newlines=True), flush=True)


def _say(text: str) -> None:
    """A line for the user on stderr; parts from files are escaped where the text is built,
    and any control character left is escaped here (the program's own newlines stay)."""
    print(escape_control(text, keep_newlines=True), file=sys.stderr, flush=True)


# ---------------------------------------------------------------- version


def version_text() -> str:
    from inspector.core.devices.environment import version_lines

    try:
        # Imports Qt: fails cleanly where PySide6 or pyqtgraph is missing (a GPU server).
        from inspector.gui.branding import toolkit_line
    except ImportError:
        toolkit = "Qt not installed (PySide6 missing: only the headless commands work)"
    else:
        toolkit = toolkit_line()
    return "\n".join(version_lines(toolkit))


# ---------------------------------------------------------------- devices


def cmd_devices(args) -> int:
    from inspector.core.devices.inventory import discover_devices

    inv = discover_devices()
    if getattr(args, "prometheus", False):
        from inspector.core.devices.prometheus import render_prometheus

        sys.stdout.write(render_prometheus(inv))
        sys.stdout.flush()
        return 0
    if args.json:
        _print(json.dumps(inv.to_dict(), indent=2))
        return 0
    rows = []
    for d in inv.devices:
        used = d.used_bytes
        rows.append(
            [
                d.id,
                d.name,
                f"{format_bytes(used)} / {format_bytes(d.total_bytes)}",
                format_bytes(d.free_bytes),
                format_bytes(d.allocated_bytes),
            ]
        )
    _print(_table(["ID", "NAME", "USED / TOTAL", "FREE", "THIS PROCESS"], rows))
    for note in inv.notes:
        _print(f"note: {_plain(note)}")
    return 0


# ---------------------------------------------------------------- inspect


def _load(args):
    import os

    from inspector.core.files.models import load_model

    # `python -m inspector` finds `mymodels:make` in the working folder; the console script
    # should too. Appended, so a local file never shadows an installed package.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())

    return load_model(args.spec, trust=args.trust, architecture=args.arch)


def _session(loaded):
    """A Session around ``loaded``: it keeps the moves, latencies and memory timeline."""
    from inspector.core.session import Session

    session = Session()
    session.adopt(loaded)
    return session


def _device_name(text: str, method: str = "to") -> str:
    """The canonical id (``cuda`` -> ``cuda:0``) of a device the user named.

    A string that names no device at all is bad input (exit 2); a device that is merely
    absent here is left to the move, whose failure is the operation failing (exit 1).
    """
    import torch

    from inspector.core.devices.discovery import device_id
    from inspector.core.errors import InputError

    if method == "cuda" and text.isdigit():
        text = f"cuda:{text}"  # model.cuda(1)
    try:
        return device_id(torch.device(text))
    except (RuntimeError, TypeError, ValueError):
        raise InputError(f"{text!r} is not a device name (try cpu, cuda, cuda:0, mps or xpu)") from None


def _move_request(method: str, device: str | None, dtype: str | None, pinned: bool):
    from inspector.core.errors import InputError
    from inspector.core.moves.transaction import MoveRequest

    if method == "cpu" and device not in (None, "cpu"):
        raise InputError(f"--method cpu moves to the CPU only, but {device} was asked for")
    if method == "cuda" and device is not None and not device.startswith("cuda"):
        raise InputError(f"--method cuda moves to a CUDA device only, but {device} was asked for")
    if method != "to" and dtype is not None:
        raise InputError(f"--dtype needs --method to (model.{method}() cannot cast)")
    return MoveRequest(method=method, device=None if method == "cpu" else device, dtype=dtype, pinned=pinned)


def _placement_text(loaded, placement) -> str:
    from inspector.core.placement.tensor_rows import device_bytes_text, meta_text, size_text

    t = placement.totals
    head = (f"Model: {_plain(loaded.spec)} ({_plain(loaded.class_name)}) — {t.count} tensors, {t.elements:,} elements, "
            f"{format_bytes(t.bytes)}{meta_text(t)}")
    rows = [
        [
            r.name,
            r.kind,
            "x".join(map(str, r.shape)) or "scalar",
            r.dtype,
            r.device,
            size_text(r) + (f" (= {r.shares_with})" if r.shares_with else ""),
            "yes" if r.requires_grad else "no",
        ]
        for r in placement.tensors
    ]
    parts = [head, "", _table(["NAME", "KIND", "SHAPE", "DTYPE", "DEVICE", "SIZE", "GRAD"], rows, right={5})]
    parts.append("")
    nothing = "(no tensors)"
    parts.append("By device: " + (", ".join(f"{_plain(d)} {device_bytes_text(t, d)}" for d in t.by_device) or nothing))
    parts.append("By dtype:  " + (", ".join(f"{_plain(d)} {format_bytes(b)}" for d, b in t.by_dtype.items()) or nothing))
    for w in placement.warnings:
        parts.append(f"warning: {_plain(w.message)}")
    return "\n".join(parts)


def _move_text(move) -> str:
    from inspector.core.units import format_seconds

    # Warnings name module classes, which come from the user's file: shown as plain text.
    extra = "".join(f"\n  warning: {_plain(w)}" for w in getattr(move, "warnings", ()))
    if not move.ok:
        return f"move failed: {_plain(move.call)}: {_plain(move.error.message)}{extra}"
    speed = ""
    if move.gbps:
        speed = f" ({move.gbps:.2f} GB/s)" if move.gbps >= 0.01 else " (< 0.01 GB/s)"
    note = f"\n  note: {_plain(move.note)}" if move.note else ""
    peak = getattr(move, "peak_bytes", None) or {}
    if move.bytes and peak:
        # The price of the rollback: every original is kept until the move has succeeded.
        where = ", ".join(f"{d} {format_bytes(b)}" for d, b in sorted(peak.items()))
        extra = f"\n  peak: {where} (model and copies together: originals are kept until success)" + extra
    return (
        f"moved: {move.call}: {format_bytes(move.bytes)} in {format_seconds(move.seconds)}{speed}, "
        f"{move.source} -> {move.target}{note}{extra}"
    )


def cmd_inspect(args) -> int:

    if getattr(args, "device_map", None):
        return _inspect_device_map(args)

    moving = args.to is not None or args.method != "to" or args.dtype is not None
    if args.pinned and args.to is None and args.method != "cuda":
        from inspector.core.errors import InputError

        raise InputError("--pinned needs a host-to-GPU move: add --to cuda (or --method cuda)")
    target = _device_name(args.to, args.method) if args.to is not None else None
    move = None
    with user_output_to_stderr():  # the factory, a pickle, the model's hooks may print
        session = _session(_load(args))
        loaded = session.require_model()
        if moving:
            request = _move_request(args.method, target, args.dtype, args.pinned)
            move = session.move(request, progress=_ProgressBar(f"{request.method}"))
        placement = session.state().placement
        mixed = _mixed_placement(loaded, placement)  # runs the model's forward
    if args.json:
        out = {"model": {"spec": loaded.spec, "class": loaded.class_name, "source": loaded.source}}
        out.update(placement.to_dict())
        if move is not None:
            out["move"] = move.to_dict()
        if mixed is not None:
            out["device_layout"] = mixed.to_dict()
        _print(json.dumps(out, indent=2))
    else:
        if move is not None:
            _print(_move_text(move))
            _print()
        _print(_placement_text(loaded, placement))
        if mixed is not None:
            _print()
            _print(_device_map_text(mixed, has_input=loaded.example_input is not None, heading="The model sits on several devices:"))
    if move is not None and not move.ok:
        # On stderr, so --json output on stdout stays parseable.
        print(f"error: {_plain(move.error.message)}", file=sys.stderr)
        return 1
    return 0


def _inspect_device_map(args) -> int:
    """``inspect --device-map``: apply the map as a transaction, then show where things are."""
    from inspector.core.moves import device_map
    from inspector.core.errors import InputError
    from inspector.core.placement.tensor_rows import snapshot
    from inspector.core.files.inputs import parse_inputs
    from inspector.core.measure.timing import make_input

    if args.to is not None or args.method != "to" or args.dtype is not None or args.pinned:
        raise InputError("--device-map places each module itself: drop --to, --method, --dtype and --pinned")
    shape = parse_inputs(args.input_shape) if args.input_shape else None
    dmap = device_map.read_device_map(args.device_map)  # a bad file fails before the model loads
    with user_output_to_stderr():  # the factory and the model's forward may print
        loaded = _load(args)
        inputs = None
        if shape is not None or loaded.example_input is not None:
            inputs = make_input(loaded, shape)  # where the model is now: where a data loader puts it
        result = device_map.apply_device_map(loaded.module, dmap)
        if result.ok and inputs is not None:
            result = device_map.measure(loaded.module, dmap, result, inputs)
        placement = snapshot(loaded)
    if args.json:
        out = {"model": {"spec": loaded.spec, "class": loaded.class_name, "source": loaded.source}}
        out.update(placement.to_dict())
        out["device_map"] = result.to_dict()
        _print(json.dumps(out, indent=2))
    else:
        _print(_device_map_text(result, has_input=inputs is not None))
        _print()
        _print(_placement_text(loaded, placement))
    if not result.ok:
        print(f"error: {_plain(result.error.message)}", file=sys.stderr)
        return 1
    return 0


def _mixed_placement(loaded, placement):
    """For a model already split over devices: its layout and measured crossings; else None."""
    if len(placement.devices) < 2:
        return None
    from inspector.core.moves import device_map
    from inspector.core.moves.crossings import measure_crossings

    layout = device_map.layout(loaded.module)
    result = device_map.MapResult(True, None, 0.0, 0, layout, (), ())
    if loaded.example_input is None:
        return result
    report = measure_crossings(loaded.module, loaded.example_input)
    words = tuple(c.describe() for c in report.crossings)
    if report.error is not None:
        words += (f"a forward fails with the model split like this: {report.error}",)
    return device_map.MapResult(True, None, 0.0, 0, layout, (), words, report)


def _device_map_text(result, *, has_input: bool, heading: str | None = None) -> str:
    from inspector.core.units import format_seconds

    if not result.ok:
        return f"device map {_plain(result.source)} not applied: {_plain(result.error.message)}"
    if heading is None:
        heading = f"device map {_plain(result.source)} applied: {format_bytes(result.bytes)} moved in {format_seconds(result.seconds)}"
    parts = [heading, ""]
    rows = [[s.device, str(s.tensors), format_bytes(s.bytes), ", ".join(s.modules) or "-"] for s in result.layout]
    parts.append(_table(["DEVICE", "TENSORS", "BYTES", "MODULES"], rows, right={1, 2}))
    crossings = result.crossings.crossings if result.crossings is not None else ()
    if crossings:
        parts.append("")
        rows = [[c.source, c.source_device, c.target, c.target_device, format_bytes(c.bytes_per_forward)] for c in crossings]
        parts.append("Activations crossing devices (one forward, measured with hooks):")
        parts.append(_table(["FROM", "ON", "TO", "ON", "BYTES/FORWARD"], rows, right={4}))
    elif not has_input:
        parts.append("")
        parts.append("crossings not measured: this model brings no example input (give --input-shape)")
    elif result.crossings is not None and result.crossings.error is None:
        parts.append("")
        parts.append("no activation crosses devices in a forward")
    for finding in result.findings:
        parts.append(f"finding: {_plain(finding)}")
    return "\n".join(parts)


# ---------------------------------------------------------------- bench


class _ProgressBar:
    """A one-line progress bar on stderr, only when stderr is a terminal.

    Hand-written (a dozen lines) rather than adding tqdm as a dependency of a GPU-server CLI.
    """

    def __init__(self, label: str) -> None:
        from inspector.core.measure.time_left import TimeLeft, time_left_text

        self._left_text = time_left_text
        self.label = label
        self.enabled = sys.stderr.isatty()
        self._last = -1
        self._time_left = TimeLeft()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        left = self._left_text(self._time_left.update(done, total))
        pct = min(100, int(100 * done / total))
        if pct == self._last:
            return
        self._last = pct
        filled = pct // 4
        end = "\n" if pct >= 100 else ""
        left = f" {left}" if left and pct < 100 else ""
        sys.stderr.write(f"\r{self.label:<24} [{'#' * filled}{' ' * (25 - filled)}] {pct:3d}%{left:<26}{end}")
        sys.stderr.flush()


def _bench_targets(args) -> list[str]:
    """The devices to measure on: those asked for, else every device the method can reach."""
    from inspector.core.devices.discovery import available_device_ids

    if args.device:
        return list(dict.fromkeys(_device_name(d, args.method) for d in args.device))
    present = available_device_ids()
    if args.method == "cpu":
        return ["cpu"]
    if args.method == "cuda":
        # None present: still try cuda:0, so the user gets the move engine's clear answer.
        return [d for d in present if d.startswith("cuda")] or ["cuda:0"]
    return present


def _check_file(flag: str, path: str, suffixes: tuple[str, ...]) -> None:
    """Refuse an output path for ``flag`` that cannot work, before measuring."""
    from inspector.core.files.output_path import check_output_path

    check_output_path(path, suffixes, what=flag)


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


def _run_bench(args, loaded, targets, requests, shape, recorder, *, prefix: str = "", snapshot_path: str | None = None) -> _BenchRun:
    """Move to each target in turn and time it; failures are collected, not raised
    (except an input shape that fails, which fails on every device alike: exit 2)."""
    import contextlib

    from inspector.core.devices.discovery import available_device_ids
    from inspector.core.errors import InputError
    from inspector.core.measure.memory_log import BackgroundSampler
    from inspector.core.moves.transaction import MoveRequest
    from inspector.core.session import BenchmarkRequest
    from inspector.core.measure.timing import model_device

    run = _BenchRun(loaded)
    benchmark = BenchmarkRequest(mode=args.mode, runs=args.runs, min_time=args.min_time, input_shape=shape)

    def move(request, label: str) -> bool:
        with recorder.span("moves", label) as extra, user_output_to_stderr():
            result = run.session.move(request, progress=_ProgressBar(label))
            extra.update(call=result.call, bytes=result.bytes, ok=result.ok)
        _say(prefix + _move_text(result))
        if not result.ok:
            run.failures.append(result.error.message)
        return result.ok

    snapshotting = contextlib.nullcontext()
    if snapshot_path is not None:
        from inspector.core.measure import memory_snapshot

        snapshotting = memory_snapshot.recording()
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
                with span as extra, user_output_to_stderr():  # the model's forward may print
                    result = run.session.measure(benchmark, progress=_ProgressBar(f"time on {target}"))
                    extra.update(median_ms=result.median_ms, warmup_ms=result.warmup_samples_ms, samples_ms=result.samples_ms)
            except InputError:
                raise  # a wrong input shape fails on every device alike: the user's input, exit 2
            except InspectorError as exc:
                # Out of memory on one device, say: keep what the others measured, exit 1 at the end.
                _say(f"{prefix}{target}: {_plain(exc.message)}")
                run.failures.append(f"{target}: {exc.message}")
                continue
            if getattr(args, "per_module", False):
                try:
                    with user_output_to_stderr():
                        run.attributions.append(_per_module(loaded, args, shape, run.latencies[-1], target, prefix))
                except InputError:
                    raise
                except InspectorError as exc:
                    _say(f"{prefix}{target}: {_plain(exc.message)}")
                    run.failures.append(f"{target}: {exc.message}")
        if snapshot_path is not None:
            path = memory_snapshot.write_snapshot(memory_snapshot.take_snapshot(), snapshot_path)
            _say(f"{prefix}memory snapshot written: {_plain(path)} (open it at pytorch.org/memory_viz)")
    return run


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


def _write_trace(path: str, ranks) -> None:
    from inspector.core.measure import trace as trace_mod

    built = trace_mod.build_trace(ranks)
    trace_mod.write_trace(built, path)
    note = built["otherData"].get("note")
    _say(f"trace written: {_plain(path)}" + (f" ({_plain(note)})" if note else ""))


def cmd_bench(args) -> int:
    from inspector.core.report import timing_report as report_mod
    from inspector.core.errors import InputError
    from inspector.core.files.output_path import check_output_path
    from inspector.core.remote.ranks import rank_env
    from inspector.core.files.inputs import parse_inputs
    from inspector.core.measure.timing import request_caps
    from inspector.core.measure.trace import RankSpans, TraceRecorder

    if args.runs is not None and args.runs < 1:
        raise InputError("--runs must be at least 1")
    if args.min_time is not None and args.min_time <= 0:
        raise InputError("--min-time must be more than 0 seconds")
    # Before loading or measuring anything: a path that cannot work fails now, not after.
    output = check_output_path(args.output) if args.output is not None else None
    if args.trace:
        _check_file("--trace", args.trace, (".json",))
    if args.memory_snapshot:
        from inspector.core.measure import memory_snapshot

        _check_file("--memory-snapshot", args.memory_snapshot, (".pickle", ".pkl"))
        memory_snapshot.check_available()
    shape = parse_inputs(args.input_shape) if args.input_shape else None
    announced = request_caps(args.runs, args.min_time)
    for note in announced:  # now, not after an hour: the user may rather stop and ask again
        _say(f"note: {note}")
    env = rank_env()
    if env is not None:
        global _LEAVE_AT_ONCE
        _LEAVE_AT_ONCE = True
        return _bench_ranks(args, env, shape, output)
    targets = _bench_targets(args)
    requests = [_move_request(args.method, t, args.dtype, args.pinned) for t in targets]
    with user_output_to_stderr():
        loaded = _load(args)
    recorder = TraceRecorder()
    run = _run_bench(args, loaded, targets, requests, shape, recorder, snapshot_path=args.memory_snapshot)
    report = report_mod.build_report(
        loaded, moves=run.moves, latency=run.latencies, memory=run.timeline.to_report(), attribution=run.attributions
    )
    rows = _latency_rows(run.latencies)
    if args.json:
        _print(json.dumps(report, indent=2))
    elif rows:
        _print(_table(_LATENCY_HEADERS, rows, right={4, 5, 6, 7, 8, 9}))
    if run.attributions and not args.json:
        _print()
        _print(_modules_text(run.attributions))
    _print_notes(run.latencies, announced)
    if output is not None:
        _write_report(report, output, measured=bool(run.latencies))
    if args.trace:
        import socket

        _write_trace(args.trace, [RankSpans(0, f"torch-device-inspector bench ({socket.gethostname()})", tuple(recorder.spans))])
    failures = run.failures
    if failures:
        _say(f"error: {_plain(failures[0])}" + (f" (and {len(failures) - 1} more failures)" if len(failures) > 1 else ""))
        return 1
    return 0


def _bench_ranks(args, env, shape, output) -> int:
    """One rank of a torchrun job: measure this rank's device; rank 0 writes the one report.

    Other ranks print nothing on stdout, write nothing and exit 0 once their results reached
    rank 0 (exiting non-zero would make torchrun tear the job down before rank 0 writes);
    a rank's failure is in rank 0's report, and rank 0 exits non-zero for it.
    """
    from inspector.core.measure import memory_snapshot
    from inspector.core.report import timing_report as report_mod
    from inspector.core.errors import InputError
    from inspector.core.remote.ranks import RankGroup, RankResult, missing_ranks, rank_device
    from inspector.core.measure.trace import RankSpans, Span, TraceRecorder

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
            snapshot = memory_snapshot.rank_path(args.memory_snapshot, env.rank, env.world_size) if args.memory_snapshot else None
            run = _run_bench(args, loaded, [device], [request], shape, recorder, prefix=prefix, snapshot_path=snapshot)
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
            moves=tuple(report_mod.json_ready(m.to_dict()) for m in (run.moves if run else [])),
            latency=tuple(report_mod.json_ready(r.to_dict()) for r in (run.latencies if run else [])),
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
        report = report_mod.build_report(loaded, moves=run.moves, latency=run.latencies, memory=run.timeline.to_report(), ranks=entries)
        if args.json:
            _print(json.dumps(report, indent=2))
        else:
            _print(_table(["RANK", "HOST", "DEVICE", "MEDIAN ms", "STATUS"], rows, right={3}))
        if output is not None:
            _write_report(report, output, measured=any(e["latency"] for e in entries), what=f" ({len(entries)} ranks)")
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


def _per_module(loaded, args, shape, latency, target: str, prefix: str = ""):
    """Per-module attribution after the plain measurement, its overhead said on stderr."""
    from inspector.core.measure.attribution import DEFAULT_RUNS, measure_attribution

    result = measure_attribution(
        loaded, runs=args.runs or DEFAULT_RUNS, input_shape=shape, progress=_ProgressBar(f"modules on {target}"),
    )
    line = (
        f"{prefix}per-module on {target}: forward {format_ms(result.forward_with_hooks_ms)} with hooks, "
        f"{format_ms(result.forward_without_hooks_ms)} without"
    )
    if result.overhead_ratio is not None:
        line += f" ({result.overhead_ratio:.2f}x: the hooks' overhead; plain and hooked forwards alternated)"
    if latency.mode != "forward":
        line += "; the attribution times the forward pass, the figure above is a training step"
    _say(line)
    return result


def _modules_text(attributions) -> str:
    from inspector.core.report.modules import format_flops

    parts = []
    for run in attributions:
        rows = [
            [m.name or "(model)", m.type, ", ".join("x".join(map(str, s)) for s in m.output_shapes) or "—",
             format_ms(m.self_ms, unit=False), format_ms(m.median_ms, unit=False), f"{100 * m.share:.1f}", format_flops(m.flops),
             format_bytes(m.activation_bytes)]
            for m in run.top(5)
        ]
        parts.append(f"Top modules on {run.device} (self time, of {len(run.modules)} modules; all in the report):")
        parts.append(_table(["MODULE", "TYPE", "OUTPUT", "SELF ms", "INCL ms", "% FWD", "FLOPS", "ACTIVATIONS"], rows, right={3, 4, 5, 6, 7}))
    return "\n".join(parts)


def _print_notes(latencies, announced: Sequence[str]) -> None:
    """The measurements' notes (a cap reached, a mode that could not be set) on stderr."""
    for note in dict.fromkeys(n for r in latencies for n in r.notes if n not in announced):
        _say(f"note: {_plain(note)}")
    for r in latencies:
        if getattr(r, "noise", None):
            _say(f"note: {r.device} {r.dtype} {r.mode}: {_plain(r.noise)}")


def _write_report(report: dict, output, *, measured: bool, what: str = "") -> None:
    """Write the report, unless nothing was measured: a run whose every device failed must
    not replace a good report with an empty one."""
    from inspector.core.report import timing_report as report_mod

    if not measured:
        kept = " (the file already there is left as it was)" if output.exists() else ""
        _say(f"note: nothing was measured, so no report was written to {_plain(output)}{kept}")
        return
    path = report_mod.save_report(report, output, images=_report_images(report, str(output)))
    _say(f"report written: {_plain(path)}{what}")


def _report_images(report: dict, output: str):
    """Plots for an HTML report, rendered with Qt when it is installed; None otherwise."""
    if not output.lower().endswith(".html"):
        return None
    try:
        # The renderer imports Qt lazily, so a server without PySide6 fails at the call.
        import pyqtgraph  # noqa: F401
        from PySide6 import QtWidgets  # noqa: F401

        from inspector.gui.report_images import render_report_images
    except ImportError:
        return None  # the page itself says the plots were left out, and why
    return render_report_images(report)


# ---------------------------------------------------------------- fit


def _fit_text(spec: str, result) -> str:
    shapes = ", ".join("x".join(map(str, s)) for s in result.input_shapes) or "no input"
    fits = {True: "yes", False: "NO", None: "unknown (free memory not known)"}[result.fits]
    if result.margin_bytes is not None:
        word = "margin" if result.margin_bytes >= 0 else "short by"
        fits += f" ({word} {format_bytes(abs(result.margin_bytes))})"
    if result.measured_peak_bytes is not None:
        measured = f"{format_bytes(result.measured_peak_bytes)} (measured/estimated {result.ratio:.3f}; {result.measured_reason})"
    else:
        measured = f"— ({result.measured_reason})"
    activations = format_bytes(result.activations_bytes) if result.activations_bytes is not None else "— (no input)"
    rows = [
        ["parameters", format_bytes(result.parameters_bytes)],
        ["buffers", format_bytes(result.buffers_bytes)],
        ["gradients", format_bytes(result.gradients_bytes)],
        ["optimizer state", format_bytes(result.optimizer_state_bytes)],
        ["activations", activations],
        ["estimated peak", format_bytes(result.estimated_peak_bytes)],
        ["free", format_bytes(result.free_bytes)],
        ["fits", fits],
        ["measured peak", measured],
    ]
    head = f"Will it fit? {_plain(spec)} on {result.device}, {result.dtype}, optimizer {result.optimizer}, {result.mode}, input {shapes}"
    lines = [head, ""] + [f"  {name:<16} {value}" for name, value in rows]
    lines += [f"note: {_plain(n)}" for n in result.notes]
    return "\n".join(lines)


def cmd_fit(args) -> int:
    from inspector.core.measure.fit import FitRequest, estimate_fit
    from inspector.core.files.inputs import parse_inputs

    inputs = parse_inputs(args.input_shape) if args.input_shape else None
    device = _device_name(args.device)
    with user_output_to_stderr():  # a factory's prints must not spoil --json
        loaded = _load(args)
    request = FitRequest(
        device=device, dtype=args.dtype, optimizer=args.optimizer, mode=args.mode,
        inputs=inputs, measure=not args.no_measure,
    )
    with user_output_to_stderr():  # the model's forward may print
        result = estimate_fit(loaded, request)
    if args.json:
        _print(json.dumps(result.to_dict(), indent=2))
    else:
        _print(_fit_text(loaded.spec, result))
    return 0


# ---------------------------------------------------------------- compare


_COMPARE_HEADERS = ["DEVICE", "DTYPE", "MODE", "INPUT", "A MEDIAN ms", "B MEDIAN ms", "B/A", "95% CI", "VERDICT"]


def cmd_compare(args) -> int:
    """Two reports side by side. Ratios of latency medians get a 95 % bootstrap interval
    and "no clear difference" when it holds 1; entries that differ in dtype, mode or input
    shape are named, never given a ratio. A file that is no report: exit 2."""
    from inspector.core.report.compare import compare_reports
    from inspector.core.report.timing_report import load_report

    reports = [load_report(path) for path in (args.report_a, args.report_b)]
    comparison = compare_reports(*reports, label_a="A", label_b="B")
    if args.json:
        out = comparison.to_dict()
        out["files"] = {"a": args.report_a, "b": args.report_b}
        _print(json.dumps(out, indent=2))
        return 0
    _print(f"A = {_plain(args.report_a)}\nB = {_plain(args.report_b)}")
    rows = [
        [r.device, r.dtype, r.mode, "x".join(map(str, r.input_shape)) or "—",
         format_ms(r.median_a, unit=False), format_ms(r.median_b, unit=False),
         "—" if r.ratio is None else f"{r.ratio:.2f}", r.interval_text, r.verdict or "—"]
        for r in comparison.latency
    ]  # fmt: skip
    _print()
    _print(_table(_COMPARE_HEADERS, rows, right={4, 5, 6}) if rows else "No latency in either report.")
    notes = [f"{side} {r.device} {r.dtype} {r.mode}: {noise}"
             for r in comparison.latency for side, noise in (("A", r.noise_a), ("B", r.noise_b)) if noise]  # fmt: skip
    for note in dict.fromkeys(notes):
        _print(f"note: {_plain(note)}")
    moves = [m for m in comparison.moves if m.count_a and m.count_b]
    if moves:
        from inspector.core.units import format_gbps

        _print()
        _print(_table(["ROUTE", "METHOD", "A GB/s", "B GB/s", "VERDICT"],
                      [[m.route, m.method, format_gbps(m.gbps_a), format_gbps(m.gbps_b), m.verdict or "—"] for m in moves],
                      right={2, 3}))  # fmt: skip
    differs = [e for e in comparison.environment if e.differs and e.section != "report"]
    if differs:
        _print()
        _print("Differences between where A and B were made:")
        for e in differs:
            _print(f"  {_plain(e.name)}: A {_plain(e.a)}; B {_plain(e.b)}")
    return 0


# ---------------------------------------------------------------- window


def cmd_window(args) -> int:
    try:
        import pyqtgraph  # noqa: F401
        from PySide6 import QtWidgets  # noqa: F401
    except ImportError as exc:
        raise InspectorError(
            f"the window needs PySide6 and pyqtgraph ({exc}); install them, or use the headless commands: devices, inspect, bench"
        ) from None
    from inspector.gui.app import main as gui_main

    return gui_main(model_spec=args.model, trust=args.trust)


def exit_code(exc: InspectorError) -> int:
    """2 for bad usage or input (an ``InputError``: the user can fix the command), 1 for an
    operation that failed."""
    from inspector.core.errors import InputError

    return 2 if isinstance(exc, InputError) else 1


def cmd_agent(args) -> int:
    """The remote session's far end (``inspector.core.remote.agent``): protocol on stdout, all else on stderr."""
    import os

    from inspector.core.remote.agent import run_agent

    status = run_agent()
    sys.stderr.flush()
    # At once: its work is cancelled and answered, nothing is left to write, and tearing down
    # the interpreter (torch's modules, a worker still leaving a long forward) takes seconds
    # the window would spend waiting for it to go.
    os._exit(status)


COMMANDS = {"devices": cmd_devices, "inspect": cmd_inspect, "bench": cmd_bench, "fit": cmd_fit, "compare": cmd_compare,
            "agent": cmd_agent}


def main(argv: Sequence[str] | None = None) -> int:
    # Before anything allocates a large tensor: torch's CPU allocator reads this only once.
    prefer_huge_pages()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.version:
            _print(version_text())
            return 0
        return COMMANDS.get(args.command, cmd_window)(args)
    except InspectorError as exc:
        if args.debug:
            traceback.print_exc()
        where = " (--arch SPEC)" if exc.kind == "architecture" else ""  # the window names its own field
        print(f"error: {_plain(exc.message)}{where}", file=sys.stderr)
        if exc.detail and args.debug:
            print(escape_control(exc.detail, keep_newlines=True), file=sys.stderr)
        return exit_code(exc)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `... | head` closed our stdout: stop quietly, as the Python docs advise.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 -- a bug, or user code raising its own BaseException: still one line
        if args.debug:
            traceback.print_exc()
        print(
            f"error: {_plain(type(exc).__name__)}: {_plain(exc)} (run with --debug for the traceback)",
            file=sys.stderr,
        )
        return 1


#: Set by a torchrun rank: ``entry`` leaves without the interpreter's teardown. A rank's work
#: is done and sent by then; tearing down torch.distributed's C++ threads at exit sometimes
#: aborted a rank ("terminate called without an active exception", SIGABRT), and torchrun
#: then failed the whole job after rank 0 had written the report.
_LEAVE_AT_ONCE = False


def entry() -> None:
    """The console script and ``python -m inspector``: ``main``, then exit with its status."""
    status = main()
    if _LEAVE_AT_ONCE:
        import os

        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    raise SystemExit(status)


if __name__ == "__main__":
    entry()
