"""Start a QObject on its own QThread, stop a set of threads within one time budget, and run
work that cannot be interrupted so that it can be abandoned."""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Callable, TypeVar

from PySide6.QtCore import QObject, QThread

log = logging.getLogger(__name__)
T = TypeVar("T")


#: How much lower than the window's a background thread's CPU priority is (Linux nice steps).
#: At +10 the scheduler gives a runnable GUI thread about nine tenths of a contended core
#: (CFS weights 1024 against 110), so a repaint waits for no time slice of the worker's.
BACKGROUND_NICE = 10


def yield_to_the_window() -> None:
    """Lower the calling thread's CPU priority below the GUI thread's (see BACKGROUND_NICE).

    On Linux a thread is a task with a nice value of its own, which the threads it starts
    inherit: torch's intra-op (OpenMP) threads made by the worker's first parallel op, and a
    model factory's thread. Qt's QThread.setPriority cannot do this there (normal threads have
    a single static priority, and IdlePriority, SCHED_IDLE, would starve a benchmark behind
    any other process). Elsewhere Qt's LowPriority maps onto the platform's thread priority.
    Only for work whose speed is not what the app measures (``BackgroundRunner``).
    """
    if sys.platform.startswith("linux"):
        tid = threading.get_native_id()
        try:
            os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + BACKGROUND_NICE))
        except OSError as exc:  # a sandbox that forbids it: the thread keeps the window's priority
            log.info("could not lower the priority of thread %s: %s", tid, exc)
    else:
        thread = QThread.currentThread()
        if thread is not None:
            thread.setPriority(QThread.Priority.LowPriority)


class BackgroundRunner:
    """Runs work on one thread of its own below the window's priority, and waits for it.

    For work whose speed is not what is measured (a move: copies that take every core), run
    from the ModelWorker, which stays the one thread touching the model at a time (it waits).
    The thread is niced once, at its start (an unprivileged process cannot raise a thread's
    priority again), and torch's intra-op threads it starts are its own team (OpenMP keeps a
    pool per thread that starts parallel work) and inherit it; a benchmark, run from the
    worker's own thread, keeps the window's priority and its team, so what it measures is
    not slowed when the window has work to do.
    """

    def __init__(self, name: str) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name, initializer=yield_to_the_window)

    def run(self, work: Callable[[], T]) -> T:
        """``work()`` on the runner's thread; its result, or its exception raised here."""
        return self._pool.submit(work).result()

    def close(self) -> None:
        self._pool.shutdown(wait=False)


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


#: Plain threads running work that was abandoned (a model factory still running when the
#: window closed): ``wait_abandoned`` gives them a bounded time before the process exits.
_abandoned: set[threading.Thread] = set()


def run_abandonable(
    work: Callable[[], T], should_cancel: Callable[[], bool], *, name: str, poll_s: float = 0.05
) -> T:
    """``work()`` on a daemon thread of its own, waited for by the calling thread, which
    gives up (raises ``Cancelled``) as soon as ``should_cancel()`` says so.

    For work that cannot be interrupted (a user's model factory, ``torch.load``): the caller
    (the ModelWorker) returns at once and its QThread can end, so closing the window never
    waits on a factory or destroys a running QThread. The abandoned work runs on to its end,
    alone (its result is dropped: nothing else ever sees it), and cannot keep the process
    alive (a daemon thread; ``wait_abandoned`` bounds the wait at exit).
    """
    from inspector.core.errors import Cancelled

    if should_cancel():
        raise Cancelled(f"{name} cancelled before it started")
    future: Future[T] = Future()

    def run() -> None:
        try:
            future.set_result(work())
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread as is
            future.set_exception(exc)
        finally:
            _abandoned.discard(threading.current_thread())

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    while True:
        try:
            return future.result(timeout=poll_s)
        except FutureTimeout:
            if should_cancel():
                if thread.is_alive():
                    _abandoned.add(thread)
                    log.info("abandoned %s: it runs on, alone, and its result will be dropped", name)
                raise Cancelled(f"{name} abandoned: it could not be interrupted") from None


def wait_abandoned(timeout_s: float) -> bool:
    """Wait up to ``timeout_s`` for abandoned work to end; True if none is left running."""
    deadline = time.monotonic() + timeout_s
    for thread in list(_abandoned):
        thread.join(max(0.0, deadline - time.monotonic()))
    return not any(t.is_alive() for t in _abandoned)
