"""The remote window's back end: the stock ModelWorker, driving a session that lives in an agent.

``RemoteLink`` holds the connection (``core.remote.client``): the user's command, its process,
the memory readings streamed from it. It has the ``Session`` methods the ``ModelWorker``
calls (``load``, ``move``, ``measure``, ``attribute``, ``state``, ``report``...), so the window's
worker is the local one, on its own thread (the GUI thread never waits on the network), and
emits the same frozen results. Every callback it is given (progress, samples) runs on the
calling worker's thread, never on the connection's reader thread: the last progress always
reaches the window before the result does. ``RemoteSampler`` hands the streamed readings to
the window at the sampling rate, on its own thread, as the local ``MemorySampler`` does.

(Not a ModelWorker subclass: PySide6 calls a slot a subclass overrides directly, on the
emitting thread, instead of queueing it to the worker's.)

The failures the link raises itself are said in the window's language of the moment (they
are made on the worker's thread; ``translate`` is thread-safe), like a history row.
"""

from __future__ import annotations

import collections
import logging
import threading
from typing import Any, Callable

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from inspector.core.remote import AgentConnection, AgentInfo, ConnectionLost, RemoteSession, command_argv
from inspector.core.devices import MemoryReading
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.measure import Attribution, LatencyResult, MemoryTimeline
from inspector.core.moves import MoveRequest, MoveResult
from inspector.core.placement import model_bytes
from inspector.core.session import BenchmarkRequest, LoadRequest, ModelState
from inspector.core.vocabulary import FailureKind
from inspector.gui.i18n import core_text, fill, translate
from inspector.gui.sample_rate import DEFAULT_SAMPLE_HZ, clamp_sample_hz

log = logging.getLogger(__name__)

#: Rounds of memory readings kept between two sampler ticks (a stalled GUI drops the oldest).
_READINGS_KEPT = 1000


class RemoteSignals(QObject):
    """What the link tells the window about the connection (emitted from worker threads,
    delivered queued on the window's)."""

    connected = Signal(object)  # AgentInfo
    connectionLost = Signal(str, bool)  # reason, deliberate (Disconnect, closing)
    inventoryReady = Signal(object)  # DeviceInventory of the server


