"""Reads of a timing report nobody checked, that never raise (``schema.TimingReport.lenient``
reads a whole report through these, into the typed report with defaults).

A comparison or the window may be handed any dict: one built now, one loaded and checked by
``timing_report.load_report``, or one a script made. Here a field of the wrong type counts as
absent (None, "?", an empty list), so what reads through these never fails on a bad file
(``tests/core/report/test_report_fuzz.py`` holds ``compare`` to that).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, TypeVar

#: Past this a "number" from a file is nonsense (and some would not even convert to float).
_LARGEST = 1e18


def number(value: Any) -> float | None:
    """A finite number in [0, 1e18], or None for anything else (text, NaN, 10**400, -1)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int) and not -_LARGEST <= value <= _LARGEST:
        return None  # float() of a 400-digit int raises OverflowError
    as_float = float(value)
    return as_float if math.isfinite(as_float) and 0 <= as_float <= _LARGEST else None


def whole(value: Any) -> int | None:
    """A whole number in [0, 1e18], or None."""
    return value if isinstance(value, int) and number(value) is not None else None


def text(value: Any, default: str = "?") -> str:
    """Text to show for a value from a report: text and numbers as they are, else ``default``."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or (isinstance(value, (int, float)) and number(abs(value)) is not None):
        return str(value)
    return default


def optional_text(value: Any) -> str | None:
    """Text for a value from a report (text, or a number or flag as text), or None."""
    shown = text(value, "")
    return shown if shown or value == "" else None


def section(report: Any, key: str) -> Mapping[str, Any]:
    """``report[key]`` if it is a mapping, else an empty one."""
    value = report.get(key) if isinstance(report, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def entries(report: Any, key: str) -> list[Mapping[str, Any]]:
    """The mappings in the list ``report[key]``; anything else in it, or a non-list, is left out."""
    value = report.get(key) if isinstance(report, Mapping) else None
    return [e for e in value if isinstance(e, Mapping)] if isinstance(value, list) else []


def count(value: Any) -> int:
    """The length of a list; 0 for anything else."""
    return len(value) if isinstance(value, list) else 0


def shape(value: Any) -> tuple[int, ...]:
    """A tensor shape (a list of at most 64 whole numbers), or ``()``."""
    if not isinstance(value, list) or len(value) > 64:
        return ()
    dims = tuple(whole(d) for d in value)
    return () if any(d is None for d in dims) else tuple(d for d in dims if d is not None)


def shape_words(shape: tuple[int, ...]) -> str:
    """``(1, 3, 224)`` as ``1x3x224``; "?" when unknown."""
    return "x".join(map(str, shape)) or "?"


_K = TypeVar("_K")


def union(first: Mapping[_K, Any], second: Mapping[_K, Any]) -> list[_K]:
    """Keys of both, first's order then second's new ones (dicts keep insertion order)."""
    return list(dict.fromkeys([*first, *second]))


def device_entries(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The devices of the report's environment, as a list or inside ``{"devices": [...]}``."""
    environment = section(report, "environment")
    if isinstance(environment.get("devices"), Mapping):  # discover_devices().to_dict(): {"devices": [...]}
        return entries(environment["devices"], "devices")
    return entries(environment, "devices")
