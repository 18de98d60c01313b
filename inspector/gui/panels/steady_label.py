"""A word-wrapped label whose height grows with its text and does not shrink back.

A wrapped label that follows its text's line count asks its layout for a new height each
time the count changes, and a label in the action bar then lays out and repaints the whole
window (~30 ms here): the move price went from three lines to two as a cast ended, and the
relayout ran into the next task's start (``benchmarks/ui_stall.py``). Kept at the tallest
height its texts needed, a shorter text changes nothing around it. The floor goes when the
label's width changes (the lines wrap anew) or ``forget_height`` is called (a new language).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class SteadyHeightLabel(QLabel):
    """A word-wrapped QLabel that keeps the tallest height its texts have needed (see above)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        # A shorter text in the held height reads from the top, where the longer one began.
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(text)
        self._hold_height()

    def forget_height(self) -> None:
        """Follow the text's height again from the next text (a new language, a new model)."""
        self.setMinimumHeight(0)

    def _hold_height(self) -> None:
        # Only at a width the layout gave it: a label not shown yet has a made-up one.
        if not self.text() or not self.isVisible():
            return
        needed = self.heightForWidth(self.width())
        if needed > self.minimumHeight():
            self.setMinimumHeight(needed)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if self.minimumHeight() and event.oldSize().width() != event.size().width():
            # Wrapped at a new width, the text may need fewer lines: the floor is measured anew.
            self.setMinimumHeight(0)
            self._hold_height()
