"""The loaded model as the window shows it: the tensor tree (its placement, and each module's
share of a benchmark), the model box's title, the input field's hint, the status line's model.

It hears the session state (``state.session_state``): ``taskEnded`` (a load: another model, the
filter's words were the last one's; a benchmark: the modules' shares), ``modelChanged`` (a
load, or a placement after a move). What stays on screen is said again on a change of
language (``retranslate``), in the translation context "OutcomeWords" (``common.outcome_words``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QGroupBox

from inspector.gui.common.i18n import fill, translate
from inspector.gui.common.plain_text import shown
from inspector.gui.common.vocabulary_words import spec_text
from inspector.gui.state.outcomes import BenchmarkOutcome, LoadOutcome

if TYPE_CHECKING:
    from inspector.core.session import ModelState
    from inspector.gui.common.faces import InputShapeField
    from inspector.gui.common.status_line import StatusLine
    from inspector.gui.state.session_state import SessionState
    from inspector.gui.state.outcomes import TaskEnded


class TensorTree(Protocol):
    """What is asked of the tensor tree (``panel.ParametersPanel``)."""

    #: Its "move this module" asks where to (the action bar's target device and dtype).
    move_target: Callable[[], tuple[str, Any]]

    def model_loaded(self, spec: str) -> None: ...

    def set_placement(self, placement: Any) -> None: ...

    def set_attribution(self, attribution: Any) -> None: ...

    def plain_run_finished(self) -> None: ...


class ModelShown(QObject):
    """Shows the session's model (see the module docstring)."""

    def __init__(
        self, *, state: SessionState, parameters: TensorTree, model_box: QGroupBox, input_field: InputShapeField,
        status: StatusLine, parent: QObject | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.state = state
        self.parameters = parameters
        self.model_box = model_box
        self.input_field = input_field
        self.status = status
        state.taskEnded.connect(self.on_task_ended)
        state.modelChanged.connect(self.on_model_changed)

    def retranslate(self) -> None:
        """What this part said that stays on screen, again in the language now installed."""
        if self.state.model is not None:
            self._show_model_words(self.state.model)

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        if (loaded := end.result_of(LoadOutcome)) is not None:
            self.on_model_loaded(loaded)
        elif (measured := end.result_of(BenchmarkOutcome)) is not None:
            self.on_benchmark_finished(measured)

    def on_model_loaded(self, outcome: LoadOutcome) -> None:
        self.parameters.model_loaded(outcome.state.info.spec)  # another model: the filter's words were the last one's

    @Slot(object)
    def on_model_changed(self, state: ModelState) -> None:
        self.parameters.set_placement(state.placement)
        self._show_model_words(state)
        self.status.show_model(state)

    def on_benchmark_finished(self, outcome: BenchmarkOutcome) -> None:
        if outcome.attribution is not None:
            self.parameters.set_attribution(outcome.attribution)
        else:  # the last per-module run's warnings were about that run (issue 45)
            self.parameters.plain_run_finished()

    def _show_model_words(self, state: ModelState) -> None:
        """The model box's title and the input field's hint, for the model ``state`` shows."""
        info = state.info
        # Names from the file: escaped and elided, or a newline in one wrapped the title (plain_text).
        self.model_box.setTitle(fill(translate("OutcomeWords", "Model — %1 (%2)"), shown(info.class_name), shown(spec_text(info.spec))))
        field = self.input_field
        if not field.input_shape_text() and info.example_input_shapes:
            shapes = ", ".join("x".join(map(str, s)) for s in info.example_input_shapes)
            field.inputShapeEdit.setPlaceholderText(fill(translate("OutcomeWords", "model input %1"), shapes))
        elif not info.example_input_shapes:
            field.inputShapeEdit.setPlaceholderText(translate("OutcomeWords", "needed, e.g. 1,3,224,224"))
