"""The seam: the conversion function ``Module._apply`` calls on each tensor, wrapped.

A move (``core.moves.transaction``) and a device map (``core.moves.device_map``) both convert
through ``Module._apply``; the wrapper logs each original before it changes (for
``core.moves.rollback``), counts the bytes PyTorch really copied, pins host tensors on the
pinned path, and every few milliseconds checks for a cancel and reports progress.

The per-tensor path of every move: it costs one Python call per tensor, and nothing in it may
grow (``benchmarks/move_overhead.py`` prints what it costs next to a plain ``Module.to``).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import torch
from torch import nn

from inspector.core.errors import Cancelled
from inspector.core.messages import Text
from inspector.core.moves import rollback

#: Check for a cancel and report progress at most this often (seconds) while converting:
#: per tensor, a user's callback would cost more than the conversion of a small tensor.
#: Tests set it to 0 to check before every tensor.
CHECK_INTERVAL_S = 0.005


class Seam:
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
            raise Cancelled(Text("move.cancelled"))
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

