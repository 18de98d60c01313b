"""FLOPs of one forward, counted by ``torch.utils.flop_counter.FlopCounterMode``.

Torch wraps every ``TorchDispatchMode.__torch_dispatch__`` in ``torch._disable_dynamo``,
which imports ``torch._dynamo`` on the first dispatch: about 830 modules (sympy, mpmath)
and 1.7 s on this 2-core machine, with stretches of up to 170 ms where the importing thread
holds the GIL. In the window that import landed inside the per-module phase and froze the
GUI thread for 73–113 ms (issue 33). Counting FLOPs needs no dynamo: when ``torch._dynamo``
is not imported yet, nothing in the process is being compiled, so "disable dynamo around
this call" has nothing to disable. For the count only, the wrapper is told that the
disabled function is the function itself (the attribute it caches its answer in); the
attribute is removed afterwards, so a later ``torch.compile`` sees torch's own behaviour.

``prepare`` does the counter's one-time set-up on a 1x1 Linear (torch's dynamo-disable wrapper
made and cached where dynamo is imported, as an optimizer's constructor imports it; the module
tracker; the linear ops' overloads), so the window can run it before its per-module run's
quiet window, not inside it (issue 46 item 4: the first count of a run stalled the window 53 ms).
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any, Iterator

import torch
from torch import nn
from torch.utils import flop_counter

#: The attribute ``torch._compile._disable_dynamo`` caches its dynamo-disabled function in.
_CACHE = "__dynamo_disable"


def count_flops(module: nn.Module, args: tuple[Any, ...]) -> tuple[int, dict[str, int]]:
    """FlopCounterMode's total and its inclusive per-module counts (keys ``Root.child...``)."""
    with _dynamo_left_unimported(), flop_counter.FlopCounterMode(display=False) as counter:
        module(*args)
    by_module = {str(name): int(sum(ops.values())) for name, ops in counter.get_flop_counts().items()}
    return int(counter.get_total_flops()), by_module


_prepared: list[bool] = []


def prepare() -> None:
    """The counter's one-time set-up, once per process (a 1x1 Linear counted); nothing after."""
    if _prepared:
        return
    with torch.inference_mode():
        count_flops(nn.Linear(1, 1), (torch.zeros(1, 1),))
    _prepared.append(True)


@contextlib.contextmanager
def _dynamo_left_unimported() -> Iterator[None]:
    # Imported already: torch's own wrapper costs nothing more, and is left to do its work.
    imported = "torch._dynamo" in sys.modules
    raw = [] if imported else [fn for fn in _dispatch_functions() if not hasattr(fn, _CACHE)]
    for fn in raw:
        setattr(fn, _CACHE, fn)
    try:
        yield
    finally:
        for fn in raw:
            with contextlib.suppress(AttributeError):
                delattr(fn, _CACHE)


def _dispatch_functions() -> list[Any]:
    """The functions torch wrapped lazily for the counter's dispatch mode (none on a torch
    that does not wrap them: then there is nothing to do)."""
    found = []
    for name in ("_FlopCounterMode", "FlopCounterMode"):
        cls = getattr(flop_counter, name, None)
        wrapper = vars(cls).get("__torch_dispatch__") if isinstance(cls, type) else None
        inner = getattr(wrapper, "__wrapped__", None)
        code = getattr(wrapper, "__code__", None)  # functools.wraps copied the name, not the code
        if callable(inner) and code is not None and code.co_filename.endswith("_compile.py"):
            found.append(inner)
    return found
