"""Start a QObject on its own QThread, and stop a set of threads within one time budget."""

from __future__ import annotations

import logging
import time
from typing import Callable

from PySide6.QtCore import QObject, QThread

log = logging.getLogger(__name__)


def start_in_thread(obj: QObject, name: str, on_started: Callable[[], None] | None = None) -> QThread:
    """Move ``obj`` to a new QThread and start it; the object is deleted when it ends."""
    thread = QThread()
    thread.setObjectName(name)
    obj.moveToThread(thread)
    # Deleted on its own thread as that thread ends, so its timers die where they live.
    thread.finished.connect(obj.deleteLater)
    if on_started is not None:
        thread.started.connect(on_started)
    thread.start()
    return thread


def stop_threads(threads: list[QThread], timeout_s: float = 2.0, *, quit: bool = True) -> bool:
    """Quit every thread (unless ``quit`` is False: they end themselves) and wait for all
    of them, ``timeout_s`` in total; True if all ended."""
    if quit:
        for thread in threads:
            thread.quit()
    deadline = time.monotonic() + timeout_s
    for thread in threads:
        remaining_ms = max(0, int((deadline - time.monotonic()) * 1000))
        if not thread.wait(remaining_ms):
            log.warning("thread %s is still running after %.1f s", thread.objectName(), timeout_s)
            return False
    return True
