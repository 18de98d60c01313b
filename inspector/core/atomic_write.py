"""Writing a file so that its readers see the old one or the whole new one, never half of it.

The one writer of every file the app makes (reports, traces, memory snapshots, the
``devices --prometheus`` metrics, the run-to-run noise record): the bytes go to a temporary
file beside the target, then a rename replaces the target (atomic on one file system). The
temporary name is random and created with ``O_EXCL | O_NOFOLLOW``: in a shared folder (the
textfile collector's, ``/tmp``) nobody can plant a file or a symlink at a name we will open,
and the write never lands in a file of someone else's choosing. A failed write (the disk
filling up half-way, an interrupt) removes the temporary file and leaves the target as it was.

``temp_path`` is also what ``files.output_path`` creates to prove a folder takes our files
before any work starts: the probe and the writer share one name, so a name the probe passes
the writer can create (a 250-byte name plus the temporary suffix is over NAME_MAX).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path
from typing import BinaryIO, Callable

from inspector.core.messages import Text

#: How many random names to try when one is taken (by chance, or by someone planting it).
_ATTEMPTS = 8
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)

Payload = bytes | Callable[[BinaryIO], None]


def temp_path(path: Path) -> Path:
    """A fresh temporary name beside ``path``: ``.NAME.<8 hex>.tmp``."""
    return path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"


#: How many bytes longer the temporary name is than the target's.
TEMP_EXTRA_BYTES = len(temp_path(Path("x")).name) - 1


def longest_name(folder: Path) -> int | None:
    """The longest file name (in bytes) the writer can replace in ``folder``: the file
    system's NAME_MAX less the temporary name's extra bytes; None where the system won't say."""
    try:
        most = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # no pathconf (Windows), or no such folder
        return None
    return most - TEMP_EXTRA_BYTES if most > 0 else None


def create_temp(path: Path) -> tuple[int, Path]:
    """A new, empty temporary file beside ``path`` (never an existing name: a planted file or
    symlink is stepped around); its descriptor and name. ``OSError`` when none can be made."""
    for _ in range(_ATTEMPTS - 1):
        tmp = temp_path(path)
        try:
            # 0o666 through os.open lets the user's umask decide the final permissions.
            return os.open(tmp, _FLAGS, 0o666), tmp
        except FileExistsError:
            continue
    tmp = temp_path(path)
    return os.open(tmp, _FLAGS, 0o666), tmp


def write_atomically(path: Path, data: Payload) -> None:
    """Replace ``path`` with ``data`` (bytes, or a function that writes them to a binary
    stream): all of it, or nothing. ``OSError`` as the system gave it (``write_reason`` words it)."""
    fd, tmp = create_temp(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            _write_payload(fh, data)
            fh.flush()
            os.fsync(fh.fileno())
        _keep_mode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_payload(fh: BinaryIO, data: Payload) -> None:
    """The write itself, on its own so tests can make it fail half-way."""
    if isinstance(data, bytes):
        fh.write(data)
    else:
        data(fh)


def _keep_mode(path: Path, tmp: Path) -> None:
    """Replacing a file keeps the permissions its owner gave it."""
    with contextlib.suppress(OSError):
        os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))


def write_reason(path: Path, exc: OSError) -> str:
    """Why writing ``path`` failed, in words (the system's own for a rare errno)."""
    folder = path.parent
    reasons: dict[int | None, str] = {
        errno.ENOENT: Text("write.no_folder", folder=folder),
        errno.ENOTDIR: Text("write.not_a_folder", folder=folder),
        errno.EISDIR: Text("write.path_is_folder", path=path),
        errno.EACCES: Text("write.no_permission", folder=folder),
        errno.EPERM: Text("write.no_permission", folder=folder),
        errno.EROFS: Text("write.read_only_fs", folder=folder),
        errno.ENOSPC: Text("write.disk_full"),
        getattr(errno, "EDQUOT", errno.ENOSPC): Text("write.disk_full"),
        errno.ENAMETOOLONG: name_too_long(path),
    }
    return reasons.get(exc.errno, exc.strerror or str(exc))


def name_too_long(path: Path) -> str:
    """The name is longer than the folder takes, with the temporary name's extra bytes."""
    length = len(os.fsencode(path.name))
    most = longest_name(path.parent)
    if most is not None and length <= most:  # the name fits: the whole path is over PATH_MAX
        return Text("write.path_too_long", length=len(os.fsencode(str(path))))
    if most is None:
        return Text("write.name_too_long_here", length=length)
    return Text("write.name_too_long", length=length, most=most, extra=TEMP_EXTRA_BYTES)
