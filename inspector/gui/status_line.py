"""The window's status bar: which model, where it lives, what the window is doing (three
permanent labels, plain text: the names come from files), and passing messages."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QFrame, QLabel, QStatusBar

from inspector.gui.plain_text import plain_label


class StatusLine:
    """The labels ``statusModel``, ``statusDevice`` and ``statusBusy`` on ``bar``."""

    def __init__(self, bar: QStatusBar) -> None:
        self.bar = bar
        self.model = self._label("Model: none yet", "statusModel")
        self.device = self._label("", "statusDevice")
        self.busy = self._label("Starting…", "statusBusy")

    def _label(self, text: str, name: str) -> QLabel:
        label = plain_label(QLabel(text, self.bar))
        label.setObjectName(name)
        label.setFrameShape(QFrame.Shape.StyledPanel)
        label.setContentsMargins(6, 0, 6, 0)
        self.bar.addPermanentWidget(label)
        return label

    def show_task(self, task: str | None, left: str = "") -> None:
        """What the window waits for ("Ready" when nothing), with the time left when known."""
        self.busy.setText("Ready" if task is None else f"Busy: {task}" + (f" · {left}" if left else ""))

    def show_cancelling(self, task: str | None) -> None:
        self.busy.setText(f"Cancelling the {task}…")

    def show_model(self, state: Any) -> None:
        """The model's class and source, and the devices and dtypes of its tensors (a ``ModelState``)."""
        info, placement = state.info, state.placement
        self.model.setText(f"Model: {info.class_name} ({info.source})")
        where = ", ".join(placement.devices) or "no tensors"
        dtypes = ", ".join(placement.totals.by_dtype) or "—"
        self.device.setText(f"On: {where} · {dtypes}")

    def flash(self, text: str, msecs: int) -> None:
        """A passing message, gone after ``msecs``."""
        self.bar.showMessage(text, msecs)
