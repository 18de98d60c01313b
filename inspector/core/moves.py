"""Moves as transactions: ``model.to(device, dtype)``, ``model.cuda(i)``, ``model.cpu()``.

``Module.to()`` converts tensor by tensor with no rollback: an out-of-memory error half-way
leaves a model split across devices. ``move_model`` really makes the call the user chose,
but first keeps a reference to every original parameter, gradient and buffer. If anything
fails (out of memory, a cancel, any exception) it puts each one back, so the model is exactly
as before, and empties the target's allocator cache. Either way it returns a ``MoveResult``
of plain values: the call as Python code, seconds, bytes, GB/s and memory before and after.

The seam: a ``TorchFunctionMode`` sees each ``Tensor.to`` / ``Tensor.cuda`` / ``Tensor.cpu``
that ``Module._apply`` makes. It reports progress after each tensor, checks for a cancel
before each one, counts the bytes PyTorch really copied, and (for the pinned path) pins each
host tensor before it leaves.

Peak memory: because the originals stay referenced until the move succeeds, a dtype cast on
one device briefly holds both copies (plain ``Module.to`` can free each original as it goes).
That is the price of being able to roll back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

from inspector.core import devices
from inspector.core.errors import Cancelled, Failure, InputError, InspectorError
from inspector.core.models import LoadedModel
from inspector.core.tensor_bytes import allocated_bytes
from inspector.core.units import dtype_name, first_line, format_bytes
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

# Matched by name, not identity: PyTorch hands the mode whatever ``torch.Tensor.to`` is now,
# and libraries (and our tests) sometimes wrap it.
_CONVERSIONS = frozenset({"to", "cuda", "cpu"})

_TO_DEVICE_HINT = (
    'prefer model.to(device) with device = torch.device("cuda:0" if '
    'torch.cuda.is_available() else "cpu"): it runs everywhere'
)


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
        raise InputError(
            f"{name!r} is not a dtype a model can be cast to "
            f"(use one of {', '.join(DTYPES)}; bf16, fp16, fp32, fp64 also work)"
        )
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
class MoveResult:
    """One move, as plain values. ``error.kind`` is "device", "oom", "cancelled" or "error"."""

    call: str
    method: str
    source: str
    target: str
    dtype: str | None
    pinned: bool
    seconds: float
    bytes: int
    gbps: float | None
    ok: bool
    error: Failure | None
    memory_before: dict[str, Any]
    memory_after: dict[str, Any]
    #: Anything the user should know that is not an error (e.g. why ``pinned`` was ignored).
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# --------------------------------------------------------------------------- the request


@dataclass(frozen=True)
class _Plan:
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
        raise InputError(
            f"{request.method!r} is not a move method (use one of {', '.join(METHODS)})"
        )
    if request.method != "to" and request.dtype is not None:
        raise InputError(
            f"model.{request.method}() keeps dtypes; use the 'to' method to cast to "
            f"{request.dtype}"
        )
    if request.method == "to" and request.device is None and request.dtype is None:
        raise InputError("model.to() needs a target device, a dtype, or both")
    if request.method == "cpu" and request.device not in (None, "cpu"):
        raise InputError(f"model.cpu() takes no device (got {request.device!r})")


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
        raise InputError(f"model.cuda() takes a CUDA device such as 'cuda:1' or '1', not {spec!r}")
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


def _plan_cuda(request: MoveRequest) -> _Plan:
    index = cuda_index(request.device)
    call = call_code(request)
    try:
        target = devices.resolve_device("cuda" if index is None else f"cuda:{index}")
    except InspectorError as exc:
        # Not PyTorch's bare "AssertionError: Torch not compiled with CUDA enabled".
        reason = devices.unavailable_reason("cuda")
        problem = f"needs a CUDA GPU, but {reason}" if reason else f"failed: {exc.message}"
        raise InputError(f"{call} {problem}; {_TO_DEVICE_HINT}", kind=FailureKind.DEVICE) from None
    if index is None:
        # model.cuda() means the *current* CUDA device, which need not be cuda:0.
        target = torch.device("cuda", torch.cuda.current_device())
    return _Plan(call, lambda m: m.cuda(index), target, None, pinned=request.pinned)


def _plan_to(request: MoveRequest) -> _Plan:
    dtype = parse_dtype(request.dtype) if request.dtype is not None else None
    if request.device is None:
        return _Plan(call_code(request), lambda m: m.to(dtype), None, dtype, request.pinned)
    target = devices.resolve_device(request.device)
    call = call_code(request, target)
    if request.pinned and target.type == "cuda":
        return _Plan(
            call,
            lambda m: m.to(target, dtype=dtype, non_blocking=True),
            target,
            dtype,
            pinned=True,
        )
    return _Plan(call, lambda m: m.to(target, dtype=dtype), target, dtype, False)


def _plan(request: MoveRequest) -> _Plan:
    """Check ``request`` and build the call. Raises InputError (kind "device" if absent)."""
    check_request(request)
    if request.method == "cpu":
        plan = _Plan(call_code(request), lambda m: m.cpu(), torch.device("cpu"), None, False)
    elif request.method == "cuda":
        plan = _plan_cuda(request)
    else:
        plan = _plan_to(request)
    return _settle_pinned(request, plan)


def _settle_pinned(request: MoveRequest, plan: _Plan) -> _Plan:
    """Pinned memory only speeds host -> CUDA copies: anywhere else it is ignored, with a note."""
    if not request.pinned:
        return plan
    if plan.target is not None and plan.target.type == "cuda":
        return plan
    if plan.target is None:
        where = "a dtype cast stays on its device"
    else:
        where = f"the target is {devices.device_id(plan.target)}"
    note = f"pinned ignored: pinned host memory only speeds host-to-CUDA copies, and {where}"
    return _Plan(plan.call, plan.invoke, plan.target, plan.dtype, False, note)


# --------------------------------------------------------------------------- the snapshot


def _tensor_key(t: torch.Tensor) -> tuple[Any, ...]:
    """Identifies a tensor's bytes, so tied or shared tensors are counted once."""
    if t.layout != torch.strided or t.device.type == "meta":
        return ("id", id(t))  # sparse and meta tensors have no data pointer to compare
    return (t.device, t.data_ptr(), t.dtype, t.nbytes)


