"""The one reader of what a file or the agent's wire holds: a frozen dataclass, read by its fields.

A type's fields say what the JSON holds: the annotation says the type (``str | None``,
``float``, ``tuple[str, ...]``, ``dict[str, float]``, a nested dataclass, ``X | Y``...), the
field's name is the key unless its metadata names another (``{"key": "class"}``), and a field
held in a shape of its own names its read (``{"read": read}``, ``read(fields, key)``). A type's
``__checked_only__`` names keys checked but not kept (a whole number nobody reads yet).

Two modes, one walk (``field_checks.Fields``): strictly, the first bad field is refused with one
line naming it (``latency[0].machine.note: expected text, not a list``) by the rules of where it
came from (a report file's: ``field_checks.FILE``; the agent's wire: ``remote.wire.WIRE``);
leniently (a dict nobody checked) nothing raises and a field of the wrong type reads as absent,
a list keeping the items of its type. ``read_entry(cls, data, at)`` reads strictly,
``read_entry(cls, data)`` leniently: the reads cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, Callable, Mapping, TypeVar

from inspector.core.report import lenient_read as read
from inspector.core.report.field_checks import MAX_ITEMS, Fields, Rules, kind_of

T = TypeVar("T")

#: A field's read: ``Fields`` (strict or lenient) and the key -> the value.
Read = Callable[[Fields, str], Any]
_CHECKS: dict[str, Read] = {"whole": Fields.whole, "number": Fields.number, "text": Fields.text}
#: Nesting deeper than this is refused (a hostile line could nest lists thousands deep).
MAX_DEPTH = 32


def read_entry(
    cls: type[T], data: Any, at: str | None = None, *, reads: Mapping[str, Read] | None = None, rules: Rules | None = None
) -> T:
    """``data`` as a ``cls``: checked, naming ``at`` in a refusal; or, without ``at``, read
    leniently (anything that is not a mapping reads as an empty one). ``reads``: a field's
    read for this call, where it holds state of the whole report (what it may still hold)."""
    return read_fields(cls, Fields(data, at, rules), reads=reads)


def read_fields(cls: type[T], f: Fields, *, reads: Mapping[str, Read] | None = None, depth: int = 0) -> T:
    """``read_entry`` of a mapping already in its mode (an entry of a list read by ``Fields``)."""
    if f.strict:
        for key, kind in getattr(cls, "__checked_only__", ()):
            _CHECKS[kind](f, key)
    values = {}
    for name, key, hint, read_, has_default in _plan(typing.cast(type, cls)):
        chosen = (reads or {}).get(name, read_)
        if chosen is not None:
            values[name] = chosen(f, key)
        elif key in f.data or not has_default:  # a field left out takes its default
            if key not in f.data and f.rules.fields_required:
                f.rules.refuse(f.at, f"field {key!r} is missing")
            values[name] = read_value(hint, f.data.get(key), f.name(key), f.rules, depth + 1)
    return cls(**values)  # keys it does not know (a newer version's) are left out


@functools.lru_cache(maxsize=None)
def _plan(cls: type) -> tuple[tuple[str, str, Any, Read | None, bool], ...]:
    """(field, key, annotation, its own read if any, has a default) for each field of ``cls``."""
    hints = typing.get_type_hints(cls)
    return tuple(
        (f.name, f.metadata.get("key", f.name), hints[f.name], f.metadata.get("read"),
         f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING)
        for f in dataclasses.fields(cls) if f.init and f.metadata.get("wire", True)
    )  # fmt: skip


def read_value(tp: Any, value: Any, at: str, rules: Rules, depth: int = 0) -> Any:
    """``value`` as the annotation ``tp`` says, by ``rules`` (lenient: None where it is not one)."""
    if depth > MAX_DEPTH:
        return _refuse(rules, at, "nested too deeply")
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any or tp is object:
        return _plain(value, at, rules, depth)
    if origin is typing.Union or origin is types.UnionType:
        return _union([a for a in args if a is not type(None)], type(None) in args, value, at, rules, depth)
    if value is None:  # a file's null or missing field is its type's nothing; the wire sends every value
        return _empty(tp) if not rules.strict or not rules.fields_required else _refuse(rules, at, _expected(tp, value))
    if dataclasses.is_dataclass(tp):
        return read_fields(typing.cast(type, tp), Fields(value, at, rules), depth=depth)
    if origin in (tuple, list):
        return _sequence(tp, value, at, rules, depth)
    if origin is dict or tp is dict:
        return _mapping(args or (str, Any), value, at, rules, depth)
    if tp is bool:
        return value if isinstance(value, bool) else _refuse(rules, at, _expected(tp, value), False)
    if tp is float:
        return rules.number(value, at) if rules.strict else read.number(value)
    if tp is int:
        return rules.whole(value, at) if rules.strict else read.whole(value)
    if tp is str:  # leniently, an item of a list of text is text
        return rules.text(value, at, depth) if rules.strict else value if isinstance(value, str) else None
    if isinstance(tp, type) and issubclass(tp, str):  # a StrEnum: its value as it is
        return value if isinstance(value, str) else _refuse(rules, at, _expected(tp, value))
    raise TypeError(f"{at}: no read for {tp!r}")


def _union(args: list[Any], optional: bool, value: Any, at: str, rules: Rules, depth: int) -> Any:
    if value is None and optional:
        return None
    if args == [str] and not rules.strict:  # an optional text field: a number or flag as text
        return read.optional_text(value)
    if len(args) == 1:
        return read_value(args[0], value, at, rules, depth)
    refusals = []
    for arg in args:  # the first type that takes it
        try:
            found = read_value(arg, value, at, rules, depth)
        except rules.error as exc:
            refusals.append(exc)
            continue
        if rules.strict or found is not None:
            return found
    if rules.strict and len(refusals) == 1:
        raise refusals[0]
    return _refuse(rules, at, "not any of the expected types")


def _sequence(tp: Any, value: Any, at: str, rules: Rules, depth: int) -> Any:
    origin, args = typing.get_origin(tp), typing.get_args(tp) or (Any, ...)
    if not isinstance(value, list):
        return _refuse(rules, at, f"expected {_list_of(args[0])}, not {kind_of(value)}", _empty(tp))
    if len(value) > MAX_ITEMS:
        _refuse(rules, at, f"holds {len(value):,} items, more than {MAX_ITEMS:,}")
        value = value[:MAX_ITEMS]
    if origin is list or args[-1] is Ellipsis:
        if args[0] is float and rules.fast_numbers and all(type(v) is float for v in value):
            return tuple(value) if origin is tuple else list(value)  # 100,000 samples, checked at C speed
        read_items = (read_value(args[0], v, f"{at}[{i}]", rules, depth + 1) for i, v in enumerate(value))
        kept = [v for v in read_items if rules.strict or v is not None]  # leniently, the items of its type
        return tuple(kept) if origin is tuple else kept
    if len(value) != len(args):
        return _refuse(rules, at, f"expected {len(args)} items, not {len(value)}")
    return tuple(read_value(a, v, f"{at}[{i}]", rules, depth + 1) for i, (a, v) in enumerate(zip(args, value)))


def _mapping(args: tuple[Any, ...], value: Any, at: str, rules: Rules, depth: int) -> Any:
    f = Fields(value, at, rules)
    out = {}
    for key, item in f.data.items():
        name = read_value(args[0], key, f"{at} key", rules, depth + 1)
        found = read_value(args[1], item, f.name(str(key)), rules, depth + 1)
        if rules.strict or (name is not None and found is not None):
            out[name] = found
    return out


def _plain(value: Any, at: str, rules: Rules, depth: int) -> Any:
    """JSON values as they are, checked only for depth."""
    if isinstance(value, (dict, list)) and depth >= MAX_DEPTH:
        return _refuse(rules, at, "nested too deeply")
    if isinstance(value, dict):
        return {k: _plain(v, at, rules, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v, at, rules, depth + 1) for v in value]
    return value


def _empty(tp: Any) -> Any:
    """A type's nothing: what a null or missing field reads as where it is not optional."""
    origin = typing.get_origin(tp) or tp
    return {bool: False, tuple: (), list: [], dict: {}}.get(origin)


def _refuse(rules: Rules, at: str, problem: str, lenient: Any = None) -> Any:
    if rules.strict:
        rules.refuse(at, problem)
    return lenient


def _expected(tp: Any, value: Any) -> str:
    origin = typing.get_origin(tp) or tp
    words = {bool: "true or false", float: "a number", int: "a whole number", str: "text", tuple: "a list", list: "a list"}
    word = "a mapping" if dataclasses.is_dataclass(tp) or origin is dict else words.get(origin)
    return f"expected {word or 'text'}, not {kind_of(value)}"


def _list_of(item: Any) -> str:
    return {str: "a list of text", float: "a list of numbers", int: "a list of whole numbers"}.get(item, "a list")
