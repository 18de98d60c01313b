"""File-supplied text (tensor and module names, paths, messages) shown as plain text in Qt.

QLabel and tooltips guess: text that looks like HTML (``Qt::mightBeRichText``) is rendered
as rich text, so a tensor named ``<img src=...>`` or ``<a href=...>`` would be markup. A
label that shows such text is set to plain text once; a tooltip, which has no format
switch, gets its text converted to escaped rich text by Qt itself.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel


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
