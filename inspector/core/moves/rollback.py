"""Exact rollback of a module tree after a failed ``Module.to`` / ``.cuda()`` / ``.cpu()``.

Everything those calls change goes through ``Module._apply``, and this module knows each way
it changes a model, and how to put each one back:

- ``_parameters`` and ``_buffers`` entries: buffers are always rebound to their converted
  copies, parameters too under torch's overwrite flag. A shallow copy of each module's two
  dicts puts the original objects back.
- a tensor's data, in place (``param.data = new``: the default path, and every grad): the
  conversion log keeps the tensor with an alias of its old data, taken just before it
  changes, and sets it back.
- a tensor swapped (``torch.utils.swap_tensors``: under
  ``torch.__future__.set_swap_module_params_on_conversion(True)``, and always for tensor
  subclasses such as ``TwoTensor``). The swap hands the original's class, ``__dict__`` (where
  a subclass keeps its inner tensors, and a user their attributes) and C++ tensor, with its
  hooks, to a temporary that is then dropped. The log keeps the ``__dict__`` object and the
  hooks, and swaps an alias of the old data back in.
- a module whose own ``_apply`` does more (RNNs rebuild ``_flat_weights``; user code converts
  extra tensors): its whole ``__dict__`` is copied up front, with its tensor attributes, and
  lists/dicts of tensors one level down.

What cannot be put back is named before the move (``core.moves.caveats``): a module class
with its own ``to``/``_apply`` that may keep state outside its ``__dict__``, or weights packed
where ``_apply`` never sees them (quantized modules).

Costs, for a model of M modules and T tensors: the snapshot is O(M) dict copies (plus an
O(T) pass for the byte totals when progress is wanted); the log costs one alias per tensor
that is really converted (a ``Tensor.data`` view, ~0.5 µs), taken inside the conversion
function the move already calls; restoring is O(M + T) and only runs after a failure.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn
from torch.utils._python_dispatch import is_traceable_wrapper_subclass

from inspector.core.devices import discovery as devices
from inspector.core.messages import Text
from inspector.core.placement.tensor_bytes import allocated_bytes
from inspector.core.units import first_line

_MODULE_APPLY = nn.Module._apply
#: Free originals in batches of about this many bytes (or tensors), yielding the GIL
#: between batches, so a GUI thread never waits for one long cascade of frees.
RELEASE_BATCH_BYTES = 32 * 2**20
RELEASE_BATCH_TENSORS = 4096
#: Originals up to this size may be logged as a storage object (cheaper to make and to free
#: than a Tensor alias); bigger ones as a Tensor, whose freeing lets go of the GIL (a storage
#: object frees its memory with the GIL held: ~30 ms for 256 MiB, measured).
STORAGE_ENTRY_MAX_BYTES = 2**20
_SIZE = operator.itemgetter(3)
_MADE = operator.itemgetter(4)
_MODULES = operator.attrgetter("_modules")
_VALUES = operator.methodcaller("values")  # TorchScript modules' dicts are wrappers, not dicts
_PARAMETERS = operator.attrgetter("_parameters")
_BUFFERS = operator.attrgetter("_buffers")
_IS_SOMETHING = functools.partial(operator.is_not, None)


def nbytes(t: torch.Tensor) -> int:
    """A tensor's bytes; for sparse layouts, those of its indices and values."""
    try:
        return int(t.nbytes)
    except RuntimeError:  # sparse layouts have no single storage
        return allocated_bytes(t)


def walk(root: nn.Module) -> list[nn.Module]:
    """Every module of the tree once (shared submodules once), root first, level by level.

    Each level is C-level passes (a Python step per module cost ~0.3 µs, ~2 % of a move of
    2,500 small layers). Modules are told apart by ``id``: a subclass may not be hashable.
    """
    seen = {id(root)}
    found = [root]
    level = [root]
    while level:
        children = list(filter(_IS_SOMETHING, itertools.chain.from_iterable(map(_VALUES, map(_MODULES, level)))))
        fresh = dict(zip(map(id, children), children))
        for known in fresh.keys() & seen:  # shared submodules (and cycles) once
            del fresh[known]
        seen.update(fresh)
        level = list(fresh.values())
        found += level
    return found


@dataclass
class _ModuleState:
    """The whole ``__dict__`` (and copies of its lists/dicts) of a module with its own _apply."""

    module: nn.Module
    attributes: dict[str, Any]
    containers: list[tuple[Any, Any]]


