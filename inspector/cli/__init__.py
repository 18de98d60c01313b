"""The command line: no sub-command opens the window; sub-commands are headless.

This module is the entry point (``entry``: the console script and ``python -m inspector``),
the parser, and ``main``, which dispatches to one module per sub-command (``devices``,
``inspect``, ``bench``, ``fit``, ``compare``, ``agent``; none: ``window``) and turns any error
into one ``error:`` line and an exit code. What the commands print with is ``printing``; the
option vocabulary and the loading they share is ``common``; ``exits`` holds the exit codes and
the flag a torchrun rank sets to leave without the interpreter's teardown.

Nothing here imports Qt at module level, so `devices`, `inspect` and `bench` run on a GPU
server where PySide6 is not installed; torch-heavy modules are imported inside the commands.
"""

from __future__ import annotations

import argparse
import sys
import traceback
import typing
from typing import Sequence

from inspector.cli import exits
from inspector.cli.agent import cmd_agent
from inspector.cli.bench import cmd_bench
from inspector.cli.common import DTYPES, MAX_MEASURE_SECONDS, MAX_SAMPLES, METHODS, MODES
from inspector.cli.compare import cmd_compare
from inspector.cli.devices import cmd_devices
from inspector.cli.exits import exit_code
from inspector.cli.fit import cmd_fit
from inspector.cli.inspect import cmd_inspect
from inspector.cli.printing import _plain, _print, end_progress_line, version_text
from inspector.cli.window import cmd_window
from inspector.core.devices import prefer_huge_pages
from inspector.core.errors import InspectorError
from inspector.core.files import escape_control
from inspector.core.vocabulary import DEFAULT_RUNS, BenchMode, MoveMethod


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


