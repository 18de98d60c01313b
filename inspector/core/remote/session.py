"""A ``Session`` on another machine, driven through an agent: the same calls, the same results.

``RemoteSession`` mirrors the local ``Session``'s commands (``load``, ``move``, ``measure``,
``attribute`` is part of ``measure`` here, ``state``, ``report``) plus what a remote front end
also needs (``devices``, the memory stream). Every result is rebuilt from the agent's JSON as
the same frozen dataclass the local session returns (``wire.decode``, checked field by
field), so the window shows it with the code it already has.

The protocol's cost is outside every timed region: the agent times the model between its
own ``perf_counter_ns`` calls; the pipe only carries the samples afterwards.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any

from inspector.core.remote.client import AgentConnection
from inspector.core.remote.protocol import EventName, Op, latency_samples
from inspector.core.measure.attribution import Attribution
from inspector.core.files.inputs import InputsLike, as_specs, format_inputs
from inspector.core.devices.discovery import MemoryReading
from inspector.core.devices.inventory import DeviceInventory, DeviceSnapshot
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import MoveResult
from inspector.core.session import BenchmarkRequest, LoadRequest, ModelState
from inspector.core.measure.timing import LatencyResult
from inspector.core.remote.wire import WireError, decode
from inspector.core.vocabulary import MAX_SAMPLES, MAX_WARMUP_SAMPLES

log = logging.getLogger(__name__)

Progress = Callable[[float, float], None]
ShouldCancel = Callable[[], bool]
OnReadings = Callable[[tuple[MemoryReading, ...]], None]


class RemoteSession:
    """A session served by the agent at the other end of ``connection``."""

    def __init__(self, connection: AgentConnection) -> None:
        self.connection = connection
        self._memory_stream: int | None = None

    @property
    def host(self) -> str:
        return self.connection.info.host if self.connection.info is not None else "?"

    # ----- commands

    def devices(self) -> DeviceInventory:
        data = self.connection.call(Op.DEVICES)
        if not isinstance(data, dict):
            raise WireError("devices: expected an object")
        return DeviceInventory(
            decode(tuple[DeviceSnapshot, ...], data.get("devices"), "devices"),
            decode(tuple[str, ...], data.get("notes", []), "notes"),
        )

    def load(self, request: LoadRequest, *, should_cancel: ShouldCancel | None = None) -> ModelState:
        args = {"spec": request.spec, "trust": request.trust, "architecture": request.architecture}
        return decode(ModelState, self.connection.call(Op.OPEN, args, should_cancel=should_cancel), "state")

    def state(self) -> ModelState:
        return decode(ModelState, self.connection.call(Op.PLACEMENT), "state")

    def move(
        self,
        request: MoveRequest,
        *,
        progress: Progress | None = None,
        should_cancel: ShouldCancel | None = None,
        on_poll: Callable[[], None] | None = None,
    ) -> tuple[MoveResult, ModelState]:
        """The move's result (ok or not: a failed move is rolled back there) and the state after it.

        Callbacks: see ``measure``."""
        args = {"method": request.method, "device": request.device, "dtype": request.dtype, "pinned": request.pinned}
        data = self.connection.call(
            Op.MOVE, args, on_event=_progress_events(progress), should_cancel=should_cancel, on_poll=on_poll
        )
        if not isinstance(data, dict):
            raise WireError("move: expected an object")
        return decode(MoveResult, data.get("move"), "move"), decode(ModelState, data.get("state"), "state")

    def measure(
        self,
        request: BenchmarkRequest,
        *,
        on_sample: Callable[[int, float], None] | None = None,
        progress: Progress | None = None,
        should_cancel: ShouldCancel | None = None,
        on_poll: Callable[[], None] | None = None,
    ) -> tuple[LatencyResult, Attribution | None]:
        """Latency measured there (and per-module attribution when ``request.per_module``).

        ``on_sample`` and ``progress`` run on the connection's reader thread as events come;
        ``should_cancel`` and ``on_poll`` on the calling thread while it waits."""
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
        on_progress = _progress_events(progress, limit)
        received = 0

        def on_event(name: str, data: Any) -> None:
            nonlocal received
            if name == EventName.LATENCY:
                samples = latency_samples(data, received, limit)  # WireError: the client refuses the run
                received += len(samples)
                if on_sample is not None:
                    for index, ms in samples:
                        on_sample(index, ms)
            elif on_progress is not None:
                on_progress(name, data)

        data = self.connection.call(Op.BENCHMARK, args, on_event=on_event, should_cancel=should_cancel, on_poll=on_poll)
        if not isinstance(data, dict):
            raise WireError("benchmark: expected an object")
        attribution = data.get("attribution")
        latency = decode(LatencyResult, data.get("latency"), "latency")
        # Warm-ups come before the run and are not among its samples: held to a bound of their own.
        for name, most in (("samples_ms", limit), ("warmup_samples_ms", MAX_WARMUP_SAMPLES)):
            count = len(getattr(latency, name))
            if count > most:
                raise WireError(f"latency.{name}: {count:,} samples for a run of at most {most:,}: refused")
        runs = latency.runs_ms
        if runs and (len(runs) > request.repeat or [v for r in runs for v in r] != list(latency.samples_ms)):
            raise WireError(f"latency.runs_ms: {len(runs)} runs that are not the samples of the {request.repeat} asked for: refused")
        return latency, None if attribution is None else decode(Attribution, attribution, "attribution")

    def report(self, *, with_memory: bool = True) -> dict[str, Any]:
        data = self.connection.call(Op.REPORT, {"with_memory": with_memory})
        if not isinstance(data, dict):
            raise WireError("report: expected an object")
        return data

    # ----- the memory stream

    def start_memory(self, hz: float, on_readings: OnReadings, devices: list[str] | None = None) -> float:
        """Stream every device's memory at ``hz`` (replacing a running stream); readings come
        to ``on_readings`` on the reader thread, time-stamped on this machine's clock.
        Returns the rate the agent settled on."""
        offset = self.connection.info.clock_offset_s if self.connection.info is not None else 0.0

        def on_event(name: str, data: Any) -> None:
            if name != EventName.MEMORY:
                return
            readings = decode(tuple[MemoryReading, ...], _field(data, "readings"), "readings")
            on_readings(tuple(_rebased(r, offset) for r in readings))

        self.stop_memory()
        args: dict[str, Any] = {"hz": hz}
        if devices is not None:
            args["devices"] = devices
        self._memory_stream = self.connection.start_stream(Op.MEMORY_START, args, on_event)
        return hz

    def stop_memory(self) -> None:
        stream, self._memory_stream = self._memory_stream, None
        if stream is not None:
            self.connection.end_stream(stream)
            if self.connection.alive:
                self.connection.send_only(Op.MEMORY_STOP)

    def close(self) -> int | None:
        return self.connection.close()


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
