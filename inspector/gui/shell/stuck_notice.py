"""When Cancel cannot stop the work: a model's forward that never returns.

A benchmark or a move stops at its next safe point once Cancel is pressed: between samples,
between tensors. A forward that never returns (a model that waits on something that never
comes, a hung driver) never reaches one, and nothing can interrupt it from outside: Python
cannot stop a thread, and the worker's QThread cannot be destroyed while it runs. The status
bar would say "Cancelling the benchmark…" forever, with every control disabled.

So, NOTICE_DELAY_S after a Cancel that has not ended the task, ``StuckNotice`` says so (non-
modal, over the bottom of the panels) and offers what can be done: keep waiting (the task
ends as soon as the call returns, and the notice with it), or save the settings and quit.
The quit ends the process at once (``os._exit``) after saving: the stuck thread cannot be
joined, and tearing the interpreter down under it could crash.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.gui.common.i18n import Retranslates, fill, translate
from inspector.gui.common.plain_text import plain_label
from inspector.gui.state.tasks import Task, TaskController, task_label

# How long after Cancel a task that has not ended is said to be stuck (a chunk of samples
# takes ~50 ms, a slow model's one forward a few seconds).
NOTICE_DELAY_S = 5.0

# Ends the process without the interpreter's teardown (a test replaces it).
_leave: Callable[[int], None] = os._exit


class StuckNotice(Retranslates, QFrame):
    """Shown when the task Cancel was pressed for is still running NOTICE_DELAY_S later;
    hidden when the task ends or the user chooses to keep waiting."""

    def __init__(self, tasks: TaskController, quit_app: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stuckNotice")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(
            "QFrame#stuckNotice { background: #fff4e5; border: 1px solid #ffb74d; border-radius: 4px; }"
            "QFrame#stuckNotice QLabel { color: #663c00; background: transparent; }"
        )
        self._tasks = tasks
        self._quit_app = quit_app
        self._task: Task | None = None  # the task Cancel was pressed for
        self._anchor: QWidget | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._check)

        self.title = plain_label(QLabel(self))
        self.title.setObjectName("stuckNoticeTitle")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.message = plain_label(QLabel(self))
        self.message.setObjectName("stuckNoticeMessage")
        self.message.setWordWrap(True)
        self.wait_button = QPushButton(self)
        self.wait_button.setObjectName("stuckNoticeWaitButton")
        self.wait_button.clicked.connect(self.keep_waiting)
        self.quit_button = QPushButton(self)
        self.quit_button.setObjectName("stuckNoticeQuitButton")
        self.quit_button.clicked.connect(self._quit_app)

        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.wait_button)
        buttons.addWidget(self.quit_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.message)
        layout.addLayout(buttons)
        self.setVisible(False)

        tasks.cancelAsked.connect(self._cancel_asked)
        tasks.busyChanged.connect(self._busy_changed)
        self.retranslate()

    # ----- when

    def _cancel_asked(self, task: Task) -> None:
        if self._task != task or not self._timer.isActive():
            self._task = task
            self._timer.start(round(NOTICE_DELAY_S * 1000))

    def _busy_changed(self, task: Task | None) -> None:
        if task != self._task:  # the task ended (or another began): nothing is stuck
            self._timer.stop()
            self._task = None
            self.setVisible(False)

    def _check(self) -> None:
        if self._task is not None and self._tasks.task == self._task and self._tasks.cancel_event.is_set():
            self.retranslate()
            self.setVisible(True)
            self.place()

    def keep_waiting(self) -> None:
        """Hide the notice; the task ends on its own when the call returns."""
        self.setVisible(False)

    # ----- what it says

    def retranslate(self) -> None:
        task = self._task or Task.BENCHMARK
        if task is Task.BENCHMARK:
            self.title.setText(translate("StuckNotice", "The model's forward pass has not returned"))
            text = translate(
                "StuckNotice",
                "Cancel was pressed, but the model's forward pass is still running, and it cannot be interrupted: "
                "the benchmark stops as soon as it returns. You can keep waiting, or save the settings and quit "
                "the app (what was measured and not exported is lost).",
            )
        else:
            self.title.setText(fill(translate("StuckNotice", "The %1 has not stopped"), task_label(task)))
            text = fill(translate(
                "StuckNotice",
                "Cancel was pressed, but the %1 is still inside a call that cannot be interrupted (the model's "
                "code or the device's driver): it stops as soon as that call returns. You can keep waiting, or "
                "save the settings and quit the app (what was measured and not exported is lost).",
            ), task_label(task))  # fmt: skip
        self.message.setText(text)
        self.wait_button.setText(translate("StuckNotice", "Keep waiting"))
        self.quit_button.setText(translate("StuckNotice", "Save settings and quit"))
        self.place()

    # ----- where

    def overlay(self, anchor: QWidget) -> None:
        """Float over the bottom of ``anchor`` (a sibling), as the error banner floats over its top."""
        self._anchor = anchor
        anchor.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self._anchor and event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self.place()
        return False

    def place(self) -> None:
        anchor = self._anchor
        parent = self.parentWidget()
        # (Qt's isVisibleTo(None) is isVisible(), which PySide6's stub does not allow)
        if anchor is None or not (self.isVisibleTo(parent) if parent is not None else self.isVisible()):
            return
        width = max(200, anchor.width())
        height = self.heightForWidth(width) if self.hasHeightForWidth() else -1
        height = min(max(height, self.minimumSizeHint().height()), max(60, anchor.height()))
        self.setGeometry(anchor.x(), anchor.y() + anchor.height() - height, width, height)
        self.raise_()


def quit_leaving_work(window: QWidget, save: Callable[[], None], others: list[QWidget]) -> None:
    """Save the settings (``save``), close the ``others`` windows (a remote window ends its
    agent), and end the process now, leaving the stuck call behind: its thread cannot be
    joined, and a QThread destroyed while it runs aborts the process."""
    save()
    for other in others:
        if other is not window:
            other.close()
    print("torch-device-inspector: quit while a call that cannot be interrupted was still running "
          "(the settings are saved)", file=sys.stderr)  # fmt: skip
    sys.stderr.flush()
    sys.stdout.flush()
    _leave(0)
