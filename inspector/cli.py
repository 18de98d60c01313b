"""The command line: no sub-command opens the window; sub-commands are headless.

Nothing here imports Qt at module level, so `devices`, `inspect` and `bench` run on a GPU
server where PySide6 is not installed.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from typing import Sequence

from inspector.core.errors import InspectorError
from inspector.core.units import format_bytes
from inspector.core.vocabulary import DEFAULT_RUNS, BenchMode, DType, MoveMethod

DTYPES = tuple(d.value for d in DType)
METHODS = tuple(m.value for m in MoveMethod)
MODES = tuple(m.value for m in BenchMode)


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
    parser = argparse.ArgumentParser(
        prog="torch-device-inspector",
        description="See where every tensor of a PyTorch model lives, move it between devices, and time it. "
        "Without a sub-command, opens the window.",
        parents=[common],
    )
    parser.add_argument("--version", action="store_true", help="print the versions of the app, Python, torch and Qt")
    parser.add_argument("--model", metavar="SPEC", default="example", help="model to load in the window (default: example)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("devices", parents=[sub_common], help="list devices and their memory")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    p = sub.add_parser("inspect", parents=[sub_common], help="load a model, move it if asked, print where each tensor lives")
    _model_args(p)
    p.add_argument("--to", metavar="DEVICE", dest="to", help="move to this device first (cpu, cuda, cuda:1, mps, xpu)")
    _move_args(p, device_flag="--to")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    p = sub.add_parser("bench", parents=[sub_common], help="move the model to each device, time it, and write a timing report")
    _model_args(p)
    p.add_argument("--device", action="append", metavar="D", help="device to measure on (repeat; default: every device present)")
    _move_args(p, device_flag="--device")
    p.add_argument("--mode", choices=MODES, default=BenchMode.FORWARD.value, help="what to time (default: forward)")
    p.add_argument("--input-shape", metavar="SHAPE", help="input shape for models without an example input, e.g. 1,3,224,224")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--runs", type=int, metavar="N", help=f"timed samples per device (default: {DEFAULT_RUNS})")
    group.add_argument("--min-time", type=float, metavar="S", help="sample for at least S seconds per device")
    p.add_argument("--output", metavar="FILE", help="write the timing report (.json, .csv, .md or .html)")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    return parser


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int] = frozenset()) -> str:
    # Hand-written: a few lines here beat a dependency (tabulate/rich) on a GPU server.
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)] if rows else [len(h) for h in headers]
    def line(cells):
        return "  ".join(
            (str(c).rjust(w) if i in right else str(c).ljust(w)) for i, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def _print(text: str = "") -> None:
    print(text, flush=True)


# ---------------------------------------------------------------- version


def version_text() -> str:
    from inspector.core.environment import version_lines

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
    from inspector.core.devices import discover_devices

    inv = discover_devices()
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
        _print(f"note: {note}")
    return 0


# ---------------------------------------------------------------- inspect


def _session(args):
    """A Session with the model ``args`` names loaded."""
    import os

    from inspector.core.session import LoadRequest, Session

    # `python -m inspector` finds `mymodels:make` in the working folder; the console script
    # should too. Appended, so a local file never shadows an installed package.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())

    session = Session()
    session.load(LoadRequest(args.spec, trust=args.trust, architecture=args.arch))
    return session


def _device_name(text: str, method: str = "to") -> str:
    """The canonical id (``cuda`` -> ``cuda:0``) of a device the user named.

    A string that names no device at all is bad input (exit 2); a device that is merely
    absent here is left to the move, whose failure is the operation failing (exit 1).
    """
    import torch

    from inspector.core.devices import device_id
    from inspector.core.errors import InputError

    if method == "cuda" and text.isdigit():
        text = f"cuda:{text}"  # model.cuda(1)
    try:
        return device_id(torch.device(text))
    except (RuntimeError, TypeError, ValueError):
        raise InputError(f"{text!r} is not a device name (try cpu, cuda, cuda:0, mps or xpu)") from None


def _move_request(method: str, device: str | None, dtype: str | None, pinned: bool):
    from inspector.core.errors import InputError
    from inspector.core.moves import MoveRequest

    if method == "cpu" and device not in (None, "cpu"):
        raise InputError(f"--method cpu moves to the CPU only, but {device} was asked for")
    if method == "cuda" and device is not None and not device.startswith("cuda"):
        raise InputError(f"--method cuda moves to a CUDA device only, but {device} was asked for")
    if method != "to" and dtype is not None:
        raise InputError(f"--dtype needs --method to (model.{method}() cannot cast)")
    return MoveRequest(method=method, device=None if method == "cpu" else device, dtype=dtype, pinned=pinned)


def _placement_text(loaded, placement) -> str:
    t = placement.totals
    head = f"Model: {loaded.spec} ({loaded.class_name}) — {t.count} tensors, {t.elements:,} elements, {format_bytes(t.bytes)}"
    rows = [
        [
            r.name,
            r.kind,
            "x".join(map(str, r.shape)) or "scalar",
            r.dtype,
            r.device,
            format_bytes(r.bytes) + (f" (= {r.shares_with})" if r.shares_with else ""),
            "yes" if r.requires_grad else "no",
        ]
        for r in placement.tensors
    ]
    parts = [head, "", _table(["NAME", "KIND", "SHAPE", "DTYPE", "DEVICE", "SIZE", "GRAD"], rows, right={5})]
    parts.append("")
    nothing = "(no tensors)"
    parts.append("By device: " + (", ".join(f"{d} {format_bytes(b)}" for d, b in t.by_device.items()) or nothing))
    parts.append("By dtype:  " + (", ".join(f"{d} {format_bytes(b)}" for d, b in t.by_dtype.items()) or nothing))
    for w in placement.warnings:
        parts.append(f"warning: {w.message}")
    return "\n".join(parts)


def _move_text(move) -> str:
    from inspector.core.units import format_seconds

    if not move.ok:
        return f"move failed: {move.call}: {move.error.message}"
    speed = ""
    if move.gbps:
        speed = f" ({move.gbps:.2f} GB/s)" if move.gbps >= 0.01 else " (< 0.01 GB/s)"
    note = f"\n  note: {move.note}" if move.note else ""
    return f"moved: {move.call}: {format_bytes(move.bytes)} in {format_seconds(move.seconds)}{speed}, {move.source} -> {move.target}{note}"


def cmd_inspect(args) -> int:
    moving = args.to is not None or args.method != "to" or args.dtype is not None
    if args.pinned and args.to is None and args.method != "cuda":
        from inspector.core.errors import InputError

        raise InputError("--pinned needs a host-to-GPU move: add --to cuda (or --method cuda)")
    target = _device_name(args.to, args.method) if args.to is not None else None
    session = _session(args)
    loaded = session.require_model()
    move = None
    if moving:
        request = _move_request(args.method, target, args.dtype, args.pinned)
        move = session.move(request, progress=_ProgressBar(f"{request.method}"))
    placement = session.state().placement
    if args.json:
        out = {"model": {"spec": loaded.spec, "class": loaded.class_name, "source": loaded.source}}
        out.update(placement.to_dict())
        if move is not None:
            out["move"] = move.to_dict()
        _print(json.dumps(out, indent=2))
    else:
        if move is not None:
            _print(_move_text(move))
            _print()
        _print(_placement_text(loaded, placement))
    if move is not None and not move.ok:
        # On stderr, so --json output on stdout stays parseable.
        print(f"error: {move.error.message}", file=sys.stderr)
        return 1
    return 0


# ---------------------------------------------------------------- bench


class _ProgressBar:
    """A one-line progress bar on stderr, only when stderr is a terminal.

    Hand-written (a dozen lines) rather than adding tqdm as a dependency of a GPU-server CLI.
    """

    def __init__(self, label: str) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty()
        self._last = -1

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        pct = min(100, int(100 * done / total))
        if pct == self._last:
            return
        self._last = pct
        filled = pct // 4
        end = "\n" if pct >= 100 else ""
        sys.stderr.write(f"\r{self.label:<24} [{'#' * filled}{' ' * (25 - filled)}] {pct:3d}%{end}")
        sys.stderr.flush()


def _check_output(output: str, suffixes: tuple[str, ...]) -> None:
    """Refuse a report path that cannot work before minutes of measuring, not after."""
    import os
    from pathlib import Path

    from inspector.core.errors import InputError

    if not output.lower().endswith(suffixes):
        raise InputError(f"--output must end in one of {', '.join(suffixes)}: {output}")
    folder = Path(output).expanduser().parent
    if not folder.is_dir():
        raise InputError(f"cannot write the report to {output}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise InputError(f"cannot write the report to {output}: the folder {folder} is not writable")


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
    from inspector.core import report as report_mod
    from inspector.core.devices import available_device_ids
    from inspector.core.errors import InputError
    from inspector.core.memory_log import BackgroundSampler
    from inspector.core.moves import MoveRequest
    from inspector.core.session import BenchmarkRequest
    from inspector.core.timing import model_device, parse_input_shape

    if args.runs is not None and args.runs < 1:
        raise InputError("--runs must be at least 1")
    if args.min_time is not None and args.min_time <= 0:
        raise InputError("--min-time must be more than 0 seconds")
    if args.output:
        _check_output(args.output, report_mod.SUPPORTED_SUFFIXES)
    shape = parse_input_shape(args.input_shape) if args.input_shape else None
    targets = _bench_targets(args)
    requests = [_move_request(args.method, t, args.dtype, args.pinned) for t in targets]
    benchmark = BenchmarkRequest(mode=args.mode, runs=args.runs, min_time=args.min_time, input_shape=shape)
    session = _session(args)
    loaded = session.require_model()
    failures = []

    def move(request, label: str) -> bool:
        result = session.move(request, progress=_ProgressBar(label))
        print(_move_text(result), file=sys.stderr)
        if not result.ok:
            failures.append(result.error.message)
        return result.ok

    sampled = sorted({"cpu"} | (set(targets) & set(available_device_ids())))
    with BackgroundSampler(session.timeline, sampled):
        for target, request in zip(targets, requests):
            if request.pinned and target != "cpu" and model_device(loaded.module).type == "cpu":
                # Both figures in one report: the plain copy first, back to the host, then pinned.
                pageable = MoveRequest(request.method, request.device, request.dtype, pinned=False)
                if not (move(pageable, f"move to {target}") and move(MoveRequest("cpu"), "back to cpu")):
                    continue
            if not move(request, f"move to {target}"):
                continue
            try:
                session.measure(benchmark, progress=_ProgressBar(f"time on {target}"))
            except InputError:
                raise  # a wrong input shape fails on every device alike: the user's input, exit 2
            except InspectorError as exc:
                # Out of memory on one device, say: keep what the others measured, exit 1 at the end.
                print(f"{target}: {exc.message}", file=sys.stderr)
                failures.append(f"{target}: {exc.message}")
    report = session.report()
    rows = [
        [r.device, r.dtype, r.mode, "x".join(map(str, r.input_shape)), str(len(r.samples_ms)),
         f"{r.median_ms:.4f}", f"{r.p5_ms:.4f}", f"{r.p95_ms:.4f}", f"{r.warmup_ms:.3f}"]
        for r in session.latencies
    ]
    if args.json:
        _print(json.dumps(report, indent=2))
    elif rows:
        _print(_table(["DEVICE", "DTYPE", "MODE", "INPUT", "N", "MEDIAN ms", "P5 ms", "P95 ms", "FIRST CALL ms"], rows, right={4, 5, 6, 7, 8}))
    if args.output:
        path = report_mod.save_report(report, args.output, images=_report_images(report, args.output))
        print(f"report written: {path}", file=sys.stderr)
    if failures:
        print(f"error: {failures[0]}" + (f" (and {len(failures) - 1} more failures)" if len(failures) > 1 else ""), file=sys.stderr)
        return 1
    return 0


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


COMMANDS = {"devices": cmd_devices, "inspect": cmd_inspect, "bench": cmd_bench}


def main(argv: Sequence[str] | None = None) -> int:
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
        print(f"error: {exc.message}", file=sys.stderr)
        if exc.detail and args.debug:
            print(exc.detail, file=sys.stderr)
        return exit_code(exc)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `... | head` closed our stdout: stop quietly, as the Python docs advise.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as exc:  # noqa: BLE001 -- a bug or an error we did not foresee: still one line
        if args.debug:
            traceback.print_exc()
        print(
            f"error: {type(exc).__name__}: {exc} (run with --debug for the traceback)".replace("\n", " "),
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
