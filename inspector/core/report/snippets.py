"""The PyTorch code equivalent to each action, to paste into a script (the GUI's code view).

Each snippet assumes what a user's script already has: ``import torch`` and a ``model``.
Device choices are written the portable way the tutorial teaches (fall back to the CPU when
the accelerator is absent), except ``model.cuda()``, which is shown as the call it is.

A snippet's comments are prose: each is a ``messages.Text`` (``messages.snippets_texts``),
said by the ``say`` a snippet function is given. By default (``str``) they are English, as
the CLI and the tests read them; the window passes ``core_text``, which says them in its
language. Only the comments change: the code is the same in every language, and runs.
"""

from __future__ import annotations

from typing import Any, Callable

import torch

from inspector.core.errors import InputError
from inspector.core.messages import Text
from inspector.core.moves.request import (
    MoveRequest,
    ResolvedRequest,
    as_written,
    call_code,
    parse_dtype,
    resolve_request,
)
from inspector.core.units import dtype_name
from inspector.core.vocabulary import BenchMode, FailureKind

MODES = tuple(m.value for m in BenchMode)

#: How a snippet's comments are said: ``str`` (English), or the window's ``core_text``.
Say = Callable[[Text], str]


def _comment(say: Say, key: str, **args: Any) -> str:
    """A comment after code on its line, ``"# ..."``: one line, whatever the translation holds."""
    return "# " + " ".join(say(Text(key, **args)).split())


def _comment_lines(say: Say, key: str, indent: str = "") -> list[str]:
    """A comment on lines of its own: each line of the text a ``#`` line at ``indent``."""
    lines = [line.strip() for line in say(Text(key)).splitlines()]
    return [f"{indent}# {line}".rstrip() for line in lines if line] or [f"{indent}#"]


def _device_name(spec: str) -> str:
    """``"cuda:0"``, ``"cpu"``, ``"mps"`` as written in code; InputError for a non-device."""
    try:
        return str(torch.device(spec))
    except (RuntimeError, TypeError):
        raise InputError(f"{spec!r} is not a device name (try cpu, cuda, cuda:0, mps or xpu)")


def _device_expression(device: torch.device) -> str:
    """A ``torch.device(...)`` expression that picks ``device`` where it exists, else the CPU."""
    name = str(device)
    if device.type == "cpu":
        return 'torch.device("cpu")'
    if device.type == "cuda":
        if device.index:  # cuda:1 and up: also need that many GPUs
            test = f"torch.cuda.device_count() > {device.index}"
        else:
            test = "torch.cuda.is_available()"
    elif device.type == "mps":
        test = "torch.backends.mps.is_available()"
    elif device.type == "xpu":
        test = "torch.xpu.is_available()"
    else:
        raise InputError(f"no code snippet for device type {device.type!r}")
    return f'torch.device("{name}" if {test} else "cpu")'


# What the app's pinned path does: page-locked host copies, so copies can be asynchronous.
_PIN_HOST_TENSORS = [
    "for t in [*model.parameters(), *model.buffers()]:",
    "    if t.device.type == \"cpu\":",
    "        t.data = t.data.pin_memory()",
]


def _dtype_code(name: str) -> str:
    return f"torch.{dtype_name(parse_dtype(name))}"


def move_snippet(request: MoveRequest, say: Say = str) -> str:
    """Code doing what ``move_model(loaded, request)`` does, on ``model``.

    ``.to(device)`` is written with a CPU fallback so the code runs everywhere; ``.cuda()``
    is written as it is, with a comment, because it fails without a CUDA GPU. ``say``: how
    its comments are said (the module docstring). ``request``: a move's ``result.request``,
    read once (``core.moves.request.resolve_request``) and not parsed again here, or a
    ``MoveRequest``, read here.
    """
    resolved = _read(request)
    if resolved.method == "cuda":
        lines = _PIN_HOST_TENSORS if resolved.pinned else []
        call = f"model = {call_code(resolved)}  {_comment(say, 'snippet.cuda_prefer_to')}"
        return "\n".join([*lines, call])
    if resolved.method == "cpu" or resolved.device is None:  # model.cpu(), or a cast alone
        return f"model = {call_code(resolved)}"
    device = resolved.torch_device
    if device is None:  # what the user typed names no device
        raise InputError(f"{resolved.device!r} is not a device name (try cpu, cuda, cuda:0, mps or xpu)")
    args = "device" if resolved.dtype_read is None else f"device, dtype=torch.{resolved.dtype_read}"
    lines = [f"device = {_device_expression(device)}"]
    if resolved.pinned and device.type == "cuda":
        lines += [
            "if device.type == \"cuda\":",
            *(f"    {line}" for line in _PIN_HOST_TENSORS),
            f"model = model.to({args}, non_blocking=True)",
            "if device.type == \"cuda\":",
            f"    torch.cuda.synchronize(device)  {_comment(say, 'snippet.non_blocking_done')}",
        ]
    else:
        lines.append(f"model = model.to({args})")
    return "\n".join(lines)


