"""The PyTorch code equivalent to each action, to paste into a script (the GUI's code view).

Each snippet assumes what a user's script already has: ``import torch`` and a ``model``.
Device choices are written the portable way the tutorial teaches (fall back to the CPU when
the accelerator is absent), except ``model.cuda()``, which is shown as the call it is.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from inspector.core.errors import InputError
from inspector.core.moves import MoveRequest, call_code, check_request, cuda_index, parse_dtype
from inspector.core.units import dtype_name
from inspector.core.vocabulary import BenchMode

MODES = tuple(m.value for m in BenchMode)


def _device_name(spec: str) -> str:
    """``"cuda:0"``, ``"cpu"``, ``"mps"`` as written in code; InputError for a non-device."""
    try:
        return str(torch.device(spec))
    except (RuntimeError, TypeError):
        raise InputError(f"{spec!r} is not a device name (try cpu, cuda, cuda:0, mps or xpu)")


def _device_expression(spec: str) -> str:
    """A ``torch.device(...)`` expression that picks ``spec`` where it exists, else the CPU."""
    name = _device_name(spec)
    device = torch.device(name)
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


def move_snippet(request: MoveRequest) -> str:
    """Code doing what ``move_model(loaded, request)`` does, on ``model``.

    ``.to(device)`` is written with a CPU fallback so the code runs everywhere; ``.cuda()``
    is written as it is, with a comment, because it fails without a CUDA GPU.
    """
    check_request(request)
    if request.method == "cuda":
        cuda_index(request.device)  # InputError for a device model.cuda() does not take
        lines = _PIN_HOST_TENSORS if request.pinned else []
        return "\n".join([*lines, f"model = {call_code(request)}  # needs a CUDA GPU; prefer .to(device)"])
    if request.method == "cpu" or request.device is None:  # model.cpu(), or a cast alone
        return f"model = {call_code(request)}"
    args = "device" if request.dtype is None else f"device, dtype={_dtype_code(request.dtype)}"
    lines = [f"device = {_device_expression(request.device)}"]
    if request.pinned and torch.device(_device_name(request.device)).type == "cuda":
        lines += [
            "if device.type == \"cuda\":",
            *(f"    {line}" for line in _PIN_HOST_TENSORS),
            f"model = model.to({args}, non_blocking=True)",
            "if device.type == \"cuda\":",
            "    torch.cuda.synchronize(device)  # non_blocking copies finish here",
        ]
    else:
        lines.append(f"model = model.to({args})")
    return "\n".join(lines)


def _shapes(input_shape: tuple[int, ...] | Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """One shape, or one per positional input, as a list of shapes."""
    items = list(input_shape)
    if items and all(isinstance(n, int) for n in items):
        return [tuple(int(n) for n in items if isinstance(n, int))]
    return [tuple(int(n) for n in shape) for shape in items if isinstance(shape, tuple)]


def benchmark_snippet(
    device: str,
    dtype: str,
    input_shape: tuple[int, ...] | Sequence[tuple[int, ...]],
    mode: str = "forward",
    input_dtypes: Sequence[str] = (),
) -> str:
    """A ``torch.utils.benchmark.Timer`` recipe that measures what the app's benchmark does.

    ``input_shape`` is one shape or one per positional input (a Transformer's src and tgt);
    ``input_dtypes`` their dtypes (integer inputs become token ids, floating ones follow
    the model). ``mode`` is ``"forward"`` (under ``torch.inference_mode()`` with
    ``model.eval()``) or ``"train-step"`` (zero_grad, forward, a scalar loss, backward, SGD step).
    """
    if mode not in MODES:
        raise InputError(f"{mode!r} is not a benchmark mode (use forward or train-step)")
    shapes = _shapes(input_shape)
    if not shapes or not all(shapes):
        raise InputError("the input shape is empty (give one like 1,3,224,224)")
    dtype_code = _dtype_code(dtype)
    lines = [
        "from torch.utils import benchmark",
        "",
        f"device = {_device_expression(device)}",
        f"model = model.to(device, dtype={dtype_code})",
    ]
    names = ["x"] if len(shapes) == 1 else [f"x{i}" for i in range(len(shapes))]
    for i, (name, shape) in enumerate(zip(names, shapes)):
        sizes = ", ".join(str(int(n)) for n in shape)
        kind = input_dtypes[i] if i < len(input_dtypes) else dtype
        if kind.startswith(("int", "uint")):
            lines.append(f"{name} = torch.zeros({sizes}, device=device, dtype=torch.{kind})  # ids: any value below the embedding's size")
        elif kind == "bool":
            lines.append(f"{name} = torch.zeros({sizes}, device=device, dtype=torch.bool)")
        else:
            lines.append(f"{name} = torch.randn({sizes}, device=device, dtype={dtype_code})")
    call = f"model({', '.join(names)})"
    if mode == "forward":
        lines += [
            "model.eval()",
            "timer = benchmark.Timer(",
            f'    stmt="{call}",',
            f'    globals={{"model": model, {", ".join(f"{chr(34)}{n}{chr(34)}: {n}" for n in names)}}},',
        ]
    else:
        lines += [
            "model.train()",
            "optimizer = torch.optim.SGD(model.parameters(), lr=0.01)",
            "timer = benchmark.Timer(",
            '    stmt="optimizer.zero_grad(set_to_none=True); '
            f'{call}.float().mean().backward(); optimizer.step()",',
            f'    globals={{"model": model, {", ".join(f"{chr(34)}{n}{chr(34)}: {n}" for n in names)}, "optimizer": optimizer}},',
        ]
    lines += [
        "    num_threads=torch.get_num_threads(),",
        f'    label="{mode}",',
        "    sub_label=str(device),",
        ")",
    ]
    if mode == "forward":
        lines += [
            "with torch.inference_mode():",
            "    measurement = timer.blocked_autorange(min_run_time=1.0)",
        ]
    else:
        lines.append("measurement = timer.blocked_autorange(min_run_time=1.0)")
    # Timer's clock synchronises the GPU itself (CUDA; any accelerator in newer PyTorch).
    lines.append("print(measurement)  # measurement.median is the median, in seconds")
    return "\n".join(lines)


def module_move_line(module_path: str, device: str, dtype: str | None = None) -> str:
    """One line moving one submodule (``""``: the whole model): the tree's "Copy the .to() line".

    ``get_submodule`` takes the dotted path as the tree shows it, list indices included
    (``encoder.layers.0``), which attribute syntax cannot.
    """
    target = f"model.get_submodule({module_path!r})" if module_path else "model"
    args = repr(_device_name(device)) + (f", dtype={_dtype_code(dtype)}" if dtype else "")
    return f"{target}.to({args})"
