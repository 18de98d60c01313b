"""The process's own memory high-water mark over a stretch of code, read from the kernel: the
CPU proof of "will it fit?", independent of the estimate's bookkeeping.

Linux keeps a peak resident set size per process (``VmHWM`` in ``/proc/self/status``) and
resets it to the current RSS when "5" is written to ``/proc/self/clear_refs`` (Linux 4.0+).
So: hand freed memory back (``gc.collect`` and glibc's ``malloc_trim(0)``, which would
otherwise let the step reuse pages the process already holds, unseen), read ``VmRSS`` as the
baseline, reset the mark, run the code, read the mark: the peak above the baseline.

What it is and is not: resident pages the whole process touched, not bytes allocated. A
tensor allocated and never written is not in it (nor a page the kernel still has to fault
in); memory the C allocator keeps after a free is (pages count until they are handed back);
every thread of the process counts (a window's own drawing too); with transparent huge pages
a touched 2 MiB page counts whole. Where the reading is not there (not Linux, ``clear_refs``
not writable), ``unavailable_reason`` says why.
"""

from __future__ import annotations

import ctypes
import gc
import os
import re
from types import TracebackType
from typing import Callable

from inspector.core.devices import host_files
from inspector.core.messages import Text

_STATUS = "/proc/self/status"
_CLEAR_REFS = "/proc/self/clear_refs"
_FIELD = re.compile(rb"^(VmHWM|VmRSS):\s+(\d+) kB", re.MULTILINE)


def _libc_malloc_trim() -> Callable[[int], int] | None:
    try:
        # The process's own symbols (libc's among them): ctypes.util.find_library would run
        # ldconfig, or gcc found on PATH, to look for the file.
        libc = ctypes.CDLL(None)
        trim = libc.malloc_trim  # glibc only (musl has none)
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_MALLOC_TRIM = _libc_malloc_trim()


def unavailable_reason() -> Text | None:
    """Why the process's peak cannot be read and reset here, or None when it can."""
    if not host_files.exists(_STATUS) or not host_files.exists(_CLEAR_REFS):
        return Text("fit.peak_unavailable_os")
    if not host_files.writable(_CLEAR_REFS):
        return Text("fit.peak_unavailable_clear_refs")
    return None


def read_rss() -> tuple[int, int]:
    """(resident bytes now, the peak since the last reset), from ``/proc/self/status``."""
    fd = host_files.os_open(_STATUS, os.O_RDONLY)
    try:
        text = os.read(fd, 8192)
    finally:
        os.close(fd)
    fields = {name: int(kib) * 1024 for name, kib in _FIELD.findall(text)}
    return fields[b"VmRSS"], fields[b"VmHWM"]


def reset_peak() -> None:
    """Set the peak to the current RSS (Linux's ``clear_refs`` "5": no page tables touched)."""
    fd = host_files.os_open(_CLEAR_REFS, os.O_WRONLY)
    try:
        os.write(fd, b"5")
    finally:
        os.close(fd)


def hand_back_freed_memory() -> bool:
    """Return what the C allocator keeps after frees to the system (glibc: ``malloc_trim``),
    so later allocations fault fresh pages in and show in the RSS. False where there is no
    such call (the memory a free keeps then stays, and can hide reuse)."""
    if _MALLOC_TRIM is None:
        return False
    _MALLOC_TRIM(0)
    return True


class ProcessPeak:
    """``with ProcessPeak() as peak: ...``, then ``peak.bytes``: the process's peak RSS while
    the block ran, less its RSS when the block began (after freed memory was handed back)."""

    def __init__(self) -> None:
        self.baseline = 0
        self.bytes = 0

    def __enter__(self) -> ProcessPeak:
        gc.collect()
        hand_back_freed_memory()
        self.baseline, _ = read_rss()
        reset_peak()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        _, peak = read_rss()
        self.bytes = max(0, peak - self.baseline)
