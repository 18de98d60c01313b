"""Reading a file the way every file is read: a regular file, of a bounded size, never hanging.

One reader for a file the user named (a report, a device map, a model file's head) and a file
they did not (the run-to-run noise record): both get the same checks (the gate in docs/architecture.md).

- ``stat`` first, so a FIFO, a device (``/dev/zero``, a tape that rewinds when opened), a socket
  or a folder is refused without being opened, and so is a file of /proc or /sys, whose size
  (0, 4096) says nothing of what a read returns;
- then the open (``O_NONBLOCK``: a FIFO swapped in after the ``stat`` does not wait for a writer)
  and ``fstat`` of what was really opened, checked the same way;
- then at most ``limit`` bytes are read (one more, to tell a file that grew past it): the
  size ``stat`` said is a claim, the bytes asked for are the bound.

A symlink is followed (the user may name one; the record may be one), and what it points to is
what is checked. Every refusal is an ``OSError`` (``NotRegularFile``, ``FileTooLarge``, or the
system's own: ``FileNotFoundError``, ``IsADirectoryError``, ``PermissionError``), so a reader
that treats any failure alike catches ``OSError``, and one that words each catches them apart.
"""

from __future__ import annotations

import errno
import os
import stat

#: Bytes asked of the system per read (a bounded read is never one ``read(limit)``: the
#: buffer for a large limit would be allocated whole, however small the file).
_CHUNK = 1 << 20


class NotRegularFile(OSError):
    """A FIFO, device or socket (``kernel_file`` False), or a file of /proc or /sys (True)."""

    def __init__(self, path: str | os.PathLike[str], kernel_file: bool = False) -> None:
        super().__init__(errno.EINVAL, "not a regular file", os.fspath(path))
        self.kernel_file = kernel_file


class FileTooLarge(OSError):
    """More than ``limit`` bytes: ``size`` as stat said it, or None when it grew while read."""

    def __init__(self, path: str | os.PathLike[str], limit: int, size: int | None) -> None:
        super().__init__(errno.EFBIG, "file too large", os.fspath(path))
        self.limit = limit
        self.size = size


def kernel_file_systems() -> set[int]:
    """The devices of /proc and /sys (none where they do not exist)."""
    devices = set()
    for root in ("/proc", "/sys"):
        try:
            devices.add(os.stat(root).st_dev)
        except OSError:
            pass
    return devices


def check_regular(path: str | os.PathLike[str], info: os.stat_result) -> None:
    """Refuse what ``info`` says is not a regular file with content of its own."""
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    if not stat.S_ISREG(info.st_mode):
        raise NotRegularFile(path)
    if info.st_dev in kernel_file_systems():
        raise NotRegularFile(path, kernel_file=True)


def open_regular(path: str | os.PathLike[str]) -> tuple[int, os.stat_result]:
    """A read-only descriptor of the regular file at ``path`` and its ``fstat``, checked before
    and after the open (the caller closes it). ``OSError`` as the module says."""
    check_regular(path, os.stat(path))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        check_regular(path, info)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them, or an ``OSError``:
    ``FileTooLarge`` past the limit (stat's size, or more bytes than it said), ``NotRegularFile``,
    or the system's own."""
    fd, info = open_regular(path)
    try:
        if info.st_size > limit:
            raise FileTooLarge(path, limit, info.st_size)
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    finally:
        os.close(fd)
    if got > limit:  # it grew after the stat
        raise FileTooLarge(path, limit, None)
    return b"".join(chunks)


def read_regular_text(path: str | os.PathLike[str], limit: int, encoding: str = "utf-8") -> str:
    """``read_regular_file`` decoded (``UnicodeDecodeError``, a ``ValueError``, if it is not text)."""
    return read_regular_file(path, limit).decode(encoding)

