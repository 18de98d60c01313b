"""Hold Python's cyclic garbage collector off while a burst of allocations runs.

CPython starts a collection after every ~700 net container allocations, and each tenth of
those walks an older generation; with torch imported a full one walks ~200,000 objects. A
move of 5,000 small tensors keeps a tuple per tensor for its rollback, which set off ~60
collections per round trip (0.6x the cost of the ``Module.to`` itself), where the plain call
keeps nothing and sets off none. The objects made in such a burst form no cycles (they are
freed by reference counting), so collecting can wait until it ends, as ``timeit`` does
around its loop.

The collector's on/off state is process-wide: the window's own collector (pyqtgraph's
``GarbageCollector``, which turns automatic collection off and collects from a GUI timer)
stays as it was, because ``paused()`` only turns it back on if it was on before.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """Automatic collection off inside, back to what it was after (explicit collects still run)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
