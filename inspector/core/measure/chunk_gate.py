"""A front end's say around each chunk of timed samples: nothing of the app runs inside one.

A benchmark run in a thread of an app (the window's worker) shares the interpreter and the
cores with the app's other threads. Every PyTorch call releases the GIL and takes it back;
when another thread runs Python meanwhile, the call waits for it, up to the switch interval
(5 ms) per call, and that thread's CPU time is taken from the intra-op threads' cores. A
``ChunkGate`` lets the front end stop its own threads before a chunk and let them go after it
(the window parks its GUI thread and its memory sampler: ``gui.state.sample_gate``), so a sample
holds the model's time only. The CLI and the agent have no such threads and pass no gate.

The gate reaches the sample loops through a context variable (``gated``), so the functions
in between (``Session.measure``, ``measure_latency``) need no extra argument. Loops wrap each
chunk in ``chunk()`` (or a single call in ``call()``). While gated, chunks are short
(``chunk_seconds``), so the app can repaint between them; a call of ``max_call_seconds`` or
longer is timed ungated (the app would freeze for that long per sample): the app then keeps
its own work small, with the switch interval it chose.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Callable

#: Chunks while gated: short enough that a window repaints between two (issue 25: p99 <= 16 ms).
GATED_CHUNK_SECONDS = 0.01
#: A call is gated before any gated call has been timed if the last one took less than this:
#: at worst the app stops once for this long (issue 25: no stall over 50 ms).
FIRST_GATED_CALL_SECONDS = 0.05
#: The clock ``call()`` times a call with (a module attribute, so a test can give a fake one).
_clock: Callable[[], int] = time.perf_counter_ns


@dataclass(frozen=True)
class ChunkGate:
    """``enter()`` before a chunk's first call returns once the app's other threads are stopped;
    ``leave()`` after its last call lets them go. Both are called on the sampling thread."""

    enter: Callable[[], None]
    leave: Callable[[], None]
    chunk_seconds: float = GATED_CHUNK_SECONDS
    #: A call this long or longer is not gated (see the module docstring).
    max_call_seconds: float = GATED_CHUNK_SECONDS


@dataclass
class _Block:
    """A ``gated`` block: its gate, and what the calls timed in it so far took.

    Whether to gate is decided from gated calls: an ungated call holds what the app did
    meanwhile (a 15 µs forward took 16 ms while the window painted), so the first call, whose
    length nobody knows, is ungated, and the next one is gated if that took under
    FIRST_GATED_CALL_SECONDS."""

    gate: ChunkGate
    quickest_gated_ns: int | None = None
    last_ungated_ns: int | None = None

    def next_gate(self) -> ChunkGate | None:
        if self.quickest_gated_ns is not None:
            return self.gate if self.quickest_gated_ns < self.gate.max_call_seconds * 1e9 else None
        if self.last_ungated_ns is not None and self.last_ungated_ns < FIRST_GATED_CALL_SECONDS * 1e9:
            return self.gate
        return None

    def took(self, quickest_ns: int, *, gated: bool) -> None:
        if gated:
            self.quickest_gated_ns = min(quickest_ns, self.quickest_gated_ns or quickest_ns)
        else:
            self.last_ungated_ns = quickest_ns


class Chunk:
    """One chunk of calls: its time budget, and ``took`` to say its quickest call's time."""

    def __init__(self, block: _Block | None, gate: ChunkGate | None) -> None:
        self._block, self.gate = block, gate

    @property
    def budget_ns(self) -> int | None:
        """The chunk's budget while gated; None: the sample loop's own."""
        return int(self.gate.chunk_seconds * 1e9) if self.gate is not None else None

    def took(self, quickest_ns: int) -> None:
        if self._block is not None:
            self._block.took(quickest_ns, gated=self.gate is not None)


_active: contextvars.ContextVar[_Block | None] = contextvars.ContextVar("chunk_gate", default=None)


@contextlib.contextmanager
def gated(gate: ChunkGate | None) -> Iterator[None]:
    """Sample loops run inside this block call ``gate`` around their chunks."""
    token = _active.set(_Block(gate) if gate is not None else None)
    try:
        yield
    finally:
        _active.reset(token)


@contextlib.contextmanager
def chunk() -> Iterator[Chunk]:
    """A chunk of back-to-back calls, gated where the enclosing ``gated`` block says so."""
    block = _active.get()
    gate = block.next_gate() if block is not None else None
    if gate is not None:
        gate.enter()
    try:
        yield Chunk(block, gate)
    finally:
        if gate is not None:
            gate.leave()


@contextlib.contextmanager
def call() -> Iterator[None]:
    """One call timed on its own (a warm-up call, a per-module forward) as a chunk of one."""
    with chunk() as one:
        start = _clock()
        try:
            yield
        finally:
            one.took(_clock() - start)


def gate_from_the_first(known_ns: int) -> None:
    """The calls that follow take about ``known_ns`` (their forward was just timed, e.g. a
    per-module run after the plain one): decide the first of them by that, as if it had been
    timed ungated, so that where they are short none of the timed calls shares its time with
    the app's other threads, and where they are long (a 210 ms forward) the first is not gated
    either: gated, it held the window for a whole forward (issue 46 item 4)."""
    block = _active.get()
    if block is not None and block.quickest_gated_ns is None and block.last_ungated_ns is None:
        block.last_ungated_ns = max(0, int(known_ns))