def _read(request: MoveRequest) -> ResolvedRequest:
    """``request`` read (as it is when it comes read); InputError for one that is no move."""
    try:
        return resolve_request(request)
    except InputError as exc:
        if exc.kind != FailureKind.DEVICE:
            raise
        return as_written(request)  # a device PyTorch cannot read: said by move_snippet


def _input_code(shape: tuple[int, ...], dtype: str, say: Say = str) -> str:
    """A random tensor of ``shape`` and ``dtype`` on ``device``, as the app makes one."""
    dims = ", ".join(str(int(n)) for n in shape)
    torch_dtype = parse_input_dtype(dtype)
    if torch_dtype.is_floating_point or torch_dtype.is_complex:
        return f"torch.randn({dims}, device=device, dtype=torch.{dtype_name(torch_dtype)})"
    # Integer inputs are ids or indices: the app used the model's own example input.
    code = f"torch.randint(0, 2, ({dims},), device=device, dtype=torch.{dtype_name(torch_dtype)})"
    return f"{code}  {_comment(say, 'snippet.own_ids')}"


def parse_input_dtype(name: str) -> torch.dtype:
    """A dtype name from a measurement (``float32``, ``int64``, ``bool``, ``complex64``)."""
    dtype = getattr(torch, str(name).removeprefix("torch."), None)
    if not isinstance(dtype, torch.dtype):
        raise InputError(f"{name!r} is not a dtype")
    return dtype


def _timer_for(device: str, timer: str | None) -> str:
    """What times each sample: device events on CUDA/XPU (as the app does), else the host clock."""
    if timer is not None:
        return timer
    kind = torch.device(_device_name(device)).type
    return f"{kind} events" if kind in ("cuda", "xpu") else "host clock"


