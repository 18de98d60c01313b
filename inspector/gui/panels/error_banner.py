"""A non-modal banner for failures: the message, a details toggle, and a close button.

It never blocks the window: the user reads it, opens the details if they want, and keeps
working. Every failure shown here also lands in the history.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsDropShadowEffect,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.core.errors import Failure
from inspector.gui.plain_text import plain_label

#: Headings per failure kind; anything else is just "Error".
_TITLES = {
    "device": "Device not available",
    "oom": "Out of memory",
    "input": "Input problem",
    "load": "Could not load the model",
    "architecture": "Could not load the model: its architecture is needed",
    "untrusted": "File not loaded: it needs to run code",
    "disconnected": "Connection to the server lost",
    "error": "Error",
}


class ErrorBanner(QFrame):
    """Hidden until ``show_failure``; the close button hides it again."""

    dismissed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("errorBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        # Fixed colours on both background and text: readable under any theme.
        self.setStyleSheet(
            "QFrame#errorBanner { background: #fdecea; border: 1px solid #e57373; border-radius: 4px; }"
            "QFrame#errorBanner QLabel { color: #5f2120; background: transparent; }"
            "QFrame#errorBanner QToolButton { color: #5f2120; }"
        )
        self.failure: Failure | None = None

        icon = QLabel(self)
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical).pixmap(24, 24))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)

        self.title = plain_label(QLabel(self))
        self.title.setObjectName("errorBannerTitle")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.title.setWordWrap(True)  # a long call in the title wraps too

        self.message = plain_label(QLabel(self))
        self.message.setObjectName("errorBannerMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.details_button = QToolButton(self)
        self.details_button.setObjectName("errorBannerDetailsButton")
        self.details_button.setText("Details")
        self.details_button.setCheckable(True)
        self.details_button.setToolTip("Show or hide the technical details")
        self.details_button.toggled.connect(self._toggle_details)

        self.close_button = QToolButton(self)
        self.close_button.setObjectName("errorBannerCloseButton")
        self.close_button.setText("✕")
        self.close_button.setToolTip("Hide this message (it stays in the history)")
        self.close_button.clicked.connect(self.dismiss)

        self.details = QPlainTextEdit(self)
        self.details.setObjectName("errorBannerDetails")
        self.details.setReadOnly(True)
        self.details.setVisible(False)

        text = QVBoxLayout()
        text.setSpacing(2)
        text.addWidget(self.title)
        text.addWidget(self.message)
        buttons = QHBoxLayout()
        buttons.setAlignment(Qt.AlignmentFlag.AlignTop)
        buttons.addWidget(self.details_button)
        buttons.addWidget(self.close_button)
        row = QHBoxLayout()
        row.addWidget(icon)
        row.addLayout(text, 1)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addLayout(row)
        layout.addWidget(self.details)
        self.setVisible(False)
        self._anchor: QWidget | None = None

    def overlay(self, anchor: QWidget) -> None:
        """Float over the top of ``anchor`` (a sibling in the same parent) instead of taking
        a place in the layout, so showing it does not push the panels down (it used to
        move them by 60-90 px); it follows the anchor's size and position."""
        self._anchor = anchor
        anchor.installEventFilter(self)
        shadow = QGraphicsDropShadowEffect(self)
        shadow.setBlurRadius(12)
        shadow.setOffset(0, 2)
        shadow.setColor(QColor(0, 0, 0, 90))
        self.setGraphicsEffect(shadow)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._anchor and event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self.place()
        return False

    def place(self) -> None:
        """Over the anchor's top edge, as wide as it, as tall as the wrapped text needs."""
        anchor = self._anchor
        if anchor is None or not self.isVisibleTo(self.parentWidget()):
            return
        width = max(200, anchor.width())
        height = self.heightForWidth(width) if self.hasHeightForWidth() else -1
        height = max(height, self.minimumSizeHint().height())
        self.setGeometry(anchor.x(), anchor.y(), width, min(height, max(60, anchor.height())))
        self.raise_()

    def show_failure(self, failure: Failure, context: str = "") -> None:
        self.failure = failure
        title = _TITLES.get(failure.kind, "Error")
        self.title.setText(f"{title} — {context}" if context else title)
        self.message.setText(failure.message)
        self.details.setPlainText(failure.detail)
        # As tall as the text needs, up to about eight lines; then it scrolls.
        lines = min(8, max(1, failure.detail.strip().count("\n") + 1))
        self.details.setFixedHeight(lines * self.details.fontMetrics().lineSpacing() + 14)
        has_detail = bool(failure.detail.strip())
        self.details_button.setVisible(has_detail)
        self.details_button.setChecked(False)
        self.details.setVisible(False)
        self.setVisible(True)
        self.place()

    def dismiss(self) -> None:
        self.setVisible(False)
        self.dismissed.emit()

    def _toggle_details(self, shown: bool) -> None:
        self.details.setVisible(shown and bool(self.details.toPlainText().strip()))
        self.place()
