"""The agent's answers as the client reads them: a result, or the error it stands for
(``AgentError``, ``ConnectionLost``, ``Cancelled``), and the hello as ``AgentInfo``.

An answer comes from another process, maybe another version: whatever is malformed in it is
a ``WireError``, never a ``KeyError`` or a ``TypeError`` in the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.core.errors import Cancelled, InspectorError
from inspector.core.remote import protocol as proto
from inspector.core.remote.protocol import ErrorKind
from inspector.core.remote.wire import WireError, decode_text


class AgentError(InspectorError):
    """A failure the agent reported (its ``kind``, message and detail, as sent).

    An untrusted file also carries ``path``, ``wanted`` and ``host``, so the window can ask
    "trust PATH on HOST?".
    """

    def __init__(self, kind: str, message: str, detail: str = "", **extra: Any) -> None:
        super().__init__(message, detail=detail, kind=kind)
        self.path: str | None = extra.get("path")
        self.wanted: tuple[str, ...] = tuple(extra.get("wanted") or ())
        self.host: str | None = extra.get("host")


class ConnectionLost(InspectorError):
    """The agent's process ended, or its pipe broke; nothing more will come from it."""

    kind = ErrorKind.DISCONNECTED


@dataclass(frozen=True)
class AgentInfo:
    """What the agent said about itself at hello."""

    protocol: str
    agent: str
    python: str
    torch: str
    host: str
    pid: int
    #: Agent's clock minus ours (seconds), estimated at hello: memory readings carry the
    #: agent's time.time(), and the window plots them on its own clock.
    clock_offset_s: float



def result_of(op: str, response: dict[str, Any] | None) -> Any:
    """The result of the request ``op``, or the error its ``response`` stands for, raised."""
    if response is None:  # pragma: no cover - done is set only with a response
        raise ConnectionLost("no answer from the agent")
    if response.get("ok") is True:
        return response.get("result")
    error = response.get("error")
    if not isinstance(error, dict):
        raise WireError(f"the agent's answer to {op!r} is neither a result nor an error")
    kind, message, detail = error.get("kind"), error.get("message"), error.get("detail", "")
    if not isinstance(kind, str) or not isinstance(message, str) or not isinstance(detail, str):
        raise WireError(f"the agent's error for {op!r} lacks a kind or a message")
    if "text" in error:  # a 1.2 agent: the message as core's text, which the window translates
        try:
            message = decode_text(error["text"], "error.text")
        except WireError:
            pass  # the English message is there
    if kind == ErrorKind.DISCONNECTED:
        raise ConnectionLost(message)
    if kind == "cancelled":
        raise Cancelled(message, detail=detail)
    extra = {}
    if isinstance(error.get("path"), str) and isinstance(error.get("host"), str):
        wanted = error.get("wanted")
        extra = {"path": error["path"], "host": error["host"], "wanted": [str(w) for w in wanted] if isinstance(wanted, list) else []}
    raise AgentError(kind[:60], message, detail, **extra)


def error_text(error: Any) -> str:
    """The message of an answer's ``error``, or "?"."""
    return str(error.get("message")) if isinstance(error, dict) else "?"


def agent_info(hello: Any, local_time: float) -> AgentInfo:
    """The hello's answer, received at ``local_time``, checked; a version this client cannot speak raises."""
    if not isinstance(hello, dict):
        raise WireError("the agent's hello is not an object")
    version = hello.get("protocol")
    if not proto.compatible(version):
        raise InspectorError(
            f"the agent speaks protocol {str(version)[:40]!r}, this window {proto.PROTOCOL_VERSION}: "
            "install matching versions of torch-device-inspector on both sides",
            kind=ErrorKind.VERSION,
        )
    remote_time = hello.get("time")
    offset = float(remote_time) - local_time if isinstance(remote_time, (int, float)) and not isinstance(remote_time, bool) else 0.0

    def text(key: str) -> str:
        value = hello.get(key)
        return value[:200] if isinstance(value, str) else "?"

    pid = hello.get("pid")
    return AgentInfo(
        protocol=str(version),
        agent=text("agent"),
        python=text("python"),
        torch=text("torch"),
        host=text("host"),
        pid=pid if isinstance(pid, int) and not isinstance(pid, bool) else -1,
        clock_offset_s=offset,
    )
