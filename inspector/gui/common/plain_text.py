"""File-supplied text (tensor and module names, class names, specs, paths, messages) as the
window shows it: plain, escaped, elided.

Three dangers, one place for each:

- Markup. QLabel and tooltips guess: text that looks like HTML (``Qt::mightBeRichText``) is
  rendered as rich text, so a tensor named ``<img src=...>`` would be markup. A label that
  shows such text is set to plain text once (``plain_label``); a tooltip, which has no
  format switch, gets its text converted to escaped rich text (``plain_tooltip``).
- Control characters. A name holding U+202E (right-to-left override) would show
  ``head\\u202egnp_exe`` as ``headexe_png`` and reverse the app's own words after it; a
  newline would wrap a title. The window escapes them by the terminal's rules
  (``core.files.terminal_text.escape_control``): every value put into one of the window's
  sentences (``i18n.fill``, ``i18n.core_text``) and every name a view or a menu shows
  (``shown``) has its control characters as escapes (``\\u202e``), never obeyed.
- Length. A 100,000-character spec would make a menu, a title or a status label as wide as
  the text: ``shown`` elides it to its start and end, and ``shown_tip`` gives the full text
  (up to ``TIP_LIMIT`` characters) for a tooltip. Menus also need ``&`` doubled
  (``menu_text``), or Qt takes it for a mnemonic (``R&D.pt`` would read ``RD.pt``).
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel

from inspector.core.files import escape_control, one_line

#: The most characters of one file-supplied text a line of the window shows (a menu item, a
#: title, a status label, a tree cell): longer ones show their start, "…" and their end.
SHOWN_LIMIT = 120
#: The most characters a tooltip shows of one text, in lines of ``TIP_LINE`` characters.
TIP_LIMIT = 2000
TIP_LINE = 100


def shown(text: object, limit: int = SHOWN_LIMIT) -> str:
    """``text`` as one line of the window: its control characters (newlines and bidi
    overrides too) as escapes, elided past ``limit`` characters (its start and end kept)."""
    return one_line(text, limit, say_length=False)


def shown_tip(text: object) -> str:
    """``text`` (a name, or lines the window composed) ready for ``setToolTip``: its control
    characters as escapes (its newlines kept), at most ``TIP_LIMIT`` characters, a word
    longer than ``TIP_LINE`` characters broken into lines of that length (a tooltip does not
    break a word, and would be as wide as it), markup shown literally (``plain_tooltip``)."""
    raw = str(text)
    lines = escaped_lines(raw if len(raw) <= TIP_LIMIT else raw[:TIP_LIMIT] + "…")
    return plain_tooltip(_LONG_WORD.sub(lambda m: _broken(m.group(0)), lines))


_LONG_WORD = re.compile(rf"[^\s]{{{TIP_LINE + 1},}}")


def _broken(word: str) -> str:
    return "\n".join(word[i : i + TIP_LINE] for i in range(0, len(word), TIP_LINE))


def menu_text(text: object, limit: int = SHOWN_LIMIT) -> str:
    """A file-supplied text as (part of) a menu item's text: ``shown``, with ``&`` doubled so
    that Qt shows it rather than taking the next letter for the item's shortcut."""
    return shown(text, limit).replace("&", "&&")


def escaped_lines(text: object) -> str:
    """Text the window lays out in lines (a value in one of its sentences, a message): its
    control characters as escapes, its newlines kept. A value that came from a file cannot
    reverse or hide the window's words around it."""
    return escape_control(str(text), keep_newlines=True)


def plain_label(label: QLabel) -> QLabel:
    """``label``, set to show its text literally (never as HTML); returned for chaining."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def plain_tooltip(text: str) -> str:
    """A tooltip string that Qt shows as exactly ``text``.

    Text with anything markup-like in it is converted to escaped rich text (line breaks
    kept), whatever Qt's guess would be; other text is returned unchanged, since Qt shows
    it literally.
    """
    if "<" in text or "&" in text or GuiQt.mightBeRichText(text):
        return GuiQt.convertFromPlainText(text)
    return text
