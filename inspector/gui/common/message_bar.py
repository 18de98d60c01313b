"""Messages that float over the area they are about, so that one appearing or going moves
no other widget (issue 45: the ``.cuda()`` banner pushed Devices and Model down 84 px, and two
per-module warnings above the tree left it one row).

``FloatOver`` keeps a widget over the bottom edge of its host (its parent), as wide as the host
and as tall as its words need, up to a share of the host's height; ``MessageBar`` is a closable
one-message bar (a label and a ✕) in the warning colours.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from inspector.gui.common.i18n import Retranslates, translate

#: What a floating message covers at most of its host: the rest stays readable under it.
MAX_SHARE = 0.6

WARNING_STYLE = (
    "QFrame#{name} {{ background: #fff4e5; border: 1px solid #ffb74d; border-radius: 4px; }}"
    "QFrame#{name} QLabel {{ color: #663c00; background: transparent; }}"
    "QFrame#{name} QToolButton {{ color: #663c00; }}"
)


class FloatOver(QObject):
    """Keeps ``widget`` over the bottom (or the ``top``) of ``host`` (made its parent): placed
    again when the host is resized or the widget shown or its layout changes."""

    def __init__(self, widget: QWidget, host: QWidget, *, max_share: float = MAX_SHARE, top: bool = False) -> None:
        super().__init__(widget)
        self.widget, self.host, self.max_share, self.top = widget, host, max_share, top
        widget.setParent(host)
        host.installEventFilter(self)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        host, widget = getattr(self, "host", None), getattr(self, "widget", None)  # (none while being destroyed)
        if (watched is host and kind == QEvent.Type.Resize) or (
            watched is widget and kind in (QEvent.Type.Show, QEvent.Type.LayoutRequest)
        ):
            self.place()
        return False

    def place(self) -> None:
        widget, host = self.widget, self.host
        if not widget.isVisibleTo(host):
            return
        width = host.width()
        height = widget.heightForWidth(width) if widget.hasHeightForWidth() else -1
        height = max(height, widget.minimumSizeHint().height(), widget.sizeHint().height() if height < 0 else 0)
        height = min(height, max(40, round(self.max_share * host.height())))
        widget.setGeometry(0, 0 if self.top else host.height() - height, width, height)
        widget.raise_()


class OneLineLabel(QLabel):
    """Its text on one line (its lines joined), elided at the right with "…" when narrower;
    the tooltip has all of it, and ``text()`` stays whole."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(text)
        self.setToolTip(text)

    def shown_text(self) -> str:
        """What is drawn at the width it has now."""
        line = " · ".join(part.strip() for part in self.text().splitlines() if part.strip())
        return self.fontMetrics().elidedText(line, Qt.TextElideMode.ElideRight, self.contentsRect().width())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(self.fontMetrics().horizontalAdvance(self.text()), self.fontMetrics().height() + 2)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(0, self.fontMetrics().height() + 2)

    def heightForWidth(self, _width: int) -> int:  # noqa: N802 (Qt's name)
        return self.fontMetrics().height() + 2

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.shown_text())


class MessageBar(Retranslates, QFrame):
    """One message and a ✕ that closes it. ``label`` (made by the caller, with its object name
    and text format) holds the words; the bar is shown and hidden with it (``say``)."""

    closed = Signal()

    def __init__(self, label: QLabel, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setStyleSheet(WARNING_STYLE.format(name=name))
        self.label = label
        label.setParent(self)
        if not isinstance(label, OneLineLabel):  # (a one-line label's tooltip has it all)
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QToolButton(self)
        self.close_button.setObjectName(f"{name}CloseButton")
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self.dismiss)
        row = QHBoxLayout(self)
        one_line = isinstance(label, OneLineLabel)
        row.setContentsMargins(6, 0, 2, 0) if one_line else row.setContentsMargins(6, 4, 4, 4)
        row.addWidget(label, 1)
        row.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.setVisible(False)
        self.retranslate()

    def retranslate(self) -> None:
        self.close_button.setToolTip(translate("MessageBar", "Hide this message"))

    def say(self, text: str) -> None:
        """Show ``text`` ("" hides the bar). The same text again after a close stays closed."""
        if not text:
            self.label.clear()
            self.label.setVisible(False)
            self.setVisible(False)
            return
        if text == self.label.text() and self.label.isHidden():
            return  # closed by the user: not back until something new is said
        self.label.setText(text)
        self.label.setVisible(True)
        self.setVisible(True)

    def dismiss(self) -> None:
        self.label.setVisible(False)
        self.setVisible(False)
        self.closed.emit()


class MessageStack(QWidget):
    """Message bars one above the other, floating over the bottom (or the ``top``) of ``host``."""

    def __init__(self, host: QWidget, *bars: MessageBar, top: bool = False) -> None:
        super().__init__(host)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0) if top else layout.setContentsMargins(4, 0, 4, 4)
        layout.setSpacing(2)
        for bar in bars:
            layout.addWidget(bar)
            bar.closed.connect(self.follow)
        self.bars = bars
        self.floating = FloatOver(self, host, top=top)
        self.setVisible(False)

    def follow(self) -> None:
        """Shown while one of its bars is; placed again as they change."""
        self.setVisible(any(not bar.isHidden() for bar in self.bars))
        self.floating.place()
