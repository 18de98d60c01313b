"""The agent: one ``Session`` served over JSON lines on stdin/stdout (``protocol``).

``torch-device-inspector agent`` runs it on a GPU server, started by the user's own command
(``ssh HOST torch-device-inspector agent``): it never opens a socket, and it exits when its
stdin closes (the connection dropped, the window closed), cancelling the work in hand.

Threads: the calling thread reads requests and answers the quick ones (hello, devices,
cancel, the memory stream, shutdown) at once; one worker thread runs the session's work
(open, placement, move, benchmark, report) in order, so a ``cancel`` is read and acted on
while a benchmark runs. A memory stream has its own thread. Writes to the protocol stream
hold one lock, one line each.

Nothing else may reach the protocol stream: ``run_agent`` keeps a private copy of file
descriptor 1 for it and points descriptor 1 (and ``sys.stdout``) at stderr, so a factory's
``print``, a C++ warning or a child process cannot corrupt a line. Descriptor 0 likewise:
user code that reads stdin reads an empty file, not the client's requests.

What goes out is ``agent_output``'s (the writer, the event streams); the requests' arguments
are read by ``agent_args``.
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from inspector import __version__
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.messages import Text
from inspector.core.remote import agent_args as arg
from inspector.core.remote import protocol as proto
from inspector.core.remote.agent_output import MemoryStream, ProgressEvents, SampleStream, Writer
from inspector.core.remote.protocol import ErrorKind, Op
from inspector.core.messages.text_json import encode_text
from inspector.core.remote.wire import WireError, encode
from inspector.core.vocabulary import BenchMode, DType, MoveMethod

if TYPE_CHECKING:
    from inspector.core.session import Session

log = logging.getLogger(__name__)

#: The memory stream's rate is kept within these bounds (Hz).
MIN_MEMORY_HZ, MAX_MEMORY_HZ = 0.5, 50.0
#: After stdin closes, the work in hand gets this long to see its cancel before the agent exits.
EXIT_GRACE_S = 5.0

_SESSION_OPS = frozenset({Op.OPEN, Op.PLACEMENT, Op.MOVE, Op.BENCHMARK, Op.REPORT})


@dataclass
class _Job:
    ident: int | str
    op: str
    args: dict[str, Any]
    cancel: threading.Event = field(default_factory=threading.Event)



class Agent:
    """Serves one ``Session`` to one client over a pair of byte streams."""

    def __init__(self, output: IO[bytes], session: "Session | None" = None) -> None:
        # torch is imported at the first good hello, not before: a refused client, a line
        # of garbage, an `ssh host … agent --help` answer in a fraction of a second.
        self._session = session
        self._writer = Writer(output)
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._active: dict[int | str, _Job] = {}  # queued or running, by request id
        self._active_lock = threading.Lock()
        self._memory: MemoryStream | None = None
        self._greeted = False
        # A 1.0 client reads latency samples as [index, ms] pairs; newer ones as nanoseconds.
        self.compact_samples = True
        #: Core's texts go as id and arguments (a 1.2 client, ``wire.encode_text``), else as English.
        self.texts = False
        self._worker = threading.Thread(target=self._work, name="agent-worker", daemon=True)

    @property
    def session(self) -> "Session":
        if self._session is None:
            from inspector.core.session import Session

            self._session = Session()
        return self._session

    def send(self, message: dict[str, Any]) -> None:
        self._writer.send(message)

    # ------------------------------------------------------------------ the loop

    def serve(self, stream: IO[bytes]) -> int:
        """Answer requests read from ``stream`` until it ends, a ``shutdown``, or a refused
        ``hello``. Returns the exit status: 0, or 2 for an incompatible client."""
        self._worker.start()
        status = 0
        try:
            while not self._writer.broken.is_set():
                line = stream.readline(proto.MAX_REQUEST_BYTES + 1)
                if not line:
                    break  # stdin closed: the client is gone
                if len(line) > proto.MAX_REQUEST_BYTES and not line.endswith(b"\n"):
                    self._skip_rest(stream)
                    self.send(proto.error(None, ErrorKind.PROTOCOL, f"request longer than {proto.MAX_REQUEST_BYTES} bytes: ignored"))
                    continue
                if not line.strip():
                    continue
                verdict = self._handle_line(line)
                if verdict is not None:
                    status = verdict
                    break
        finally:
            self._stop_all()
        return status

    @staticmethod
    def _skip_rest(stream: IO[bytes]) -> None:
        while True:
            chunk = stream.readline(proto.MAX_REQUEST_BYTES)
            if not chunk or chunk.endswith(b"\n"):
                return

    def _handle_line(self, line: bytes) -> int | None:
        """Answer or queue one request; an exit status when the agent must stop."""
        try:
            message = proto.loads(line)
        except WireError as exc:
            self.send(proto.error(None, ErrorKind.PROTOCOL, exc.message))
            return None
        ident, op, args = message.get("id"), message.get("op"), message.get("args", {})
        if ident is None or not isinstance(op, str) or not isinstance(args, dict):
            self.send(proto.error(ident, ErrorKind.PROTOCOL, 'a request is {"id": ..., "op": "...", "args": {...}}'))
            return None
        if op == Op.HELLO:
            return self._hello(ident, args)
        if not self._greeted:
            self.send(proto.error(ident, ErrorKind.PROTOCOL, "say hello first (op 'hello' with the client's protocol version)"))
            return None
        with self._active_lock:
            duplicate = ident in self._active or (self._memory is not None and self._memory.ident == ident)
        if duplicate:
            # Answered with id null: with the request's own id, this refusal would read as
            # the answer to the request in flight that holds it. ``duplicate`` names the id.
            shown = ident if isinstance(ident, int) else ident[:80]
            self.send(proto.error(None, ErrorKind.PROTOCOL,
                                  f"request id {shown!r} is already in use by a request in flight: this {op[:40]!r} "
                                  "request was ignored", duplicate=ident))  # fmt: skip
            return None
        if op in _SESSION_OPS:
            job = _Job(ident, op, args)
            with self._active_lock:
                self._active[ident] = job
            self._jobs.put(job)
            return None
        if op == Op.SHUTDOWN:
            self.send(proto.ok(ident, {}))
            return 0
        handler = {
            Op.DEVICES: self._devices,
            Op.CANCEL: self._cancel,
            Op.MEMORY_START: self._memory_start,
            Op.MEMORY_STOP: self._memory_stop,
        }.get(op)  # type: ignore[call-overload]
        if handler is None:
            self.send(proto.error(ident, ErrorKind.PROTOCOL, f"unknown op {op[:80]!r}"))
            return None
        self._answer(ident, lambda: handler(ident, args))
        return None

    def _answer(self, ident: int | str, work: Callable[[], Any]) -> None:
        try:
            result = work()
        except InspectorError as exc:
            self.send(_error_message(ident, exc, texts=self.texts))
        except Exception as exc:  # noqa: BLE001 -- a bug must answer the request, not kill the agent
            log.exception("request %r failed", ident)
            self.send(proto.error(ident, type(exc).__name__, str(exc) or type(exc).__name__, traceback.format_exc()))
        else:
            self.send(proto.ok(ident, result))

    def _stop_all(self) -> None:
        """Cancel queued and running work, stop the stream, let the worker end (bounded)."""
        with self._active_lock:
            for job in self._active.values():
                job.cancel.set()
        if self._memory is not None:
            self._memory.stop()
            self._memory = None
        self._jobs.put(None)
        self._worker.join(timeout=EXIT_GRACE_S)

    # ------------------------------------------------------------------ quick ops

    def _hello(self, ident: int | str, args: dict[str, Any]) -> int | None:
        theirs = args.get("protocol")
        if not proto.readable_version(theirs):  # not a version at all: said, and the agent carries on
            self.send(proto.error(ident, ErrorKind.PROTOCOL,
                                  "argument 'protocol' must be the client's version as MAJOR.MINOR "
                                  f"(this agent speaks {proto.PROTOCOL_VERSION})"))  # fmt: skip
            return None
        if not proto.compatible(theirs):
            self.send(
                proto.error(
                    ident,
                    ErrorKind.VERSION,
                    f"this agent speaks protocol {proto.PROTOCOL_VERSION} (torch-device-inspector {__version__}); "
                    f"the client speaks {str(theirs)[:40]!r}: install matching versions on both sides",
                )
            )
            return 2
        import torch

        self.session  # noqa: B018 -- imports the session's modules (torch) before the first op
        self._greeted = True
        self.compact_samples = proto.minor(theirs) >= proto.COMPACT_SAMPLES_MINOR
        self.texts = proto.minor(theirs) >= proto.TEXTS_MINOR
        self.send(
            proto.ok(
                ident,
                {
                    "protocol": proto.PROTOCOL_VERSION,
                    "agent": __version__,
                    "python": sys.version.split()[0],
                    "torch": torch.__version__,
                    "host": socket.gethostname(),
                    "pid": os.getpid(),
                    "time": time.time(),
                },
            )
        )
        return None

    def _devices(self, ident: int | str, args: dict[str, Any]) -> Any:
        from inspector.core.devices.inventory import discover_devices

        # As every answer: core's notes stay translatable for a 1.2 client (encode(texts=...)).
        return encode(discover_devices(), texts=self.texts)

    def _cancel(self, ident: int | str, args: dict[str, Any]) -> Any:
        target = args.get("target")
        with self._active_lock:
            job = self._active.get(target) if isinstance(target, (int, str)) else None
        if job is not None:
            job.cancel.set()
            return {"cancelled": True}
        if self._memory is not None and self._memory.ident == target:
            self._memory_stop(ident, {})
            return {"cancelled": True}
        return {"cancelled": False}  # already finished (its response is on its way) or unknown

    def _memory_start(self, ident: int | str, args: dict[str, Any]) -> Any:
        from inspector.core.devices.discovery import available_device_ids

        hz = arg.number(args, "hz", 10.0)
        hz = min(MAX_MEMORY_HZ, max(MIN_MEMORY_HZ, hz))
        wanted = args.get("devices")
        if wanted is not None and not (isinstance(wanted, list) and all(isinstance(d, str) for d in wanted)):
            raise InspectorError("devices must be a list of device ids", kind=ErrorKind.PROTOCOL)
        present = available_device_ids()
        ids = [d for d in (wanted if wanted is not None else present) if d in present]
        if self._memory is not None:  # one stream at a time: a new start replaces it
            self._memory.stop()
        self._memory = MemoryStream(self, ident, hz, ids, record=lambda readings: self.session.timeline.add(readings))
        self._memory.start()
        return {"stream": ident, "hz": hz, "devices": ids}

    def _memory_stop(self, ident: int | str, args: dict[str, Any]) -> Any:
        stream, self._memory = self._memory, None
        if stream is not None:
            stream.stop()
        return {"stopped": stream is not None}

    # ------------------------------------------------------------------ session work

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                if job.cancel.is_set():
                    raise Cancelled(f"cancelled before it started ({job.op})")
                self._answer(job.ident, lambda: self._run_job(job))
            except Cancelled as exc:
                self.send(_error_message(job.ident, exc, texts=self.texts))
            except BaseException as exc:  # noqa: BLE001 -- a factory's SystemExit must not end the worker
                log.exception("request %r failed", job.ident)
                self.send(proto.error(job.ident, type(exc).__name__, str(exc) or type(exc).__name__))
            finally:
                with self._active_lock:
                    self._active.pop(job.ident, None)

    def _run_job(self, job: _Job) -> Any:
        args = job.args
        from inspector.core.session import LoadRequest

        if job.op == Op.OPEN:
            request = LoadRequest(
                spec=arg.text(args, "spec", "example"),
                trust=arg.flag(args, "trust"),
                architecture=arg.text(args, "architecture", None),
            )
            # The folder the agent started in is not searched for modules (a `triton.py` there
            # would run while a file is read): a factory there is named by its path, `f.py:make`.
            return encode(self.session.load(request), texts=self.texts)
        if job.op == Op.PLACEMENT:
            return encode(self.session.state(), texts=self.texts)
        if job.op == Op.MOVE:
            return self._move(job)
        if job.op == Op.BENCHMARK:
            return self._benchmark(job)
        if job.op == Op.REPORT:
            # The file's dict (what render_json writes), its texts English as in the file: one
            # codec for the file and the wire; the client reads it back with TimingReport.lenient.
            return encode(self.session.report(with_memory=arg.flag(args, "with_memory", True)).to_dict())
        raise InspectorError(f"unknown op {job.op!r}", kind=ErrorKind.PROTOCOL)  # pragma: no cover

    def _move(self, job: _Job) -> Any:
        from inspector.core.moves.request import MoveRequest

        args = job.args
        method = arg.choice(args, "method", tuple(MoveMethod), MoveMethod.TO)
        request = MoveRequest(
            method=method,
            device=arg.text(args, "device", None),
            dtype=arg.choice(args, "dtype", tuple(DType), None),
            pinned=arg.flag(args, "pinned"),
        )
        progress = self._progress(job, "move")
        result = self.session.move(request, progress=progress.update, should_cancel=job.cancel.is_set)
        progress.flush()
        # A failed move comes back too (ok False): the state proves the rollback.
        return {"move": encode(result, texts=self.texts), "state": encode(self.session.state(), texts=self.texts)}

    def _benchmark(self, job: _Job) -> Any:
        from inspector.core.session import BenchmarkRequest

        args = job.args
        request = BenchmarkRequest(
            mode=arg.choice(args, "mode", tuple(BenchMode), BenchMode.FORWARD),
            runs=arg.whole(args, "runs", least=1),
            min_time=arg.number(args, "min_time", None, above=0.0),
            input_shape=arg.shape(args.get("input_shape")),
            per_module=arg.flag(args, "per_module"),
            repeat=_repeat(args),
        )
        if request.runs is None and request.min_time is None:
            request = BenchmarkRequest(request.mode, 100, None, request.input_shape, request.per_module, request.repeat)
        runs = request.runs * request.repeat if request.runs is not None else None
        stream = SampleStream(self, job.ident, runs, request.min_time)
        try:
            # One small callback per sample and nothing else (no progress callback, no clock
            # read): whatever runs between samples warms or cools the caches the next sample
            # runs in, so the agent keeps it to what the CLI's own bench does.
            result = self.session.measure(request, on_sample=stream.on_sample, should_cancel=job.cancel.is_set)
        finally:  # a cancelled run's samples still reach the client's plot
            stream.flush()
        progress = self._progress(job, "benchmark")
        attribution = None
        if request.per_module:
            attribution = self.session.attribute(request, progress=progress.update, should_cancel=job.cancel.is_set)
            progress.flush()
        return {"latency": encode(result, texts=self.texts), "attribution": encode(attribution, texts=self.texts)}

    def _progress(self, job: _Job, task: str) -> ProgressEvents:
        return ProgressEvents(self, job.ident, task)



def _repeat(args: dict[str, Any]) -> int:
    """``repeat``: independent runs one after another (``core.measure.repeats``), 1 when absent."""
    from inspector.core.measure.repeats import MAX_REPEAT

    return arg.whole(args, "repeat", least=1, most=MAX_REPEAT) or 1


def _error_message(ident: int | str, exc: InspectorError, *, texts: bool = False) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if texts and isinstance(exc.message, Text):  # the English stays in "message" for any reader
        extra["text"] = encode_text(exc.message)
    wanted = getattr(exc, "wanted", None)
    if wanted:  # an untrusted file: the client asks the user, naming the host and the path
        extra = {"path": str(getattr(exc, "path", "")), "wanted": [str(w) for w in wanted], "host": socket.gethostname()}
    return proto.error(ident, exc.kind, exc.message, exc.detail, **extra)


# ---------------------------------------------------------------------- process entry


def run_agent() -> int:
    """Serve on this process's stdin/stdout (the ``agent`` sub-command); returns the exit status.

    Keeps private copies of descriptors 0 and 1 for the protocol, and points the originals
    at /dev/null and stderr, so nothing but protocol ever reaches the client's pipe.
    """
    sys.stdout.flush()
    protocol_out = os.fdopen(os.dup(1), "wb", buffering=0)
    protocol_in = os.fdopen(os.dup(0), "rb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdin = open(os.devnull)  # noqa: SIM115 -- lives as long as the process
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="agent: %(levelname)s %(message)s")
    agent = Agent(protocol_out)
    status = agent.serve(protocol_in)
    sys.stderr.flush()
    return status
