"""A ``Session`` on another machine, driven through an agent: the same calls, the same results.

``RemoteSession`` implements the front end's face of a session (``core.session.FrontEndSession``)
as the local ``Session`` does: ``load``, ``state``, ``move``, ``measure``, ``attribute`` (a
per-module ``measure`` brings it along), ``report``; ``fit`` and ``train_step`` say they are
not available (``capabilities``). Besides, what a remote front end also needs: ``devices``,
the memory stream, the connection (``attach``, ``alive``). Every result is rebuilt from the
agent's JSON as the same frozen dataclass the local session returns (``wire.decode``,
checked field by field, core's texts kept translatable), so the window shows it with the
code it already has. Every callback a call is given (progress, samples) runs on the calling
thread, at each poll and once before the call returns, never on the connection's reader.

The protocol's cost is outside every timed region: the agent times the model between its
own ``perf_counter_ns`` calls; the pipe only carries the samples afterwards.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from inspector.core.errors import InspectorError
from inspector.core.remote.agent_answers import ConnectionLost
from inspector.core.remote.client import AgentConnection
from inspector.core.remote.protocol import EventName, Op, latency_samples
from inspector.core.measure.attribution import Attribution
from inspector.core.measure.memory_log import MemoryTimeline
from inspector.core.files.inputs import InputsLike, as_specs, format_inputs
from inspector.core.files.models import LoadedModel
from inspector.core.devices.discovery import MemoryReading
from inspector.core.devices.inventory import DeviceInventory, DeviceSnapshot
from inspector.core.messages import Text
from inspector.core.moves.request import MoveRequest, as_run
from inspector.core.moves.transaction import MoveResult
from inspector.core.placement.model_memory import model_bytes
from inspector.core.session import REMOTE, BenchmarkRequest, LoadRequest, ModelInfo, ModelState, RunBlocking, SessionCapabilities
from inspector.core.measure.measurement import LatencyResult
from inspector.core.remote.wire import WireError, decode
from inspector.core.report.schema import TimingReport
from inspector.core.vocabulary import MAX_SAMPLES, MAX_WARMUP_SAMPLES, FailureKind

if TYPE_CHECKING:
    from inspector.core.measure.fit import FitRequest, FitResult
    from inspector.core.measure.fit_cluster import ClusterRequest
    from inspector.core.measure.training import TrainStepResult
    from inspector.core.session import FrontEndSession, Session

log = logging.getLogger(__name__)

Progress = Callable[[float, float], None]
ShouldCancel = Callable[[], bool]
OnReadings = Callable[[tuple[MemoryReading, ...]], None]


class RemoteSession:
    """A session served by the agent at the other end of ``connection``.

    ``host``: the name the user knows the machine by (else the agent's). ``connect``: called
    by a ``load`` when there is no live connection (the first load, Reconnect); it must
    ``attach`` one. ``timeline``: this machine's record of the agent's memory readings, on
    this machine's clock (the front end fills it from the stream); the report takes its
    memory from it. The latest state and report the agent sent are kept
    (``last_state``, ``last_report``): what a front end still has when the agent is gone.
    """

    def __init__(
        self,
        connection: AgentConnection | None = None,
        *,
        host: str | None = None,
        timeline: MemoryTimeline | None = None,
        connect: Callable[[], object] | None = None,
    ) -> None:
        self.connection = connection
        self.timeline = timeline if timeline is not None else MemoryTimeline()
        self._host = host
        self._connect = connect
        self._memory_stream: int | None = None
        self.last_state: ModelState | None = None
        self.last_report: dict[str, Any] | None = None
        #: The state sent with the last load or move, until ``state()`` hands it out.
        self._fresh: ModelState | None = None
        self._attribution: Attribution | None = None

    @property
    def capabilities(self) -> SessionCapabilities:
        return REMOTE

    @property
    def host(self) -> str:
        if self._host is not None:
            return self._host
        connection = self.connection
        return connection.info.host if connection is not None and connection.info is not None else "?"

    @property
    def loaded(self) -> LoadedModel | None:
        return None  # the model lives in the agent's process

    # ----- the connection

    def attach(self, connection: AgentConnection) -> None:
        """Serve from ``connection`` from now on (a new agent: its memory stream is not running)."""
        self.connection, self._memory_stream = connection, None

    @property
    def alive(self) -> bool:
        connection = self.connection
        return connection is not None and connection.alive and connection.info is not None

    def require_connection(self) -> AgentConnection:
        """The live connection; ``ConnectionLost`` (one line a banner shows) when there is none."""
        connection = self.connection
        if connection is None or not connection.alive:
            if connection is not None and connection.lost:
                raise ConnectionLost(Text("remote.not_connected_because", host=self.host, reason=connection.lost))
            raise ConnectionLost(Text("remote.not_connected", host=self.host))
        return connection

    # ----- commands

    def devices(self) -> DeviceInventory:
        data = self.require_connection().call(Op.DEVICES)
        if not isinstance(data, dict):
            raise WireError("devices: expected an object")
        return DeviceInventory(
            decode(tuple[DeviceSnapshot, ...], data.get("devices"), "devices"),
            decode(tuple[str, ...], data.get("notes", []), "notes"),
        )

    def require_model(self) -> ModelInfo:
        """The model's facts as the agent last sent them; ``InspectorError`` when none is open there."""
        if self.last_state is None:
            raise InspectorError(Text("remote.no_model", host=self.host))
        return self.last_state.info

    def load(
        self, request: LoadRequest, *, should_cancel: ShouldCancel | None = None, run: RunBlocking[LoadedModel] | None = None
    ) -> ModelState:
        """Open ``request.spec`` there (connecting first when there is no connection). ``run``
        is not needed: the agent runs the factory, and the wait for it can be cancelled."""
        if not self.alive and self._connect is not None:
            self._connect()
        args = {"spec": request.spec, "trust": request.trust, "architecture": request.architecture}
        connection = self.require_connection()
        state = decode(ModelState, connection.call(Op.OPEN, args, should_cancel=should_cancel), "state")
        self._keep_state(state)
        self._keep_report()
        return state

    def state(self) -> ModelState:
        """The state the last load or move sent (once), else the agent's now."""
        fresh, self._fresh = self._fresh, None
        if fresh is not None:
            return fresh
        state = decode(ModelState, self.require_connection().call(Op.PLACEMENT), "state")
        self.last_state = state
        return state

    def move(
        self,
        request: MoveRequest,
        *,
        progress: Progress | None = None,
        should_cancel: ShouldCancel | None = None,
        on_poll: Callable[[], None] | None = None,
    ) -> MoveResult:
        """The move's result (ok or not: a failed move is rolled back there); ``state()`` then
        gives the state the agent sent with it. Callbacks: see ``measure``."""
        connection = self.require_connection()
        args = {"method": request.method, "device": request.device, "dtype": request.dtype, "pinned": request.pinned}
        relay = _Relay(progress=progress, on_poll=on_poll)
        try:
            data = connection.call(
                Op.MOVE, args, on_event=_progress_events(relay.progress), should_cancel=should_cancel, on_poll=relay.forward
            )
        finally:
            relay.forward()
        if not isinstance(data, dict):
            raise WireError("move: expected an object")
        result = decode(MoveResult, data.get("move"), "move")
        if result.request is None:  # an agent older than results that carry their request
            result = replace(result, request=as_run(request, result.call))
        self._keep_state(decode(ModelState, data.get("state"), "state"))  # a failed move too: the rollback held
        self._keep_report()
        return result

    def measure(
        self,
        request: BenchmarkRequest,
        *,
        on_sample: Callable[[int, float], None] | None = None,
        progress: Progress | None = None,
        should_cancel: ShouldCancel | None = None,
        should_stop: ShouldCancel | None = None,
        on_poll: Callable[[], None] | None = None,
    ) -> LatencyResult:
        """Latency measured there; a per-module request brings its attribution along, which
        ``attribute`` then hands over (the agent ran both in one request).

        ``on_sample`` and ``progress`` run on the calling thread, at each poll (while it waits,
        with ``should_cancel`` and ``on_poll``) and before this returns, a cancelled run's
        samples too. ``should_stop`` is not honoured yet (``capabilities.stop_early``)."""
        connection = self.require_connection()
        args: dict[str, Any] = {
            "mode": str(request.mode),
            "runs": request.runs,
            "min_time": request.min_time,
            # As text, so several inputs and their dtypes cross as the user typed them.
            "input_shape": _inputs_text(request.input_shape),
            "per_module": request.per_module,
            "repeat": request.repeat,  # (an agent older than repeats ignores it: one run comes back)
        }
        # Every index and count the agent sends is held to what was asked for: a run takes
        # at most this many samples (a hostile agent's sample 10**12 never reaches a plot).
        limit = sample_limit(request)
        relay = _Relay(progress=progress, on_sample=on_sample, on_poll=on_poll)
        on_progress = _progress_events(relay.progress, limit)
        received = 0

        def on_event(name: str, data: Any) -> None:
            nonlocal received
            if name == EventName.LATENCY:
                samples = latency_samples(data, received, limit)  # WireError: the client refuses the run
                received += len(samples)
                for index, ms in samples:
                    relay.sample(index, ms)
            elif on_progress is not None:
                on_progress(name, data)

        self._attribution = None
        try:
            data = connection.call(Op.BENCHMARK, args, on_event=on_event, should_cancel=should_cancel, on_poll=relay.forward)
        finally:  # a cancelled run's samples still reach the plot
            relay.forward()
        if not isinstance(data, dict):
            raise WireError("benchmark: expected an object")
        attribution = data.get("attribution")
        latency = decode(LatencyResult, data.get("latency"), "latency")
        if not latency.samples_ms:  # its figures are its samples': none, and there is no measurement
            raise WireError("latency.samples_ms: a finished run with no sample: refused")
        # Warm-ups come before the run and are not among its samples: held to a bound of their own.
        for name, most in (("samples_ms", limit), ("warmup_samples_ms", MAX_WARMUP_SAMPLES)):
            count = len(getattr(latency, name))
            if count > most:
                raise WireError(f"latency.{name}: {count:,} samples for a run of at most {most:,}: refused")
        runs = latency.runs_ms
        if runs and (len(runs) > request.repeat or [v for r in runs for v in r] != list(latency.samples_ms)):
            raise WireError(f"latency.runs_ms: {len(runs)} runs that are not the samples of the {request.repeat} asked for: refused")
        self._attribution = None if attribution is None else decode(Attribution, attribution, "attribution")
        self._keep_report()
        return latency

    def attribute(
        self,
        request: BenchmarkRequest,
        *,
        progress: Progress | None = None,
        should_cancel: ShouldCancel | None = None,
    ) -> Attribution:
        """The per-module figures the last ``measure`` (of a per-module request) brought along."""
        attribution, self._attribution = self._attribution, None
        if attribution is None:
            raise InspectorError(Text("remote.no_attribution"), kind=FailureKind.ERROR)
        return attribution

    def fit(self, request: FitRequest | ClusterRequest, *, should_cancel: ShouldCancel | None = None) -> FitResult:
        raise InspectorError(Text("remote.no_fit", host=self.host), kind=FailureKind.INPUT)

    def train_step(self, input_shape: InputsLike | None = None) -> TrainStepResult:
        raise InspectorError(Text("remote.no_train_step", host=self.host), kind=FailureKind.INPUT)

    def report(self, *, with_memory: bool = True) -> TimingReport:
        """The agent's report, with the memory this side recorded (``timeline``, on this
        machine's clock); after a dropped connection, the last report the agent built."""
        if self.alive:
            try:
                self.last_report = self.agent_report(with_memory=False)
            except ConnectionLost:
                pass  # the copy below is what was measured
        if self.last_report is None:
            raise InspectorError(Text("remote.nothing_measured", host=self.host), kind=FailureKind.INPUT)
        report = dict(self.last_report)
        if with_memory:
            report["memory"] = self.timeline.to_report()
            report["model_memory"] = self.timeline.model_report()
        return TimingReport.lenient(report)  # the agent's JSON, read as a built report is

    def agent_report(self, *, with_memory: bool = True) -> dict[str, Any]:
        """The report as the agent builds it (its memory: the readings of its own timeline)."""
        data = self.require_connection().call(Op.REPORT, {"with_memory": with_memory})
        if not isinstance(data, dict):
            raise WireError("report: expected an object")
        return data

    def _keep_state(self, state: ModelState) -> None:
        """The model as the agent last sent it; its bytes per device go on this side's
        timeline (the memory plot's model curves), as a local session records them."""
        self.last_state = self._fresh = state
        self.timeline.record_model(model_bytes(state.placement))

    def _keep_report(self) -> None:
        # Outside the measured work; a failure here only means an older copy stays.
        try:
            self.last_report = self.agent_report(with_memory=False)
        except InspectorError as exc:
            log.info("could not keep a copy of the report: %s", exc.message)

    # ----- the memory stream

    def start_memory(self, hz: float, on_readings: OnReadings, devices: list[str] | None = None) -> float:
        """Stream every device's memory at ``hz`` (replacing a running stream); readings come
        to ``on_readings`` on the reader thread, time-stamped on this machine's clock.
        Returns the rate the agent settled on."""
        connection = self.require_connection()
        offset = connection.info.clock_offset_s if connection.info is not None else 0.0

        def on_event(name: str, data: Any) -> None:
            if name != EventName.MEMORY:
                return
            readings = decode(tuple[MemoryReading, ...], _field(data, "readings"), "readings")
            on_readings(tuple(_rebased(r, offset) for r in readings))

        self.stop_memory()
        args: dict[str, Any] = {"hz": hz}
        if devices is not None:
            args["devices"] = devices
        self._memory_stream = connection.start_stream(Op.MEMORY_START, args, on_event)
        return hz

    def stop_memory(self) -> None:
        stream, self._memory_stream = self._memory_stream, None
        connection = self.connection
        if stream is not None and connection is not None:
            connection.end_stream(stream)
            if connection.alive:
                connection.send_only(Op.MEMORY_STOP)

    def close(self, timeout: float = 2.0) -> int | None:
        """End the agent (``AgentConnection.close``: its stdin closed, ``timeout`` s to exit, then ended)."""
        return self.connection.close(timeout) if self.connection is not None else None


class _Relay:
    """Gathers a request's events (on the connection's reader thread) and hands them to the
    caller's callbacks on the caller's thread, every poll and once at the end."""

    def __init__(
        self,
        *,
        progress: Progress | None = None,
        on_sample: Callable[[int, float], None] | None = None,
        on_poll: Callable[[], None] | None = None,
    ) -> None:
        self._on_progress, self._on_sample, self._on_poll = progress, on_sample, on_poll
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
            self._on_progress(int(progress[0]), int(progress[1]))  # whole counts, as a local session's
        if self._on_poll is not None:
            self._on_poll()


def _conforms(local: Session, remote: RemoteSession) -> tuple[FrontEndSession, FrontEndSession]:
    """Never called: mypy checks here that both sessions are what a front end drives."""
    return local, remote


def _rebased(reading: MemoryReading, offset: float) -> MemoryReading:
    from dataclasses import replace

    return replace(reading, timestamp=reading.timestamp - offset)


def _field(data: Any, name: str) -> Any:
    if not isinstance(data, dict):
        raise WireError(f"an event's data must be an object with {name!r}")
    return data.get(name)


def sample_limit(request: BenchmarkRequest) -> int:
    """The most samples ``request`` can take: its runs (of each repeat), within the cap every measurement keeps."""
    runs = request.runs
    repeat = request.repeat if isinstance(request.repeat, int) and request.repeat >= 1 else 1
    return min(runs * repeat, MAX_SAMPLES) if isinstance(runs, int) and runs >= 1 else MAX_SAMPLES


def _progress_events(progress: Progress | None, limit: float | None = None) -> Callable[[str, Any], None] | None:
    """``progress(done, total)`` for each ``progress`` event: finite, ``0 <= done <= total``,
    a total no larger than ``limit`` (an older agent's estimate may overshoot the cap: kept
    within it); an event with other numbers is dropped, with a word in the log."""
    if progress is None:
        return None

    def on_event(name: str, data: Any) -> None:
        if name == EventName.PROGRESS and isinstance(data, dict):
            done, total = data.get("done"), data.get("total")
            if not (isinstance(done, (int, float)) and isinstance(total, (int, float))
                    and _count_like(done) and _count_like(total)):  # fmt: skip
                log.warning("ignored a progress event from the agent: done %.40r of %.40r", done, total)
                return
            most = float(total) if limit is None else min(float(total), float(limit))
            progress(min(float(done), most), most)

    return on_event


def _count_like(value: Any) -> bool:
    """A number from 0 below 2**63 (not NaN, not true/false): something that counts."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return (isinstance(value, int) or math.isfinite(value)) and 0 <= value < 2**63


def _inputs_text(value: InputsLike | None) -> str | None:
    """The agent's ``input_shape`` argument: ``10,32,512; 20,32,512:float32`` (None: the
    model's own example input)."""
    specs = as_specs(value)
    return None if specs is None else format_inputs(specs)