class Snapshot:
    """Each module's dicts as they were, and the byte totals of its tensors per device.

    ``total``: bytes of every parameter, grad and buffer, each tensor once (tied weights
    once); ``by_device``: the same per device id; ``sources``: the device ids.

    The hot loop of every move (5,000 tensors: a few ms), so written flat: tuples, not
    objects, and no call per tensor.
    """

    def __init__(self, root: nn.Module):
        self.modules = modules = walk(root)
        #: The module classes in the tree (the checks before a move are per class).
        self.classes: set[type[nn.Module]] = set(map(type, modules))
        own_apply = {cls for cls in self.classes if cls._apply is not _MODULE_APPLY}
        self.custom = [_copy_attributes(m) for m in modules if type(m) in own_apply] if own_apply else []
        #: A copy of each module's _parameters and _buffers, in ``modules``' order.
        self.params: list[dict[str, Any]] = list(map(dict, map(_PARAMETERS, modules)))
        self.buffers: list[dict[str, Any]] = list(map(dict, map(_BUFFERS, modules)))
        params = list(itertools.chain.from_iterable(map(dict.values, self.params)))
        unique = dict(zip(map(id, params), params))  # tied weights once
        unique.pop(id(None), None)
        buffers = list(filter(_IS_SOMETHING, itertools.chain.from_iterable(map(dict.values, self.buffers))))
        shared = dict(zip(map(id, buffers), buffers))  # shared buffers once
        for known in unique.keys() & shared.keys():  # a tensor both parameter and buffer
            del shared[known]
        self.by_device = _bytes_by_device(list(unique.values()), list(shared.values()))
        self.total = sum(self.by_device.values())
        self.sources = sorted(self.by_device)

    def tensors(self) -> Iterator[torch.Tensor]:
        """The model's parameters, grads and buffers as they are now (once each)."""
        seen: set[int] = set()
        for params, bufs in zip(self.params, self.buffers):
            for d, grads in ((params, True), (bufs, False)):
                for t in d.values():
                    if t is None or id(t) in seen:
                        continue
                    seen.add(id(t))
                    yield t
                    grad = t.grad if grads else None
                    if grad is not None:
                        yield grad

    def restore(self) -> None:
        """Put every module's dicts back (the tensors themselves: ``ConversionLog.restore``)."""
        for state in self.custom:
            current = state.module.__dict__
            for key in [k for k in current if k not in state.attributes]:
                del current[key]
            current.update((k, _attribute(v)) for k, v in state.attributes.items())
            for container, saved in state.containers:
                if isinstance(container, list):
                    container[:] = saved
                else:
                    container.clear()
                    container.update(saved)
        for module, params, bufs in zip(self.modules, self.params, self.buffers):
            for live, saved in ((module._parameters, params), (module._buffers, bufs)):
                for key, value in saved.items():
                    # Not live.get: a TorchScript module's dicts are wrappers without it.
                    if key not in live or live[key] is not value:
                        live[key] = value

    def release(self) -> None:
        """Drop the references to the originals the move rebound, in batches.

        Buffers are always rebound to their copies; parameters only under torch's overwrite
        flag (else the saved dicts hold the very objects the model still holds).
        """
        self.custom.clear()
        rebound = [d for d in self.buffers if d]
        if torch.__future__.get_overwrite_module_params_on_conversion():
            rebound += [d for d in self.params if d]
        self.params, self.buffers = [], []
        _release_in_batches(rebound, [_dict_bytes(d) for d in rebound])


def _dict_bytes(tensors: dict[str, Any]) -> int:
    return sum(nbytes(t) for t in tensors.values() if t is not None)


def _bytes_by_device(params: list[torch.Tensor], buffers: list[torch.Tensor]) -> dict[str, int]:
    """Bytes per device id of ``params``, their grads, and ``buffers`` (each listed once).

    One Python pass: each parameter is read once for its grad, bytes and place together
    (a grad is not a parameter's twin: a training step leaves one per parameter).
    Three C-level passes (``map``) cost more: each pass over 5,000 tensors misses the cache
    on every tensor again (~0.2 µs a tensor, measured), where a Python step costs ~0.05 µs.
    """
    if not params and not buffers:
        return {}
    on_cpu = 0
    elsewhere: list[torch.Tensor] = []  # accelerators, meta, sparse layouts: by name, below
    grads: list[torch.Tensor] = []  # filled while the parameters are read, then read itself
    asks_grad = len(params)
    for index, t in enumerate(itertools.chain(params, grads, buffers)):
        if index < asks_grad:  # a parameter (a buffer is never asked for a grad)
            grad = t.grad
            if grad is not None:
                grads.append(grad)
        try:
            if t.is_cpu:
                on_cpu += t.nbytes
                continue
        except RuntimeError:  # sparse layouts have no single storage
            pass
        elsewhere.append(t)
    by_device = {"cpu": on_cpu} if on_cpu or not elsewhere else {}
    for t in elsewhere:
        name = devices.device_id(t.device)
        by_device[name] = by_device.get(name, 0) + nbytes(t)
    return by_device


