"""The window's status bar: which model, where it lives, what the window is doing (three
permanent labels, plain text: the names come from files), and passing messages.

The labels keep a steady width: one that grows to fit a longer text, and never shrinks for
a shorter one until the language changes. A label whose width followed its text made the
main window lay itself out and repaint whole (~45 ms here) each time a task started, and at
every progress update of a long benchmark (its time left) while the benchmark took both
cores: the longest stalls of a cast's and a benchmark's start (issue 25)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFrame, QLabel, QStatusBar

from inspector.gui.common.i18n import fill, translate
from inspector.gui.common.plain_text import plain_label, shown
from inspector.gui.common.task_words import Task, task_label
from inspector.gui.common.vocabulary_words import source_text

if TYPE_CHECKING:
    from inspector.core.session import ModelState


#: The most characters a passing message shows.
FLASH_LIMIT = 300


class StatusLine:
    """The labels ``statusModel``, ``statusDevice`` and ``statusBusy`` on ``bar``."""

    def __init__(self, bar: QStatusBar) -> None:
        self.bar = bar
        self.model = self._label("", "statusModel")
        self.device = self._label("", "statusDevice")
        self.busy = self._label("", "statusBusy")
        # What the labels show, kept so a change of language can say it again.
        self._state: ModelState | None = None
        self._busy: tuple[str, str | None, str] = ("starting", None, "")
        self.retranslate()

    def retranslate(self) -> None:
        for label in (self.model, self.device, self.busy):
            label.setMinimumSize(0, 0)  # (a steady size for this language's texts, from scratch)
            label.setMaximumSize(16777215, 16777215)
        # The busy label starts as wide as the widest thing it says without a time left.
        widest = max([translate("StatusLine", "Starting…"), translate("StatusLine", "Ready")]
                     + [fill(translate("StatusLine", "Busy: %1"), task_label(t)) for t in Task]
                     + [fill(translate("StatusLine", "Cancelling the %1…"), task_label(t)) for t in Task if t.cancellable],
                     key=self.busy.fontMetrics().horizontalAdvance)  # fmt: skip
        _set_steady(self.busy, widest)
        self._show_model()
        self._show_busy()

    def _label(self, text: str, name: str) -> QLabel:
        label = plain_label(QLabel(text, self.bar))
        label.setObjectName(name)
        label.setFrameShape(QFrame.Shape.StyledPanel)
        label.setContentsMargins(6, 0, 6, 0)
        self.bar.addPermanentWidget(label)
        return label

    def show_task(self, task: str | None, left: str = "") -> None:
        """What the window waits for ("Ready" when nothing), with the time left when known."""
        self._busy = ("task", task, left)
        self._show_busy()

    def show_cancelling(self, task: str | None) -> None:
        self._busy = ("cancelling", task, "")
        self._show_busy()

    def _show_busy(self) -> None:
        what, task, left = self._busy
        if what == "starting":
            text = translate("StatusLine", "Starting…")
        elif what == "cancelling":
            text = fill(translate("StatusLine", "Cancelling the %1…"), task_label(task or ""))
        elif task is None:
            text = translate("StatusLine", "Ready")
        else:
            text = fill(translate("StatusLine", "Busy: %1"), task_label(task)) + (f" · {left}" if left else "")
        _set_steady(self.busy, text)

    def show_model(self, state: ModelState | None) -> None:
        """The model's class and source, and the devices and dtypes of its tensors."""
        self._state = state
        self._show_model()

    def _show_model(self) -> None:
        if self._state is None:
            _set_steady(self.model, translate("StatusLine", "Model: none yet"))
            return
        info, placement = self._state.info, self._state.placement
        # Names from the file: escaped and elided (plain_text), or a class named with U+202E
        # and a newline reversed the window's "(factory)" and grew the bar.
        _set_steady(self.model, fill(translate("StatusLine", "Model: %1 (%2)"), shown(info.class_name), shown(source_text(info.source))))
        where = shown(", ".join(placement.devices)) or translate("StatusLine", "no tensors")
        dtypes = shown(", ".join(placement.totals.by_dtype)) or "—"
        _set_steady(self.device, fill(translate("StatusLine", "On: %1 · %2"), where, dtypes))

    def flash(self, text: str, msecs: int) -> None:
        """A passing message, gone after ``msecs`` (one line: a path in it can be long)."""
        self.bar.showMessage(shown(text, FLASH_LIMIT), msecs)


def _set_steady(label: QLabel, text: str) -> None:
    """Show ``text`` in ``label``, widening it if the text needs more room, never narrowing
    it (see the module docstring). Fixed in both directions, a label's new text asks nothing
    of the layout (``QWidget::updateGeometry`` does nothing for such a widget)."""
    label.setText(text)
    hint = label.sizeHint()
    if hint.width() > label.minimumWidth() or label.maximumWidth() != label.minimumWidth():
        label.setFixedWidth(max(hint.width(), label.minimumWidth()))
    if label.minimumHeight() != label.maximumHeight() or hint.height() > label.minimumHeight():
        label.setFixedHeight(max(hint.height(), label.minimumHeight()))
