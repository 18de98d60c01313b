"""A non-modal banner for failures: the message, a details toggle, and a close button.

It never blocks the window: the user reads it, opens the details if they want, and keeps
working. Every failure shown here also lands in the history.

Its title per failure kind and its buttons are translated (context "ErrorBanner"); core's
message goes through ``core_text``; the details (PyTorch's own message and traceback) stay
as they are. A change of language says the failure shown again.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.core.errors import Failure
from inspector.gui.common.i18n import Retranslates, core_text, fill, translate
from inspector.gui.common.plain_text import plain_label
from inspector.gui.common.task_words import task_label

#: Headings per failure kind; anything else is just "Error".
_TITLES = {
    "device": QT_TRANSLATE_NOOP("ErrorBanner", "Device not available"),
    "oom": QT_TRANSLATE_NOOP("ErrorBanner", "Out of memory"),
    "input": QT_TRANSLATE_NOOP("ErrorBanner", "Input problem"),
    "load": QT_TRANSLATE_NOOP("ErrorBanner", "Could not load the model"),
    "architecture": QT_TRANSLATE_NOOP("ErrorBanner", "Could not load the model: its architecture is needed"),
    "untrusted": QT_TRANSLATE_NOOP("ErrorBanner", "File not loaded: it needs to run code"),
    "disconnected": QT_TRANSLATE_NOOP("ErrorBanner", "Connection to the server lost"),
    "error": QT_TRANSLATE_NOOP("ErrorBanner", "Error"),
}


def banner_title(kind: str) -> str:
    """The heading for a failure of ``kind``, in the language now installed."""
    return translate("ErrorBanner", _TITLES.get(kind, _TITLES["error"]))


class ErrorBanner(Retranslates, QFrame):
    """Hidden until ``show_failure``; the close button hides it again."""

    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
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
        # What the failure was about: a task, a call, or a function that says it again.
        self._context: str | Callable[[], str] = ""
        #: The task whose failure is shown ("move", "benchmark", …): its next success clears it.
        self.source = ""

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
        self.details_button.setCheckable(True)
        self.details_button.toggled.connect(self._toggle_details)

        self.close_button = QToolButton(self)
        self.close_button.setObjectName("errorBannerCloseButton")
        self.close_button.setText("✕")
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
        self.retranslate()

    def retranslate(self) -> None:
        self.details_button.setText(translate("ErrorBanner", "Details"))
        self.details_button.setToolTip(translate("ErrorBanner", "Show or hide the technical details"))
        self.close_button.setToolTip(translate("ErrorBanner", "Hide this message (it stays in the history)"))
        if self.failure is not None:
            self._show_texts()

    def show_failure(self, failure: Failure, context: str | Callable[[], str] = "", *, source: str = "") -> None:
        """Show ``failure``; ``context`` (a task such as "move", a call, or a function that
        says it again when the language changes) follows the title. ``source``: the task that
        failed, whose next success clears the banner (``cleared_by``)."""
        self.failure = failure
        self._context = context
        self.source = source
        self._show_texts()
        self.details.setPlainText(failure.detail)
        # As tall as the text needs, up to about eight lines; then it scrolls.
        lines = min(8, max(1, failure.detail.strip().count("\n") + 1))
        self.details.setFixedHeight(lines * self.details.fontMetrics().lineSpacing() + 14)
        has_detail = bool(failure.detail.strip())
        self.details_button.setVisible(has_detail)
        self.details_button.setChecked(False)
        self.details.setVisible(False)
        self.setVisible(True)

    def _show_texts(self) -> None:
        failure = self.failure
        if failure is None:
            return
        title = banner_title(failure.kind)
        context = self._context() if callable(self._context) else task_label(self._context)
        self.title.setText(fill(translate("ErrorBanner", "%1 — %2"), title, context) if context else title)
        self.message.setText(core_text(failure.message))

    def dismiss(self) -> None:
        self.setVisible(False)
        self.dismissed.emit()

    def cleared_by(self, task: str) -> None:
        """``task`` just succeeded: a failure of the same kind shown here is over, so it goes
        (a failure of another kind stays until closed: it is still true)."""
        parent = self.parentWidget()
        shown = self.isVisibleTo(parent) if parent is not None else self.isVisible()
        if shown and self.source and self.source == task:
            self.dismiss()

    def _toggle_details(self, shown: bool) -> None:
        self.details.setVisible(shown and bool(self.details.toPlainText().strip()))
