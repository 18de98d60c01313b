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
from inspector.core.report.field_checks import MAX_ITEMS, Fields, Rules, kind_of, quoted_key

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
    data, rules, prefix = f.data, f.rules, f"{f.at}." if f.at else ""
    for name, key, shown, reader, read_, has_default in _plan(typing.cast(type, cls)):
        chosen = reads.get(name, read_) if reads else read_
        if chosen is not None:
            values[name] = chosen(f, key)
        elif key in data or not has_default:  # a field left out takes its default
            if key not in data and rules.fields_required:
                rules.refuse(f.at, f"field {key!r} is missing")
            values[name] = reader(data.get(key), prefix + shown, rules, depth + 1)
    return cls(**values)  # keys it does not know (a newer version's) are left out


@functools.lru_cache(maxsize=None)
def _plan(cls: type) -> tuple[tuple[str, str, str, "_Reader", Read | None, bool], ...]:
    """(field, key, the key as a refusal names it, the annotation's reader, the field's own read
    if any, has a default) for each field of ``cls``."""
    hints = typing.get_type_hints(cls)
    return tuple(
        (f.name, (key := f.metadata.get("key", f.name)), quoted_key(key), _reader(hints[f.name]), f.metadata.get("read"),
         f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING)
        for f in dataclasses.fields(cls) if f.init and f.metadata.get("wire", True)
    )  # fmt: skip


#: Reads one value: (value, where it is, the rules, its depth) -> what the annotation says.
_Reader = Callable[[Any, str, Rules, int], Any]
#: A type's nothing: what a file's null or missing field reads as where it is not optional.
_EMPTY: dict[Any, Callable[[], Any]] = {bool: lambda: False, tuple: tuple, list: list, dict: dict}


def read_value(tp: Any, value: Any, at: str, rules: Rules, depth: int = 0) -> Any:
    """``value`` as the annotation ``tp`` says, by ``rules`` (lenient: None where it is not one)."""
    return _reader(tp)(value, at, rules, depth)


