"""The settings files, checked before QSettings opens them.

QSettings reads its files when it is constructed, with a plain blocking open and read: a
FIFO there blocked the app's start for good, ``/dev/zero`` would be read forever. So before
the first QSettings, every file it would read is looked at with ``stat`` (never opened);
anything that is not a regular file of a sane size is refused in one line, as the CLI
refuses a FIFO given as a model, and that scope's settings are read from and saved to an
empty folder of this run instead: the window opens with its defaults.

Which files: QSettings' own rules for its native format on Linux and the BSDs (an INI
file): ``<user folder>/<org>/<app>.conf`` and ``<user folder>/<org>.conf``, then the same in
each system folder (``$XDG_CONFIG_DIRS``, or the one ``QSettings.setPath`` set). The
folders are asked of QSettings itself (``fileName()`` of names no file has), so
``setPath`` and ``$XDG_CONFIG_HOME`` are honoured. macOS and Windows keep settings in
services (CFPreferences, the registry), not in files QSettings opens.
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import stat
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths

from inspector.core.files import escape_control

#: Larger than any settings file this app writes by orders of magnitude (a few KiB); Qt
#: would read and parse all of it, at every start.
MAX_SETTINGS_BYTES = 16 * 1024 * 1024

_SCOPES = (QSettings.Scope.UserScope, QSettings.Scope.SystemScope)


def settings_files(organization: str, application: str) -> dict[QSettings.Scope, list[Path]]:
    """The files QSettings() would read for these names, by scope (user first)."""
    if sys.platform in ("darwin", "win32"):
        return {}
    probe = f"settings-probe-{secrets.token_hex(8)}"  # no file has this name: nothing is read
    files: dict[QSettings.Scope, list[Path]] = {}
    for scope in _SCOPES:
        named = Path(QSettings(QSettings.Format.NativeFormat, scope, probe, probe).fileName())
        folders = [named.parent.parent]
        if scope == QSettings.Scope.SystemScope:
            # Unless setPath chose one, QSettings reads every XDG system folder (the first
            # standard location is the user's own); checking one it may not read costs nothing.
            folders += [Path(d) for d in QStandardPaths.standardLocations(QStandardPaths.StandardLocation.GenericConfigLocation)[1:]]  # fmt: skip
        suffix = named.suffix
        files[scope] = [
            path
            for folder in dict.fromkeys(folders)
            for path in (folder / organization / f"{application}{suffix}", folder / f"{organization}{suffix}")
        ]
    return files


def problem(path: Path) -> str | None:
    """Why QSettings must not read ``path`` (None: absent, or a regular file of a sane size)."""
    try:
        info = os.stat(path)  # follows a link: what QSettings would open
    except FileNotFoundError:
        return None
    except OSError as exc:
        if isinstance(exc, NotADirectoryError):
            return None  # a file where a folder would be: QSettings finds nothing there either
        return exc.strerror or str(exc)
    if stat.S_ISFIFO(info.st_mode):
        return "it is a FIFO (named pipe), which would block the start"
    if stat.S_ISDIR(info.st_mode):
        return None  # Qt fails to open a folder at once, and reads nothing
    if not stat.S_ISREG(info.st_mode):
        return "it is not a regular file (a device or socket)"
    if info.st_size > MAX_SETTINGS_BYTES:
        return f"it holds {info.st_size:,} bytes, more than the {MAX_SETTINGS_BYTES:,} a settings file may"
    return None


def guard_settings_files(app: QCoreApplication | None = None) -> list[str]:
    """Check the files QSettings will read for ``app``'s names (call before the first
    QSettings); for each one refused, say why in one line and point that scope at an empty
    folder of this run. Returns the lines said."""
    app = app or QCoreApplication.instance()
    organization = app.organizationName() if app is not None else ""
    application = app.applicationName() if app is not None else ""
    said: list[str] = []
    for scope, paths in settings_files(organization, application).items():
        refused = [(path, why) for path in paths if (why := problem(path)) is not None]
        then = ("the window starts with its default settings, and this run's changes are not saved"
                if scope == QSettings.Scope.UserScope else "the system-wide defaults are left out")  # fmt: skip
        for path, why in refused:
            line = f"warning: not reading the settings file {escape_control(str(path))}: {why}; {then}"
            print(line, file=sys.stderr)
            said.append(line)
        if refused:
            QSettings.setPath(QSettings.Format.NativeFormat, scope, _empty_folder())
    if said:
        sys.stderr.flush()
    return said


def _empty_folder() -> str:
    folder = tempfile.mkdtemp(prefix="torch-device-inspector-settings-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder
