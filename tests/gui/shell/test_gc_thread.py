"""Garbage holding Qt objects is collected on the GUI thread only, never in a worker.

A collection in a worker thread (a model load allocating) used to free an old window's Qt
objects there and deadlock against the GUI thread: the suite hung on it.
"""

from __future__ import annotations

import gc
import threading
import weakref
from tests.gui.helpers import GENEROUS_MS


class _Cycle:
    """A reference cycle that owns a Qt object, as a closed dialog's wrapper can."""

    def __init__(self) -> None:
        from PySide6.QtCore import QObject

        self.me = self
        self.qt = QObject()


def test_a_worker_allocating_never_collects_qt_garbage_the_gui_timer_does(qapp, qtbot):
    from inspector.gui.shell import app

    assert app._collector is not None, "the window's QApplication should leave collection to the GUI timer"
    # As the app left it: automatic collection off. (A thread of an earlier test in this process
    # that paused the collector before the app existed turns it back on when it ends.)
    was = gc.isenabled()
    gc.disable()
    try:
        _worker_then_gui_timer(qtbot)
    finally:
        if was:
            gc.enable()


def _worker_then_gui_timer(qtbot) -> None:
    freed_in: list[str] = []
    cycle = _Cycle()
    weakref.finalize(cycle, lambda: freed_in.append(threading.current_thread().name))
    del cycle
    kept: list[list[int]] = []

    def allocate() -> None:
        # Far over the first generation's threshold: an automatic collection would run here.
        kept.extend([i] for i in range(20 * gc.get_threshold()[0]))

    worker = threading.Thread(target=allocate, name="model-load")
    worker.start()
    worker.join()
    assert freed_in == []
    qtbot.waitUntil(lambda: bool(freed_in), timeout=GENEROUS_MS)
    assert freed_in == ["MainThread"]


def test_what_torch_and_qt_made_at_startup_is_left_out_of_full_collections(qapp):
    """A full collection walked all of it (~215,000 objects, ~95 ms on the GUI thread: a
    stall every ~70,000 allocations); frozen, it is in no generation the timer walks."""
    import torch
    from PySide6 import QtWidgets

    assert gc.get_freeze_count() > 0
    walked = {id(o) for o in gc.get_objects()}
    assert id(vars(torch)) not in walked and id(vars(QtWidgets)) not in walked
