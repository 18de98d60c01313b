"""The agent's protocol: JSON lines over a pipe, shared by the agent and its client.

One JSON object per line, UTF-8, ASCII-escaped (so a line never holds a raw newline):

- request (client → agent): ``{"id": 7, "op": "move", "args": {...}}``
- response (agent → client, exactly one per request):
  ``{"id": 7, "ok": true, "result": ...}`` or
  ``{"id": 7, "ok": false, "error": {"kind": "oom", "message": "...", "detail": "..."}}``
- event (agent → client, any number before the response, or while a stream runs):
  ``{"id": 7, "event": "progress", "data": {"done": 3, "total": 10}}``

The README's "Remote session" section documents every op, field and event. The version is
``MAJOR.MINOR``: a minor version only adds (ops, fields, events) and both sides ignore what
they do not know; a different major version is refused by both sides at ``hello``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from inspector.core.vocabulary import StrEnum
from inspector.core.remote.wire import WireError, decode

PROTOCOL_VERSION = "1.2"
#: From this minor version on, a client takes ``latency`` events as whole nanoseconds
#: (``{"first": i, "ns": [...]}``); an older client of the same major gets ``[index, ms]`` pairs.
COMPACT_SAMPLES_MINOR = 1
#: From this minor version on, a client takes core's texts in results as ``{"text": english,
#: "key": id, "args": {...}}`` (``wire.encode_text``) and an error's as its ``text`` beside its
#: ``message``, so its window can translate them; an older client gets the English strings.
TEXTS_MINOR = 2

#: A request line longer than this is refused unread (requests are small).
MAX_REQUEST_BYTES = 1 << 20
#: A line from the agent longer than this is dropped (a report with an hour of memory is a
#: few MiB; anything this long is not ours).
MAX_RESPONSE_BYTES = 256 << 20


class Op(StrEnum):
    HELLO = "hello"
    DEVICES = "devices"
    OPEN = "open"
    PLACEMENT = "placement"
    MOVE = "move"
    BENCHMARK = "benchmark"
    CANCEL = "cancel"
    MEMORY_START = "memory.start"
    MEMORY_STOP = "memory.stop"
    REPORT = "report"
    SHUTDOWN = "shutdown"


class EventName(StrEnum):
    PROGRESS = "progress"  # {"done": float, "total": float}
    LATENCY = "latency"  # {"first": index, "ns": [whole ns, ...]}; 1.0 clients: {"samples": [[index, ms], ...]}
    MEMORY = "memory"  # {"readings": [MemoryReading, ...]}


class ErrorKind(StrEnum):
    """Error kinds of the protocol itself; the rest are ``FailureKind`` values from the work."""

    PROTOCOL = "protocol"  # a line that is not a request, an unknown op, bad arguments
    VERSION = "version"  # an incompatible major version: the agent exits after saying so
    DISCONNECTED = "disconnected"  # client side: the agent's process ended or its pipe broke


#: One number of a version: a few ASCII digits. ``str.isdigit`` also takes "²" or "١", and
#: ``int()`` refuses more than 4,300 digits with a ValueError: neither may end an agent.
_VERSION_NUMBER = re.compile(r"[0-9]{1,9}")


def major(version: object) -> int | None:
    """``"1.4"`` -> 1; None for anything that is not ``MAJOR.MINOR`` text."""
    if not isinstance(version, str):
        return None
    head = version.split(".", 1)[0]
    return int(head) if _VERSION_NUMBER.fullmatch(head) else None


def compatible(theirs: object) -> bool:
    return major(theirs) is not None and major(theirs) == major(PROTOCOL_VERSION)


def minor(version: object) -> int:
    """``"1.4"`` -> 4; 0 for anything without a readable minor version."""
    if not isinstance(version, str):
        return 0
    parts = version.split(".")
    return int(parts[1]) if len(parts) > 1 and _VERSION_NUMBER.fullmatch(parts[1]) else 0


def readable_version(version: object) -> bool:
    """Whether ``version`` is ``MAJOR.MINOR`` (or ``MAJOR``) with numbers of a few digits."""
    return isinstance(version, str) and all(_VERSION_NUMBER.fullmatch(part) for part in version.split(".")[:2])


def latency_data(first: int, samples_ms: list[float], *, compact: bool) -> dict[str, Any]:
    """A ``latency`` event's data for samples ``first``, ``first + 1``, ...

    Compact (protocol 1.1): whole nanoseconds, what the host clock measured, so each
    sample costs the agent an integer to format and the client an integer to read (pairs of
    floats cost ~5 µs to write and ~20 µs to check per sample: as much CPU as a small
    model's forward, on both ends of the pipe while the model is being timed).
    """
    if compact:
        return {"first": first, "ns": [round(ms * 1e6) for ms in samples_ms]}
    return {"samples": [[first + i, ms] for i, ms in enumerate(samples_ms)]}


def latency_samples(data: Any, received: int | None = None, limit: int | None = None) -> list[tuple[int, float]]:
    """``(index, ms)`` for each sample of a ``latency`` event, in either form; ``WireError``
    when the data is not one of them.

    ``received`` samples came before this event, and the run asked for at most ``limit``:
    the event must go on from sample ``received``, and stay within ``limit``, before a list
    is made of it. One event with ``first`` at 10**12 would otherwise have a plot pad a
    trillion gaps up to it (issue 32)."""
    if isinstance(data, dict) and "ns" in data:
        first, ns = data.get("first"), data.get("ns")
        if type(first) is not int or first < 0 or not isinstance(ns, list):
            raise WireError("latency: expected 'first' (a whole number) and 'ns' (a list of whole numbers)")
        _check_indices(first, len(ns), received, limit)
        if not all(type(v) is int and v >= 0 for v in ns):
            raise WireError("latency: expected 'first' (a whole number) and 'ns' (a list of whole numbers)")
        return [(first + i, v / 1e6) for i, v in enumerate(ns)]
    # The 1.0 form, checked field by field (slow; only an older agent sends it).
    raw = data.get("samples") if isinstance(data, dict) else None
    if isinstance(raw, list) and received is not None:
        _check_indices(received, len(raw), received, limit)
    pairs = list(decode(tuple[tuple[int, float], ...], raw, "samples"))
    if received is not None:
        for offset, (index, ms) in enumerate(pairs):
            if index != received + offset or not (math.isfinite(ms) and ms >= 0):
                raise WireError(f"latency: sample {_count(index)} is not the next one ({_count(received + offset)}) "
                                "or its time is not a duration: refused")  # fmt: skip
    return pairs


def _check_indices(first: int, count: int, received: int | None, limit: int | None) -> None:
    """Samples ``first`` .. ``first + count - 1`` go on from ``received`` and stay within ``limit``."""
    if received is None:
        return
    if first != received:
        raise WireError(f"latency: the agent sent samples from {_count(first)} on, after {_count(received)}: refused")
    if limit is not None and first + count > limit:
        raise WireError(
            f"latency: the agent sent {_count(first + count)} samples for a run of at most {_count(limit)}: refused"
        )


def _count(n: int) -> str:
    """A count for a message: ``1,000,000,000,000``; one of thousands of digits as its size."""
    return f"{n:,}" if abs(n) < 10**15 else f"about 10^{int(n.bit_length() * 0.30103)}"


def dumps(message: dict[str, Any]) -> bytes:
    """One message as one line (strict JSON: no NaN, which ``wire.encode`` turned into null)."""
    return (json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n").encode("ascii")


def loads(line: bytes) -> dict[str, Any]:
    """One line as a message object; ``WireError`` (one line, never a crash) when it is not."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise WireError(f"not a JSON line: {str(exc)[:120]}") from None
    if not isinstance(message, dict):
        raise WireError("a message must be a JSON object")
    if "id" in message and not _is_id(message["id"]):
        raise WireError("a message id must be a number or text")
    return message


def _is_id(value: object) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, str) and len(value) <= 200)


def request(ident: int | str, op: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"id": ident, "op": op, "args": args or {}}


def ok(ident: int | str | None, result: Any) -> dict[str, Any]:
    return {"id": ident, "ok": True, "result": result}


def error(ident: int | str | None, kind: str, message: str, detail: str = "", **extra: Any) -> dict[str, Any]:
    return {"id": ident, "ok": False, "error": {"kind": str(kind), "message": message, "detail": detail, **extra}}


def event(ident: int | str, name: str, data: Any) -> dict[str, Any]:
    return {"id": ident, "event": str(name), "data": data}