class _Snapshot:
    """References to every parameter, gradient and buffer of a module, to put them back.

    Each parameter slot keeps the Parameter object itself plus a detached alias of its data
    (the alias keeps the original storage alive after ``param.data = new`` or a tensor swap).
    Restoring sets ``.data`` back, which works whichever of PyTorch's conversion paths ran
    (``param.data = fn(param)``, ``swap_tensors``, or a new Parameter in the dict).
    """

    def __init__(self, module: nn.Module):
        self.params: list[tuple[Any, str, nn.Parameter, torch.Tensor, Any, Any]] = []
        self.buffers: list[tuple[Any, str, torch.Tensor]] = []
        for owner in module.modules():
            for key, param in owner._parameters.items():
                if param is None:
                    continue
                grad = param.grad
                grad_data = None if grad is None else grad.detach()
                self.params.append((owner, key, param, param.detach(), grad, grad_data))
            for key, buf in owner._buffers.items():
                if buf is not None:
                    self.buffers.append((owner, key, buf))

    def tensors(self) -> Iterator[torch.Tensor]:
        for _, _, _, data, _, grad_data in self.params:
            yield data
            if grad_data is not None:
                yield grad_data
        for _, _, buf in self.buffers:
            yield buf

    def unique_tensors(self) -> list[torch.Tensor]:
        seen: dict[tuple[Any, ...], torch.Tensor] = {}
        for t in self.tensors():
            seen.setdefault(_tensor_key(t), t)
        return list(seen.values())

    def device_ids(self) -> list[str]:
        return sorted({devices.device_id(t.device) for t in self.tensors()})

    def release(self) -> None:
        """Drop the references to the originals, one tensor at a time.

        A plain ``del`` frees a big model's old storage in one C-level cascade that holds the
        GIL for tens of milliseconds (measured ~60 ms for 1 GiB): a GUI thread stalls. One at a
        time, with a ``sleep(0)`` after each, other threads get the GIL between frees.
        """
        while self.params:
            self.params.pop()
            time.sleep(0)
        while self.buffers:
            self.buffers.pop()
            time.sleep(0)

    def restore(self) -> None:
        with torch.no_grad():
            # Grads first off, so no setter compares a grad with a param mid-restore.
            for owner, key, param, _, _, _ in self.params:
                owner._parameters[key] = param
                param.grad = None
            for _, _, param, data, _, _ in self.params:
                param.data = data
            for _, _, param, _, grad, grad_data in self.params:
                if grad is not None:
                    grad.data = grad_data
                    param.grad = grad
            for owner, key, buf in self.buffers:
                owner._buffers[key] = buf


