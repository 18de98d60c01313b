"""Entry point of the PyInstaller bundle: the same CLI as the `torch-device-inspector` script.

The bundle has no console-script launcher, so this file stands in for it. It also carries the
bundle's smoke test: with TORCH_DEVICE_INSPECTOR_SMOKE_SECONDS=N set, the window (opened by
the normal CLI path, nothing faked) is closed N seconds after the QApplication appears, and
one line describing the window is printed, so a build can check that the frozen app really
starts and shuts down cleanly. Without the variable this file only calls the CLI.
"""

from __future__ import annotations

import os
import sys
import threading
import time

SMOKE_ENV = "TORCH_DEVICE_INSPECTOR_SMOKE_SECONDS"
# Exit codes of a failed smoke run, distinct from the CLI's 0/1/2.
SMOKE_NO_WINDOW = 3
SMOKE_STUCK = 4
_closer = None


def _smoke_close(app) -> None:
    """Runs on the GUI thread: report the visible windows, then close them as a user would."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    windows = [w for w in QApplication.topLevelWidgets() if w.isVisible()]
    print(
        "smoke: windows="
        + repr([w.windowTitle() for w in windows])
        # Qt appends the display name to every window title the desktop shows.
        + f" display_name={app.applicationDisplayName()!r}"
        + f" app_icon={'missing' if app.windowIcon().isNull() else 'set'}"
        + f" desktop_file={app.desktopFileName()!r}",
        flush=True,
    )
    if not windows:
        app.exit(SMOKE_NO_WINDOW)
        return
    QApplication.closeAllWindows()  # runs the window's closeEvent: cancel, quit and wait threads
    # If closing did not end the event loop, say so with a distinct exit code instead of hanging.
    QTimer.singleShot(10_000, lambda: app.exit(SMOKE_STUCK))


def _start_smoke_watcher(seconds: float) -> None:
    """Close the window `seconds` after the QApplication exists, from outside the app's code."""

    def watch() -> None:
        from PySide6.QtCore import QMetaObject, QObject, Qt, Slot
        from PySide6.QtWidgets import QApplication

        while (app := QApplication.instance()) is None:
            time.sleep(0.05)
        time.sleep(seconds)

        class Closer(QObject):
            @Slot()
            def close(self) -> None:
                _smoke_close(app)

        global _closer  # kept alive after this thread ends
        _closer = Closer()
        _closer.moveToThread(app.thread())  # so its slot runs on the GUI thread
        # A queued invocation is the thread-safe way to run code in the GUI thread.
        QMetaObject.invokeMethod(_closer, "close", Qt.ConnectionType.QueuedConnection)

    threading.Thread(target=watch, name="smoke-watcher", daemon=True).start()


def main() -> int:
    seconds = os.environ.get(SMOKE_ENV)
    if seconds:
        _start_smoke_watcher(float(seconds))
    from inspector.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
