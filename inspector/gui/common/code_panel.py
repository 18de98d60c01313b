"""The code view: the PyTorch code equivalent to the last action, to copy into a script.

The code stays as it is in every language, but its comments are prose: a part that shows
code gives the function that writes it with its comments in the language now installed
(``report.snippets`` take ``say=core_text``), and the panel writes it again on a change of
language, as it says the caption again. The caption, button and placeholder are translated
(context "CodePanel"). Copy copies what is shown: the code, and its comments in the window's
language.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from inspector.gui.common.i18n import Retranslates, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.plain_text import plain_label

PLACEHOLDER = QT_TRANSLATE_NOOP("CodePanel", "The PyTorch code for your last move or benchmark appears here.")


class CodePanel(Retranslates, QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The caption shown: "" for the default one, a string, or a function that says it
        # again in the language now installed; the code likewise (a function: its comments
        # follow the language).
        self._caption: str | Callable[[], str] = ""
        self._code: str | Callable[[], str] = ""
        self.caption = plain_label(QLabel(self))
        # A long call in the caption wraps rather than widening the panel (it would push
        # the splitter and squeeze the History beside it).
        self.caption.setWordWrap(True)
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.copy_button = QPushButton(self)
        self.copy_button.setObjectName("copyCodeButton")
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(self.copy)

        self.view = QPlainTextEdit(self)
        self.view.setObjectName("codeView")
        self.view.setReadOnly(True)
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        # Read-only text is mouse-selectable by default; add the keyboard (Ctrl+A, Ctrl+C).
        self.view.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )

        top = QHBoxLayout()
        top.addWidget(self.caption, 1)
        top.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        self.retranslate()

    def retranslate(self) -> None:
        self.copy_button.setText(translate("CodePanel", "Copy"))
        self.copy_button.setToolTip(translate("CodePanel", "Copy the code to the clipboard"))
        self.view.setPlaceholderText(translate("CodePanel", PLACEHOLDER))
        if callable(self._code):
            self._show_code()
        self._show_caption()

    def show_code(self, code: str | Callable[[], str], caption: str | Callable[[], str] = "") -> None:
        """Show ``code`` under ``caption``: each a string, or a function that says it again
        when the language changes (code: its comments); caption "": the default caption."""
        self._code = code
        self._show_code()
        self._caption = caption
        self._show_caption()

    def _show_code(self) -> None:
        code = self._code() if callable(self._code) else self._code
        if code != self.view.toPlainText():
            self.view.setPlainText(code)
        self.copy_button.setEnabled(bool(code))

    def _show_caption(self) -> None:
        caption = self._caption() if callable(self._caption) else self._caption
        self.caption.setText(caption or translate("CodePanel", "Equivalent PyTorch code"))

    def code(self) -> str:
        return self.view.toPlainText()

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.code())
