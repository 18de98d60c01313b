"""The lines under the latency plot's Summary tab: the top modules of a per-module run and how
the runs compare, as word-wrapped labels in a scroll area. ``LatencyPlot`` (``latency.py``)
sets their texts and says when to fit them again (``refit``)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

#: The lines under the Summary tab's plot take at most this many lines of height (more scroll),
#: so the plot keeps its height in a 1024x700 window.
NOTES_MAX_LINES = 3


def note_label(parent: QWidget, name: str) -> QLabel:
    """One of the notes: plain text (it holds module and device names, which come from files),
    wrapped to the width it has, hidden until it is given a text."""
    label = QLabel(parent)
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setContentsMargins(6, 2, 6, 2)
    label.hide()
    return label


class SummaryNotes(QScrollArea):
    """The lines under the Summary tab's plot (the top modules, the verdicts): as tall as they
    need at the width they have, up to ``NOTES_MAX_LINES`` lines; hidden when none shows."""

    def __init__(self, parent: QWidget, *labels: QLabel) -> None:
        super().__init__(parent)
        self.setObjectName("summaryNotes")
        self.labels = labels
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        for label in labels:
            layout.addWidget(label)
        layout.addStretch(1)
        self.setWidget(box)
        self.hide()

    def refit(self) -> None:
        shown = [label for label in self.labels if not label.isHidden()]
        self.setVisible(bool(shown))
        if shown:
            width = self.viewport().width()
            needed = sum(label.heightForWidth(width) for label in shown)
            room = self.fontMetrics().lineSpacing() * NOTES_MAX_LINES + 4  # + a label's margins
            self.setFixedHeight(min(needed, room))
            for label in shown:  # scrolled into view a few lines at a time: the tooltip has it whole
                label.setToolTip(label.text() if needed > room else "")

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.refit()  # the lines wrap anew at the new width
