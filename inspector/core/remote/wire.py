"""Frozen results to JSON-plain values and back, checked field by field.

The agent sends ``ModelState``, ``MoveResult``, ``LatencyResult``... as JSON; the client
rebuilds the same dataclasses so the window shows a remote result exactly like a local one.
What comes back over the pipe is read as an attacker might have written it: ``decode``
reads it through the one reader of file and wire (``report.entry_reader``, in its strict mode,
by the wire's rules), which checks every field against the dataclass's annotations and raises
``WireError`` (one line naming the field) on anything else, never a ``KeyError`` or
``TypeError`` from deep inside.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, NoReturn, TypeVar

from inspector.core.errors import InspectorError
from inspector.core.messages import Text, text_json
from inspector.core.messages.text_json import encode_text
from inspector.core.report.entry_reader import read_value
from inspector.core.report.field_checks import Rules, kind_of

T = TypeVar("T")


class WireError(InspectorError):
    """A message that does not have the shape the protocol promises."""

    kind = "protocol"


def encode(value: Any, *, texts: bool = False) -> Any:
    """A dataclass (or plain value holding some) as JSON-plain values: dicts, lists, numbers.

    Non-finite floats become None: strict JSON has no NaN, and "unknown" is what they mean.
    ``texts``: a core ``Text`` goes as ``{"text": english, "key": id, "args": {name: value}}``
    (an argument that is a ``Text`` itself goes the same way), so the client can say it in
    its window's language (protocol 1.2, ``TEXTS_MINOR``); without, as its English string.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # A field marked ``wire: False`` stays in its process (a run's timeline for a trace);
        # ``__wire_also__`` names properties sent too (figures older clients read as fields).
        names = [f.name for f in dataclasses.fields(value) if f.metadata.get("wire", True)]
        names += getattr(value, "__wire_also__", ())
        return {name: encode(getattr(value, name), texts=texts) for name in names}
    if isinstance(value, dict):
        return {str(k): encode(v, texts=texts) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v, texts=texts) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if texts and isinstance(value, Text):
        return encode_text(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)  # a torch.dtype or device that slipped into a details dict


def decode_text(data: Any, at: str = "text", depth: int = 0) -> str:
    """What ``encode_text`` sent, as a ``Text`` again (``messages.text_json``); a plain string
    stays a string, a newer agent's template its English words; anything else a ``WireError``."""
    return text_json.decode_text(data, at, depth, error=WireError)


class _WireRules(Rules):
    """The wire's leaves for ``report.entry_reader``, the one reader of file and wire: a number
    any JSON number (a result's figures may be negative), text a plain string or a ``Text`` the
    agent sent (``decode_text``); every field without a default must be sent; a refusal is a
    ``WireError`` naming the field."""

    fields_required = True
    fast_numbers = True
    error = WireError

    def refuse(self, where: str, problem: str) -> NoReturn:
        raise WireError(f"{where}: {problem}")

    def number(self, value: Any, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.refuse(where, f"expected a number, not {kind_of(value)}")
        return float(value)

    def whole(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.refuse(where, f"expected a whole number, not {kind_of(value)}")
        return value

    def text(self, value: Any, where: str, depth: int = 0) -> str:
        return decode_text(value, where, depth)


WIRE = _WireRules()


def decode(cls: type[T], data: Any, at: str = "result") -> T:
    """``data`` (from ``encode`` on the other side) as a ``cls`` (a dataclass or an annotation:
    ``tuple[str, ...]``), read by the report's one reader in the wire's rules; ``WireError``
    naming the field if it is not one."""
    try:
        value: T = read_value(cls, data, at, WIRE)
        return value
    except OverflowError:  # float() of a 400-digit whole number
        raise WireError(f"{at}: a number too large") from None
