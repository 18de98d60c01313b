"""The host's kernel files (Linux's ``/proc`` and ``/sys``), opened in one place.

Some figures exist only as files Linux makes up as they are read: the CPU's name
(``/proc/cpuinfo``), the container's memory limit (``/proc/self/cgroup``, ``/sys/fs/cgroup``),
the process's peak RSS and its reset (``/proc/self/status``, ``clear_refs``), each sampling
thread's preemptions (``/proc/self/task``) and the kernel's huge-page mode. macOS and Windows
have none of them, nor has a sandbox without ``/proc``. Every reader of them opens its file
here, so ``switch_off`` plays such a host on Linux: each call for a file of the real /proc or
/sys then fails as the missing file would (``FileNotFoundError``; a test's fake tree elsewhere
is still read), and each reader says what it could not measure rather than a figure (``INSPECTOR_TEST_HOST=no-proc``, tests/odd_host.py). What psutil reads is psutil's
own business: it has a backend for each system.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TextIO

_present = True


def switch_off() -> None:
    """From now on, behave as a host without ``/proc`` and ``/sys`` (tests only)."""
    global _present
    _present = False


def present() -> bool:
    """Whether the kernel's files may be read here at all."""
    return _present


def _check(path: str | os.PathLike[str]) -> None:
    if not _present and _kernel_path(path):
        raise FileNotFoundError(errno.ENOENT, "this host has no /proc or /sys", os.fspath(path))


def _kernel_path(path: str | os.PathLike[str]) -> bool:
    """A path into the real /proc or /sys (a test's fake tree elsewhere is read as it is)."""
    full = os.path.abspath(os.fspath(path))
    return full in ("/proc", "/sys") or full.startswith(("/proc/", "/sys/"))


def open_text(path: str | os.PathLike[str], encoding: str = "utf-8", errors: str = "replace") -> TextIO:
    """``open(path)`` for reading text (a kernel file's bytes are ASCII; anything else replaced)."""
    _check(path)
    return open(path, encoding=encoding, errors=errors)


def os_open(path: str | os.PathLike[str], flags: int) -> int:
    """``os.open(path, flags)``: a descriptor, for the files read or written in one call."""
    _check(path)
    return os.open(path, flags)


def read_text(path: str | os.PathLike[str]) -> str:
    _check(path)
    return Path(path).read_text()


def listdir(path: str | os.PathLike[str]) -> list[str]:
    _check(path)
    return os.listdir(path)


def exists(path: str | os.PathLike[str]) -> bool:
    return (_present or not _kernel_path(path)) and os.path.exists(path)


def writable(path: str | os.PathLike[str]) -> bool:
    return (_present or not _kernel_path(path)) and os.access(path, os.W_OK)