def _fit_args(p: argparse.ArgumentParser) -> None:
    _model_args(p)
    p.add_argument("--device", metavar="D", help="device to fit on (default: cpu, or the kind of the GPU named with --gpu)")
    p.add_argument("--dtype", choices=DTYPES, help="dtype of the floating parameters (default: the model's; float32 with --amp)")
    p.add_argument("--optimizer", required=True, choices=("none", "sgd", "sgd-momentum", "adam", "adamw"), help="optimizer whose state the training step creates")
    p.add_argument("--mode", choices=MODES, default=BenchMode.TRAIN_STEP.value, help=f"what one step is (default: {BenchMode.TRAIN_STEP.value})")
    p.add_argument("--input-shape", metavar="SHAPE", help="input shape(s), e.g. 1,3,224,224; several inputs separated by ';', each with an optional :dtype (10,32,512; 20,32,512 or 8,128:int64)")
    p.add_argument("--no-measure", action="store_true", help="estimate only: skip the real step that proves the estimate")
    p.add_argument("--gpu", metavar="NAME", help="plan for a GPU you name, present or not: a preset (RTX 3090, RTX 4090, RTX 5090, A100-40GB, A100-80GB, H100, H200, L4, T4, A10G, Apple M 16GB/32GB/64GB/128GB); CUDA's allocator rules and stated allowances apply")
    p.add_argument("--capacity", metavar="SIZE", help="plan for a device with this much memory (24GiB, 80GB), present or not; with --gpu it replaces the preset's memory")
    p.add_argument("--margin", metavar="SIZE", help="memory to keep free (e.g. 1GiB); the verdict and --max-batch leave it")
    p.add_argument("--max-batch", action="store_true", help="find the largest batch (the inputs' first dimension) that fits, by traced steps on fake tensors")
    p.add_argument("--amp", choices=("bfloat16", "float16"), help="mixed precision: the forward under autocast to this dtype, float32 weights, gradients and optimizer state")
    p.add_argument("--checkpointing", action="store_true", help="activation checkpointing (gradient_checkpointing_enable: Hugging Face models)")
    p.add_argument("--use-cache", action="store_true", help="call a model that takes use_cache with use_cache=True: its key/value cache is kept (default: use_cache=False, whatever its config says)")
    p.add_argument("--keep-output", action="store_true", help="plan the loop out = model(x); out.loss.backward(); optimizer.step(), which holds the output (logits) through backward (default: freed before backward, as transformers' Trainer does)")
    # A distributed run (issue 48): what each rank holds; --input-shape is then each rank's micro-batch.
    p.add_argument("--gpus", metavar="N", help="plan a distributed run of N ranks (one GPU each): what each rank holds, with --strategy; on the CPU, proven on N CPU ranks (gloo)")
    p.add_argument("--strategy", choices=("ddp", "fsdp", "fsdp-hybrid"), help="with --gpus or --min-gpus: DDP (a replica per rank), FSDP2's fully_shard, or HSDP (fully_shard on a 2-D mesh) (default: fsdp)")
    p.add_argument("--shard-size", metavar="N", help="fsdp-hybrid: ranks per shard group (default: all of them)")
    p.add_argument("--min-gpus", action="store_true", help="the smallest number of GPUs whose ranks each fit (name the GPU with --gpu)")
    p.add_argument("--no-reshard-after-forward", action="store_true", help="FSDP2: keep each block's parameters gathered from its forward to its backward (reshard_after_forward=False)")
    p.add_argument("--output", metavar="FILE", help="also write the answer as a timing report (.json, .csv, .md, .html or .zip; key fit, with the cluster plan and each rank's measured peak)")
    p.add_argument("--lang", metavar="LANG", help="the language of a .md or .html report: en (default) or zh_CN")
    p.add_argument("--json", action="store_true", help="machine-readable output")


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
    shown.add_argument(
        "--prometheus", nargs="?", const="-", metavar="FILE.prom",
        help="Prometheus text exposition of each device's memory (snake_case labels; GPUs carry dcgm-exporter's "
        "join values as uuid, gpu, device: docs/prometheus/dcgm-join.rules.yml records them under its names); "
        "with FILE.prom, the file is replaced atomically, for node_exporter's textfile collector",
    )

    p = sub.add_parser("inspect", parents=[sub_common], help="load a model, move it if asked, print where each tensor lives")
    _model_args(p)
    p.add_argument("--to", metavar="DEVICE", dest="to", help="move to this device first (cpu, cuda, cuda:1, mps, xpu)")
    _move_args(p, device_flag="--to")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--device-map", metavar="FILE.json", help="place modules as this accelerate device map says (module name -> device; JSON, optionally with max_memory), as dispatch_model leaves them, then explain what runs where, what is streamed per forward, each budget, and the activations that cross devices")
    p.add_argument("--explain", action="store_true", help="with --device-map: explain the map as accelerate runs it (what runs where, what is streamed per forward, each budget) without applying it: nothing moves, no GPU needed")
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
    p.add_argument("--threads", type=int, metavar="N", help="torch's intra-op CPU threads while measuring (torch.set_num_threads, set before the model loads; default: PyTorch's). On a CPU a call under a millisecond repeats best on 1: the example in float16 read 26-71 µs between fresh processes on 2 threads of a 2-core VM, 25-26 µs on 1")
    p.add_argument("--output", metavar="FILE", help="write the timing report (.json, .csv, .md, .html or .zip)")
    p.add_argument("--lang", metavar="LANG", help="the language of a .md or .html report: en (default) or zh_CN; the JSON and CSV are data, the same in every language")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument("--trace", metavar="FILE.json", help="write a Chrome Trace Event file (Perfetto, chrome://tracing): moves, warm-up and every sample")
    p.add_argument("--memory-snapshot", metavar="FILE.pickle", help="CUDA only: record the allocator around the moves and timing, write a snapshot pytorch.org/memory_viz opens")
    p.add_argument("--per-module", action="store_true", help="also time each module (inclusive and self time), record output shapes, FLOPs and activation bytes (report key: modules)")
    p.add_argument("--repeat", type=int, metavar="N", help="independent runs, each in a fresh process as pyperf does (default 1): the report keeps every run (runs_ms), compare's interval sees how runs differ, and the spread of its runs is said (and recorded); --runs/--min-time apply to each run")
    p.add_argument("--repeat-worker", action="store_true", help=argparse.SUPPRESS)  # one of --repeat's runs
    p.add_argument("--against", metavar="SPEC_B", help="compare with a second model: A (SPEC) and B timed turn about on one device, in rounds of fresh processes (--repeat, default 5; --min-time per side per round, default 0.2 s), so the machine's drift lands on both; prints the comparison, whose interval comes from the rounds' ratios")
    p.add_argument("--against-output", metavar="FILE", help="with --against and --output: write B's report here (A's goes to --output; compare reads the pair again)")
    p.add_argument("--pair-worker", type=int, default=0, help=argparse.SUPPRESS)  # one of --against's rounds

    p = sub.add_parser("fit", parents=[sub_common], help="will one step fit on a device? estimated without allocating, then proven by one real step")
    _fit_args(p)

    p = sub.add_parser("compare", parents=[sub_common], help="compare two timing reports: latency ratios with 95 %% confidence intervals, moves, environments")
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
        end_progress_line()
        if args.debug:
            traceback.print_exc()
        where = " (--arch SPEC)" if exc.kind == "architecture" else ""  # the window names its own field
        print(f"error: {_plain(exc.message)}{where}", file=sys.stderr)
        if exc.detail and args.debug:
            print(escape_control(exc.detail, keep_newlines=True), file=sys.stderr)
        return exit_code(exc)
    except KeyboardInterrupt:
        end_progress_line()
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
        end_progress_line()
        if args.debug:
            traceback.print_exc()
        print(
            f"error: {_plain(type(exc).__name__)}: {_plain(exc)} (run with --debug for the traceback)",
            file=sys.stderr,
        )
        return 1


def entry() -> None:
    """The console script and ``python -m inspector``: ``main``, then exit with its status."""
    status = main()
    if exits._LEAVE_AT_ONCE:  # a torchrun rank (bench sets it)
        import os

        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    raise SystemExit(status)
