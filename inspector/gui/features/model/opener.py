"""Opening a model: the load request, the Open model dialog, the trust question, and the
input field after a load.

The old model stays until the new one is loaded. A load that failed is remembered: the Open
model dialog reopens on it, to fix (its architecture, say); one that needs trust is offered
again with trust, its other arguments kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QObject, QSettings, SignalInstance, Slot
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from inspector.core.errors import Failure
from inspector.core.session import LoadRequest
from inspector.core.vocabulary import FailureKind
from inspector.gui.common import window_settings
from inspector.gui.common.i18n import fill, translate
from inspector.gui.common.plain_text import shown
from inspector.gui.state.outcomes import LoadOutcome
from inspector.gui.state.tasks import Task
from inspector.gui.common.vocabulary_words import spec_text

if TYPE_CHECKING:
    from inspector.gui.common import dialogs
    from inspector.gui.common.code_panel import CodePanel
    from inspector.gui.common.faces import InputShapeField
    from inspector.gui.state.dispatcher import Dispatcher
    from inspector.gui.state.session_state import SessionState
    from inspector.gui.state.outcomes import TaskEnded, TaskFailure


class ModelOpener(QObject):
    """Loads models for the window (see the module docstring). It hears the session state's
    ``taskEnded`` (a load's, or a failure's); a file that needs trust is offered again through
    ``ask_trust`` (the window's: a remote window asks its own way; default: ``self.ask_trust``)."""

    def __init__(
        self, parent: QWidget, *, dispatcher: Dispatcher, request: SignalInstance, action_bar: InputShapeField,
        code: CodePanel, settings: QSettings, state: SessionState,
        ask_trust: Callable[[str, tuple[str, ...]], object] | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.parent_widget = parent  # the dialogs open over it
        self.dispatcher = dispatcher
        self._request = request
        self.action_bar = action_bar
        self.code = code
        self.settings = settings
        self.state = state
        self._ask_trust = ask_trust if ask_trust is not None else self.ask_trust
        state.taskEnded.connect(self.on_task_ended)
        self.pending_load: LoadRequest | None = None
        #: The last load that failed (the Open model dialog reopens on it, to fix); None once one succeeds.
        self.failed_load: Failure | None = None
        #: (spec, input text) a preset or the Open model dialog gave for the load under way.
        self.pending_inputs: tuple[str, str] | None = None

    def open(
        self, spec: str, *, trust: bool = False, architecture: str | None = None, inputs: str | None = None
    ) -> bool:
        """Load ``spec`` in the worker; ``inputs`` fills the input field once it is loaded
        (else what the model last used)."""
        request = LoadRequest(spec, trust, architecture or None)
        self.pending_load = request
        self.pending_inputs = (spec, inputs) if inputs is not None else None
        mark = fill(translate("ModelOpener", "load %1"), shown(spec_text(_short_spec(spec))))
        return self.dispatcher.send(Task.LOAD, self._request, request, mark=mark)

    def open_dialog(self, recent: list[str]) -> None:
        dialog = self.make_dialog(recent)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.spec():
            if dialog.browsed_path:
                window_settings.set_last_folder(self.settings, "models", dialog.browsed_path)
            self.open(dialog.spec(), architecture=dialog.architecture(), inputs=dialog.inputs())

    def make_dialog(self, recent: list[str]) -> dialogs.OpenModelDialog:
        """The Open model dialog, filled with the load that just failed (to fix it) or else
        the current model and its input."""
        failed, request = self.failed_load, self.pending_load
        if failed is not None and request is not None:
            spec, arch, inputs = request.spec, request.architecture or "", ""
            if self.pending_inputs is not None and self.pending_inputs[0] == request.spec:
                inputs = self.pending_inputs[1]
        elif self.state.model is not None:
            spec, arch, inputs = self.state.model.info.spec, "", self.action_bar.input_shape_text()
        else:
            spec = arch = inputs = ""
        from inspector.gui.common import dialogs  # (when a dialog first opens: not in the first second)

        return dialogs.OpenModelDialog(
            recent, self.parent_widget, spec=spec, architecture=arch, inputs=inputs,
            needs_architecture=failed is not None and failed.kind == FailureKind.ARCHITECTURE,
            start_folder=window_settings.last_folder(self.settings, "models"),
        )  # fmt: skip

    def ask_trust(self, path: str, wanted: tuple[str, ...]) -> QMessageBox:
        """Offer to load a refused file again with trust (the load's other arguments kept);
        returns the question (a non-blocking ``QMessageBox``)."""

        def trusted() -> None:
            if not self.dispatcher.closed:
                architecture = self.pending_load.architecture if self.pending_load else None
                self.open(path, trust=True, architecture=architecture)

        from inspector.gui.common import dialogs  # (when a dialog first opens: not in the first second)

        return dialogs.ask_trust(self.parent_widget, path, wanted, trusted)

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        if end.failure is not None:
            self.on_task_failed(end.failure)
        elif (loaded := end.result_of(LoadOutcome)) is not None:
            self.on_model_loaded(loaded)

    def on_model_loaded(self, outcome: LoadOutcome) -> None:
        """The input field shows what the model was opened with (a preset), else what its last
        benchmark used, else nothing (its own example input, or a hint)."""
        spec = outcome.state.info.spec
        pending, self.pending_inputs = self.pending_inputs, None
        self.failed_load = None
        if pending is not None and pending[0] == spec:
            text = pending[1]
        else:
            text = window_settings.remembered_inputs(self.settings, spec)
        self.action_bar.inputShapeEdit.setText(text)
        self.code.show_code("", "")  # the last model's snippet does not apply to this one

    def on_task_failed(self, failure: TaskFailure) -> None:
        if not self.dispatcher.tasks.owns(failure.task):  # the quiet session report
            return
        if failure.task == Task.LOAD and failure.failure.kind != FailureKind.CANCELLED:
            self.failed_load = failure.failure
        if failure.failure.kind != FailureKind.CANCELLED and failure.wanted and failure.path and not self.dispatcher.closed:
            self._ask_trust(failure.path, failure.wanted)  # a file that needs trust to load


def _short_spec(spec: str) -> str:
    """A model spec for a plot label: a file without its folders ("big.py:make", "model.pt")."""
    path, colon, factory = spec.rpartition(":")
    if colon and factory.isidentifier() and ("/" in path or "\\" in path):
        return f"{Path(path).name}:{factory}"
    return Path(spec).name if ("/" in spec or "\\" in spec) else spec