def _copy_attributes(module: nn.Module) -> _ModuleState:
    """A module with its own ``_apply`` may rebind any attribute, or refill a list or dict.

    Weak references are kept as their referents and made afresh on restore: a live weak
    reference to a parameter makes ``swap_tensors`` refuse it (an RNN's ``_flat_weight_refs``).
    """
    attributes = dict(module.__dict__)
    containers: list[tuple[Any, Any]] = []
    for key, value in attributes.items():
        if key in ("_parameters", "_buffers", "_modules"):
            continue
        if isinstance(value, weakref.ref):
            if value() is not None:
                attributes[key] = _Weak(value())
        elif type(value) is list:
            if any(isinstance(item, weakref.ref) for item in value):
                attributes[key] = _WeakList([_Weak(i()) if isinstance(i, weakref.ref) else i for i in value])
            else:
                containers.append((value, list(value)))
        elif type(value) is dict:
            containers.append((value, dict(value)))
    return _ModuleState(module, attributes, containers)


@dataclass
class _Weak:
    referent: Any

    def make(self) -> Any:
        return weakref.ref(self.referent) if self.referent is not None else None


@dataclass
class _WeakList:
    items: list[Any]

    def make(self) -> list[Any]:
        return [i.make() if isinstance(i, _Weak) else i for i in self.items]


def _attribute(value: Any) -> Any:
    return value.make() if isinstance(value, (_Weak, _WeakList)) else value


@dataclass
class _Swapped:
    """What a swap takes away from a tensor object, to give it back."""

    cls: type
    attributes: dict[str, Any]
    requires_grad: bool
    hooks: Any
    post_accumulate_hooks: Any
    grad: torch.Tensor | None


#: Dtypes whose tensors can be rebuilt from their storage, shape and strides alone (no
#: quantizer, no conjugate bit).
STORAGE_DTYPES = frozenset({
    torch.float64, torch.float32, torch.float16, torch.bfloat16,
    torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool,
})


class ConversionLog:
    """Each tensor the move converted, with what it takes to put it back.

    ``keep(t, size, made)`` is called on a tensor just before the move changes it (``size``:
    its bytes, ``made``: the copy's). In-place changes (``.data =``) are undone by setting
    the alias back; swaps by swapping the alias back. The move's common case (``core.moves.seam``:
    a small plain contiguous tensor at the start of its storage) logs ``(storage, dtype)`` in
    the alias's place, and the tensor is rebuilt from them, with the shape and strides it has,
    only after a failure: ``Tensor.to`` keeps a dense tensor's strides, and a storage object
    costs less to make and to free than a Tensor alias (~0.25 µs a tensor, ~2.5 % of a plain
    ``Module.to`` of 5,000 small ones). The copies are not kept: the model holds them.
    """

    def __init__(self, *, swap: bool):
        #: Whether to keep what a swap takes away for every tensor (else only for subclasses).
        self.swap = swap
        #: (tensor, alias of its old data or (its storage, dtype), what a swap takes away or
        #: None, bytes copied, bytes of the copy)
        self.entries: list[tuple[torch.Tensor, Any, _Swapped | None, int, int]] = []

    def keep(self, t: torch.Tensor, size: int, made: int) -> None:
        """Log ``t`` before the move changes it: ``size`` bytes copied into ``made`` new ones
        (0 and 0 for a tensor swapped without a copy)."""
        cls = type(t)
        if self.swap or (cls is not torch.Tensor and cls is not nn.Parameter):
            self.entries.append((t, t.detach(), _swapped(t), size, made))
        else:
            self.entries.append((t, t.data, None, size, made))

    def copied_bytes(self, start: int = 0) -> int:
        """Bytes of the originals the move copied, from entry ``start`` on."""
        # A slice, not islice: islice steps over the first ``start`` entries one by one.
        return sum(map(_SIZE, self.entries[start:]))

    def made_bytes(self) -> int:
        """Bytes of the copies the move made."""
        return sum(map(_MADE, self.entries))

    def restore(self) -> None:
        with torch.no_grad():
            # Grads off first, so no setter compares a grad with a parameter mid-restore.
            detached: list[tuple[torch.Tensor, torch.Tensor | None]] = []
            for t, _, swapped, _, _ in self.entries:
                if isinstance(t, nn.Parameter) and t.is_leaf:
                    grad = t.grad
                    if swapped is not None and swapped.grad is not None:
                        grad = swapped.grad
                    detached.append((t, grad))
                    t.grad = None
            # Latest first: a tensor logged twice (tied, under swap) ends as it first was.
            for t, alias, swapped, _, _ in reversed(self.entries):
                if swapped is not None:
                    _unswap(t, alias, swapped)
                elif type(alias) is tuple:
                    storage, dtype = alias
                    t.data = torch.empty(0, dtype=dtype, device=storage.device).set_(
                        storage, 0, t.shape, t.stride()
                    )
                else:
                    t.data = alias
            for t, grad in detached:
                if grad is not None:
                    t.grad = grad
        # The originals are the model's again: what goes now is the log itself.
        self.entries.clear()

    def release(self) -> None:
        """Drop the aliases (the originals, after a success), in batches."""
        _release_in_batches(self.entries, list(map(_SIZE, self.entries)))