@functools.lru_cache(maxsize=None)
def _reader(tp: Any) -> _Reader:
    """The read of one annotation, worked out once (a report holds 100,000s of values)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any or tp is object:
        return _plain
    if origin is typing.Union or origin is types.UnionType:
        return _union([a for a in args if a is not type(None)], type(None) in args)
    read_ = _value_reader(tp, origin, args)
    empty = _EMPTY.get(origin or tp, lambda: None)

    def read_or_nothing(value: Any, at: str, rules: Rules, depth: int) -> Any:
        if value is None:  # a file's null or missing field is its type's nothing; the wire sends every value
            return empty() if not rules.fields_required or not rules.strict else _refuse(rules, at, _expected(tp, value))
        return read_(value, at, rules, depth)

    return read_or_nothing


def _value_reader(tp: Any, origin: Any, args: tuple[Any, ...]) -> _Reader:
    """The read of a value (not None) of the annotation ``tp``."""
    if dataclasses.is_dataclass(tp):
        cls = typing.cast(type, tp)
        return lambda value, at, rules, depth: read_fields(cls, Fields(value, at, rules), depth=_deeper(rules, at, depth))
    if origin in (tuple, list):
        return _sequence(origin, args or (Any, ...))
    if origin is dict or tp is dict:
        return _mapping(*(args or (str, Any)))
    if tp is bool:
        return lambda value, at, rules, depth: value if isinstance(value, bool) else _refuse(rules, at, _expected(tp, value), False)
    if tp is float:
        return lambda value, at, rules, depth: rules.number(value, at) if rules.strict else read.number(value)
    if tp is int:
        return lambda value, at, rules, depth: rules.whole(value, at) if rules.strict else read.whole(value)
    if tp is str:  # leniently, an item of a list of text is text
        return lambda value, at, rules, depth: (
            rules.text(value, at, depth) if rules.strict else value if isinstance(value, str) else None
        )
    if isinstance(tp, type) and issubclass(tp, str):  # a StrEnum: its value as it is
        return lambda value, at, rules, depth: value if isinstance(value, str) else _refuse(rules, at, _expected(tp, value))
    raise TypeError(f"no read for {tp!r}")


def _deeper(rules: Rules, at: str, depth: int) -> int:
    """``depth``, refused past ``MAX_DEPTH`` (a hostile line could nest lists thousands deep)."""
    if depth > MAX_DEPTH:
        _refuse(rules, at, "nested too deeply")
    return depth


def _union(args: list[Any], optional: bool) -> _Reader:
    readers = [_reader(a) for a in args]
    only_text = args == [str]

    def read_union(value: Any, at: str, rules: Rules, depth: int) -> Any:
        if value is None and optional:
            return None
        if only_text and not rules.strict:  # an optional text field: a number or flag as text
            return read.optional_text(value)
        if len(readers) == 1:
            return readers[0](value, at, rules, depth)
        refusals = []
        for reader in readers:  # the first type that takes it
            try:
                found = reader(value, at, rules, depth)
            except rules.error as exc:
                refusals.append(exc)
                continue
            if rules.strict or found is not None:
                return found
        if rules.strict and len(refusals) == 1:
            raise refusals[0]
        return _refuse(rules, at, "not any of the expected types")

    return read_union


def _sequence(origin: Any, args: tuple[Any, ...]) -> _Reader:
    what, kind = _list_of(args[0]), tuple if origin is tuple else list
    if origin is list or args[-1] is Ellipsis:
        item, floats = _reader(args[0]), args[0] is float

        def read_items(value: Any, at: str, rules: Rules, depth: int) -> Any:
            value = _list(value, at, rules, depth, what)
            if floats and rules.fast_numbers and all(type(v) is float for v in value):
                return kind(value)  # 100,000 samples, checked at C speed
            read_ = (item(v, f"{at}[{i}]", rules, depth + 1) for i, v in enumerate(value))
            return kind(v for v in read_ if rules.strict or v is not None)  # leniently, the items of its type

        return read_items
    items = [_reader(a) for a in args]

    def read_fixed(value: Any, at: str, rules: Rules, depth: int) -> Any:
        value = _list(value, at, rules, depth, what)
        if len(value) != len(items):
            return _refuse(rules, at, f"expected {len(items)} items, not {len(value)}")
        return tuple(read_(v, f"{at}[{i}]", rules, depth + 1) for i, (read_, v) in enumerate(zip(items, value)))

    return read_fixed


def _list(value: Any, at: str, rules: Rules, depth: int, what: str) -> list[Any]:
    """``value`` if it is a list of at most ``MAX_ITEMS`` (leniently: [] if it is none, or its first ones)."""
    _deeper(rules, at, depth)
    if not isinstance(value, list):
        return typing.cast(list[Any], _refuse(rules, at, f"expected {what}, not {kind_of(value)}", []))
    if len(value) > MAX_ITEMS:
        _refuse(rules, at, f"holds {len(value):,} items, more than {MAX_ITEMS:,}")
        return value[:MAX_ITEMS]
    return value


def _mapping(key_type: Any, value_type: Any) -> _Reader:
    read_key, read_item = _reader(key_type), _reader(value_type)

    def read_mapping(value: Any, at: str, rules: Rules, depth: int) -> Any:
        f = Fields(value, at, rules)
        _deeper(rules, at, depth)
        out = {}
        for key, item in f.data.items():
            name = read_key(key, f"{at} key", rules, depth + 1)
            found = read_item(item, f.name(str(key)), rules, depth + 1)
            if rules.strict or (name is not None and found is not None):
                out[name] = found
        return out

    return read_mapping


def _plain(value: Any, at: str, rules: Rules, depth: int) -> Any:
    """JSON values as they are, checked only for depth."""
    if isinstance(value, (dict, list)) and depth >= MAX_DEPTH:
        return _refuse(rules, at, "nested too deeply")
    if isinstance(value, dict):
        return {k: _plain(v, at, rules, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v, at, rules, depth + 1) for v in value]
    return value


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
