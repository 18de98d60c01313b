"""The client end of the agent protocol: the user's command as a child process, and a reader.

``AgentConnection.open("ssh -- gpu1 torch-device-inspector agent")`` starts the command (an
argv, no shell, through ``core.launcher``) with pipes for stdin/stdout/stderr, says hello,
and checks the protocol version. ``call`` sends a request and waits for its response (events
for it go to a callback, on the reader thread); any thread may call, several at once.
Whatever the agent's process does — prints a banner, sends half a line, dies — the reader
keeps going or ends cleanly: a malformed line is counted and logged, and the end of the pipe
fails every pending call with ``ConnectionLost`` (one line, with the last words the command
wrote on stderr).

Qt-free, so the window's worker, the tests and the benchmarks share it. What the agent's
answers mean (a result, or the error each stands for) is ``agent_answers``'.
"""

from __future__ import annotations

import collections
import itertools
import logging
import os
import shlex
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO, Any

from inspector.core import launcher
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.messages import Text
from inspector.core.remote import protocol as proto
from inspector.core.remote.agent_answers import AgentInfo, ConnectionLost, agent_info, error_text, result_of
from inspector.core.remote.protocol import ErrorKind, Op
from inspector.core.remote.wire import WireError

log = logging.getLogger(__name__)

EventHandler = Callable[[str, Any], None]

#: How long ``open`` waits for the agent's hello (ssh may take a while to connect).
HELLO_TIMEOUT_S = 60.0
#: After a cancel is sent, how long a call waits for the agent to answer before giving up.
CANCEL_GRACE_S = 10.0
#: Lines of the command's stderr kept to explain a failure.
STDERR_LINES = 40
#: How often a waiting call looks at its ``should_cancel``.
POLL_S = 0.05


class _Pending:
    def __init__(self, on_event: EventHandler | None) -> None:
        self.on_event = on_event
        self.done = threading.Event()
        self.response: dict[str, Any] | None = None
        #: Why this client refused the request's events (an index past what was asked for):
        #: the call raises it, and nothing more of the request reaches its handler.
        self.refused: WireError | None = None


