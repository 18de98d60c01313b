"""A move request: what the user asked for, checked, planned and written as the code it runs.

``MoveRequest`` is the frozen request every front end builds; ``plan_move`` checks it and turns
it into a ``Plan``: the exact call to make (``model.to(device, dtype)``, ``model.cuda(i)``,
``model.cpu()``), where the tensors go and in which dtype. ``call_code`` writes a request as
Python code, the one place that does, so the history, the plots, reports and error messages
agree. Nothing here touches a model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from inspector.core.devices import discovery as devices
from inspector.core.errors import InputError, InspectorError
from inspector.core.messages import Text
from inspector.core.units import dtype_name
from inspector.core.vocabulary import DType, FailureKind, MoveMethod

METHODS = tuple(m.value for m in MoveMethod)

#: Dtypes a move can cast to (Module.to casts floating-point tensors only).
DTYPES: dict[str, torch.dtype] = {
    DType.FLOAT32.value: torch.float32,
    DType.FLOAT16.value: torch.float16,
    DType.BFLOAT16.value: torch.bfloat16,
    DType.FLOAT64.value: torch.float64,
}
_DTYPE_ALIASES = {
    "fp32": "float32",
    "float": "float32",
    "f32": "float32",
    "fp16": "float16",
    "half": "float16",
    "f16": "float16",
    "bf16": "bfloat16",
    "fp64": "float64",
    "double": "float64",
    "f64": "float64",
}


def parse_dtype(name: str | torch.dtype) -> torch.dtype:
    """``"bf16"`` / ``"bfloat16"`` / ``"torch.bfloat16"`` -> ``torch.bfloat16``.

    Raises ``InputError`` for anything that is not one of ``DTYPES`` (or an alias).
    """
    if isinstance(name, torch.dtype):
        if name in DTYPES.values():
            return name
        name = str(name)
    key = str(name).strip().lower().removeprefix("torch.")
    key = _DTYPE_ALIASES.get(key, key)
    if key not in DTYPES:
        raise InputError(Text("move.not_a_dtype", name=repr(name), choices=", ".join(DTYPES)))
    return DTYPES[key]


@dataclass(frozen=True)
class MoveRequest:
    """What the user asked for. ``method`` is ``"to"``, ``"cuda"`` or ``"cpu"``.

    ``device``: for ``"to"`` a target such as ``"cuda:0"``, ``"cpu"``, ``"mps"`` (None means a
    dtype cast alone); for ``"cuda"`` optionally ``"cuda:1"`` or ``"1"`` (None: the current CUDA
    device, as ``model.cuda()`` does); for ``"cpu"`` None. ``dtype`` only goes with ``"to"``.
    ``pinned`` pins each host tensor and copies with ``non_blocking=True`` (host -> CUDA only).
    """

    method: str
    device: str | None = None
    dtype: str | None = None
    pinned: bool = False


@dataclass(frozen=True)
class Plan:
    """A request checked and turned into the exact call to make."""

    call: str
    invoke: Callable[[nn.Module], Any]
    #: Where the tensors go; None for a dtype cast alone (they stay where they are).
    target: torch.device | None
    dtype: torch.dtype | None
    pinned: bool
    note: str = ""


def check_request(request: MoveRequest) -> None:
    """Raise InputError for a request that is not a move at all (the device is not checked)."""
    if request.method not in METHODS:
        raise InputError(Text("move.not_a_method", method=repr(request.method), choices=", ".join(METHODS)))
    if request.method != "to" and request.dtype is not None:
        raise InputError(Text("move.method_keeps_dtypes", method=request.method, dtype=request.dtype))
    if request.method == "to" and request.device is None and request.dtype is None:
        raise InputError(Text("move.to_needs_target"))
    if request.method == "cpu" and request.device not in (None, "cpu"):
        raise InputError(Text("move.cpu_takes_no_device", device=repr(request.device)))


def cuda_index(spec: str | None) -> int | None:
    """``None`` / ``"cuda"`` -> None (the current device); ``"1"`` / ``"cuda:1"`` -> 1."""
    if spec is None:
        return None
    text = str(spec).strip()
    if text.isdigit():
        return int(text)
    try:
        device = torch.device(text)
    except (RuntimeError, TypeError):
        device = None
    if device is None or device.type != "cuda":
        raise InputError(Text("move.cuda_takes_cuda", device=repr(spec)))
    return device.index


def call_code(request: MoveRequest, target: torch.device | None = None) -> str:
    """The call a move makes, as Python code: ``model.cuda(1)``,
    ``model.to('cuda:0', dtype=torch.bfloat16, non_blocking=True)``, ``model.cpu()``.

    The one place that writes it, so the history, the plots, reports and error messages
    agree. ``target`` is the device a ``to`` request resolved to (``"cuda"`` -> ``cuda:0``);
    without it the device is written as given. Never raises: a request that is not a valid
    move is written as well as it can be, so it can still be shown next to its error.
    """
    if request.method == "cuda":
        try:
            index = cuda_index(request.device)
        except InputError:
            return f"model.cuda({request.device!r})"
        return "model.cuda()" if index is None else f"model.cuda({index})"
    if request.method != "to":  # "cpu" (takes no device), or not a move method at all
        return f"model.{request.method}()"
    dtype = None if request.dtype is None else _dtype_code(request.dtype)
    if request.device is None:
        return f"model.to({dtype or ''})"
    device = target if target is not None else _parsed_device(request.device)
    if target is not None:
        shown = devices.device_id(target)
    else:
        shown = str(device) if device is not None else request.device
    args = [repr(shown)]
    if dtype is not None:
        args.append(f"dtype={dtype}")
    if request.pinned and device is not None and device.type == "cuda":
        args.append("non_blocking=True")
    return f"model.to({', '.join(args)})"


def _dtype_code(name: str) -> str:
    """``"bf16"`` -> ``"torch.bfloat16"``; a name that is no dtype is written as given."""
    try:
        return f"torch.{dtype_name(parse_dtype(name))}"
    except InputError:
        return repr(name)


def _parsed_device(spec: str) -> torch.device | None:
    try:
        return torch.device(spec)
    except (RuntimeError, TypeError):
        return None


def _plan_cuda(request: MoveRequest) -> Plan:
    index = cuda_index(request.device)
    call = call_code(request)
    try:
        target = devices.resolve_device("cuda" if index is None else f"cuda:{index}")
    except InspectorError as exc:
        # Not PyTorch's bare "AssertionError: Torch not compiled with CUDA enabled".
        reason = devices.unavailable_reason("cuda")
        if reason:
            message = Text("move.cuda_needs_gpu", call=call, reason=reason)
        else:
            message = Text("move.cuda_failed", call=call, error=exc.message)
        raise InputError(message, kind=FailureKind.DEVICE) from None
    if index is None:
        # model.cuda() means the *current* CUDA device, which need not be cuda:0.
        target = torch.device("cuda", torch.cuda.current_device())
    return Plan(call, lambda m: m.cuda(index), target, None, pinned=request.pinned)


def _plan_to(request: MoveRequest) -> Plan:
    dtype = parse_dtype(request.dtype) if request.dtype is not None else None
    if request.device is None:
        return Plan(call_code(request), lambda m: m.to(dtype), None, dtype, request.pinned)
    target = devices.resolve_device(request.device)
    call = call_code(request, target)
    if request.pinned and target.type == "cuda":
        return Plan(
            call,
            lambda m: m.to(target, dtype=dtype, non_blocking=True),
            target,
            dtype,
            pinned=True,
        )
    return Plan(call, lambda m: m.to(target, dtype=dtype), target, dtype, False)


def plan_move(request: MoveRequest) -> Plan:
    """Check ``request`` and build the call. Raises InputError (kind "device" if absent)."""
    check_request(request)
    if request.method == "cpu":
        plan = Plan(call_code(request), lambda m: m.cpu(), torch.device("cpu"), None, False)
    elif request.method == "cuda":
        plan = _plan_cuda(request)
    else:
        plan = _plan_to(request)
    return _settle_pinned(request, plan)


def _settle_pinned(request: MoveRequest, plan: Plan) -> Plan:
    """Pinned memory only speeds host -> CUDA copies: anywhere else it is ignored, with a note."""
    if not request.pinned:
        return plan
    if plan.target is not None and plan.target.type == "cuda":
        return plan
    if plan.target is None:
        note = Text("move.pinned_ignored_cast")
    else:
        note = Text("move.pinned_ignored", device=devices.device_id(plan.target))
    return Plan(plan.call, plan.invoke, plan.target, plan.dtype, False, note)
