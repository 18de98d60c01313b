"""Frozen results to JSON-plain values and back, checked field by field.

The agent sends ``ModelState``, ``MoveResult``, ``LatencyResult``... as JSON; the client
rebuilds the same dataclasses so the window shows a remote result exactly like a local one.
What comes back over the pipe is read as an attacker might have written it: ``decode``
checks every field against the dataclass's annotations and raises ``WireError`` (one line
naming the field) on anything else, never a ``KeyError`` or ``TypeError`` from deep inside.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import types
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from inspector.core.errors import InspectorError
from inspector.core.messages import Text

T = TypeVar("T")

#: Nesting deeper than this is refused (a hostile line could nest lists thousands deep).
_MAX_DEPTH = 32


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


def encode_text(text: Text) -> dict[str, Any]:
    """One ``Text`` as its English sentence, its template id and its arguments (``encode``)."""
    args = {name: encode_text(v) if isinstance(v, Text) else str(v) for name, v in text.args.items()}
    return {"text": str(text), "key": text.key, "args": args}


def decode_text(data: Any, at: str = "text", depth: int = 0) -> str:
    """What ``encode_text`` sent, as a ``Text`` again; a plain string stays a string.

    A template this side does not know (a newer agent's), or arguments that do not fill it,
    give the agent's English sentence as a plain string: said, if not translated. Anything
    else that is not a text object is a ``WireError``."""
    if isinstance(data, str):
        return data
    if depth > _MAX_DEPTH:
        raise WireError(f"{at}: nested too deeply")
    if not isinstance(data, dict):
        raise WireError(f"{at}: expected text, got {_type_name(data)}")
    english, key, args = data.get("text"), data.get("key"), data.get("args", {})
    if not isinstance(english, str) or not isinstance(key, str) or not isinstance(args, dict):
        raise WireError(f"{at}: expected text, or an object with 'text', 'key' and 'args'")
    values = {str(name): decode_text(v, f"{at}.args[{name!r}]", depth + 1) for name, v in args.items()}
    try:
        text = Text(key, **values)
    except (KeyError, TypeError, ValueError, IndexError):
        return english  # a template of another version: its English words
    return text if str(text) == english else english


def decode(cls: type[T], data: Any, at: str = "result") -> T:
    """``data`` (from ``encode`` on the other side) as a ``cls``; ``WireError`` if it is not one."""
    value: T = _decode(cls, data, at, 0)
    return value


@functools.lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def _decode(tp: Any, data: Any, at: str, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise WireError(f"{at}: nested too deeply")
    if tp is Any or tp is object:
        return _plain(data, at, depth)
    origin = get_origin(tp)
    if origin is Union or (hasattr(types, "UnionType") and origin is types.UnionType):
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _decode(arg, data, at, depth)
            except WireError as exc:
                errors.append(exc.message)
        raise WireError(errors[0] if len(errors) == 1 else f"{at}: not any of the expected types")
    if dataclasses.is_dataclass(tp):
        return _dataclass(tp, data, at, depth)
    if origin is tuple:
        args = get_args(tp)
        items = _list(data, at)
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] is float and all(type(v) is float for v in items):
                return tuple(items)  # a latency result's samples: 100,000 numbers, checked at C speed
            return tuple(_decode(args[0], v, f"{at}[{i}]", depth + 1) for i, v in enumerate(items))
        if len(items) != len(args):
            raise WireError(f"{at}: expected {len(args)} items, got {len(items)}")
        return tuple(_decode(a, v, f"{at}[{i}]", depth + 1) for i, (a, v) in enumerate(zip(args, items)))
    if origin is list:
        (arg,) = get_args(tp) or (Any,)
        return [_decode(arg, v, f"{at}[{i}]", depth + 1) for i, v in enumerate(_list(data, at))]
    if origin is dict or tp is dict:
        key_type, value_type = get_args(tp) or (str, Any)
        if not isinstance(data, dict):
            raise WireError(f"{at}: expected an object, got {_type_name(data)}")
        return {
            _decode(key_type, k, f"{at} key", depth + 1): _decode(value_type, v, f"{at}[{k!r}]", depth + 1)
            for k, v in data.items()
        }
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise WireError(f"{at}: expected a number, got {_type_name(data)}")
        return float(data)
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise WireError(f"{at}: expected a whole number, got {_type_name(data)}")
        return data
    if tp is str:
        return decode_text(data, at, depth)
    if tp is bool:
        if not isinstance(data, tp):
            raise WireError(f"{at}: expected {tp.__name__}, got {_type_name(data)}")
        return data
    if isinstance(tp, type) and issubclass(tp, str):  # a StrEnum field
        if not isinstance(data, str):
            raise WireError(f"{at}: expected text, got {_type_name(data)}")
        return data
    raise WireError(f"{at}: cannot read a {tp!r}")


def _dataclass(cls: Any, data: Any, at: str, depth: int) -> Any:
    if not isinstance(data, dict):
        raise WireError(f"{at}: expected an object, got {_type_name(data)}")
    hints = _hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        if f.name in data:
            values[f.name] = _decode(hints[f.name], data[f.name], f"{at}.{f.name}", depth + 1)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise WireError(f"{at}: field {f.name!r} is missing")
    return cls(**values)  # fields it does not know (a newer minor version) are left out


def _list(data: Any, at: str) -> list[Any]:
    if not isinstance(data, list):
        raise WireError(f"{at}: expected a list, got {_type_name(data)}")
    return data


def _plain(data: Any, at: str, depth: int) -> Any:
    """JSON values as they are, checked only for depth."""
    if isinstance(data, dict):
        return {k: _plain(v, at, depth + 1) for k, v in data.items()} if depth < _MAX_DEPTH else _too_deep(at)
    if isinstance(data, list):
        return [_plain(v, at, depth + 1) for v in data] if depth < _MAX_DEPTH else _too_deep(at)
    return data


def _too_deep(at: str) -> Any:
    raise WireError(f"{at}: nested too deeply")


def _type_name(data: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null"}.get(
        type(data), type(data).__name__
    )
