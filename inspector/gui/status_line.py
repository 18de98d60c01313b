"""The window's status bar: which model, where it lives, what the window is doing (three
permanent labels, plain text: the names come from files), and passing messages."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QFrame, QLabel, QStatusBar

from inspector.gui.i18n import fill, translate
from inspector.gui.plain_text import plain_label
from inspector.gui.tasks import task_label


class StatusLine:
    """The labels ``statusModel``, ``statusDevice`` and ``statusBusy`` on ``bar``."""

    def __init__(self, bar: QStatusBar) -> None:
        self.bar = bar
        self.model = self._label("", "statusModel")
        self.device = self._label("", "statusDevice")
        self.busy = self._label("", "statusBusy")
        # What the labels show, kept so a change of language can say it again.
        self._state: Any = None
        self._busy: tuple[str, str | None, str] = ("starting", None, "")
        self.retranslate()

    def retranslate(self) -> None:
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
        self.busy.setText(text)

    def show_model(self, state: Any) -> None:
        """The model's class and source, and the devices and dtypes of its tensors (a ``ModelState``)."""
        self._state = state
        self._show_model()

    def _show_model(self) -> None:
        if self._state is None:
            self.model.setText(translate("StatusLine", "Model: none yet"))
            return
        info, placement = self._state.info, self._state.placement
        self.model.setText(fill(translate("StatusLine", "Model: %1 (%2)"), info.class_name, info.source))
        where = ", ".join(placement.devices) or translate("StatusLine", "no tensors")
        dtypes = ", ".join(placement.totals.by_dtype) or "—"
        self.device.setText(fill(translate("StatusLine", "On: %1 · %2"), where, dtypes))

    def flash(self, text: str, msecs: int) -> None:
        """A passing message, gone after ``msecs``."""
        self.bar.showMessage(text, msecs)
