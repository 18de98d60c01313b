"""Moves as transactions: ``model.to(device, dtype)``, ``model.cuda(i)``, ``model.cpu()``.

``Module.to()`` converts tensor by tensor with no rollback: an out-of-memory error half-way
leaves a model split across devices. ``move_model`` really makes the call the user chose,
but keeps every original until the call succeeds. If anything fails (out of memory, a
cancel, any exception) it puts the model back exactly as it was (``core.moves.rollback``: every
module's dicts and attributes, each tensor's data, class, attributes and hooks, under both
of PyTorch's conversion paths), and empties the target's allocator cache. Either way it
returns a ``MoveResult`` of plain values: the call as Python code, seconds, bytes, GB/s,
memory before and after, and the move's peak memory per device.

The seam: the conversion function ``Module._apply`` calls on each tensor, wrapped (``_Seam``).
It logs each original before it changes, counts the bytes PyTorch really copied, pins host
tensors on the pinned path, and every few milliseconds checks for a cancel and reports
progress.

Peak memory: because the originals stay referenced until the move succeeds, a dtype cast on
one device briefly holds both copies (plain ``Module.to`` can free each original as it goes).
That is the price of being able to roll back; ``preview_move`` states it before a move, and
``MoveResult.peak_bytes`` after.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import torch
from torch import nn

from inspector.core.devices import discovery as devices
from inspector.core import gc_pause
from inspector.core.moves import rollback
from inspector.core.errors import Cancelled, Failure, InputError, InspectorError
from inspector.core.files.models import LoadedModel
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
    """One move, as plain values. ``error.kind`` is "device", "refused", "oom", "cancelled" or
    "error"."""

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
    #: Per device: the model's bytes plus the copies the move made, held together at its
    #: peak (the originals are kept until success, to roll back).
    peak_bytes: dict[str, int] = field(default_factory=dict)
    #: Known before the move started: where a rollback could not have been exact.
    warnings: tuple[str, ...] = ()

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


# --------------------------------------------------------------------------- the seam

#: Check for a cancel and report progress at most this often (seconds) while converting:
#: per tensor, a user's callback would cost more than the conversion of a small tensor.
#: Tests set it to 0 to check before every tensor.
CHECK_INTERVAL_S = 0.005


def _bytes_needed(tensors: Iterable[torch.Tensor], plan: _Plan) -> int:
    """Bytes the target must hold for the converted copies (for the out-of-memory message)."""
    target_id = devices.device_id(plan.target) if plan.target is not None else None
    needed = 0
    for t in tensors:
        # Module.to casts floating-point and complex tensors only.
        castable = t.is_floating_point() or t.is_complex()
        cast = plan.dtype if plan.dtype is not None and castable else t.dtype
        moves = target_id is not None and devices.device_id(t.device) != target_id
        if moves or cast != t.dtype:
            needed += rollback.nbytes(t) // t.element_size() * cast.itemsize
    return needed


class _Seam:
    """Sees each tensor ``Module._apply`` converts, through the conversion function itself.

    ``install`` puts an ``_apply`` on the root module's instance that wraps the function
    ``Module.to`` / ``.cuda()`` / ``.cpu()`` hands it; children receive the wrapped one. Per
    tensor that costs one Python call (a ``TorchFunctionMode`` cost one per torch call of
    ``_apply``, ~6x a plain ``Module.to`` on 5,000 small tensors). The wrapper logs the
    original before it changes (for the rollback), counts bytes, pins host tensors on the
    pinned path, and every ``CHECK_INTERVAL_S`` checks for a cancel and reports progress.
    The time its callbacks take is kept apart, so a move's seconds are those of the call.
    """

    def __init__(
        self,
        log: rollback.ConversionLog,
        total: int,
        progress: Callable[[int, int], None] | None,
        should_cancel: Callable[[], bool] | None,
        pin: bool,
        copy_to: torch.device | None = None,
    ):
        self.log = log
        self.total = total
        self.progress = progress
        self.should_cancel = should_cancel
        self.pin = pin
        #: ``model.cuda()`` on the pinned path: its per-tensor ``t.cuda(i)`` blocks, so each
        #: pinned tensor is copied with ``t.to(device, non_blocking=True)`` instead (the same
        #: tensor results), letting the next tensor's pinning overlap this one's transfer.
        self.copy_to = copy_to
        self.callback_seconds = 0.0
        self.pinned_any = False
        self._next_check = 0.0
        self._done = 0
        self._counted = 0

    def wrap(self, fn: Callable[[torch.Tensor], torch.Tensor]) -> Callable[[torch.Tensor], torch.Tensor]:
        # Locals, not attributes: this runs once per tensor, next to conversions of ~10 µs.
        # Everything the log needs is read here, while the tensor is in the cache; a pass
        # over 5,000 tensors afterwards costs ~0.3 µs a tensor in cache misses alone.
        log = self.log
        entries = log.entries.append
        swap = log.swap
        clock = time.perf_counter
        plain = (torch.Tensor, nn.Parameter)
        whole_storage = rollback.STORAGE_DTYPES

        def keep(t: torch.Tensor, result: torch.Tensor) -> None:
            if not swap and type(t) in plain:
                try:
                    size = t.nbytes
                    made = result.nbytes
                    # A small contiguous tensor at the start of its storage (not a negative
                    # view) is rebuilt from the storage alone. A big one keeps a Tensor alias:
                    # freeing a Tensor lets go of the GIL, freeing a storage object does not
                    # (~30 ms for 256 MiB: a GUI stall).
                    simple = (
                        size < rollback.STORAGE_ENTRY_MAX_BYTES
                        and t.dtype in whole_storage
                        and t.is_contiguous()
                        and not t.storage_offset()
                        and not t.is_neg()
                    )
                except RuntimeError:  # sparse layouts (no single storage, no is_contiguous)
                    pass
                else:
                    entries((t, (t.untyped_storage(), t.dtype) if simple else t.data, None, size, made))
                    return
            log.keep(t, rollback.nbytes(t), rollback.nbytes(result))

        if not swap and not self.pin:
            # torch's default path, the common case: nothing but the check and the log.
            def converted(t: torch.Tensor) -> torch.Tensor:
                now = clock()
                if now >= self._next_check:
                    self._check(now)
                result = fn(t)
                if result is not t:
                    keep(t, result)
                return result

            return converted

        copy_to = self.copy_to

        def watched(t: torch.Tensor) -> torch.Tensor:
            now = clock()
            if now >= self._next_check:
                self._check(now)
            source = t
            if self.pin and t.is_cpu:
                source = t if t.is_pinned() else t.pin_memory()
                self.pinned_any = True
                result = source.to(copy_to, non_blocking=True) if copy_to is not None else fn(source)
            else:
                result = fn(source)
            if result is not t and result is not source:
                keep(t, result)
            elif swap:
                log.keep(t, 0, 0)  # swapped even when nothing is copied
            return result

        return watched

    def _check(self, now: float) -> None:
        if self.should_cancel is not None and self.should_cancel():
            raise Cancelled("the move was cancelled; the model is as it was before")
        if self.progress is not None:
            self._done += self.log.copied_bytes(self._counted)
            self._counted = len(self.log.entries)
            if self._done:
                self.progress(min(self._done, self.total), self.total)
        after = time.perf_counter()
        self.callback_seconds += after - now
        self._next_check = after + CHECK_INTERVAL_S

    @contextlib.contextmanager
    def install(self, root: nn.Module) -> Iterator[None]:
        """Route ``root._apply`` through ``wrap`` while the move runs."""
        slots = root.__dict__
        previous = slots.get("_apply", _MISSING)
        # The class's _apply bound to this module, or an _apply already set on the instance.
        bound: Callable[..., Any] = type(root)._apply.__get__(root) if previous is _MISSING else previous

        def _apply(fn: Callable[[torch.Tensor], torch.Tensor], recurse: bool = True) -> Any:
            # Only the move's own call; a nested call (the root's _apply calling itself)
            # already gets the wrapped function.
            slots.pop("_apply", None)
            return bound(self.wrap(fn), recurse)

        slots["_apply"] = _apply
        try:
            yield
        finally:
            if previous is _MISSING:
                slots.pop("_apply", None)
            else:
                slots["_apply"] = previous


_MISSING = object()


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


def _failure(
    exc: BaseException, plan: _Plan, target_id: str, needed: Callable[[], int], before: dict[str, Any]
) -> Failure:
    for cause in _causes(exc):
        if isinstance(cause, Cancelled):
            return Failure(FailureKind.CANCELLED, cause.message)
        if devices.is_out_of_memory(cause):
            free = _free_bytes(before.get(target_id))
            free_text = "an unknown amount" if free is None else f"only {format_bytes(free)}"
            return Failure(
                "oom",
                f"out of memory on {target_id}: {plan.call} needed {format_bytes(needed())} there "
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
    seam: _Seam,
    outcome: _Outcome,
) -> None:
    """Make the call, synchronised and timed, into ``outcome``. Raises what the call raises."""
    for ident in touched:
        devices.synchronize(ident)
    start = time.perf_counter()
    try:
        with seam.install(loaded.module):
            plan.invoke(loaded.module)
        for ident in touched:
            devices.synchronize(ident)
    finally:
        # The user's call, without the time our progress and cancel callbacks took.
        outcome.seconds = max(time.perf_counter() - start - seam.callback_seconds, 0.0)
        outcome.copied = seam.log.copied_bytes()
    if seam.progress is not None:
        seam.progress(seam.total, seam.total)  # inside the transaction: it may still fail
    if plan.pinned and not seam.pinned_any:
        outcome.notes.append("nothing was pinned: no tensor was on the host")
    # Outside the timed region, inside the transaction: if this fails the model rolls back.
    outcome.example_input = _follow(loaded.example_input, plan.target, plan.dtype)


def _unstarted(
    request: MoveRequest, failure: Failure, sources: list[str], target: str | None = None
) -> MoveResult:
    """The result of a move that could not start (absent device, refused): nothing changed."""
    readings = _readings(sources)
    if target is None:
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


# --------------------------------------------------------------------------- the price


@dataclass(frozen=True)
class MovePreview:
    """What a move will cost before it is made: the transaction's price, and its caveats.

    ``model_bytes``: the model's parameters, grads and buffers per device now.
    ``copy_bytes``: the converted copies the move makes, per device where they land.
    ``peak_bytes``: both at once, per device: the originals are kept until the move
    succeeds (to roll back), so a cast needs the model's bytes plus its copies there for a
    moment (a float32 -> float64 cast: 3x; a float32 -> bfloat16 cast: 1.5x), where a plain
    ``Module.to`` frees each original as it goes. ``warnings``: what a rollback could not
    restore exactly; ``refusal``: why the move will not be made at all (None: it will).
    """

    call: str
    model_bytes: dict[str, int]
    copy_bytes: dict[str, int]
    peak_bytes: dict[str, int]
    warnings: tuple[str, ...] = ()
    refusal: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def preview_move(loaded: LoadedModel, request: MoveRequest) -> MovePreview:
    """The peak memory per device and the caveats of ``move_model(loaded, request)``.

    O(tensors); touches nothing. Raises ``InputError`` like ``move_model`` for a request that
    is not a move, and for an absent device (kind "device").
    """
    plan = _plan(request)
    snapshot = rollback.Snapshot(loaded.module)
    copies: dict[str, int] = {}
    for t in snapshot.tensors():
        needed = _bytes_needed((t,), plan)
        if needed:
            where = devices.device_id(plan.target if plan.target is not None else t.device)
            copies[where] = copies.get(where, 0) + needed
    peak = dict(snapshot.by_device)
    for where, size in copies.items():
        peak[where] = peak.get(where, 0) + size
    return MovePreview(
        call=plan.call,
        model_bytes=dict(snapshot.by_device),
        copy_bytes=copies,
        peak_bytes=peak,
        warnings=tuple(rollback.vouch(snapshot.modules)),
        refusal=_refusal(snapshot, plan),
    )


def _refusal(snapshot: rollback.Snapshot, plan: _Plan) -> str | None:
    return refusal_text(plan, rollback.has_packed_weights(snapshot.modules))


def refusal_text(plan: _Plan, packed_weights: bool) -> str | None:
    """A move that would leave part of the model behind is refused before it starts."""
    if plan.target is None or not packed_weights:
        return None
    if plan.target.type == "cpu":  # where packed quantized weights live
        return None
    return (
        f"{plan.call} refused: the model has quantized modules whose packed weights "
        f"Module.to() does not move, so it would be split across devices; "
        f"quantized modules run on the CPU"
    )


def _peak(snapshot: rollback.Snapshot, plan: _Plan, target_id: str, made: int) -> dict[str, int]:
    """The model's bytes plus the copies, per device, at the moment before the originals go."""
    peak = dict(snapshot.by_device)
    if plan.target is not None:
        peak[target_id] = peak.get(target_id, 0) + made
    elif snapshot.total:
        # A cast alone makes each copy where its original is: share by the devices' bytes.
        for where, size in snapshot.by_device.items():
            peak[where] = size + made * size // snapshot.total
    return peak


# --------------------------------------------------------------------------- the move


# The rollback log and snapshot make a tuple or dict per tensor; see gc_pause.
@gc_pause.paused()
def move_model(
    loaded: LoadedModel,
    request: MoveRequest,
    *,
    progress: Callable[[int, int], None] | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> MoveResult:
    """Move ``loaded.module`` as ``request`` says, as a transaction; return what happened.

    Never raises for a failed move: an absent device (kind "device"), a refused move
    ("refused": quantized modules a device move would leave behind), out of memory ("oom"),
    a cancel ("cancelled") or any other exception ("error") comes back as ``ok=False`` with
    the model restored exactly (same Parameter objects with their data, attributes and
    hooks; the same buffers; every module's attributes, such as an RNN's flat weights) and
    the target's allocator cache emptied. For a failed move, ``seconds`` and ``bytes`` say
    how far it got before it was rolled back (``gbps`` is None). A request that is not a
    move at all (unknown method or dtype, a dtype with ``cuda``/``cpu``) raises
    ``InputError``. ``warnings`` (known before the move starts) says where a rollback could
    not be exact: module classes with their own ``to``/``_apply`` it cannot vouch for.

    ``should_cancel()`` is called before the first tensor and then every
    ``CHECK_INTERVAL_S`` (return True to stop; the move rolls back); ``progress(bytes_done,
    bytes_total)`` as often, and once more with ``(total, total)`` at the end of a
    successful move. Both run on the calling thread, inside the move; their time is not
    counted in ``seconds``.

    ``bytes`` counts what PyTorch really copied (source bytes): tensors already on the
    target in the right dtype count 0 (``Tensor.to`` hands them back as they are).
    ``peak_bytes`` is the model's bytes plus the copies per device: the originals are kept
    until the move succeeds, the price of a rollback (``preview_move`` says it before).

    Costs next to a plain ``Module.to`` (``benchmarks/move_overhead.py``): one dict copy per
    module, a pass over the tensors for their bytes, and per converted tensor a Python call
    and an alias of the original, released in batches after success.

    After a successful move, ``loaded.example_input`` (a tensor or a tuple/list of tensors)
    follows the model: onto the target device, floating tensors cast to the new dtype, so a
    following forward works. The optimizer's state does not follow (``Module.to()`` does not
    move it either); the placement view flags it.
    """
    snapshot = rollback.Snapshot(loaded.module)
    sources = snapshot.sources
    source = "+".join(sources) or "none"
    try:
        plan = _plan(request)
    except InputError as exc:
        if exc.kind != "device":
            raise
        return _unstarted(request, Failure.from_exception(exc), sources)

    target_id = devices.device_id(plan.target) if plan.target is not None else source
    refusal = _refusal(snapshot, plan)
    if refusal is not None:
        return _unstarted(request, Failure(FailureKind.REFUSED, refusal), sources, target_id)
    warnings = tuple(rollback.vouch(snapshot.modules))
    touched = sorted(set(sources) | ({target_id} if plan.target is not None else set()))
    # A dtype cast alone allocates its copies on the devices the tensors are on.
    allocating = [target_id] if plan.target is not None else sources
    memory_before = _readings(touched)

    log = rollback.ConversionLog(swap=torch.__future__.get_swap_module_params_on_conversion())
    copy_to = plan.target if plan.pinned and request.method == "cuda" else None
    seam = _Seam(log, snapshot.total, progress, should_cancel, pin=plan.pinned, copy_to=copy_to)
    outcome = _Outcome(notes=[plan.note] if plan.note else [])
    if plan.target is not None and plan.target.type == "cuda" and not devices.has_cuda_context(plan.target.index or 0):
        # Otherwise a user reads the first move's ~0.1-0.5 s as the cost of copying.
        outcome.notes.append(
            f"first use of {target_id} by this process: the time includes creating its CUDA context"
        )
    caught: Exception | None = None
    try:
        _attempt(loaded, plan, touched, seam, outcome)
    except Exception as exc:  # noqa: BLE001 -- every failure rolls back; its kind is sorted out after
        caught = _without_tracebacks(exc)
    except BaseException:
        # KeyboardInterrupt and friends: still leave the model whole, then let it through.
        _roll_back(snapshot, log, allocating)
        raise
    made = log.made_bytes()
    del seam
    failure: Failure | None = None
    if caught is not None:
        # Out of the except block and without its tracebacks, so the half-made copies their
        # frames hold are gone before the cache is emptied.
        try:
            cleanup_note = _roll_back(snapshot, log, allocating)
        except Exception as exc:  # noqa: BLE001 -- a failed move must come back as a result
            # Never "as it was before" when it is not: say so, and what broke.
            reason = "it was cancelled" if isinstance(caught, Cancelled) else first_line(caught)
            failure = Failure(
                "error",
                f"{plan.call} failed ({reason}) and the rollback could not restore "
                f"the model ({first_line(exc)}): load it again before using it",
                f"{type(caught).__name__}: {caught}; rollback: {type(exc).__name__}: {exc}",
            )
        else:
            if cleanup_note:
                outcome.notes.append(cleanup_note)
            # After the rollback, so the bytes needed are counted on the originals.
            failure = _failure(caught, plan, target_id, lambda: _bytes_needed(snapshot.tensors(), plan), memory_before)
        del caught
    else:
        loaded.example_input = outcome.example_input
    # The originals: freed now unless the user holds them.
    log.release()
    snapshot.release()

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
        peak_bytes=_peak(snapshot, plan, target_id, made),
        warnings=warnings,
    )


def _without_tracebacks(exc: Exception) -> Exception:
    """``exc`` with its chain's tracebacks dropped: their frames hold the half-made copies."""
    for cause in _causes(exc):
        cause.__traceback__ = None
    return exc


def _gbps(nbytes: int, seconds: float) -> float | None:
    return nbytes / seconds / 1e9 if nbytes and seconds > 0 else None


def _roll_back(snapshot: rollback.Snapshot, log: rollback.ConversionLog, allocating: list[str]) -> str:
    """Put the originals back, then free the target's cache; a note if the cleanup failed.

    The model is whole once ``restore`` returns. The cleanup after it can still raise (a
    sticky CUDA error makes every later call on that device fail): that must not turn a
    failed move, already reported as such, into an exception, so it becomes a note.
    """
    # No gc.collect(): the half-made copies sit in no reference cycle (the CUDA tests check
    # that memory_allocated() is back where it was), and a full collection costs ~0.1 s.
    # Tensors first: the modules' weak references to them (made afresh) would block a swap.
    log.restore()
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