def roll_back(snapshot: Snapshot, log: ConversionLog, allocating: list[str]) -> str:
    """Put the originals back after a failed move or device map, then synchronise and free
    the cache of each device in ``allocating`` (where the copies were made); a note if that
    cleanup failed.

    The model is whole once ``restore`` returns. The cleanup after it can still raise (a
    sticky CUDA error makes every later call on that device fail): that must not turn a
    failure, already reported as such, into an exception, so it becomes a note.
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
    return Text("move.cleanup_failed", problems="; ".join(problems))


def _swapped(t: torch.Tensor) -> _Swapped:
    return _Swapped(
        cls=type(t),
        attributes=t.__dict__,
        requires_grad=t.requires_grad,
        hooks=t._backward_hooks,
        post_accumulate_hooks=getattr(t, "_post_accumulate_grad_hooks", None),
        grad=t.grad if t.is_leaf and isinstance(t, nn.Parameter) else None,
    )


def _is_wrapper_subclass(t: torch.Tensor) -> bool:
    """A tensor subclass whose data lives in inner tensors (``.data =`` cannot restore it)."""
    return bool(is_traceable_wrapper_subclass(t))


def _unswap(t: torch.Tensor, alias: torch.Tensor, swapped: _Swapped) -> None:
    """Give ``t`` back its old data, class, attributes and hooks."""
    if t.__dict__ is swapped.attributes:
        # Not swapped: at most its data changed in place (or nothing at all).
        if not _is_wrapper_subclass(t):
            t.data = alias
        return
    try:
        torch.utils.swap_tensors(t, alias)
    except RuntimeError:
        # Something (a weak reference) holds on to ``t``: the old data in place instead.
        t.__class__ = swapped.cls
        t.__dict__ = swapped.attributes
        t.data = alias
    t.__class__ = swapped.cls
    t.__dict__ = swapped.attributes
    t.requires_grad_(swapped.requires_grad)
    if swapped.hooks is not None:
        t._backward_hooks = swapped.hooks
    if swapped.post_accumulate_hooks is not None:
        t._post_accumulate_grad_hooks = swapped.post_accumulate_hooks


def _release_in_batches(items: list[Any], sizes: list[int]) -> None:
    """Empty ``items`` a batch at a time from the end; ``sizes[i]``: the bytes ``items[i]`` frees.

    A plain ``del`` frees a big model's old storage in one C-level cascade that holds the
    GIL for tens of milliseconds (measured ~60 ms for 1 GiB): a GUI thread stalls. Each
    batch frees about ``RELEASE_BATCH_BYTES`` (or one bigger tensor) and then yields the GIL;
    small tensors go many at a time (a ``sleep(0)`` per tensor cost more than the frees for
    5,000 small tensors, and on a busy machine each one can wait for another process). The
    batches' ends are found by bisection over running totals: no Python step per item.
    """
    count = len(items)
    totals = list(itertools.accumulate(reversed(sizes)))  # bytes of the last i + 1 items
    done = freed = 0
    while done < count:
        ends_at = bisect.bisect_left(totals, freed + RELEASE_BATCH_BYTES, lo=done) + 1
        ends_at = min(ends_at, done + RELEASE_BATCH_TENSORS, count)
        batch = totals[ends_at - 1] - freed
        del items[count - ends_at : count - done]
        done, freed = ends_at, totals[ends_at - 1]
        if batch >= RELEASE_BATCH_BYTES:
            time.sleep(0)  # hand the GIL over after a big free