def _bytes_needed(tensors: list[torch.Tensor], plan: _Plan) -> int:
    """Bytes the target must hold for the converted copies (for the out-of-memory message)."""
    target_id = devices.device_id(plan.target) if plan.target is not None else None
    needed = 0
    for t in tensors:
        # Module.to casts floating-point and complex tensors only.
        castable = t.is_floating_point() or t.is_complex()
        cast = plan.dtype if plan.dtype is not None and castable else t.dtype
        moves = target_id is not None and devices.device_id(t.device) != target_id
        if moves or cast != t.dtype:
            needed += t.numel() * cast.itemsize
    return needed


# --------------------------------------------------------------------------- the seam


class _ConversionWatch(TorchFunctionMode):
    """Sees each tensor conversion ``Module._apply`` makes; all other calls pass through.

    Before each: raise ``Cancelled`` if asked to stop (the move then rolls back). After each:
    count bytes and call ``progress(done, total)``. With ``pin`` set, each host tensor is
    pinned and copied with ``non_blocking=True``.
    """

    def __init__(
        self,
        total: int,
        progress: Callable[[int, int], None] | None,
        should_cancel: Callable[[], bool] | None,
        pin: bool,
    ):
        super().__init__()
        self.total = total
        self.done = 0
        self.copied = 0
        self.progress = progress
        self.should_cancel = should_cancel
        self.pin = pin
        self.pinned_any = False
        self._seen: set[tuple[Any, ...]] = set()

    def __torch_function__(
        self,
        func: Callable[..., Any],
        types: Any,
        args: tuple[Any, ...] = (),
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        kwargs = kwargs or {}
        name = getattr(func, "__name__", None)
        if name not in _CONVERSIONS or not args or not isinstance(args[0], torch.Tensor):
            return func(*args, **kwargs)
        if self.should_cancel is not None and self.should_cancel():
            raise Cancelled("the move was cancelled; the model is as it was before")
        source = args[0]
        if self.pin and source.device.type == "cpu":
            args, kwargs = self._pinned_call(func, args, kwargs)
        result = func(*args, **kwargs)
        self._count(source, result)
        if self.progress is not None:
            self.progress(min(self.done, self.total), self.total)
        return result

    def _pinned_call(
        self, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        source = args[0]
        pinned = source if source.is_pinned() else source.pin_memory()
        self.pinned_any = True
        if func.__name__ == "cuda":
            # Module.cuda() has no non_blocking argument; Module.to() already passed it.
            kwargs = {**kwargs, "non_blocking": True}
        return (pinned, *args[1:]), kwargs

    def _count(self, source: torch.Tensor, result: torch.Tensor) -> None:
        key = _tensor_key(source)
        if key in self._seen:
            # A tied or shared tensor this move already converted (or produced).
            return
        result_key = _tensor_key(result)
        self._seen.add(key)
        self._seen.add(result_key)
        self.done += allocated_bytes(source)
        if result_key != key:
            self.copied += allocated_bytes(source)


# --------------------------------------------------------------------------- the move


def _follow(example_input: Any, target: torch.device | None, dtype: torch.dtype | None) -> Any:
    """The example input on the model's new device, floating tensors in its new dtype."""

    def convert(x: Any) -> Any:
        if not isinstance(x, torch.Tensor):
            return x
        cast = dtype if dtype is not None and x.is_floating_point() else None
        return x.to(device=target, dtype=cast)

    if isinstance(example_input, (tuple, list)):
        return type(example_input)(convert(x) for x in example_input)
    return convert(example_input)


def _readings(ids: list[str]) -> dict[str, Any]:
    """Each device's memory now; a device that cannot be read (a sticky CUDA error after a
    failed move) is left out rather than turning the move's result into an exception."""
    readings = {}
    for ident in ids:
        try:
            readings[ident] = devices.memory_reading(ident).to_dict()
        except Exception:  # noqa: BLE001 -- the figures are a nicety next to the result
            continue
    return readings


def _free_bytes(reading: dict[str, Any] | None) -> int | None:
    """Free memory a reading shows: the driver's free bytes plus the allocator's idle cache."""
    if not reading or reading.get("total") is None or reading.get("used") is None:
        return None
    free = int(reading["total"]) - int(reading["used"])
    if reading.get("reserved") is not None and reading.get("allocated") is not None:
        if reading["device"] != "cpu":
            free += max(int(reading["reserved"]) - int(reading["allocated"]), 0)
    return free


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and what it wraps (Module._apply re-raises swap failures as RuntimeError)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _failure(exc: BaseException, plan: _Plan, target_id: str, needed: int, before: dict[str, Any]) -> Failure:
    for cause in _causes(exc):
        if isinstance(cause, Cancelled):
            return Failure(FailureKind.CANCELLED, cause.message)
        if devices.is_out_of_memory(cause):
            free = _free_bytes(before.get(target_id))
            free_text = "an unknown amount" if free is None else f"only {format_bytes(free)}"
            return Failure(
                "oom",
                f"out of memory on {target_id}: {plan.call} needed {format_bytes(needed)} there "
                f"but {free_text} was free; the model is as it was before",
                f"{type(cause).__name__}: {cause}",
            )
    return Failure(
        "error",
        f"{plan.call} failed: {first_line(exc)}; the model is as it was before",
        f"{type(exc).__name__}: {exc}",
    )


@dataclass
class _Outcome:
    """What one attempt did so far; filled in as it goes, so a failure still has its figures."""

    seconds: float = 0.0
    copied: int = 0
    example_input: Any = None
    notes: list[str] = field(default_factory=list)


def _attempt(
    loaded: LoadedModel,
    plan: _Plan,
    touched: list[str],
    watch: _ConversionWatch,
    outcome: _Outcome,
) -> None:
    """Make the call, synchronised and timed, into ``outcome``. Raises what the call raises."""
    for ident in touched:
        devices.synchronize(ident)
    start = time.perf_counter()
    try:
        with watch:
            plan.invoke(loaded.module)
        for ident in touched:
            devices.synchronize(ident)
    finally:
        outcome.seconds = time.perf_counter() - start
        outcome.copied = watch.copied
    if plan.pinned and not watch.pinned_any:
        outcome.notes.append("nothing was pinned: no tensor was on the host")
    # Outside the timed region, inside the transaction: if this fails the model rolls back.
    outcome.example_input = _follow(loaded.example_input, plan.target, plan.dtype)


def _unstarted(request: MoveRequest, failure: Failure, sources: list[str]) -> MoveResult:
    """The result of a move that could not start (its device is absent): nothing changed."""
    readings = _readings(sources)
    if request.method == "cuda":
        target = str(request.device or "cuda")
        target = f"cuda:{target}" if target.isdigit() else target
    else:  # "to": "cpu" is always there
        target = str(request.device)
    return MoveResult(
        call=call_code(request),
        method=request.method,
        source="+".join(sources) or "none",
        target=target,
        dtype=dtype_name(parse_dtype(request.dtype)) if request.dtype else None,
        pinned=False,
        seconds=0.0,
        bytes=0,
        gbps=None,
        ok=False,
        error=failure,
        memory_before=readings,
        memory_after=readings,
    )


def move_model(
    loaded: LoadedModel,
    request: MoveRequest,
    *,
    progress: Callable[[int, int], None] | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> MoveResult:
    """Move ``loaded.module`` as ``request`` says, as a transaction; return what happened.

    Never raises for a failed move: an absent device (kind "device"), out of memory ("oom"),
    a cancel ("cancelled") or any other exception ("error") comes back as ``ok=False`` with
    the model restored exactly (same Parameter objects, devices, dtypes, bitwise values,
    grads and buffers) and the target's allocator cache emptied. For a failed move,
    ``seconds`` and ``bytes`` say how far it got before it was rolled back (``gbps`` is None).
    A request that is not a move at all (unknown method or dtype, a dtype with
    ``cuda``/``cpu``) raises ``InputError``.

    ``progress(bytes_done, bytes_total)`` is called after each tensor; ``should_cancel()``
    before each one (return True to stop; the move rolls back). Both run on the calling
    thread, inside the move.

    ``bytes`` counts what PyTorch really copied, each storage once: tensors already on the
    target in the right dtype count 0 (``Tensor.to`` hands them back as they are).

    After a successful move, ``loaded.example_input`` (a tensor or a tuple/list of tensors)
    follows the model: onto the target device, floating tensors cast to the new dtype, so a
    following forward works. The optimizer's state does not follow (``Module.to()`` does not
    move it either); the placement view flags it.
    """
    snapshot = _Snapshot(loaded.module)
    sources = snapshot.device_ids()
    source = "+".join(sources) or "none"
    try:
        plan = _plan(request)
    except InputError as exc:
        if exc.kind != "device":
            raise
        return _unstarted(request, Failure.from_exception(exc), sources)

    target_id = devices.device_id(plan.target) if plan.target is not None else source
    touched = sorted(set(sources) | ({target_id} if plan.target is not None else set()))
    # A dtype cast alone allocates its copies on the devices the tensors are on.
    allocating = [target_id] if plan.target is not None else sources
    unique = snapshot.unique_tensors()
    total = sum(allocated_bytes(t) for t in unique)
    needed = _bytes_needed(unique, plan)
    del unique
    memory_before = _readings(touched)

    watch = _ConversionWatch(total, progress, should_cancel, pin=plan.pinned)
    outcome = _Outcome(notes=[plan.note] if plan.note else [])
    if plan.target is not None and plan.target.type == "cuda" and not devices.has_cuda_context(plan.target.index or 0):
        # Otherwise a user reads the first move's ~0.1-0.5 s as the cost of copying.
        outcome.notes.append(
            f"first use of {target_id} by this process: the time includes creating its CUDA context"
        )
    failure: Failure | None = None
    try:
        _attempt(loaded, plan, touched, watch, outcome)
    except Exception as exc:  # noqa: BLE001 -- every failure rolls back; its kind is sorted out here
        failure = _failure(exc, plan, target_id, needed, memory_before)
    except BaseException:
        # KeyboardInterrupt and friends: still leave the model whole, then let it through.
        _roll_back(snapshot, allocating)
        raise
    del watch
    if failure is not None:
        # Out of the except block, so the traceback (and the half-made copies its frames
        # hold) is gone before the cache is emptied.
        cleanup_note = _roll_back(snapshot, allocating)
        if cleanup_note:
            outcome.notes.append(cleanup_note)
    else:
        loaded.example_input = outcome.example_input
    snapshot.release()  # the originals: freed now unless the user holds them

    ok = failure is None
    return MoveResult(
        call=plan.call,
        method=request.method,
        source=source,
        target=target_id,
        dtype=dtype_name(plan.dtype) if plan.dtype is not None else None,
        pinned=plan.pinned and ok,
        seconds=outcome.seconds,
        bytes=outcome.copied,
        gbps=_gbps(outcome.copied, outcome.seconds) if ok else None,
        ok=ok,
        error=failure,
        memory_before=memory_before,
        memory_after=_readings(touched),
        note="; ".join(outcome.notes),
    )


def _gbps(nbytes: int, seconds: float) -> float | None:
    return nbytes / seconds / 1e9 if nbytes and seconds > 0 else None


def _roll_back(snapshot: _Snapshot, allocating: list[str]) -> str:
    """Put the originals back, then free the target's cache; a note if the cleanup failed.

    The model is whole once ``restore`` returns. The cleanup after it can still raise (a
    sticky CUDA error makes every later call on that device fail): that must not turn a
    failed move, already reported as such, into an exception, so it becomes a note.
    """
    # No gc.collect(): the half-made copies sit in no reference cycle (the CUDA tests check
    # that memory_allocated() is back where it was), and a full collection costs ~0.1 s.
    snapshot.restore()
    problems = []
    for ident in allocating:
        try:
            devices.synchronize(ident)
            devices.empty_cache(ident)
        except Exception as exc:  # noqa: BLE001 -- see the docstring
            problems.append(f"{ident}: {first_line(exc)}")
    if not problems:
        return ""
    return (
        "the model was restored, but freeing the target's memory afterwards failed ("
        + "; ".join(problems)
        + "): the device may be unusable until the program restarts"
    )
