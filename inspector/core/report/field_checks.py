"""Typed, bounded reads of a report file's fields, in two modes: strict and lenient.

A report file is read as an attacker might have written it. Strictly (``Fields(data, at)``)
each read checks the type, that a number is finite, non-negative and of sane size, that a list
or a text is not huge, and otherwise raises a ``ReportSchemaError`` whose one-line message names
the field (``latency[0].samples_ms: expected a list of numbers``), its keys quoted where the
file chose them. Leniently (``Fields(data)``, a dict nobody checked) the same reads never
raise: a field of the wrong type reads as absent (``lenient_read``), a list keeps the items
of its type. A type's reader is written once against these reads and reads in either mode
(``entry_reader``, ``latency_entry``, ``schema``): the two modes cannot drift apart.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Mapping, NoReturn

from inspector.core.errors import InputError
from inspector.core.report import lenient_read as read

#: Larger than any byte count, sample count or time a real report holds (an exabyte), small
#: enough that every reader can turn it into a float and format it.
MAX_NUMBER = 1e18
#: Model specs, paths and notes are short; a megabyte of "device name" is an attack.
MAX_TEXT = 10_000
#: More than any report this version writes (100,000 samples per measurement).
MAX_ITEMS = 1_000_000


class ReportSchemaError(InputError):
    """A report field is missing or holds what its readers cannot use."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class Rules:
    """The leaves of a strict read, and its refusal: a report file's by default (finite numbers
    from 0 to ``MAX_NUMBER``, text of at most ``MAX_TEXT``, ``ReportSchemaError``); the agent's
    wire has its own (``remote.wire.WIRE``). ``fields_required``: a dataclass field without a
    default must be there (the wire sends every field); a file's missing field reads as absent."""

    strict = True
    fields_required = False
    error: type[Exception] = InputError  # what ``refuse`` raises
    fast_numbers = False  # a list of floats taken as it is (the wire's samples: finite by its JSON)

    def refuse(self, where: str, problem: str) -> NoReturn:
        raise ReportSchemaError(where, problem)

    def number(self, value: Any, where: str) -> float:
        return _number(value, where)

    def whole(self, value: Any, where: str) -> int:
        return _whole(value, where)

    def text(self, value: Any, where: str, depth: int = 0) -> str:
        return checked_text(value, where)


class _Lenient(Rules):
    """A dict nobody checked: nothing is refused (``Fields``' lenient mode)."""

    strict = False

    def refuse(self, where: str, problem: str) -> NoReturn:
        raise AssertionError("a lenient read refuses nothing")  # pragma: no cover


