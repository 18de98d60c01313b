"""The window's ``ChunkGate`` (``core.measure.chunk_gate``): while the worker times a chunk of
samples, the GUI thread is parked and the memory sampler waits, so no figure holds the
window's own work.

Why: every PyTorch call releases the GIL and takes it back. When the GUI thread runs Python
meanwhile (a paint of the Latency plot, a relayout), the worker's next call waits for it,
up to the switch interval per call; per-module hooks are Python too, and each of them can
wait. And the GUI thread's CPU time (and the X server's, drawing what it sent) comes out of
the cores the intra-op threads were timed on: on two cores, a team of two intra-op threads
one of which is not running waits a scheduler time slice at each parallel region (~8 ms),
which made a 15 µs float16 forward 16 ms. Other processes do that too, to the CLI as much as
to the window; what the window does itself is what the gate takes out.

How, per chunk (``enter`` and ``leave`` run on the worker's thread):

1. ``enter`` waits until the GUI thread has been round its event loop since the last chunk
   (a 1 ms timer it starts when let go), takes the quiet lock (a memory reading in progress
   ends first; the next one waits), then posts ``_park`` and waits for its acknowledgement.
2. The GUI thread runs ``_park`` after everything posted before it (it paints, answers
   clicks), acknowledges, and blocks on a ``threading.Event``: no Python, no CPU.
3. The chunk is timed (~10 ms at most, ``chunk_gate.GATED_CHUNK_SECONDS``).
4. ``leave`` lets the GUI thread go and releases the lock.

A call longer than the chunk is not gated (the window would freeze for a whole forward per
sample, issue 25's stall targets); ``for_run`` shortens the switch interval meanwhile, so a
GIL wait is at most ~0.2 ms per PyTorch call instead of 5 ms.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from typing import Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot

from inspector.core.measure import ChunkGate, gated

#: The interpreter's switch interval while a benchmark runs (s): how long a thread that wants
#: the GIL waits for one that runs Python before asking it to let go (the default is 5 ms).
RUN_SWITCH_INTERVAL_S = 0.0002
#: The GUI thread's own time between two chunks, at least (ms): its event loop goes round.
GUI_TURN_MS = 1
#: ...waited for at most this long (s): a GUI thread that does not come round still gets parked.
GUI_TURN_WAIT_S = 0.5
#: How often ``enter`` looks at its stop condition while the GUI thread has not parked yet (s).
_ACK_POLL_S = 0.05


class _Park:
    """One chunk's handshake: the GUI thread acknowledges, then waits for the release."""

    __slots__ = ("acked", "released")

    def __init__(self) -> None:
        self.acked = threading.Event()
        self.released = threading.Event()


class SampleGate(QObject):
    """Made on the GUI thread; ``enter``/``leave`` are called on the worker's (see the module docstring)."""

    _park = Signal(_Park)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._park.connect(self._parked, Qt.ConnectionType.QueuedConnection)
        self._quiet = threading.Lock()
        self._current: _Park | None = None
        self._closed = threading.Event()
        self._gui_turn = threading.Event()  # set: the GUI thread went round its event loop since it was parked
        self._gui_turn.set()
        #: Why ``enter`` may give up waiting for the GUI thread (the worker's cancel event):
        #: a window closing waits for the worker, and never runs ``_park``.
        self.give_up: Callable[[], bool] = lambda: False

    # ----- the worker's side

    def enter(self) -> None:
        """Return once the GUI thread is parked and no memory reading runs."""
        # The GUI thread has had a turn of its event loop since the last chunk (its timers,
        # its paints): parks posted back to back would otherwise keep it parked.
        if not self._wait(self._gui_turn, GUI_TURN_WAIT_S):
            self._quiet.acquire()
            return
        self._gui_turn.clear()
        self._quiet.acquire()
        park = _Park()
        self._current = park
        self._park.emit(park)
        if not self._wait(park.acked):
            park.released.set()  # the GUI thread, when it gets there, does not park
            self._gui_turn.set()

    def _wait(self, event: threading.Event, at_most_s: float | None = None) -> bool:
        """Wait for ``event`` (``at_most_s`` if given: then go on as if it came); False (do not
        park) once the window closes or the run is cancelled."""
        waited = 0.0
        while not event.wait(_ACK_POLL_S):
            waited += _ACK_POLL_S
            if self._closed.is_set() or self.give_up():
                return False
            if at_most_s is not None and waited >= at_most_s:
                break
        return not self._closed.is_set()

    def leave(self) -> None:
        park, self._current = self._current, None
        if park is not None:
            park.released.set()
        self._quiet.release()

    @contextlib.contextmanager
    def for_run(self) -> Iterator[None]:
        """Around one benchmark: sample loops inside are gated; the switch interval is short."""
        before = sys.getswitchinterval()
        sys.setswitchinterval(min(before, RUN_SWITCH_INTERVAL_S))
        try:
            with gated(self.as_chunk_gate()):
                yield
        finally:
            sys.setswitchinterval(before)

    def as_chunk_gate(self) -> ChunkGate:
        return ChunkGate(enter=self.enter, leave=self.leave)

    # ----- other threads' side

    @contextlib.contextmanager
    def quiet(self) -> Iterator[None]:
        """Work of another thread of the window (a memory reading): never inside a chunk."""
        with self._quiet:
            yield

    def close(self) -> None:
        """The window closes: nothing parks any more, and a parked GUI thread goes."""
        self._closed.set()
        park = self._current
        if park is not None:
            park.released.set()

    # ----- the GUI thread's side

    @Slot(object)
    def _parked(self, park: _Park) -> None:
        if not (park.released.is_set() or self._closed.is_set()):
            park.acked.set()
            park.released.wait()  # blocks in C with the GIL released: the chunk runs alone
        # A timer, not a posted call: it fires after the timers and paints that came due meanwhile.
        QTimer.singleShot(GUI_TURN_MS, self, self._gui_turn.set)
