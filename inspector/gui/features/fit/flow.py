"""Tools › Will it fit?: the non-modal dialog (one row per device of the machine), its
questions sent to the worker, and its answers.

``gui.features.fit.dialog`` is imported when the dialog first opens, not in the window's first second.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal, SignalInstance, Slot
from PySide6.QtWidgets import QWidget

from inspector.core.units import format_bytes
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.state.outcomes import FitOutcome
from inspector.gui.state.tasks import Task

if TYPE_CHECKING:
    from inspector.gui.common.faces import InputShapeField
    from inspector.gui.state.dispatcher import Dispatcher
    from inspector.gui.state.session_state import SessionState
    from inspector.gui.state.outcomes import TaskEnded, TaskFailure


class FitFlow(QObject):
    """The "will it fit?" dialog, made on first use, and its requests."""

    cancelRequested = Signal()  # its Cancel, or the dialog closed while its estimate runs

    def __init__(
        self, parent: QWidget, *, dispatcher: Dispatcher, request: SignalInstance, action_bar: InputShapeField,
        state: SessionState,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.parent_widget = parent
        self.dispatcher = dispatcher
        self._request = request
        self.action_bar = action_bar  # the dialog starts from the input field's shape
        self.state = state  # its rows are the inventory's devices
        state.taskEnded.connect(self.on_task_ended)
        self.dialog: Any = None  # gui.features.fit.dialog.FitDialog
        self._available = False

    def show(self) -> Any:
        """The dialog, one row per device of the machine, shown and raised."""
        from inspector.gui.features.fit.dialog import FitDialog

        if self.dialog is None:
            self.dialog = FitDialog(self.parent_widget)
            self.dialog.requested.connect(self.request)
            self.dialog.cancelRequested.connect(self.cancelRequested)
        inventory = self.state.inventory
        self.dialog.set_devices(inventory.ids() if inventory is not None else ["cpu"])
        self.dialog.set_input_shape(self.action_bar.inputShapeEdit.text().strip())
        self.dialog.set_busy(not self._available)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def request(self, requests: tuple[Any, ...]) -> bool:
        devices = ", ".join(planned_name(r) for r in requests)
        mark = fill(translate("FitFlow", "will it fit? %1"), devices)
        if not self.dispatcher.send(Task.FIT, self._request, requests, mark=mark):
            if self.dialog is not None:
                self.dialog.show_failure(self.dispatcher.busy_text())
            return False
        return True

    @Slot(bool)
    def set_available(self, available: bool) -> None:
        """Whether the window may ask now: while Tools › Will it fit? is enabled (``actions.bind``)."""
        self._available = available
        if self.dialog is not None:
            self.dialog.set_busy(not available)

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        if end.failure is not None:
            self.on_task_failed(end.failure)
        elif (outcome := end.result_of(FitOutcome)) is not None:
            self.on_finished(outcome)

    def on_finished(self, outcome: FitOutcome) -> None:
        if self.dialog is not None:
            self.dialog.show_outcome(outcome)

    def on_task_failed(self, failure: TaskFailure) -> None:
        if failure.task == Task.FIT and self.dispatcher.tasks.owns(failure.task) and self.dialog is not None:
            self.dialog.show_failure(core_text(failure.failure.message))


def planned_name(request: Any) -> str:
    """What the memory plot's mark calls a device asked about: one planned for by name or
    capacity as planned ("RTX 4090, planned"), never the cuda:0 its plan is laid out on
    (issue 45 item 2: "will it fit? cpu, cuda:0" on a machine without a GPU); a distributed
    plan's by its ranks' device (``ClusterRequest.fit``)."""
    request = getattr(request, "fit", request)
    if request.gpu is None and request.capacity is None:
        return str(request.device)
    label = request.gpu if request.capacity is None else format_bytes(request.capacity)
    return fill(translate("FitFlow", "%1, planned"), label)