FILE = Rules()
LENIENT = _Lenient()


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Fields:
    """Typed reads of one mapping of the report; ``at`` names it in errors (``latency[0]``).

    Without ``at`` (None) the reads are lenient: nothing raises, and a value of the wrong type
    reads as absent (anything that is not a mapping reads as an empty one)."""

    def __init__(self, data: Any, at: str | None = None, rules: Rules | None = None) -> None:
        self.rules = rules or (FILE if at is not None else LENIENT)
        self.strict = self.rules.strict
        if not isinstance(data, Mapping):
            if self.strict:
                self.rules.refuse(at or "", f"expected a mapping, not {kind_of(data)}")
            data = {}
        self.data: Mapping[str, Any] = data
        self.at = at or ""

    def name(self, key: str) -> str:
        key = quoted_key(key)
        return f"{self.at}.{key}" if self.at else key

    def key(self, key: Any) -> str:
        """A key of this mapping (a device name of ``memory``) as text: strictly, text of sane length."""
        return checked_text(key, self.at) if self.strict else str(key)

    def refuse(self, where: str, problem: str) -> None:
        """Strictly, the field ``where`` is refused; leniently nothing happens (the caller reads
        on with what it can, or takes the field as absent)."""
        if self.strict:
            self.rules.refuse(where, problem)

    def value(self, key: str, required: bool) -> Any:
        value = self.data.get(key)
        if value is None and required and self.strict:
            self.rules.refuse(self.name(key), "missing" if key not in self.data else "expected a value, not null")
        return value

    def text(self, key: str, *, required: bool = False, default: str | None = None) -> str | None:
        """Text; ``default`` where it is absent (leniently: where it is no text or number either)."""
        value = self.value(key, required)
        if not self.strict:
            return read.optional_text(value) if default is None else read.text(value, default)
        return default if value is None else self.rules.text(value, self.name(key))

    def number(self, key: str, *, required: bool = False) -> float | None:
        value = self.value(key, required)
        if not self.strict:
            return read.number(value)
        return None if value is None else self.rules.number(value, self.name(key))

    def whole(self, key: str, *, required: bool = False) -> int | None:
        value = self.value(key, required)
        if not self.strict:
            return read.whole(value)
        return None if value is None else self.rules.whole(value, self.name(key))

    def flag(self, key: str, default: bool = False, *, required: bool = False) -> bool:
        value = self.data.get(key)
        if isinstance(value, bool):
            return value
        if not self.strict or (value is None and not required):
            return default
        raise ReportSchemaError(self.name(key), f"expected true or false, not {kind_of(value)}")

    def numbers(self, key: str, *, required: bool = False) -> tuple[float, ...]:
        """A list of numbers (leniently: the numbers in it, anything else left out)."""
        items = self.items(key, required=required, what="a list of numbers")
        if not self.strict:
            return tuple(n for v in items if (n := read.number(v)) is not None)
        where = self.name(key)
        if not all(_is_number(v) for v in items):
            raise ReportSchemaError(where, "expected a list of numbers")
        return tuple(_number(v, f"{where}[{i}]") for i, v in enumerate(items))

    def number_lists(self, key: str) -> tuple[tuple[float, ...], ...]:
        """A list of lists of numbers (``runs_ms``: each run's samples); () when absent
        (leniently: also when an item is no list; a list keeps its numbers)."""
        where = self.name(key)
        out = []
        for i, item in enumerate(self.items(key, what="a list of lists of numbers")):
            if not self.strict:
                if not isinstance(item, list):
                    return ()
                out.append(tuple(n for v in item if (n := read.number(v)) is not None))
                continue
            at = f"{where}[{i}]"
            if not isinstance(item, list) or not all(_is_number(v) for v in item):
                raise ReportSchemaError(at, f"expected a list of numbers, not {kind_of(item)}" if not isinstance(item, list)
                                        else "expected a list of numbers")  # fmt: skip
            out.append(tuple(_number(v, f"{at}[{j}]") for j, v in enumerate(item)))
        return tuple(out)

    def texts(self, key: str) -> tuple[str, ...]:
        """A list of text (leniently: the text in it)."""
        where = self.name(key)
        items = self.items(key, what="a list of text")
        if not self.strict:
            return tuple(v for v in items if isinstance(v, str))
        return tuple(checked_text(v, f"{where}[{i}]") for i, v in enumerate(items))

    def shape(self, key: str) -> tuple[int, ...]:
        """A tensor shape (leniently: ``lenient_read.shape``, () unless it is one)."""
        if not self.strict:
            return read.shape(self.data.get(key))
        where = self.name(key)
        items = self.items(key, what="a list of whole numbers")
        return tuple(_whole(v, f"{where}[{i}]") for i, v in enumerate(items))

    def shapes(self, key: str) -> tuple[tuple[int, ...], ...]:
        """A list of shapes (``input_shapes``: each input's); () when absent."""
        where = self.name(key)
        if not self.strict:
            return tuple(read.shape(s) for s in self.items(key)[:64])
        out = []
        for i, item in enumerate(self.items(key, what="a list of shapes")):
            if not isinstance(item, list):
                raise ReportSchemaError(f"{where}[{i}]", f"expected a list of whole numbers, not {kind_of(item)}")
            out.append(tuple(_whole(v, f"{where}[{i}][{j}]") for j, v in enumerate(item)))
        return tuple(out)

    def items(self, key: str, *, required: bool = False, what: str = "a list") -> list[Any]:
        """A list (leniently: [] for anything else, and at most ``MAX_ITEMS`` of a longer one)."""
        value = self.value(key, required)
        if value is None or (not self.strict and not isinstance(value, list)):
            return []
        if not isinstance(value, list):
            self.rules.refuse(self.name(key), f"expected {what}, not {kind_of(value)}")
        if len(value) > MAX_ITEMS:
            if not self.strict:
                return value[:MAX_ITEMS]
            self.rules.refuse(self.name(key), f"holds {len(value):,} items, more than {MAX_ITEMS:,}")
        return value

    def entries(self, key: str, *, required: bool = False, what: str = "a list") -> list[Any]:
        """A list of entries, each read by a ``Fields`` of its own (leniently: the mappings in it)."""
        items = self.items(key, required=required, what=what)
        return items if self.strict else [v for v in items if isinstance(v, Mapping)]

    def mapping(self, key: str, *, required: bool = False) -> "Fields":
        value = self.value(key, required)
        return Fields({} if value is None else value, self.name(key), self.rules)

    def entry(self, where: str, value: Any) -> "Fields":
        """``value`` (an item of one of its lists) read in this mode, named ``where``."""
        return Fields(value, where, self.rules)

    def byte_counts(self, key: str) -> dict[str, float]:
        """``{name: bytes}`` (``by_device``, ``by_dtype``; leniently, the names with a number)."""
        fields = self.mapping(key)
        if not self.strict:
            return {str(k): n for k, v in fields.data.items() if (n := read.number(v)) is not None}
        return {checked_text(k, fields.at): _number(v, fields.name(k)) for k, v in fields.data.items()}


def quoted_key(key: Any) -> str:
    """A key as it can appear in a one-line message: keys come from the file (device names in
    ``memory``, ``by_device``), so anything odd is quoted with its control characters escaped."""
    text = str(key)
    if re.fullmatch(r"[\w:.\-]{1,64}", text, flags=re.ASCII):
        return text
    return json.dumps(text[:40]) + ("…" if len(text) > 40 else "")


def kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if _is_number(value):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return type(value).__name__


def checked_text(value: Any, where: str) -> str:
    """``value`` if it is a text of sane length; else the error naming ``where``."""
    if not isinstance(value, str):
        raise ReportSchemaError(where, f"expected text, not {kind_of(value)}")
    if len(value) > MAX_TEXT:
        raise ReportSchemaError(where, f"text of {len(value):,} characters, more than {MAX_TEXT:,}")
    return value


def _number(value: Any, where: str) -> float:
    if not _is_number(value):
        raise ReportSchemaError(where, f"expected a number, not {kind_of(value)}")
    # Compared as they are: float() of a 400-digit int raises OverflowError.
    if isinstance(value, float) and not math.isfinite(value):
        raise ReportSchemaError(where, f"expected a finite number, not {value}")
    if value < 0:
        raise ReportSchemaError(where, "expected a number of at least 0")
    if value > MAX_NUMBER:
        raise ReportSchemaError(where, f"expected a number of at most {MAX_NUMBER:g}")
    return float(value)


def _whole(value: Any, where: str) -> int:
    if isinstance(value, float):
        raise ReportSchemaError(where, f"expected a whole number, not {value:g}")
    if not isinstance(value, int) or isinstance(value, bool):
        raise ReportSchemaError(where, f"expected a whole number, not {kind_of(value)}")
    _number(value, where)
    return value
