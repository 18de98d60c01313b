"""One reader for a report's entries, strict or lenient, driven by each type's own fields.

A section's entry (a move, a memory reading, a device, the model) is a frozen dataclass; its
fields say what the file holds: the annotation says the type (``str | None``, ``float | None``,
``int | None``, ``bool``, ``tuple[str, ...]``, ``dict[str, float]``), the field's name is the
file's key unless its metadata names another (``{"key": "class"}``), and a field the file
holds in a shape of its own names its two reads (``{"read": (strict, lenient)}``). A type's
``__checked_only__`` names keys checked but not kept (a whole number nobody reads yet).

``read_entry(cls, data, at)`` reads strictly (``field_checks.Fields``: the first bad field
refused with one line naming it); ``read_entry(cls, data)`` leniently (``lenient_read``: a
field of the wrong type reads as absent, never raising). One table of fields, two modes: the
two reads cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any, Callable, Mapping, TypeVar

from inspector.core.report import lenient_read as read
from inspector.core.report.field_checks import Fields

T = TypeVar("T")

#: (strict read of ``Fields`` and the key, lenient read of the value) by annotation.
_Reads = tuple[Callable[[Fields, str], Any], Callable[[Any], Any]]


def _texts(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _counts(value: Any) -> dict[str, float]:
    section = value if isinstance(value, Mapping) else {}
    return {str(k): n for k, v in section.items() if (n := read.number(v)) is not None}


_BY_ANNOTATION: dict[Any, _Reads] = {
    str | None: (lambda f, k: f.text(k), read.optional_text),
    float | None: (lambda f, k: f.number(k), read.number),
    int | None: (lambda f, k: f.whole(k), read.whole),
    bool: (lambda f, k: f.flag(k), lambda v: v is True),
    tuple[str, ...]: (lambda f, k: f.texts(k), _texts),
    dict[str, float]: (lambda f, k: f.byte_counts(k), _counts),
}
_CHECKS: dict[str, Callable[[Fields, str], Any]] = {"whole": Fields.whole, "number": Fields.number, "text": Fields.text}


@functools.lru_cache(maxsize=None)
def _plan(cls: type) -> tuple[tuple[str, str, _Reads], ...]:
    """(field, key in the file, its two reads) for each field of ``cls``, in order."""
    hints = typing.get_type_hints(cls)
    plan = []
    for f in dataclasses.fields(cls):
        reads = f.metadata.get("read") or _BY_ANNOTATION.get(_normal(hints[f.name]))
        if reads is None:
            raise TypeError(f"{cls.__name__}.{f.name}: no report read for {hints[f.name]!r}")
        plan.append((f.name, f.metadata.get("key", f.name), reads))
    return tuple(plan)


def _normal(annotation: Any) -> Any:
    """``Optional[X]`` and ``X | None`` alike (``get_type_hints`` gives either)."""
    if typing.get_origin(annotation) is typing.Union:
        return functools.reduce(lambda a, b: a | b, typing.get_args(annotation))
    return annotation


def read_entry(cls: type[T], data: Any, at: str | None = None, *, reads: Mapping[str, _Reads] | None = None) -> T:
    """``data`` as a ``cls``: checked, naming ``at`` in a refusal; or, without ``at``, read
    leniently (anything that is not a mapping reads as an empty one). ``reads``: a field's two
    reads for this call, where they hold state of the whole report (what it may still hold)."""
    plan = [(name, key, (reads or {}).get(name, planned)) for name, key, planned in _plan(typing.cast(type, cls))]
    if at is None:
        entry: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
        return cls(**{name: lenient(entry.get(key)) for name, key, (_, lenient) in plan})
    f = Fields(data, at)
    for key, kind in getattr(cls, "__checked_only__", ()):
        _CHECKS[kind](f, key)
    return cls(**{name: strict(f, key) for name, key, (strict, _) in plan})


def mappings(value: Any) -> list[Mapping[str, Any]]:
    """The mappings in a list from a file nobody checked; anything else left out."""
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []

