"""A word-wrapped label of a fixed number of lines: its text never moves the layout.

A wrapped label that follows its text's line count asks its layout for a new height each
time the count changes: the move price grew from one line to three as the model loaded, or a
dtype was chosen, and the whole top of the window moved down and back (issue 35), and each
relayout repainted the window (~30 ms, ``benchmarks/ui_stall.py``). This label is always
``lines`` lines tall, hidden text included (an empty label keeps its room); a text that
needs more lines is cut at the last word that fits, with "…", and the whole text is in its
tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QLabel, QWidget

_ELLIPSIS = "…"


class SteadyHeightLabel(QLabel):
    """A word-wrapped QLabel always ``lines`` lines tall (see above)."""

    def __init__(self, parent: QWidget | None = None, *, lines: int = 2) -> None:
        super().__init__(parent)
        self.lines = lines
        self.full_text = ""
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._fix_height()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self.full_text = text
        self._show_fitted()

    def forget_height(self) -> None:
        """(Kept for callers: the height is fixed, so there is nothing to forget.)"""

    def _line_height(self) -> int:
        """One line's height as drawn, Chinese included: a CJK fallback font is taller than the
        font's own line spacing (18 px against 14 here), so the spacing alone cut its 2nd line."""
        sample = self.fontMetrics().boundingRect(QRect(0, 0, 100_000, 1000), int(Qt.TextFlag.TextWordWrap), "Ag中文")
        return max(sample.height(), self.fontMetrics().lineSpacing())

    def _fix_height(self) -> None:
        margins = self.contentsMargins()
        self.setFixedHeight(self.lines * self._line_height() + margins.top() + margins.bottom())

    def _fits(self, text: str, width: int) -> bool:
        bound = self.fontMetrics().boundingRect(QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), text)
        return bound.height() < (self.lines + 0.5) * self._line_height()

    def _show_fitted(self) -> None:
        text, width = self.full_text, self.contentsRect().width()
        # Not on screen yet, its width is a made-up one: all of it, fitted when it shows.
        if width <= 0 or not self.isVisible() or self._fits(text, width):
            super().setText(text)
            return
        low, high = 0, len(text)  # the longest prefix that fits with the ellipsis: a binary search
        while low < high:
            middle = (low + high + 1) // 2
            if self._fits(text[:middle].rstrip() + _ELLIPSIS, width):
                low = middle
            else:
                high = middle - 1
        cut = text[:low]
        if " " in cut.strip():  # at a word's end, where there is one
            cut = cut[: cut.rstrip().rfind(" ")]
        super().setText(cut.rstrip() + _ELLIPSIS)

    def is_cut(self) -> bool:
        """The text shown is not all of it (the tooltip has it)."""
        return super().text() != self.full_text

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self._show_fitted()  # wrapped at a new width: more or less of it fits

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self._show_fitted()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fix_height()
            self._show_fitted()
