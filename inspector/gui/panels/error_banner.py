"""A non-modal banner for failures: the message, a details toggle, and a close button.

It never blocks the window: the user reads it, opens the details if they want, and keeps
working. Every failure shown here also lands in the history.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QStyle,
    QToolButton,
    QVBoxLayout,
)

from inspector.core.errors import Failure
from inspector.gui.plain_text import plain_label

#: Headings per failure kind; anything else is just "Error".
_TITLES = {
    "device": "Device not available",
    "oom": "Out of memory",
    "input": "Input problem",
    "load": "Could not load the model",
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

    def dismiss(self) -> None:
        self.setVisible(False)
        self.dismissed.emit()

    def _toggle_details(self, shown: bool) -> None:
        self.details.setVisible(shown and bool(self.details.toPlainText().strip()))
