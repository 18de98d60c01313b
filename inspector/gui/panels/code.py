"""The code view: the PyTorch code equivalent to the last action, to copy into a script."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from inspector.gui.plain_text import plain_label

PLACEHOLDER = "The PyTorch code for your last move or benchmark appears here."


class CodePanel(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.caption = plain_label(QLabel("Equivalent PyTorch code", self))
        # A long call in the caption wraps rather than widening the panel (it would push
        # the splitter and squeeze the History beside it).
        self.caption.setWordWrap(True)
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.copy_button = QPushButton("Copy", self)
        self.copy_button.setObjectName("copyCodeButton")
        self.copy_button.setToolTip("Copy the code to the clipboard")
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(self.copy)

        self.view = QPlainTextEdit(self)
        self.view.setObjectName("codeView")
        self.view.setReadOnly(True)
        self.view.setPlaceholderText(PLACEHOLDER)
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

    def show_code(self, code: str, caption: str = "") -> None:
        self.view.setPlainText(code)
        self.caption.setText(caption or "Equivalent PyTorch code")
        self.copy_button.setEnabled(bool(code))

    def code(self) -> str:
        return self.view.toPlainText()

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.code())
