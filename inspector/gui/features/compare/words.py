"""The comparison's words: its column titles, the names of a side that is no file, and the
Environment table's facts, said in the window's language where ``ComparisonView``
(``compare.py``) shows them.

Columns keep their English header keys (``cell_text(table, row, "Verdict")``) and only their
titles are translated (``header_text``). Every text keeps the view's context,
``"ComparisonView"``, so the catalogue has them where it always had."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from inspector.core.messages import Text
from inspector.gui.common.i18n import core_text, translate

#: The names the view gives a side that is no file (translated where shown: ``side_name``).
THIS_SESSION = QT_TRANSLATE_NOOP("ComparisonView", "This session")
A_REPORT = QT_TRANSLATE_NOOP("ComparisonView", "Report")
#: The column titles that are words (``B ÷ A``, ``p5–p95``, ``GB/s`` are the same in every
#: language); a side's column is its title after "A " or "B ".
_HEADER_WORDS = frozenset((
    QT_TRANSLATE_NOOP("ComparisonView", "Device"),
    QT_TRANSLATE_NOOP("ComparisonView", "Dtype"),
    QT_TRANSLATE_NOOP("ComparisonView", "Mode"),
    QT_TRANSLATE_NOOP("ComparisonView", "Input"),
    QT_TRANSLATE_NOOP("ComparisonView", "median (ms)"),
    QT_TRANSLATE_NOOP("ComparisonView", "vs CPU"),
    QT_TRANSLATE_NOOP("ComparisonView", "95 % CI"),
    QT_TRANSLATE_NOOP("ComparisonView", "Verdict"),
    QT_TRANSLATE_NOOP("ComparisonView", "Noise"),
    QT_TRANSLATE_NOOP("ComparisonView", "Route"),
    QT_TRANSLATE_NOOP("ComparisonView", "Method"),
    QT_TRANSLATE_NOOP("ComparisonView", "Pinned"),
    QT_TRANSLATE_NOOP("ComparisonView", "moves"),
    QT_TRANSLATE_NOOP("ComparisonView", "size"),
    QT_TRANSLATE_NOOP("ComparisonView", "time (s)"),
    QT_TRANSLATE_NOOP("ComparisonView", "Section"),
    QT_TRANSLATE_NOOP("ComparisonView", "What"),
    QT_TRANSLATE_NOOP("ComparisonView", "Value"),
))  # fmt: skip
#: The Environment table's words from core (``compare_environment``): its sections and the
#: facts it names. Core hands them as plain strings, so the window translates the ones it
#: knows; a ``messages.Text`` goes through ``core_text``, anything else (a device id) as it is.
_ENVIRONMENT_WORDS = frozenset((
    QT_TRANSLATE_NOOP("ComparisonView", "report"),
    QT_TRANSLATE_NOOP("ComparisonView", "environment"),
    QT_TRANSLATE_NOOP("ComparisonView", "device"),
    QT_TRANSLATE_NOOP("ComparisonView", "model"),
    QT_TRANSLATE_NOOP("ComparisonView", "Created"),
    QT_TRANSLATE_NOOP("ComparisonView", "Driver"),
    QT_TRANSLATE_NOOP("ComparisonView", "OS"),
    QT_TRANSLATE_NOOP("ComparisonView", "CPU cores"),
    QT_TRANSLATE_NOOP("ComparisonView", "CPU threads"),
    QT_TRANSLATE_NOOP("ComparisonView", "PyTorch threads"),
    QT_TRANSLATE_NOOP("ComparisonView", "System memory"),
    QT_TRANSLATE_NOOP("ComparisonView", "CPU huge pages"),
    QT_TRANSLATE_NOOP("ComparisonView", "Model"),
    QT_TRANSLATE_NOOP("ComparisonView", "Class"),
    QT_TRANSLATE_NOOP("ComparisonView", "Parameters"),
    QT_TRANSLATE_NOOP("ComparisonView", "Size"),
    QT_TRANSLATE_NOOP("ComparisonView", "Dtypes"),
    QT_TRANSLATE_NOOP("ComparisonView", "Optimizer"),
))  # fmt: skip


def header_text(key: str) -> str:
    """A column's title in the window's language: ``"A median (ms)"`` -> ``"A 中位数 (ms)"``."""
    if key in _HEADER_WORDS:
        return translate("ComparisonView", key)
    side, _, rest = key.partition(" ")
    if side in ("A", "B") and rest in _HEADER_WORDS:
        return side + " " + translate("ComparisonView", rest)
    return key


def side_name(name: str) -> str:
    """What the summary line calls a side: its file's name, or "This session"/"Report"."""
    return translate("ComparisonView", name) if name in (THIS_SESSION, A_REPORT) else name


def environment_text(value: str) -> str:
    """A section or fact of the Environment table in the window's language, when it is one
    of ``_ENVIRONMENT_WORDS`` or a core ``Text``; anything else as it is."""
    if isinstance(value, Text):
        return core_text(value)
    return translate("ComparisonView", value) if value in _ENVIRONMENT_WORDS else value
