"""Moves as transactions: ``model.to(device, dtype)``, ``model.cuda(i)``, ``model.cpu()``.

``Module.to()`` converts tensor by tensor with no rollback: an out-of-memory error half-way
leaves a model split across devices. ``move_model`` really makes the call the user chose,
but keeps every original until the call succeeds. If anything fails (out of memory, a
cancel, any exception) it puts the model back exactly as it was (``core.moves.rollback``: every
module's dicts and attributes, each tensor's data, class, attributes and hooks, under both
of PyTorch's conversion paths), and empties the target's allocator cache. Either way it
returns a ``MoveResult`` of plain values: the call as Python code, seconds, bytes, GB/s,
memory before and after, and the move's peak memory per device.

The call goes through the seam (``core.moves.seam``): the conversion function
``Module._apply`` calls on each tensor, wrapped. It logs each original before it changes,
counts the bytes PyTorch really copied, pins host tensors on the pinned path, and every few
milliseconds checks for a cancel and reports progress.

Peak memory: because the originals stay referenced until the move succeeds, a dtype cast on
one device briefly holds both copies (plain ``Module.to`` can free each original as it goes).
That is the price of being able to roll back; ``core.moves.price.preview_move`` states it
before a move, and ``MoveResult.peak_bytes`` after.

The request and its call code live in ``core.moves.request``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import torch

from inspector.core.devices import discovery as devices
from inspector.core import gc_pause
from inspector.core.moves import caveats, price, rollback
from inspector.core.errors import Cancelled, Failure, InputError
from inspector.core.files.models import LoadedModel
from inspector.core.messages import Text, joined
from inspector.core.moves.request import MoveRequest, Plan, ResolvedRequest, as_written, plan_move, resolve_request
from inspector.core.moves.seam import Seam
from inspector.core.units import first_line, format_bytes
from inspector.core.vocabulary import FailureKind


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
    #: When the call started, on the host clock (``perf_counter_ns``; 0: it never started),
    #: for a trace to draw it where it ran. Not written to the report.
    started_ns: int = field(default=0, metadata={"wire": False})
    #: The request the move ran with, read once (``core.moves.request.resolve_request``): its
    #: method, ``torch.device``, dtype and exact call, for the window's code and the snippets.
    #: ``call``, ``method`` and ``dtype`` above are its own. Sent over the wire (a remote move's
    #: result has it too); None only from an agent older than it. Not written to the report
    #: (its fields are there already).
    request: ResolvedRequest | None = None

    def to_dict(self) -> dict[str, Any]:
        out = asdict(replace(self, request=None))
        out.pop("started_ns")
        out.pop("request")
        return out




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
    exc: BaseException, plan: Plan, target_id: str, needed: Callable[[], int], before: dict[str, Any]
) -> Failure:
    for cause in _causes(exc):
        if isinstance(cause, Cancelled):
            return Failure(FailureKind.CANCELLED, cause.message)
        if devices.is_out_of_memory(cause):
            free = _free_bytes(before.get(target_id))
            if free is None:
                message = Text("move.oom_unknown_free", device=target_id, call=plan.call, needed=format_bytes(needed()))
            else:
                message = Text("move.oom", device=target_id, call=plan.call, needed=format_bytes(needed()),
                               free=format_bytes(free))  # fmt: skip
            return Failure("oom", message, f"{type(cause).__name__}: {cause}")
    return Failure(
        "error",
        Text("move.failed", call=plan.call, error=first_line(exc)),
        f"{type(exc).__name__}: {exc}",
    )


@dataclass
class _Outcome:
    """What one attempt did so far; filled in as it goes, so a failure still has its figures."""

    seconds: float = 0.0
    started_ns: int = 0
    copied: int = 0
    example_input: Any = None
    notes: list[str] = field(default_factory=list)


def _attempt(
    loaded: LoadedModel,
    plan: Plan,
    touched: list[str],
    seam: Seam,
    outcome: _Outcome,
) -> None:
    """Make the call, synchronised and timed, into ``outcome``. Raises what the call raises."""
    for ident in touched:
        devices.synchronize(ident)
    outcome.started_ns = time.perf_counter_ns()
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
        outcome.notes.append(Text("move.nothing_pinned"))
    # Outside the timed region, inside the transaction: if this fails the model rolls back.
    outcome.example_input = _follow(loaded.example_input, plan.target, plan.dtype)


def _unstarted(
    request: ResolvedRequest, failure: Failure, sources: list[str], target: str | None = None
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
        call=request.call,
        method=request.method,
        source="+".join(sources) or "none",
        target=target,
        dtype=request.dtype_read,
        pinned=False,
        seconds=0.0,
        bytes=0,
        gbps=None,
        ok=False,
        error=failure,
        memory_before=readings,
        memory_after=readings,
        request=request,
    )

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
        resolved = resolve_request(request)  # (a window's request comes resolved: read once)
    except InputError as exc:
        if exc.kind != "device":
            raise
        return _unstarted(as_written(request), Failure.from_exception(exc), sources)
    try:
        plan = plan_move(resolved)
    except InputError as exc:
        if exc.kind != "device":
            raise
        return _unstarted(resolved, Failure.from_exception(exc), sources)

    target_id = devices.device_id(plan.target) if plan.target is not None else source
    refusal = price.refusal(snapshot, plan)
    if refusal is not None:
        return _unstarted(resolved, Failure(FailureKind.REFUSED, refusal), sources, target_id)
    warnings = tuple(caveats.vouch(snapshot.modules))
    touched = sorted(set(sources) | ({target_id} if plan.target is not None else set()))
    # A dtype cast alone allocates its copies on the devices the tensors are on.
    allocating = [target_id] if plan.target is not None else sources
    memory_before = _readings(touched)

    log = rollback.ConversionLog(swap=torch.__future__.get_swap_module_params_on_conversion())
    copy_to = plan.target if plan.pinned and request.method == "cuda" else None
    seam = Seam(log, snapshot.total, progress, should_cancel, pin=plan.pinned, copy_to=copy_to)
    outcome = _Outcome(notes=[plan.note] if plan.note else [])
    if plan.target is not None and plan.target.type == "cuda" and not devices.has_cuda_context(plan.target.index or 0):
        # Otherwise a user reads the first move's ~0.1-0.5 s as the cost of copying.
        outcome.notes.append(Text("move.first_use", device=target_id))
    caught: Exception | None = None
    try:
        _attempt(loaded, plan, touched, seam, outcome)
    except Exception as exc:  # noqa: BLE001 -- every failure rolls back; its kind is sorted out after
        caught = _without_tracebacks(exc)
    except BaseException:
        # KeyboardInterrupt and friends: still leave the model whole, then let it through.
        rollback.roll_back(snapshot, log, allocating)
        raise
    made = log.made_bytes()
    del seam
    failure: Failure | None = None
    if caught is not None:
        # Out of the except block and without its tracebacks, so the half-made copies their
        # frames hold are gone before the cache is emptied.
        try:
            cleanup_note = rollback.roll_back(snapshot, log, allocating)
        except Exception as exc:  # noqa: BLE001 -- a failed move must come back as a result
            # Never "as it was before" when it is not: say so, and what broke.
            reason = Text("move.it_was_cancelled") if isinstance(caught, Cancelled) else first_line(caught)
            failure = Failure(
                "error",
                Text("move.rollback_failed", call=plan.call, reason=reason, error=first_line(exc)),
                f"{type(caught).__name__}: {caught}; rollback: {type(exc).__name__}: {exc}",
            )
        else:
            if cleanup_note:
                outcome.notes.append(cleanup_note)
            # After the rollback, so the bytes needed are counted on the originals.
            failure = _failure(caught, plan, target_id, lambda: price.bytes_needed(snapshot.tensors(), plan), memory_before)
        del caught
    else:
        loaded.example_input = outcome.example_input
    # The originals: freed now unless the user holds them.
    log.release()
    snapshot.release()

    ok = failure is None
    return MoveResult(
        call=plan.call,
        method=plan.request.method,
        source=source,
        target=target_id,
        dtype=plan.request.dtype_read,
        pinned=plan.pinned and ok,
        seconds=outcome.seconds,
        bytes=outcome.copied,
        gbps=_gbps(outcome.copied, outcome.seconds) if ok else None,
        ok=ok,
        error=failure,
        memory_before=memory_before,
        memory_after=_readings(touched),
        note=joined(outcome.notes, "list.semicolon"),
        peak_bytes=price.peak_bytes(snapshot, plan, target_id, made),
        warnings=warnings,
        started_ns=outcome.started_ns,
        request=plan.request,
    )


def _without_tracebacks(exc: Exception) -> Exception:
    """``exc`` with its chain's tracebacks dropped: their frames hold the half-made copies."""
    for cause in _causes(exc):
        cause.__traceback__ = None
    return exc


def _gbps(nbytes: int, seconds: float) -> float | None:
    return nbytes / seconds / 1e9 if nbytes and seconds > 0 else None
