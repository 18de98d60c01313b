"""The remote window's connection: an agent's ``RemoteSession``, started, watched and ended here.

``RemoteLink`` is not a session: it holds the user's command and the connection's life (its
process, who closed it, the memory readings streamed from it) and tells the window about it
with Qt signals. The window's stock ``ModelWorker`` drives ``link.session``, a
``core.remote.session.RemoteSession`` (the same face as a local ``Session``,
``core.session.FrontEndSession``), on its own thread: the GUI thread never waits on the
network. A load with no live connection (the first, Reconnect) has the session call back
here to connect. ``RemoteSampler`` hands the streamed readings to the window at the
sampling rate, on its own thread, as the local ``MemorySampler`` does.

The failures the session raises are core's texts, which the window says in its language.
"""

from __future__ import annotations

import collections
import logging
import threading
from typing import Callable

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from inspector.core.remote import AgentConnection, AgentInfo, RemoteSession, command_argv
from inspector.core.devices import DeviceInventory, MemoryReading
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.measure import MemoryTimeline
from inspector.gui.common.sample_rate import DEFAULT_SAMPLE_HZ, clamp_sample_hz

log = logging.getLogger(__name__)

#: Rounds of memory readings kept between two sampler ticks (a stalled GUI drops the oldest).
_READINGS_KEPT = 1000


class RemoteSignals(QObject):
    """What the link tells the window about the connection (emitted from worker threads,
    delivered queued on the window's)."""

    connected = Signal(AgentInfo)
    connectionLost = Signal(str, bool)  # reason, deliberate (Disconnect, closing)
    inventoryReady = Signal(DeviceInventory)  # of the server


class RemoteLink:
    """The connection to one agent, shared by the model worker and the sampler (thread-safe);
    ``session`` is what the ModelWorker drives (on the worker's thread only)."""

    def __init__(
        self, host: str, command: str | list[str], timeline: MemoryTimeline, hz: float = DEFAULT_SAMPLE_HZ
    ) -> None:
        self.host = host
        self.timeline = timeline
        self.signals = RemoteSignals()
        self.command = command
        self.hz = clamp_sample_hz(hz)
        self._lock = threading.Lock()
        self._connection: AgentConnection | None = None
        self._deliberate: set[int] = set()  # ids of connections we closed ourselves
        self._closed = False
        self._readings: collections.deque[tuple[MemoryReading, ...]] = collections.deque(maxlen=_READINGS_KEPT)
        #: The session the window's worker drives; a load with no connection connects here.
        self.session = RemoteSession(host=host, timeline=timeline, connect=self._connect_for_load)

    @property
    def alive(self) -> bool:
        connection = self._connection
        return connection is not None and connection.alive and connection.info is not None

    @property
    def info(self) -> AgentInfo | None:
        connection = self._connection
        return connection.info if connection is not None else None

    def connect(self, on_lost: Callable[[str, bool], None]) -> AgentInfo:
        """Start the command and say hello (blocking: call it on a worker thread).

        ``on_lost(reason, deliberate)`` runs once when this connection ends; ``deliberate``
        is True when we closed it (Disconnect, the window closing)."""
        argv = command_argv(self.command)
        with self._lock:
            if self._closed:
                raise Cancelled("the window is closing")
            old = self._connection
            if old is not None:
                self._deliberate.add(id(old))
        if old is not None:
            old.close_input()
        connection = AgentConnection(argv)
        with self._lock:
            self._connection = connection
            closed: bool = self._closed  # another thread may have closed it since the check above
        if closed:  # the window closed while the process started
            connection.close(timeout=1)
            raise Cancelled("the window is closing")
        self.session.attach(connection)
        try:
            info = connection.handshake()
        except BaseException:
            self._deliberate.add(id(connection))
            connection.close(timeout=1)
            raise
        connection.on_lost(lambda reason: on_lost(reason, id(connection) in self._deliberate))
        self.session.start_memory(self.hz, self._readings.append)
        return info

    def _connect_for_load(self) -> None:
        """The session's ``connect``: a load found no live connection (the first load, Reconnect)."""
        info = self.connect(self.signals.connectionLost.emit)
        self.signals.connected.emit(info)
        self.signals.inventoryReady.emit(self.session.devices())

    def set_rate(self, hz: float) -> None:
        self.hz = clamp_sample_hz(hz)
        if self.alive:
            try:
                self.session.start_memory(self.hz, self._readings.append)
            except InspectorError as exc:
                log.warning("cannot change the sampling rate on %s: %s", self.host, exc.message)

    def drain(self) -> list[tuple[MemoryReading, ...]]:
        rounds = []
        while True:
            try:
                rounds.append(self._readings.popleft())
            except IndexError:
                return rounds

    def disconnect(self) -> None:
        """Close the connection on purpose (the agent sees its stdin close, and exits)."""
        with self._lock:
            connection = self._connection
            if connection is not None:
                self._deliberate.add(id(connection))
        if connection is not None:
            connection.close_input()

    def close(self, timeout: float = 1.0) -> None:
        """For good (the window closes): no new connection starts; the agent is waited for."""
        with self._lock:
            self._closed = True
        self.disconnect()
        connection = self._connection
        if connection is not None:
            connection.close(timeout=timeout)


class RemoteSampler(QObject):
    """Hands the agent's streamed memory readings to the window, ``hz`` times a second.

    Same signals and slots as ``MemorySampler``; the readings land in the timeline before
    they are emitted. The agent reads the memory; this thread only forwards it.
    """

    inventoryReady = Signal(DeviceInventory)
    samples = Signal(object)  # tuple[MemoryReading, ...]

    def __init__(self, timeline: MemoryTimeline, link: RemoteLink) -> None:
        super().__init__()
        self._timeline = timeline
        self._link = link
        self._timer: QTimer | None = None

    @Slot()
    def start(self) -> None:
        self._timer = QTimer(self)
        self._timer.setInterval(round(1000 / self._link.hz))
        self._timer.timeout.connect(self.sample_once)
        self._timer.start()

    @Slot()
    def rediscover(self) -> None:
        if not self._link.alive:
            return
        try:
            self.inventoryReady.emit(self._link.session.devices())
        except InspectorError as exc:
            log.warning("cannot list the devices of %s: %s", self._link.host, exc.message)

    @Slot(float)
    def set_rate(self, hz: float) -> None:
        self._link.set_rate(hz)
        if self._timer is not None:
            self._timer.setInterval(round(1000 / self._link.hz))

    @Slot()
    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        QThread.currentThread().quit()

    @Slot()
    def sample_once(self) -> None:
        rounds = self._link.drain()
        if not rounds:
            return
        for readings in rounds:
            self._timeline.add(readings)
        self.samples.emit(rounds[-1])
