"""CUDA memory snapshots that pytorch.org/memory_viz opens.

``torch.cuda.memory._record_memory_history`` makes the caching allocator keep a stack trace
for every allocation and free; ``torch.cuda.memory._snapshot()`` returns them with the
segments and blocks alive now, and a pickle of that dict is what memory_viz reads. Both are
private-but-documented PyTorch APIs ("Understanding CUDA Memory Usage" in the docs).

Cost: recording stack traces slows allocation-heavy code; only ``bench --memory-snapshot``
turns it on, and it is turned off again (``enabled=None``) whatever happens.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import torch

from inspector.core.atomic_write import write_atomically, write_reason
from inspector.core.devices.discovery import unavailable_reason
from inspector.core.errors import InputError, InspectorError

#: Allocation/free events kept (the documented default is 100,000; memory_viz handles it).
MAX_ENTRIES = 100_000


def check_available() -> None:
    """Raise InputError, before any measuring, when there is no CUDA to snapshot."""
    reason = unavailable_reason("cuda")
    if reason is not None:
        raise InputError(f"--memory-snapshot needs CUDA (it records the CUDA caching allocator), but {reason}")
    if not hasattr(torch.cuda.memory, "_record_memory_history") or not hasattr(torch.cuda.memory, "_snapshot"):
        raise InputError(f"--memory-snapshot needs torch.cuda.memory._record_memory_history, absent from torch {torch.__version__}")


@contextmanager
def recording(max_entries: int = MAX_ENTRIES) -> Iterator[None]:
    """Record allocator history inside the block (with Python and C++ stacks)."""
    torch.cuda.memory._record_memory_history(enabled="all", max_entries=max_entries)
    try:
        yield
    finally:
        # Stop recording even when the block failed: it slows every later allocation.
        torch.cuda.memory._record_memory_history(enabled=None)


def take_snapshot() -> dict[str, Any]:
    """The allocator's state and history now (call inside ``recording``)."""
    snapshot: dict[str, Any] = torch.cuda.memory._snapshot()
    return snapshot


def write_snapshot(snapshot: dict[str, Any], path: str | Path) -> Path:
    """Pickle ``snapshot`` to ``path`` atomically (a half-written file never replaces one)."""
    target = Path(path).expanduser()
    try:
        write_atomically(target, lambda fh: pickle.dump(snapshot, fh))  # the app's one writer
    except OSError as exc:
        raise InspectorError(f"cannot write the memory snapshot to {target}: {write_reason(target, exc)}") from None
    return target


def rank_path(path: str, rank: int, world_size: int) -> str:
    """``snap.pickle`` -> ``snap.rank1.pickle`` for rank 1 of a multi-rank run."""
    if world_size <= 1:
        return path
    p = Path(path)
    return str(p.with_name(f"{p.stem}.rank{rank}{p.suffix}"))
