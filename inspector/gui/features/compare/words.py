"""The comparison's words: the names of a side that is no file and the Environment table's
facts, said in the window's language where ``ComparisonView`` (``view.py``) shows them (the
column titles are ``cells.header_text``). Every text keeps the view's context,
``"ComparisonView"``, so the catalogue has them where it always had."""

from __future__ import annotations


from inspector.core.messages import Text
from inspector.gui.common.i18n import core_text, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

#: The names the view gives a side that is no file (translated where shown: ``side_name``).
THIS_SESSION = QT_TRANSLATE_NOOP("ComparisonView", "This session")
A_REPORT = QT_TRANSLATE_NOOP("ComparisonView", "Report")
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


def side_name(name: str) -> str:
    """What the summary line calls a side: its file's name, or "This session"/"Report"."""
    return translate("ComparisonView", name) if name in (THIS_SESSION, A_REPORT) else name


def environment_text(value: str) -> str:
    """A section or fact of the Environment table in the window's language, when it is one
    of ``_ENVIRONMENT_WORDS`` or a core ``Text``; anything else as it is."""
    if isinstance(value, Text):
        return core_text(value)
    return translate("ComparisonView", value) if value in _ENVIRONMENT_WORDS else value
