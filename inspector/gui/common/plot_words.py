"""The plots' words: in the window's language, or in English for a report file.

A report is a file shared with others, and it stays English (as the CLI does) even when the
window speaks Chinese. Its images are drawn by offscreen twins of the live plots
(``render_png``), so every plot says its texts through a ``Words``: ``LIVE`` translates them
(Qt's translators: the window's language), ``ENGLISH`` gives each text's English source.

Call sites read as Qt's own, ``words.translate("LatencyCanvas", "latency (%1)")``, and
pyside6-lupdate finds them as it finds any ``translate`` call (both arguments literal).

It imports no module of the window (Qt's ``translate`` is ``common.i18n.translate``), so a
plot's module that says its words through it stands one floor lower. A core ``Text`` is said
by the caller (``str`` in English, ``i18n.core_text`` in the window's language).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


class Words:
    """Texts in the window's language (``english`` False) or as written (True)."""

    def __init__(self, english: bool = False) -> None:
        self.english = english

    def translate(self, context: str, source: str, disambiguation: str | None = None, n: int = -1) -> str:
        """Qt's ``QCoreApplication.translate``, or ``source`` itself (``%n`` filled) in English."""
        if self.english:
            return source.replace("%n", str(n)) if n >= 0 else source
        return QCoreApplication.translate(context, source, disambiguation, n)


#: The live plots' words: the window's language, whichever is installed when they are said.
LIVE = Words()
#: A report file's words: English.
ENGLISH = Words(english=True)
