"""What the agent sends: lines on the protocol stream, one at a time, and the events that
flow between a request and its answer (latency samples, progress, memory readings).

Events are gathered and sent at most every EVENT_INTERVAL_S: a tiny model takes a sample
every few microseconds, and a line per sample would cost more than the model.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, Protocol

from inspector.core.remote import protocol as proto
from inspector.core.remote.protocol import EventName
from inspector.core.remote.wire import encode
from inspector.core.vocabulary import MAX_MEASURE_SECONDS, MAX_SAMPLES

if TYPE_CHECKING:
    from inspector.core.devices.discovery import MemoryReading

log = logging.getLogger(__name__)

#: Progress and latency samples go out at most this often (a tiny model takes a sample
#: every few microseconds: a line per sample would cost more than the model).
EVENT_INTERVAL_S = 0.05


class EventSink(Protocol):
    """Where events go (the ``Agent``): its ``send``, and how the client reads samples."""

    #: A 1.0 client reads latency samples as [index, ms] pairs; newer ones as nanoseconds.
    compact_samples: bool

    def send(self, message: dict[str, Any]) -> None: ...


class Writer:
    """One line at a time onto the protocol stream; a closed pipe sets ``broken``."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self.broken = threading.Event()

    def send(self, message: dict[str, Any]) -> None:
        try:
            line = proto.dumps(message)
        except (TypeError, ValueError) as exc:  # a value JSON cannot hold: answer, never die
            log.exception("cannot send a message")
            if "event" in message:
                # Dropped: an error line with the request's id would read as its answer,
                # one per event (a request must get exactly one).
                return
            line = proto.dumps(proto.error(message.get("id"), "error", f"the agent could not encode its answer: {exc}"))
        with self._lock:
            if self.broken.is_set():
                return
            try:
                self._stream.write(line)
                self._stream.flush()
            except (OSError, ValueError):  # the client is gone (BrokenPipeError) or closed us
                self.broken.set()


class _Throttle:
    """Calls ``send`` with what was gathered, at most every EVENT_INTERVAL_S; ``flush`` at the end."""

    def __init__(self, send: Callable[[], None]) -> None:
        self._send = send
        self._last = 0.0
        self.pending = False

    def poke(self) -> None:
        self.pending = True
        now = time.monotonic()
        if now - self._last >= EVENT_INTERVAL_S:
            self.flush(now)

    def flush(self, now: float | None = None) -> None:
        if self.pending:
            self.pending = False
            self._last = time.monotonic() if now is None else now
            self._send()


class MemoryStream:
    """Reads the devices' memory at ``hz`` and sends each round as one ``memory`` event;
    ``record`` keeps each round (the session's timeline)."""

    def __init__(
        self,
        sink: EventSink,
        ident: int | str,
        hz: float,
        device_ids: list[str],
        record: Callable[[list[MemoryReading]], None],
    ) -> None:
        self.ident = ident
        self.hz = hz
        self.device_ids = device_ids
        self._sink = sink
        self._record = record
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="agent-memory", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def _run(self) -> None:
        from inspector.core.devices.discovery import memory_reading

        interval = 1.0 / self.hz
        next_at = time.monotonic()
        while not self._stop.is_set():
            readings = []
            for device in list(self.device_ids):
                try:
                    readings.append(memory_reading(device))
                except Exception:  # noqa: BLE001 -- a device that cannot be read (gone, driver error): stop asking
                    log.warning("cannot read the memory of %s; no longer sampling it", device, exc_info=True)
                    self.device_ids.remove(device)
            self._record(readings)
            self._sink.send(proto.event(self.ident, EventName.MEMORY, {"readings": [encode(r) for r in readings]}))
            # A fixed cadence (not "sleep after the work"): 10 Hz stays 10 Hz.
            next_at = max(next_at + interval, time.monotonic())
            self._stop.wait(next_at - time.monotonic())


class SampleStream:
    """A benchmark's samples as ``latency`` and ``progress`` events, every EVENT_INTERVAL_S
    of measured time (the samples' own durations: no clock is read between samples)."""

    __slots__ = ("_sink", "_ident", "_runs", "_min_ms", "_values", "_first", "_pending_ms", "_measured_ms")

    def __init__(self, sink: EventSink, ident: int | str, runs: int | None, min_time: float | None) -> None:
        self._sink, self._ident = sink, ident
        # As the measurement caps them: a total never above the samples a run can take.
        self._runs = None if runs is None else min(runs, MAX_SAMPLES)
        self._min_ms = None if min_time is None else min(min_time, MAX_MEASURE_SECONDS) * 1000
        self._values: list[float] = []
        self._first = 0
        self._pending_ms = 0.0
        self._measured_ms = 0.0

    def on_sample(self, index: int, ms: float) -> None:
        self._values.append(ms)
        self._pending_ms += ms
        if self._pending_ms >= EVENT_INTERVAL_S * 1000:
            self.flush()

    def flush(self) -> None:
        if not self._values:
            return
        values, self._values = self._values, []
        first, self._first = self._first, self._first + len(values)
        self._measured_ms += self._pending_ms
        self._pending_ms = 0.0
        data = proto.latency_data(first, values, compact=self._sink.compact_samples)
        self._sink.send(proto.event(self._ident, EventName.LATENCY, data))
        done = self._first
        if self._runs is not None:
            total = float(self._runs)
        elif self._min_ms:  # an estimate, as the local progress bar's, within the sample cap
            total = min(float(MAX_SAMPLES), max(done, done * self._min_ms / max(self._measured_ms, 1e-9)))
        else:
            total = float(done)
        self._sink.send(proto.event(self._ident, EventName.PROGRESS, {"task": "benchmark", "done": done, "total": total}))


class ProgressEvents:
    """A task's progress (``done`` of ``total``) as ``progress`` events, at most every EVENT_INTERVAL_S."""

    def __init__(self, sink: EventSink, ident: int | str, task: str) -> None:
        self._sink, self._ident, self._task = sink, ident, task
        self._latest: tuple[float, float] = (0.0, 0.0)
        self._throttle = _Throttle(self._send)

    def update(self, done: float, total: float) -> None:
        if not (math.isfinite(done) and math.isfinite(total)):
            return  # (a count JSON cannot hold says nothing the next update will not)
        self._latest = (done, total)
        self._throttle.poke()

    def flush(self) -> None:
        self._throttle.flush()

    def _send(self) -> None:
        done, total = self._latest
        self._sink.send(proto.event(self._ident, EventName.PROGRESS, {"task": self._task, "done": done, "total": total}))