def benchmark_snippet(
    device: str,
    dtype: str,
    input_shape: tuple[int, ...],
    mode: str = "forward",
    *,
    runs: int | None = 100,
    min_time: float | None = None,
    warmup: int = 3,
    timer: str | None = None,
    inputs: tuple[tuple[tuple[int, ...], str], ...] = (),
    say: Say = str,
) -> str:
    """Code that repeats the app's measurement on ``model``: the same warm-up calls, the
    same number of runs (or minimum time), the same clock and synchronisation, the same
    mode and input; it prints the median, which reads like the app's, and the mean.

    ``mode`` is ``"forward"`` (``model.eval()`` under ``torch.inference_mode()``) or
    ``"train-step"`` (zero_grad, forward, the sum of the output as loss, backward, an SGD
    step, on a copy of the model). ``timer``: "cuda events" / "xpu events" (a pair of
    device events around each call) or "host clock" (``perf_counter_ns`` with the device
    synchronised around the call, the clock's own cost taken off); by default what the app
    uses on ``device``. ``inputs``: each positional input's (shape, dtype); by default one
    input of ``input_shape`` in ``dtype``. ``say``: how its comments are said (the module
    docstring).
    """
    if mode not in MODES:
        raise InputError(f"{mode!r} is not a benchmark mode (use forward or train-step)")
    if not input_shape and not inputs:
        raise InputError("the input shape is empty (give one like 1,3,224,224)")
    if (runs is None) == (min_time is None):
        raise InputError("give a number of runs or a minimum time, not both")
    dtype_code = _dtype_code(dtype)
    name = _device_name(device)
    kind = torch.device(name).type
    clock = _timer_for(name, timer)
    events = clock.endswith(" events") and kind in ("cuda", "xpu")
    backend = f"torch.{kind}"
    specs = inputs or ((tuple(input_shape), dtype_name(parse_dtype(dtype))),)
    imports = ["import copy"] if mode != "forward" else []
    lines = [*imports, "import gc", *([] if events else ["import time"]), "", "import torch", ""]
    lines += [
        f'device = torch.device("{name}")  {_comment(say, "snippet.where_measured")}',
        f"model = model.to(device, dtype={dtype_code})",
    ]
    names = [f"x{i}" if len(specs) > 1 else "x" for i in range(len(specs))]
    lines += [f"{n} = {_input_code(shape, d, say)}" for n, (shape, d) in zip(names, specs)]
    call = f"model({', '.join(names)})"
    if mode == "forward":
        lines += ["model.eval()", "", "", "def step():", f"    {call}"]
    else:
        lines += [
            f"model = copy.deepcopy(model)  {_comment(say, 'snippet.trains_a_copy')}",
            "model.train()",
            *_comment_lines(say, "snippet.optimizer_copied"),
            "optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.01)",
            "",
            "",
            "def step():",
            "    optimizer.zero_grad(set_to_none=True)",
            f"    output = {call}",
            "    outputs = output if isinstance(output, (tuple, list)) else (output,)",
            "    sum(o.float().sum() for o in outputs if o.requires_grad).backward()",
            "    optimizer.step()",
        ]
    sync = f"{backend}.synchronize()" if kind == "mps" else f"{backend}.synchronize(device)"
    lines += ["", ""]
    if events:
        lines += [
            *_comment_lines(say, "snippet.device_events"),
            f"start, end = {backend}.Event(enable_timing=True), {backend}.Event(enable_timing=True)",
            f"stream = {backend}.current_stream(device)",
            "",
            "",
            "def timed_ms():",
            "    start.record(stream)",
            "    step()",
            "    end.record(stream)",
            "    end.synchronize()",
            "    return start.elapsed_time(end)",
        ]
    else:
        body = ["    start = time.perf_counter_ns()", "    step()"]
        if kind != "cpu":
            body = [f"    {sync}", *body, f"    {sync}"]
        lines += [
            "def clock_gap_ns():",
            "    start = time.perf_counter_ns()",
            "    return time.perf_counter_ns() - start",
            "",
            "",
            *_comment_lines(say, "snippet.clock_cost"),
            "clock_ns = sorted(clock_gap_ns() for _ in range(101))[50]",
            "",
            "",
            "def timed_ms():",
            *body,
            "    return max(0, time.perf_counter_ns() - start - clock_ns) / 1e6",
        ]
    warm_body = ["        step()"] + ([f"        {sync}"] if kind != "cpu" else [])
    lines += [
        "",
        "",
        "samples_ms = []",
        f"gc.disable()  {_comment(say, 'snippet.gc_disabled')}",
        "try:",
        "    with torch.inference_mode():" if mode == "forward" else "    with torch.enable_grad():",
        f"        for _ in range({int(warmup)}):  {_comment(say, 'snippet.warm_up')}",
        "    " + warm_body[0],
        *(("    " + line) for line in warm_body[1:]),
    ]
    if runs is not None:
        lines += [
            f"        for _ in range({int(runs)}):",
            "            samples_ms.append(timed_ms())",
        ]
    else:
        assert min_time is not None  # one of the two, checked above
        lines += [
            "        measured_ms = 0.0",
            f"        while measured_ms < {float(min_time) * 1e3!r} and len(samples_ms) < 100_000:  "
            + _comment(say, "snippet.at_least", seconds=f"{min_time:g}"),
            "            samples_ms.append(timed_ms())",
            "            measured_ms += samples_ms[-1]",
        ]
    lines += [
        "finally:",
        "    gc.enable()",
        "samples_ms.sort()",
        "n = len(samples_ms)",
        "median = (samples_ms[(n - 1) // 2] + samples_ms[n // 2]) / 2",
        "mean = sum(samples_ms) / n",
        *_comment_lines(say, "snippet.median_not_timer"),
        'print(f"median {median:.4f} ms (mean {mean:.4f} ms) over {n} samples")',
    ]
    return "\n".join(lines)


def module_move_line(module_path: str, device: str, dtype: str | None = None) -> str:
    """One line moving one submodule (``""``: the whole model): the tree's "Copy the .to() line".

    ``get_submodule`` takes the dotted path as the tree shows it, list indices included
    (``encoder.layers.0``), which attribute syntax cannot.
    """
    target = f"model.get_submodule({module_path!r})" if module_path else "model"
    args = repr(_device_name(device)) + (f", dtype={_dtype_code(dtype)}" if dtype else "")
    return f"{target}.to({args})"


def measurement_snippet(result: Any, say: Say = str) -> str:
    """``benchmark_snippet`` with every parameter of the measurement ``result``
    (``core.measure.timing.LatencyResult``) made: its runs or minimum time, warm-up, clock, mode,
    device, dtype and input; ``say``: how its comments are said."""
    return benchmark_snippet(
        result.device,
        result.dtype,
        tuple(result.input_shape),
        result.mode,
        runs=result.runs if result.min_time is None else None,
        min_time=result.min_time,
        warmup=max(1, int(result.warmup or len(result.warmup_samples_ms) or 1)),
        timer=result.timer,
        inputs=tuple(result.inputs),
        say=say,
    )
