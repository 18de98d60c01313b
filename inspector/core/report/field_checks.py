"""Typed, bounded reads of a report file's fields, for the checks of ``schema``.

A report file is read as an attacker might have written it: each read checks the type, that a
number is finite, non-negative and of sane size, that a list or a text is not huge, and
otherwise raises a ``ReportSchemaError`` whose one-line message names the field
(``latency[0].samples_ms: expected a list of numbers``), its keys quoted where the file chose them.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Mapping

from inspector.core.errors import InputError

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


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Fields:
    """Typed reads of one mapping of the report; ``at`` names it in errors (``latency[0]``)."""

    def __init__(self, data: Any, at: str) -> None:
        if not isinstance(data, Mapping):
            raise ReportSchemaError(at, f"expected a mapping, not {kind_of(data)}")
        self.data: Mapping[str, Any] = data
        self.at = at

    def name(self, key: str) -> str:
        key = _key(key)
        return f"{self.at}.{key}" if self.at else key

    def value(self, key: str, required: bool) -> Any:
        value = self.data.get(key)
        if value is None and required:
            raise ReportSchemaError(self.name(key), "missing" if key not in self.data else "expected a value, not null")
        return value

    def text(self, key: str, *, required: bool = False) -> str | None:
        value = self.value(key, required)
        return None if value is None else checked_text(value, self.name(key))

    def number(self, key: str, *, required: bool = False) -> float | None:
        value = self.value(key, required)
        return None if value is None else _number(value, self.name(key))

    def whole(self, key: str, *, required: bool = False) -> int | None:
        value = self.value(key, required)
        return None if value is None else _whole(value, self.name(key))

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.value(key, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ReportSchemaError(self.name(key), f"expected true or false, not {kind_of(value)}")
        return value

    def numbers(self, key: str, *, required: bool = False) -> tuple[float, ...]:
        items = self.items(key, required=required, what="a list of numbers")
        where = self.name(key)
        if not all(_is_number(v) for v in items):
            raise ReportSchemaError(where, "expected a list of numbers")
        return tuple(_number(v, f"{where}[{i}]") for i, v in enumerate(items))

    def number_lists(self, key: str) -> tuple[tuple[float, ...], ...]:
        """A list of lists of numbers (``runs_ms``: each run's samples); () when absent."""
        where = self.name(key)
        out = []
        for i, item in enumerate(self.items(key, what="a list of lists of numbers")):
            at = f"{where}[{i}]"
            if not isinstance(item, list) or not all(_is_number(v) for v in item):
                raise ReportSchemaError(at, f"expected a list of numbers, not {kind_of(item)}" if not isinstance(item, list)
                                        else "expected a list of numbers")  # fmt: skip
            out.append(tuple(_number(v, f"{at}[{j}]") for j, v in enumerate(item)))
        return tuple(out)

    def texts(self, key: str) -> tuple[str, ...]:
        where = self.name(key)
        return tuple(checked_text(v, f"{where}[{i}]") for i, v in enumerate(self.items(key, what="a list of text")))

    def shape(self, key: str) -> tuple[int, ...]:
        where = self.name(key)
        items = self.items(key, what="a list of whole numbers")
        return tuple(_whole(v, f"{where}[{i}]") for i, v in enumerate(items))

    def shapes(self, key: str) -> tuple[tuple[int, ...], ...]:
        """A list of shapes (``input_shapes``: each input's); () when absent."""
        where = self.name(key)
        out = []
        for i, item in enumerate(self.items(key, what="a list of shapes")):
            if not isinstance(item, list):
                raise ReportSchemaError(f"{where}[{i}]", f"expected a list of whole numbers, not {kind_of(item)}")
            out.append(tuple(_whole(v, f"{where}[{i}][{j}]") for j, v in enumerate(item)))
        return tuple(out)

    def items(self, key: str, *, required: bool = False, what: str = "a list") -> list[Any]:
        value = self.value(key, required)
        if value is None:
            return []
        if not isinstance(value, list):
            raise ReportSchemaError(self.name(key), f"expected {what}, not {kind_of(value)}")
        if len(value) > MAX_ITEMS:
            raise ReportSchemaError(self.name(key), f"holds {len(value):,} items, more than {MAX_ITEMS:,}")
        return value

    def mapping(self, key: str, *, required: bool = False) -> "Fields":
        value = self.value(key, required)
        return Fields({} if value is None else value, self.name(key))

    def byte_counts(self, key: str) -> dict[str, float]:
        """``{name: bytes}`` (``by_device``, ``by_dtype``)."""
        fields = self.mapping(key)
        return {checked_text(k, fields.at): _number(v, fields.name(k)) for k, v in fields.data.items()}


def _key(key: Any) -> str:
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