def command_argv(command: str | Sequence[str]) -> list[str]:
    """The user's command line as argv (shell quoting, no shell): ``'ssh -J bastion gpu1 …'``."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command, posix=os.name != "nt")
        except ValueError as exc:  # an unclosed quote
            raise InspectorError(Text("remote.bad_command", command=repr(command), error=exc), kind="input") from None
    else:
        argv = list(command)
    if not argv:
        raise InspectorError(Text("remote.empty_command"), kind="input")
    return argv


class AgentConnection:
    """One running agent, reached through the pipes of the command that started it."""

    def __init__(self, argv: Sequence[str], *, env: dict[str, str] | None = None) -> None:
        self.argv = list(argv)
        try:
            self._process = launcher.start_program(
                self.argv,
                stdin=launcher.PIPE,
                stdout=launcher.PIPE,
                stderr=launcher.PIPE,
                env=env,
                # Its own process group: Ctrl+C in the terminal that started the window
                # reaches the window, which then closes the agent properly.
                new_session=True,
            )
        except OSError as exc:
            raise InspectorError(Text("remote.cannot_start", program=repr(self.argv[0]), error=exc.strerror or exc), kind="input") from None
        assert self._process.stdin is not None and self._process.stdout is not None and self._process.stderr is not None
        self._stdin: IO[bytes] = self._process.stdin
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._streams: dict[int, EventHandler] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self.malformed_lines = 0
        self.lost: str | None = None  # why the connection ended, once it has
        self._lost_callbacks: list[Callable[[str], None]] = []
        self.info: AgentInfo | None = None
        self._reader = threading.Thread(target=self._read, args=(self._process.stdout,), name="agent-reader", daemon=True)
        self._stderr_reader = threading.Thread(
            target=self._read_stderr, args=(self._process.stderr,), name="agent-stderr", daemon=True
        )
        self._reader.start()
        self._stderr_reader.start()

    @classmethod
    def open(
        cls,
        command: str | Sequence[str],
        *,
        timeout: float = HELLO_TIMEOUT_S,
        env: dict[str, str] | None = None,
        protocol: str = proto.PROTOCOL_VERSION,
    ) -> "AgentConnection":
        """Start ``command``, say hello, check the agent's version; ``InspectorError`` if any fails.

        ``protocol`` is the version this client announces (a test announces another)."""
        connection = cls(command_argv(command), env=env)
        try:
            connection.handshake(timeout=timeout, protocol=protocol)
        except BaseException:
            connection.close()
            raise
        return connection

    def handshake(self, *, timeout: float = HELLO_TIMEOUT_S, protocol: str = proto.PROTOCOL_VERSION) -> AgentInfo:
        """Say hello and check the agent's version (``open`` does it; a window that must be able
        to abandon a slow ssh login constructs, keeps the connection, then calls this)."""
        greeting = {"protocol": protocol, "client": "torch-device-inspector"}
        self.info = agent_info(self.call(Op.HELLO, greeting, timeout=timeout), time.time())
        # The first hello waited for the agent to start (torch's import): a second one,
        # answered at once, dates the agent's clock to within half a round trip.
        sent = time.time()
        again = self.call(Op.HELLO, greeting, timeout=timeout)
        self.info = agent_info(again, (sent + time.time()) / 2)
        return self.info

    # ------------------------------------------------------------------ calls

    @property
    def alive(self) -> bool:
        return self.lost is None

    def on_lost(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(reason)`` once when the connection ends (on the reader thread)."""
        with self._lock:
            if self.lost is None:
                self._lost_callbacks.append(callback)
                return
        callback(self.lost)

    def call(
        self,
        op: str,
        args: dict[str, Any] | None = None,
        *,
        on_event: EventHandler | None = None,
        should_cancel: Callable[[], bool] | None = None,
        timeout: float | None = None,
        on_poll: Callable[[], None] | None = None,
    ) -> Any:
        """Send one request and wait for its result; the agent's failure raises ``AgentError``.

        ``should_cancel`` is polled every POLL_S: once True, a ``cancel`` goes to the agent,
        which answers the request with a ``cancelled`` error at its next safe point.
        ``on_poll`` runs every POLL_S on the calling thread (``on_event`` runs on the reader's):
        a window's worker forwards what the events gathered from its own thread, in order.
        """
        ident, pending = self._send(op, args, on_event)
        cancel_sent_at: float | None = None
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            while not pending.done.wait(POLL_S):
                if on_poll is not None:
                    on_poll()
                now = time.monotonic()
                if cancel_sent_at is None and should_cancel is not None and should_cancel():
                    cancel_sent_at = now
                    self.send_only(Op.CANCEL, {"target": ident})
                if cancel_sent_at is not None and now - cancel_sent_at > CANCEL_GRACE_S:
                    raise Cancelled(f"the agent did not answer the cancel within {CANCEL_GRACE_S:g} s")
                if deadline is not None and now > deadline:
                    raise InspectorError(Text("remote.no_answer", op=repr(op), seconds=f"{timeout:g}"), kind=ErrorKind.DISCONNECTED)
        finally:
            with self._lock:
                self._pending.pop(ident, None)
        if pending.refused is not None:
            raise pending.refused
        return result_of(op, pending.response)

    def start_stream(self, op: str, args: dict[str, Any], on_event: EventHandler, *, timeout: float = 30.0) -> int:
        """A request whose events keep coming after its response (``memory.start``): the
        handler stays registered until ``end_stream``. Returns the stream's id."""
        ident, pending = self._send(op, args, on_event, stream=True)
        try:
            if not pending.done.wait(timeout):
                raise InspectorError(Text("remote.no_answer", op=repr(op), seconds=f"{timeout:g}"), kind=ErrorKind.DISCONNECTED)
            result_of(op, pending.response)
        except BaseException:
            self.end_stream(ident)
            raise
        finally:
            with self._lock:
                self._pending.pop(ident, None)
        return ident

    def end_stream(self, ident: int) -> None:
        with self._lock:
            self._streams.pop(ident, None)

    def send_only(self, op: str, args: dict[str, Any] | None = None) -> int:
        """Send a request whose answer nobody waits for (a cancel, a rate change)."""
        ident = next(self._ids)
        self._write(proto.request(ident, op, args))
        return ident

    def _send(self, op: str, args: dict[str, Any] | None, on_event: EventHandler | None, *, stream: bool = False) -> tuple[int, _Pending]:
        pending = _Pending(on_event)
        with self._lock:
            if self.lost is not None:
                raise ConnectionLost(self.lost)
            ident = next(self._ids)
            self._pending[ident] = pending
            if stream and on_event is not None:
                self._streams[ident] = on_event
        try:
            self._write(proto.request(ident, op, args))
        except BaseException:
            with self._lock:
                self._pending.pop(ident, None)
                self._streams.pop(ident, None)
            raise
        return ident, pending

    def _write(self, message: dict[str, Any]) -> None:
        line = proto.dumps(message)
        with self._write_lock:
            try:
                self._stdin.write(line)
                self._stdin.flush()
            except (OSError, ValueError):  # BrokenPipeError: the process is gone
                self._connection_ended("the agent's input pipe is closed")
                raise ConnectionLost(self.lost or "the agent's input pipe is closed") from None

    # ------------------------------------------------------------------ reading

    def _read(self, stdout: IO[bytes]) -> None:
        try:
            while True:
                line = stdout.readline(proto.MAX_RESPONSE_BYTES + 1)
                if not line:
                    break
                if len(line) > proto.MAX_RESPONSE_BYTES and not line.endswith(b"\n"):
                    self._malformed(f"a line longer than {proto.MAX_RESPONSE_BYTES} bytes")
                    _skip_line(stdout)
                    continue
                self._dispatch(line)
        except (OSError, ValueError) as exc:
            log.debug("reading from the agent failed: %s", exc)
        finally:
            self._connection_ended(self._exit_reason())

    def _dispatch(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            message = proto.loads(line)
        except WireError as exc:
            self._malformed(f"{exc.message}: {line[:120]!r}")
            return
        ident = message.get("id")
        if "event" in message:
            with self._lock:
                pending = self._pending.get(ident) if isinstance(ident, int) else None
                if pending is not None:  # (a refused request hears nothing more)
                    handler = pending.on_event if pending.refused is None else None
                else:
                    handler = self._streams.get(ident) if isinstance(ident, int) else None
            if handler is None:
                return  # an event for a request that is over (a cancelled stream's last round)
            name, data = message.get("event"), message.get("data")
            if not isinstance(name, str):
                self._malformed("an event without a name")
                return
            try:
                handler(name, data)
            except WireError as exc:  # an event this request cannot have sent: refused, in one line
                self._malformed(exc.message)
                if pending is not None and isinstance(ident, int):
                    self._refuse(ident, pending, exc)
            except Exception:  # noqa: BLE001 -- a handler's bug must not stop the reader
                log.exception("handling the agent's %r event failed", name)
            return
        if "ok" not in message:
            self._malformed(f"neither a response nor an event: {line[:120]!r}")
            return
        with self._lock:
            pending = self._pending.get(ident) if isinstance(ident, int) else None
        if pending is None:
            if ident is None and message.get("ok") is False:
                log.warning("the agent refused a line: %s", error_text(message.get("error")))
            return
        pending.response = message
        pending.done.set()

    def _refuse(self, ident: int, pending: _Pending, why: WireError) -> None:
        """End the waiting call with ``why`` (no more of its events are handled) and ask the
        agent to stop the request's work; its answer, when it comes, finds nobody waiting."""
        pending.refused = why
        pending.done.set()
        try:
            self.send_only(Op.CANCEL, {"target": ident})
        except ConnectionLost:
            pass

    def _malformed(self, what: str) -> None:
        self.malformed_lines += 1
        log.warning("ignored a line from the agent: %s", what)

    def _read_stderr(self, stderr: IO[bytes]) -> None:
        try:
            for raw in iter(lambda: stderr.readline(64 * 1024), b""):
                text = raw.decode("utf-8", "replace").rstrip()
                if text:
                    self._stderr.append(text)
                    log.debug("agent stderr: %s", text)
        except (OSError, ValueError):
            pass

    def stderr_tail(self, lines: int = 5) -> str:
        return "\n".join(list(self._stderr)[-lines:])

    def _exit_reason(self) -> str:
        try:
            status = self._process.wait(timeout=2)
        except launcher.TimeoutExpired:
            status = None
        self._stderr_reader.join(timeout=1)  # its last words explain the exit
        last = next((s for s in reversed(self._stderr) if s.strip()), "")
        what = "the agent's connection closed" if status is None else f"the agent exited (status {status})"
        return f"{what}: {last[:300]}" if last else what

    def _connection_ended(self, reason: str) -> None:
        with self._lock:
            if self.lost is not None:
                return
            self.lost = reason
            pending = list(self._pending.values())
            callbacks, self._lost_callbacks = self._lost_callbacks, []
            self._streams.clear()
        for p in pending:
            if not p.done.is_set():  # an answer that came before the end stands
                p.response = proto.error(None, ErrorKind.DISCONNECTED, reason)
                p.done.set()
        for callback in callbacks:
            try:
                callback(reason)
            except Exception:  # noqa: BLE001 -- a listener's bug must not stop the others
                log.exception("a connection-lost listener failed")

    # ------------------------------------------------------------------ closing

    def close(self, timeout: float = 2.0) -> int | None:
        """Close the agent's stdin (it cancels its work and exits), wait ``timeout``, then
        terminate and kill. Returns its exit status (None if it would not die). Idempotent."""
        self.close_input()
        try:
            status = self._process.wait(timeout=timeout)
        except launcher.TimeoutExpired:
            self._process.terminate()
            try:
                status = self._process.wait(timeout=1)
            except launcher.TimeoutExpired:
                self._process.kill()
                try:
                    status = self._process.wait(timeout=1)
                except launcher.TimeoutExpired:
                    status = None
        self._reader.join(timeout=2)
        self._connection_ended("closed")
        return status

    def close_input(self) -> None:
        """Close the agent's stdin without waiting: it cancels its work and exits."""
        with self._write_lock:
            try:
                self._stdin.close()
            except OSError:
                pass

    def kill(self) -> None:
        """End the agent's process at once (a test's dropped connection)."""
        self._process.kill()

    @property
    def pid(self) -> int:
        return self._process.pid


def _skip_line(stream: IO[bytes]) -> None:
    while True:
        chunk = stream.readline(1 << 20)
        if not chunk or chunk.endswith(b"\n"):
            return


def local_agent_command() -> list[str]:
    """This Python running the agent: the "remote" command of tests and benchmarks."""
    return [sys.executable, "-m", "inspector", "agent"]