class RemoteLink:
    """The connection to one agent, shared by the model worker and the sampler (thread-safe),
    and the ``Session`` face the ModelWorker drives (on the worker's thread only)."""

    def __init__(
        self, host: str, command: str | list[str], timeline: MemoryTimeline, hz: float = DEFAULT_SAMPLE_HZ
    ) -> None:
        self.host = host
        self.timeline = timeline
        self.signals = RemoteSignals()
        #: The latest state and report the agent sent: what the window keeps when it is gone.
        self.last_state: ModelState | None = None
        self.last_report: dict[str, Any] | None = None
        self._attribution: Attribution | None = None
        self.command = command
        self.hz = clamp_sample_hz(hz)
        self._lock = threading.Lock()
        self._connection: AgentConnection | None = None
        self._session: RemoteSession | None = None
        self._deliberate: set[int] = set()  # ids of connections we closed ourselves
        self._closed = False
        self._readings: collections.deque[tuple[MemoryReading, ...]] = collections.deque(maxlen=_READINGS_KEPT)

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
        session = RemoteSession(connection)
        with self._lock:
            self._connection, self._session = connection, session
            closed = self._closed
        if closed:  # the window closed while the process started
            connection.close(timeout=1)
            raise Cancelled("the window is closing")
        try:
            info = connection.handshake()
        except BaseException:
            self._deliberate.add(id(connection))
            connection.close(timeout=1)
            raise
        connection.on_lost(lambda reason: on_lost(reason, id(connection) in self._deliberate))
        session.start_memory(self.hz, self._readings.append)
        return info

    def require(self) -> RemoteSession:
        """The live session; ``ConnectionLost`` (one line the banner shows) when there is none."""
        session, connection = self._session, self._connection
        if session is None or connection is None or not connection.alive:
            if connection is not None and connection.lost:
                text = translate("RemoteLink", "not connected to %1 (%2): use Reconnect")
                raise ConnectionLost(fill(text, self.host, core_text(connection.lost)))
            raise ConnectionLost(fill(translate("RemoteLink", "not connected to %1: use Reconnect"), self.host))
        return session

    def set_rate(self, hz: float) -> None:
        self.hz = clamp_sample_hz(hz)
        if self.alive:
            try:
                self.require().start_memory(self.hz, self._readings.append)
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


    # ------------------------------------------------------------------ the Session face

    def _connect_if_needed(self) -> RemoteSession:
        if not self.alive:
            info = self.connect(self.signals.connectionLost.emit)
            self.signals.connected.emit(info)
            self.signals.inventoryReady.emit(self.require().devices())
        return self.require()

    def require_model(self) -> ModelState:
        if self.last_state is None:
            text = translate("RemoteLink", "no model is open on %1 yet (File › Open model…)")
            raise InspectorError(fill(text, self.host))
        return self.last_state

    def load(self, request: LoadRequest, *, should_cancel: Callable[[], bool] | None = None) -> ModelState:
        """Connect first when there is no connection (the first load, Reconnect)."""
        remote = self._connect_if_needed()
        self._keep_state(remote.load(request, should_cancel=should_cancel))
        self._keep_report(remote)
        return self.require_model()

    def state(self) -> ModelState:
        return self.require_model()  # the agent sent it with the load or the move

    def move(
        self,
        request: MoveRequest,
        *,
        progress: Callable[[int, int], None] | None = None,
        should_cancel: Callable[[], bool] | None = None,
    ) -> MoveResult:
        remote = self.require()
        relay = _Relay(progress=progress)
        try:
            result, state = remote.move(
                request, progress=relay.progress, should_cancel=should_cancel, on_poll=relay.forward
            )
        finally:
            relay.forward()
        self._keep_state(state)  # a failed move too: the record shows the rollback held
        self._keep_report(remote)
        return result

    def measure(
        self,
        request: BenchmarkRequest,
        *,
        on_sample: Callable[[int, float], None] | None = None,
        progress: Callable[[int, int], None] | None = None,
        should_cancel: Callable[[], bool] | None = None,
    ) -> LatencyResult:
        """Latency measured by the agent; a per-module request brings its attribution along,
        which ``attribute`` then hands over (the agent ran both in one request)."""
        remote = self.require()
        relay = _Relay(progress=progress, on_sample=on_sample)
        try:
            result, self._attribution = remote.measure(
                request, on_sample=relay.sample, progress=relay.progress, should_cancel=should_cancel, on_poll=relay.forward
            )
        finally:  # a cancelled run's samples still reach the plot
            relay.forward()
        self._keep_report(remote)
        return result

    def attribute(self, request: BenchmarkRequest, **_callbacks: Any) -> Attribution:
        attribution, self._attribution = self._attribution, None
        if attribution is None:
            raise InspectorError(
                translate("RemoteLink", "the agent sent no per-module figures for this run"), kind=FailureKind.ERROR
            )
        return attribution

    def fit(self, request: Any, **_callbacks: Any) -> Any:
        raise InspectorError(
            fill(translate(
                "RemoteLink",
                "“Will it fit?” is not available in a remote session yet: run `torch-device-inspector fit` on %1",
            ), self.host),
            kind=FailureKind.INPUT,
        )  # fmt: skip

    def train_step(self, input_shape: Any) -> Any:
        raise InspectorError(
            fill(translate(
                "RemoteLink",
                "A training step is not available in a remote session yet: the model on %1 is left as it is",
            ), self.host),
            kind=FailureKind.INPUT,
        )  # fmt: skip

    def report(self, *, with_memory: bool = True) -> dict[str, Any]:
        """The agent's report, with the memory this window recorded (on its own clock);
        after a dropped connection, the last report the agent built."""
        if self.alive:
            try:
                self.last_report = self.require().report(with_memory=False)
            except ConnectionLost:
                pass  # the copy below is what was measured
        if self.last_report is None:
            text = translate("RemoteLink", "nothing was measured on %1 yet")
            raise InspectorError(fill(text, self.host), kind=FailureKind.INPUT)
        report = dict(self.last_report)
        if with_memory:
            report["memory"] = self.timeline.to_report()
            report["model_memory"] = self.timeline.model_report()
        return report

    def _keep_state(self, state: ModelState) -> None:
        """The model as the agent last sent it; its bytes per device go on the memory
        plot's model curves (on this window's clock), as a local session records them."""
        self.last_state = state
        self.timeline.record_model(model_bytes(state.placement))

    def _keep_report(self, remote: RemoteSession) -> None:
        # Outside the measured work; a failure here only means an older copy stays.
        try:
            self.last_report = remote.report(with_memory=False)
        except InspectorError as exc:
            log.info("could not keep a copy of the report: %s", exc.message)


class _Relay:
    """Gathers a request's events (on the connection's reader thread) and hands them to the
    caller's callbacks on the caller's thread, every poll and once at the end."""

    def __init__(
        self,
        *,
        progress: Callable[[int, int], None] | None = None,
        on_sample: Callable[[int, float], None] | None = None,
    ) -> None:
        self._on_progress, self._on_sample = progress, on_sample
        self._lock = threading.Lock()
        self._samples: list[tuple[int, float]] = []
        self._progress: tuple[float, float] | None = None

    def sample(self, index: int, ms: float) -> None:
        with self._lock:
            self._samples.append((index, ms))

    def progress(self, done: float, total: float) -> None:
        with self._lock:
            self._progress = (done, total)

    def forward(self) -> None:
        with self._lock:
            samples, self._samples = self._samples, []
            progress, self._progress = self._progress, None
        if self._on_sample is not None:
            for index, ms in samples:
                self._on_sample(index, ms)
        if progress is not None and self._on_progress is not None:
            self._on_progress(int(progress[0]), int(progress[1]))


class RemoteSampler(QObject):
    """Hands the agent's streamed memory readings to the window, ``hz`` times a second.

    Same signals and slots as ``MemorySampler``; the readings land in the timeline before
    they are emitted. The agent reads the memory; this thread only forwards it.
    """

    inventoryReady = Signal(object)
    samples = Signal(object)

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
            self.inventoryReady.emit(self._link.require().devices())
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
