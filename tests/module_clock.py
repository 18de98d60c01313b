"""A fake clock for per-module runs (``core.measure.attribution._clock``): the time moves only
when a test says so, so per-module figures are known to the nanosecond.

- A read from inside the per-module hooks costs ``hook_read_ns`` (each hook reads the clock
  once: a hook pair costs twice that per module call); a read that times a whole forward is free.
- ``Work(ns)`` is a module whose forward takes ``ns``; ``Work(ns, hooked_ns=...)`` takes more
  while the per-module hooks are on (what a wait for the GIL inside the hooks looks like).
- ``Work(ns, every=4, extra_ns=...)``: every 4th call takes longer (a disturbed run).

Use it with ``monkeypatch.setattr(attribution, "_clock", CLOCK)``; a model file given to the
CLI or the window imports ``CLOCK`` and ``Work`` from here (``factory_source``).
"""

from __future__ import annotations

import sys

import torch
from torch import nn
from torch.nn.modules import module as torch_module


class ModuleClock:
    def __init__(self) -> None:
        self.now = 1_000_000
        self.hook_read_ns = 0

    def __call__(self) -> int:
        now = self.now
        if sys._getframe(1).f_code.co_name in ("pre", "post"):  # the recorder's hooks
            self.now += self.hook_read_ns
        return now


CLOCK = ModuleClock()


def _hooks_on() -> bool:
    return bool(torch_module._global_forward_hooks)


class Work(nn.Module):
    """A leaf whose forward takes ``ns`` of the fake clock's time (see the module's doc)."""

    def __init__(self, ns: int, *, hooked_ns: int = 0, every: int = 0, extra_ns: int = 0) -> None:
        super().__init__()
        self.ns, self.hooked_ns, self.every, self.extra_ns = ns, hooked_ns, every, extra_ns
        self.count = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.count += 1
        CLOCK.now += self.ns + (self.hooked_ns if _hooks_on() else 0)
        if self.every and self.count % self.every == 0:
            CLOCK.now += self.extra_ns
        return x + 1


class Pair(nn.Module):
    """A parent of two ``Work`` leaves; its own code takes ``own_ns``."""

    def __init__(self, first: Work, second: Work, own_ns: int = 1_000) -> None:
        super().__init__()
        self.first, self.second, self.own_ns = first, second, own_ns

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        CLOCK.now += self.own_ns
        return self.second(self.first(x))


def factory_source(leaf_ns: int, *, hooked_ns: int = 0, hook_read_ns: int = 0) -> str:
    """A model file (``make`` returns the model and its input) for the CLI or the window: a
    ``Pair`` of ``Work`` leaves on the fake clock, with its hook cost set when it loads."""
    return (
        "import torch\n"
        "from tests.module_clock import CLOCK, Pair, Work\n"
        "def make():\n"
        f"    CLOCK.hook_read_ns = {hook_read_ns}\n"
        f"    return Pair(Work({leaf_ns}, hooked_ns={hooked_ns}), Work({leaf_ns}, hooked_ns={hooked_ns})), torch.zeros(2, 3)\n"
    )
