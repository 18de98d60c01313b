"""Values read back from the settings, checked by type and range before anything uses them.

The settings file is the user's to edit, and other versions of the app write it: a value of
the wrong type (``[window] geometry=garbage`` gave ``restoreGeometry(str)`` a TypeError and
the app never opened again), out of range, or absurdly large is dropped: removed from the
settings, one ``warning:`` line on stderr, and the default used. Removing it means the line
is said once, not at every read.

An INI file (what QSettings writes on Linux) keeps no types: a number comes back as text, a
one-item list as a plain string, a bool as ``"true"``; the readers accept those spellings,
and the types other platforms' stores keep.
"""

from __future__ import annotations

import math
import sys
from typing import Any, Collection

from PySide6.QtCore import QByteArray, QSettings

from inspector.core.files import escape_control

#: Longest text kept from the settings: a path, a model spec, an input field, a command.
MAX_TEXT_CHARS = 4096
#: Largest opaque blob (a window geometry, a splitter state: tens of bytes when Qt saves them).
MAX_BLOB_BYTES = 64 * 1024
#: How much of a dropped value the warning line shows.
SHOWN_CHARS = 60

_ABSENT = object()


def drop(settings: QSettings, key: str, why: str) -> None:
    """Forget ``key`` and say so in one line."""
    print(f"warning: settings: ignored {key} ({why}); using the default", file=sys.stderr)
    sys.stderr.flush()
    settings.remove(key)


def shown(value: object) -> str:
    """A value as the warning line quotes it: short, one line, control characters escaped."""
    if isinstance(value, QByteArray):
        value = bytes(value.data())
    text = escape_control(repr(value))
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def raw(settings: QSettings, key: str) -> Any:
    """The stored value as Qt gives it, ``_ABSENT`` when the key is not there; a value Qt
    cannot read back (an ``@Variant`` of an unknown type) is dropped."""
    if not settings.contains(key):
        return _ABSENT
    try:
        value = settings.value(key)
    except Exception as exc:  # noqa: BLE001 -- whatever the binding makes of a hostile value
        drop(settings, key, f"unreadable: {type(exc).__name__}")
        return _ABSENT
    if value is None:
        drop(settings, key, "a value of a type this app does not know")
        return _ABSENT
    return value


def _too_long(text: str, max_chars: int) -> bool:
    return len(text) > max_chars or "\0" in text


def text(settings: QSettings, key: str, default: str = "", *, choices: Collection[str] | None = None,
         max_chars: int = MAX_TEXT_CHARS) -> str:  # fmt: skip
    """A string (one of ``choices`` if given)."""
    value = raw(settings, key)
    if value is _ABSENT:
        return default
    if not isinstance(value, str):
        drop(settings, key, f"expected text, found {shown(value)}")
    elif _too_long(value, max_chars):
        drop(settings, key, f"expected text of at most {max_chars:,} characters, found {len(value):,}")
    elif choices is not None and value not in choices:
        drop(settings, key, f"expected one of {', '.join(map(repr, choices))}, found {shown(value)}")
    else:
        return value
    return default


def number(settings: QSettings, key: str, default: float, low: float, high: float) -> float:
    """A finite number within ``low..high`` (INI: its text)."""
    value = raw(settings, key)
    if value is _ABSENT:
        return default
    found: float | None = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        found = float(value)
    elif isinstance(value, str) and len(value) <= 64:
        try:
            found = float(value)
        except ValueError:
            found = None
    if found is None:
        drop(settings, key, f"expected a number, found {shown(value)}")
    elif not (math.isfinite(found) and low <= found <= high):
        drop(settings, key, f"expected a number from {low:g} to {high:g}, found {shown(value)}")
    else:
        return found
    return default


def flag(settings: QSettings, key: str, default: bool = False) -> bool:
    """A yes or no (INI: ``true``/``false``)."""
    value = raw(settings, key)
    if value is _ABSENT:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    drop(settings, key, f"expected true or false, found {shown(value)}")
    return default


def blob(settings: QSettings, key: str) -> QByteArray | None:
    """Opaque bytes Qt saved (``saveGeometry``, ``saveState``); None when absent or bad."""
    value = raw(settings, key)
    if value is _ABSENT:
        return None
    if not isinstance(value, QByteArray) or value.isEmpty():
        drop(settings, key, f"expected saved bytes, found {shown(value)}")
    elif value.size() > MAX_BLOB_BYTES:
        drop(settings, key, f"expected at most {MAX_BLOB_BYTES:,} bytes, found {value.size():,}")
    else:
        return value
    return None


def blobs(settings: QSettings, key: str, count: int) -> list[QByteArray] | None:
    """Exactly ``count`` opaque byte strings; None when absent or bad."""
    value = raw(settings, key)
    if value is _ABSENT:
        return None
    if (
        not isinstance(value, (list, tuple))
        or len(value) != count
        or not all(isinstance(v, QByteArray) and 0 < v.size() <= MAX_BLOB_BYTES for v in value)
    ):
        drop(settings, key, f"expected {count} saved states, found {shown(value)}")
        return None
    return list(value)


def texts(settings: QSettings, key: str, *, max_items: int, max_chars: int = MAX_TEXT_CHARS) -> list[str]:
    """A list of distinct non-blank strings, at most ``max_items``; bad entries are dropped
    (the list kept without them, one line for all), a value that is no list at all too."""
    value = raw(settings, key)
    if value is _ABSENT:
        return []
    if isinstance(value, str):  # INI: a one-item list reads back as its item
        value = [value]
    if not isinstance(value, (list, tuple)):
        drop(settings, key, f"expected a list of texts, found {shown(value)}")
        return []
    kept: list[str] = []
    bad = 0
    for item in value:
        if not isinstance(item, str) or _too_long(item, max_chars) or not item.strip():
            bad += 1
        elif item not in kept:
            kept.append(item)
    if bad or len(kept) > max_items:
        kept = kept[:max_items]
        _trimmed(settings, key, kept, len(value), f"blank, not text, longer than {max_chars:,} characters, "
                                                  f"or more than {max_items}")  # fmt: skip
    return kept


def text_map(settings: QSettings, key: str, *, max_items: int, max_chars: int = MAX_TEXT_CHARS) -> dict[str, str]:
    """A map of strings to strings, at most ``max_items`` (the last ones); bad entries dropped."""
    value = raw(settings, key)
    if value is _ABSENT:
        return {}
    if not isinstance(value, dict):
        drop(settings, key, f"expected a map of texts, found {shown(value)}")
        return {}
    kept = {
        k: v
        for k, v in value.items()
        if isinstance(k, str) and isinstance(v, str) and not _too_long(k, max_chars) and not _too_long(v, max_chars)
    }
    if len(kept) != len(value) or len(kept) > max_items:
        kept = dict(list(kept.items())[-max_items:])  # the newest
        _trimmed(settings, key, kept, len(value), f"not text, longer than {max_chars:,} characters, "
                                                  f"or more than {max_items}")  # fmt: skip
    return kept


def _trimmed(settings: QSettings, key: str, kept: list[str] | dict[str, str], total: int, why: str) -> None:
    """Keep the good entries of a list or map, and say in one line how many were not."""
    print(f"warning: settings: ignored {total - len(kept)} of the {total} entries of {key} ({why})", file=sys.stderr)
    sys.stderr.flush()
    settings.setValue(key, kept)
