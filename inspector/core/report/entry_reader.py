"""One reader for a report's entries, strict or lenient, driven by each type's own fields.

A section's entry (a move, a memory reading, a device, the model) is a frozen dataclass; its
fields say what the file holds: the annotation says the type (``str | None``, ``float | None``,
``int | None``, ``bool``, ``tuple[str, ...]``, ``dict[str, float]``), the field's name is the
file's key unless its metadata names another (``{"key": "class"}``), and a field the file
holds in a shape of its own names its read (``{"read": read}``, ``read(fields, key)``). A type's
``__checked_only__`` names keys checked but not kept (a whole number nobody reads yet).

``read_entry(cls, data, at)`` reads strictly (``field_checks.Fields``: the first bad field
refused with one line naming it); ``read_entry(cls, data)`` leniently (a field of the wrong
type reads as absent, never raising). One read per field, in ``Fields``' two modes: the two
reads cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any, Callable, Mapping, TypeVar

from inspector.core.report.field_checks import Fields

T = TypeVar("T")

#: A field's read: ``Fields`` (strict or lenient) and the key -> the value.
Read = Callable[[Fields, str], Any]

_BY_ANNOTATION: dict[Any, Read] = {
    str | None: lambda f, k: f.text(k),
    float | None: lambda f, k: f.number(k),
    int | None: lambda f, k: f.whole(k),
    bool: lambda f, k: f.flag(k),
    tuple[str, ...]: lambda f, k: f.texts(k),
    dict[str, float]: lambda f, k: f.byte_counts(k),
}
_CHECKS: dict[str, Read] = {"whole": Fields.whole, "number": Fields.number, "text": Fields.text}


@functools.lru_cache(maxsize=None)
def _plan(cls: type) -> tuple[tuple[str, str, Read], ...]:
    """(field, key in the file, its read) for each field of ``cls``, in order."""
    hints = typing.get_type_hints(cls)
    plan = []
    for f in dataclasses.fields(cls):
        read = f.metadata.get("read") or _BY_ANNOTATION.get(_normal(hints[f.name]))
        if read is None:
            raise TypeError(f"{cls.__name__}.{f.name}: no report read for {hints[f.name]!r}")
        plan.append((f.name, f.metadata.get("key", f.name), read))
    return tuple(plan)


def _normal(annotation: Any) -> Any:
    """``Optional[X]`` and ``X | None`` alike (``get_type_hints`` gives either)."""
    if typing.get_origin(annotation) is typing.Union:
        return functools.reduce(lambda a, b: a | b, typing.get_args(annotation))
    return annotation


def read_entry(cls: type[T], data: Any, at: str | None = None, *, reads: Mapping[str, Read] | None = None) -> T:
    """``data`` as a ``cls``: checked, naming ``at`` in a refusal; or, without ``at``, read
    leniently (anything that is not a mapping reads as an empty one). ``reads``: a field's
    read for this call, where it holds state of the whole report (what it may still hold)."""
    return read_fields(cls, Fields(data, at), reads=reads)


def read_fields(cls: type[T], f: Fields, *, reads: Mapping[str, Read] | None = None) -> T:
    """``read_entry`` of a mapping already in its mode (an entry of a list read by ``Fields``)."""
    if f.strict:
        for key, kind in getattr(cls, "__checked_only__", ()):
            _CHECKS[kind](f, key)
    plan = _plan(typing.cast(type, cls))
    return cls(**{name: (reads or {}).get(name, read)(f, key) for name, key, read in plan})


def mappings(value: Any) -> list[Mapping[str, Any]]:
    """The mappings in a list from a file nobody checked; anything else left out."""
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []
