"""A move request: what the user asked for, checked, read, planned and written as the code it runs.

``MoveRequest`` is the frozen request every front end builds. ``resolve_request`` checks it and
reads its strings once (``parse_device``, ``parse_dtype``) into a ``ResolvedRequest``: the same
request with its ``torch.device``, its dtype and its call as code; that is what a move's result
carries (``MoveResult.request``), and what the window, the snippets and the report read, so no
one parses the device string again. ``plan_move`` turns it into a ``Plan``: the exact call to
make (``model.to(device, dtype)``, ``model.cuda(i)``, ``model.cpu()``), where the tensors go and
in which dtype. ``call_code`` writes a request as Python code, the one place that does, so the
history, the plots, reports and error messages agree. Nothing here touches a model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import torch
from torch import nn

from inspector.core.devices import discovery as devices
from inspector.core.errors import InputError, InspectorError
from inspector.core.messages import Text
from inspector.core.units import dtype_name, first_line
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


def parse_device(spec: str) -> torch.device:
    """A move's device string as PyTorch reads it: ``"cuda:1"`` -> ``torch.device("cuda", 1)``.

    The one place a move reads it, once (``resolve_request``). Raises ``InputError`` (kind
    ``"device"``) for a string that names no device, in the words ``resolve_device`` uses.
    """
    return devices.named_device(spec)


@dataclass(frozen=True)
class ResolvedRequest(MoveRequest):
    """A ``MoveRequest`` read once (``resolve_request``): still the request as asked (its
    ``method``, ``device``, ``dtype``, ``pinned`` as the user gave them), with what they mean.

    A move's result carries it (``MoveResult.request``): the window shows its code from it, the
    snippets and the report read the device, dtype and method the move ran with from it.
    """

    #: The exact call as Python code; in a move's result, with the device the move resolved
    #: to (``model.to('cuda:0')`` for ``"cuda"``).
    call: str = ""
    #: The device asked for, as PyTorch spells it (``"cuda"``, ``"cuda:1"``, ``"mps"``; ``"1"``
    #: for ``cuda`` reads ``"cuda:1"``); None when none is named (``model.cuda()``: the current
    #: device, a dtype cast alone, ``model.cpu()``) or when the string names no device.
    device_read: str | None = None
    #: The dtype cast to, by its name (``"bfloat16"`` for ``"bf16"``); None: the dtypes are kept.
    dtype_read: str | None = None
    #: ``device_read`` as the ``torch.device`` it was parsed into. Not sent over the wire
    #: (``device_read`` spells it); a request read off the wire has it made from that spelling.
    torch_device: torch.device | None = field(default=None, compare=False, repr=False, metadata={"wire": False})

    def __post_init__(self) -> None:
        # Read off the wire, it is read as an agent might have written it: code is written
        # from it (``call_code``, the snippets), so only a method, dtype and device it names.
        if self.method not in METHODS:
            raise InputError(Text("move.not_a_method", method=repr(self.method), choices=", ".join(METHODS)))
        if self.dtype_read is not None and self.dtype_read not in DTYPES:
            raise InputError(Text("move.not_a_dtype", name=repr(self.dtype_read), choices=", ".join(DTYPES)))
        if self.torch_device is None and self.device_read is not None:
            object.__setattr__(self, "torch_device", parse_device(self.device_read))

    @property
    def asked(self) -> MoveRequest:
        """The request as the user gave it, unread."""
        return MoveRequest(self.method, self.device, self.dtype, self.pinned)

    @property
    def torch_dtype(self) -> torch.dtype | None:
        """``dtype_read`` as a ``torch.dtype``; None: the dtypes are kept."""
        return None if self.dtype_read is None else DTYPES.get(self.dtype_read)

    @property
    def unreadable(self) -> bool:
        """A device was named that PyTorch cannot read (the move failed with kind "device")."""
        return self.method == "to" and self.device is not None and self.device_read is None


def resolve_request(request: MoveRequest) -> ResolvedRequest:
    """``request`` checked and read once: its dtype, its device as a ``torch.device``, its call.

    A ``ResolvedRequest`` comes back as it is. Raises ``InputError``: for a request that is not
    a move (``check_request``), an unknown dtype, a device ``model.cuda()`` does not take, or
    (kind ``"device"``) a ``to`` device that names no device.
    """
    if isinstance(request, ResolvedRequest):
        return request
    check_request(request)
    dtype = parse_dtype(request.dtype) if request.dtype is not None else None
    device = _read_device(request)
    resolved = ResolvedRequest(
        request.method, request.device, request.dtype, request.pinned,
        device_read=None if device is None else str(device),
        dtype_read=None if dtype is None else dtype_name(dtype),
        torch_device=device,
    )  # fmt: skip
    return replace(resolved, call=_written(resolved, None))


def as_written(request: MoveRequest) -> ResolvedRequest:
    """A request whose device string names no device, as far as it reads: its dtype and its
    call written as given (the result of a move that could not start carries it)."""
    try:
        dtype: str | None = dtype_name(parse_dtype(request.dtype)) if request.dtype is not None else None
    except InputError:
        dtype = None
    return ResolvedRequest(request.method, request.device, request.dtype, request.pinned, call=call_code(request),
                           dtype_read=dtype)  # fmt: skip


def as_run(request: MoveRequest, call: str) -> ResolvedRequest:
    """``request`` as this side reads it, for a move that ran elsewhere and made ``call`` (an
    agent older than results that carry their request)."""
    try:
        resolved = resolve_request(request)
    except InputError:
        resolved = as_written(request)
    return replace(resolved, call=call)


def _read_device(request: MoveRequest) -> torch.device | None:
    """The device ``request`` names, parsed; None for none (``model.cuda()``, a cast, ``cpu``)."""
    if request.device is None or request.method == "cpu":
        return None
    if request.method == "to":
        return parse_device(request.device)
    text = str(request.device).strip()  # "cuda": "1", "cuda:1", "cuda"
    if text.isdigit():
        return torch.device("cuda", int(text))
    try:
        device: torch.device | None = parse_device(text)
    except InputError:
        device = None
    if device is None or device.type != "cuda":
        raise InputError(Text("move.cuda_takes_cuda", device=repr(request.device)))
    return device


@dataclass(frozen=True)
class Plan:
    """A request checked and turned into the exact call to make."""

    #: The request read, its ``call`` the exact one this plan makes.
    request: ResolvedRequest
    invoke: Callable[[nn.Module], Any]
    #: Where the tensors go; None for a dtype cast alone (they stay where they are).
    target: torch.device | None
    dtype: torch.dtype | None
    pinned: bool
    note: str = ""

    @property
    def call(self) -> str:
        return self.request.call


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
    without it the device is written as given. A ``ResolvedRequest`` is written from what was
    read (nothing is parsed again). Never raises: a request that is not a valid move is written
    as well as it can be, so it can still be shown next to its error.
    """
    if isinstance(request, ResolvedRequest):
        return _as_given(request, target) if request.unreadable else _written(request, target)
    try:
        resolved = resolve_request(request)
    except InputError:
        return _as_given(request, target)
    return _written(resolved, target)


def _written(request: ResolvedRequest, target: torch.device | None) -> str:
    """``call_code`` of a request read: from its ``torch.device`` and dtype name, not its strings."""
    if request.method == "cuda":
        index = None if request.torch_device is None else request.torch_device.index
        return "model.cuda()" if index is None else f"model.cuda({index})"
    if request.method != "to":
        return f"model.{request.method}()"
    dtype = None if request.dtype_read is None else f"torch.{request.dtype_read}"
    if request.device is None:
        return f"model.to({dtype or ''})"
    device = target if target is not None else request.torch_device
    shown = devices.device_id(target) if target is not None else request.device_read
    args = [repr(shown)]
    if dtype is not None:
        args.append(f"dtype={dtype}")
    if request.pinned and device is not None and device.type == "cuda":
        args.append("non_blocking=True")
    return f"model.to({', '.join(args)})"


def _as_given(request: MoveRequest, target: torch.device | None) -> str:
    """``call_code`` of a request that does not read as a move, written as well as it can be."""
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


def _plan_cuda(request: ResolvedRequest) -> Plan:
    index = None if request.torch_device is None else request.torch_device.index
    call = request.call
    try:
        target = devices.resolve_device(torch.device("cuda") if request.torch_device is None else request.torch_device)
    except InspectorError as exc:
        # Not PyTorch's bare "AssertionError: Torch not compiled with CUDA enabled".
        reason = devices.unavailable_reason("cuda")
        if reason:
            message = Text("move.cuda_needs_gpu", call=call, reason=reason)
            said = _pytorch_says_cuda()
            if said:  # the words a student meets in a script, beside ours (issue 45 item 7)
                message = Text("move.pytorch_said", message=message, said=said)
        else:
            message = Text("move.cuda_failed", call=call, error=exc.message)
        raise InputError(message, kind=FailureKind.DEVICE) from None
    if index is None:
        # model.cuda() means the *current* CUDA device, which need not be cuda:0.
        target = torch.device("cuda", torch.cuda.current_device())
    return Plan(request, lambda m: m.cuda(index), target, None, pinned=request.pinned)


def _pytorch_says_cuda() -> str:
    """PyTorch's own message for a ``.cuda()`` here ("Torch not compiled with CUDA enabled",
    "No CUDA GPUs are available"), from an empty tensor: asked only once CUDA is known to be
    unusable, so it allocates nothing."""
    try:
        torch.empty(0).cuda()
    except (AssertionError, RuntimeError) as exc:
        return first_line(exc)
    return ""


def _plan_to(request: ResolvedRequest) -> Plan:
    dtype = request.torch_dtype
    if request.device is None:  # a dtype cast alone
        return Plan(request, lambda m: m.to(dtype), None, dtype, request.pinned)
    # (a request that names no device PyTorch reads raises here, as resolving it did)
    target = devices.resolve_device(parse_device(request.device) if request.torch_device is None else request.torch_device)
    call = replace(request, call=_written(request, target))
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
    """Check ``request`` and build the call (``resolve_request``, unless it comes resolved).
    Raises InputError (kind "device" if absent)."""
    resolved = resolve_request(request)
    if resolved.method == "cpu":
        plan = Plan(resolved, lambda m: m.cpu(), torch.device("cpu"), None, False)
    elif resolved.method == "cuda":
        plan = _plan_cuda(resolved)
    else:
        plan = _plan_to(resolved)
    return _settle_pinned(resolved, plan)


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
    return Plan(plan.request, plan.invoke, plan.target, plan.dtype, False, note)
