"""Is a report path one we can write? Asked before minutes of measuring, not after.

Everything that can be known without measuring is checked here: the name (a suffix we
render, a stem before it), ``~`` expanded, the folder (exists, is a folder, takes a new
file: proven by creating and removing the very temporary file the writer will make, so a
name too long once the temporary suffix is added is refused here, not after the work), and
the target (not a folder, not a device or pipe, not read-only or immutable). What only the
write itself can tell (the disk filling up half-way) is left to the writer
(``core.atomic_write``), which then keeps the old file intact.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import Mapping

from inspector.core.atomic_write import create_temp, name_too_long
from inspector.core.errors import InputError
from inspector.core.messages import Text

#: Suffixes a report can be written as (``report.save_report`` renders each).
REPORT_SUFFIXES = (".json", ".csv", ".md", ".html", ".zip")


def check_output_path(
    text: str | os.PathLike[str], suffixes: tuple[str, ...] = REPORT_SUFFIXES, what: str = "the report"
) -> Path:
    """The path to write ``what`` to, ``~`` expanded; ``InputError`` (one line) if it cannot work."""
    raw = os.fspath(text)
    if not raw.strip():
        raise InputError(f"cannot write {what}: the path is empty; give a file name ending in {_names(suffixes)}")
    path = Path(raw).expanduser()
    cannot = f"cannot write {what} to {raw}"
    if _is_dir(path):  # "--output ~" or "--output out/": a folder, whatever its name ends in
        raise InputError(f"{cannot}: it is a folder, give a file name in it")
    if path.name.lower() in suffixes:  # ".json": Path calls that a stem with no suffix
        raise InputError(f"{cannot}: the file name has nothing before {path.name}")
    if path.suffix.lower() not in suffixes:
        raise InputError(f"{cannot}: the file name must end in {_names(suffixes)}")
    problem = target_problem(path)
    if problem is not None:
        raise InputError(f"{cannot}: {problem}")
    _check_folder(path, cannot)
    return path


def check_distinct_outputs(outputs: Mapping[str, str | os.PathLike[str] | None], stdout_fd: int | None = None) -> None:
    """Refuse two outputs (flag -> path; None or empty: not asked for) that are one file, before any
    work: the second write would silently replace the first (``--output r.json --trace
    r.json`` kept only the trace). The same file also through ``~``, ``..``, a symlink or a
    hard link: an existing file by its device and inode, a new one by its resolved path.

    ``stdout_fd``: standard output, an output too when it is a file (``> r.json``: the report
    renamed over it would leave what is printed in a file no name reaches)."""
    seen: dict[tuple[object, ...], str] = {}
    if stdout_fd is not None:
        try:
            info = os.fstat(stdout_fd)
        except OSError:
            info = None
        if info is not None and stat.S_ISREG(info.st_mode) and (info.st_dev or info.st_ino):
            seen[("inode", info.st_dev, info.st_ino)] = "standard output"
    for flag, text in outputs.items():
        if not text:  # not asked for (an empty path is refused by its own check)
            continue
        key = _file_identity(Path(os.fspath(text)).expanduser())
        if key in seen:
            raise InputError(f"{seen[key]} and {flag} name the same file ({os.fspath(text)}): give each its own file")
        seen[key] = flag


def _file_identity(path: Path) -> tuple[object, ...]:
    """What makes two paths one file: (device, inode) where it exists, else the absolute path
    with every symlink and ``..`` resolved (a dangling link to ``r.json`` is ``r.json``)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        info = None
    if info is not None and (info.st_dev or info.st_ino):  # both 0 where the OS has no inodes
        return ("inode", info.st_dev, info.st_ino)
    try:
        resolved = path.resolve(strict=False)
    except (OSError, RuntimeError):  # a symlink loop: its absolute path names it
        resolved = path.absolute()
    return ("path", os.path.normcase(resolved))


def _is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):  # absent, a name too long, a NUL: target_problem says which
        return False


def _names(suffixes: tuple[str, ...]) -> str:
    return ", ".join(suffixes[:-1]) + f" or {suffixes[-1]}" if len(suffixes) > 1 else suffixes[0]


def target_problem(path: Path) -> str | None:
    """Why a report must not replace what is at ``path`` (None: nothing there, or a file
    its owner may change). ``save_report`` asks this too, for the window's exports."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return Text("write.not_a_folder", folder=path.parent)
    except OSError as exc:
        return name_too_long(path) if exc.errno == errno.ENAMETOOLONG else exc.strerror or str(exc)
    if stat.S_ISDIR(info.st_mode):
        return Text("write.is_folder")
    if not stat.S_ISREG(info.st_mode):
        # Replacing a device node or a pipe with a file would break whatever uses it.
        return Text("write.not_regular")
    # access() says no for an immutable file even to root, and for a read-only one to others;
    # a rename would otherwise replace a file its owner marked as not to be changed.
    if not os.access(path, os.W_OK):
        return Text("write.read_only")
    return None


def _check_folder(path: Path, cannot: str) -> None:
    folder = path.parent
    if not folder.exists():
        raise InputError(f"{cannot}: the folder {folder} does not exist")
    if not folder.is_dir():
        raise InputError(f"{cannot}: {folder} is not a folder")
    # The only sure test of "can a file be created here" (read-only mounts, /proc, immutable
    # folders, ACLs, a name too long) is to create one: the very temporary file the writer
    # will make (``atomic_write.temp_path``: same folder, same name length), removed at once.
    try:
        fd, probe = create_temp(path)
    except OSError as exc:
        raise InputError(f"{cannot}: {_folder_reason(path, exc)}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def _folder_reason(path: Path, exc: OSError) -> str:
    folder = path.parent
    if exc.errno == errno.ENAMETOOLONG:
        return name_too_long(path)
    reasons = {
        errno.EACCES: f"no permission to create files in {folder}",
        errno.EPERM: f"no permission to create files in {folder}",
        errno.EROFS: f"{folder} is on a read-only file system",
        errno.ENOSPC: f"the disk holding {folder} is full",
        errno.ENOENT: f"files cannot be created in {folder}",  # /proc and similar
    }
    return reasons.get(exc.errno or 0, f"files cannot be created in {folder} ({exc.strerror or exc})")
