"""One real training step: asked for (after a confirmation: the step changes the model's
weights) with the model's own input or the input field's, sent through the one door to the
worker (``state.dispatcher.Dispatcher``), and once it ran, the PyTorch code it ran in the code
view and "trained 1 step" in the bar (it hears the session state's ``taskEnded``). The rest of
its end is the other features': the tree shows the gradients (the state's model), the History
a row, the Memory tab a mark. Its words are in the translation contexts of the words of how
tasks end (``OutcomeWords``) and of the moves' commands that said them before (``ModelCommands``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, SignalInstance, Slot
from PySide6.QtWidgets import QWidget

from inspector.core.errors import Failure, InputError
from inspector.core.vocabulary import FailureKind
from inspector.gui.common.bar_words import BarWords
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.state.outcomes import Outcome
from inspector.gui.state.readiness import input_shape
from inspector.gui.state.tasks import Task, task_label

if TYPE_CHECKING:
    from inspector.gui.common.code_panel import CodePanel
    from inspector.gui.common.error_banner import ErrorBanner
    from inspector.gui.common.faces import ActionBarFace
    from inspector.gui.state.dispatcher import Dispatcher
    from inspector.gui.state.outcomes import TaskEnded
    from inspector.gui.state.session_state import SessionState


class TrainingStep(QObject):
    """Tools › Run one training step… (see the module docstring)."""

    def __init__(
        self, parent: QWidget, *, dispatcher: Dispatcher, request: SignalInstance, bar: ActionBarFace,
        banner: ErrorBanner, code: CodePanel, state: SessionState,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.parent_widget = parent  # the confirmation opens over it
        self.dispatcher = dispatcher
        self._request = request
        self.bar = bar  # its input field, and the bar's words once the step ran
        self.bar_words = BarWords(bar)
        self.banner = banner
        self.code = code
        self.state = state
        state.taskEnded.connect(self.on_task_ended)

    def retranslate(self) -> None:
        self.bar_words.retranslate()

    def confirm(self) -> bool:
        """Ask first (the step changes the model's weights), then run one training step."""
        from inspector.gui.common import dialogs

        if self.state.model is None or not dialogs.confirm_train_step(self.parent_widget):
            return False
        return self.run()

    def run(self) -> bool:
        """One real training step on the model, with its own input or the input-shape field's."""
        try:
            shape = input_shape(self.bar)
        except Exception as exc:  # noqa: BLE001 - the field's parse error, as the benchmark shows it
            problem = core_text(exc.message) if isinstance(exc, InputError) else str(exc)
            message = fill(translate("ModelCommands", "Input shape: %1"), problem)
            self.banner.show_failure(Failure(FailureKind.INPUT, message), "train step", source=Task.TRAIN_STEP)
            return False
        return self.dispatcher.send(Task.TRAIN_STEP, self._request, shape, mark=task_label(Task.TRAIN_STEP), drawn_first=True)

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        if end.task != Task.TRAIN_STEP or end.outcome is not Outcome.DONE:
            return  # (a failed step is said by the banner and the History, as every task's failure)
        self.bar_words.idle(lambda: translate("OutcomeWords", "trained 1 step"))
        self.code.show_code(train_step_code, lambda: translate("OutcomeWords", "Equivalent PyTorch code: one training step"))


def train_step_code() -> str:
    """What a training step runs, as the user would write it, its comments in the window's
    language (the code the same in every language)."""
    lines = (
        ("model.train()", ""),
        ("output = model(*inputs)", ""),
        ("loss = output.sum()", translate("OutcomeWords", "a stand-in loss")),
        ("optimizer.zero_grad(set_to_none=True)", ""),
        ("loss.backward()", translate("OutcomeWords", "each parameter gets a .grad")),
        ("optimizer.step()", translate("OutcomeWords", "the optimizer keeps state")),
    )
    return "".join(f"{code:<28} # {comment}\n" if comment else f"{code}\n" for code, comment in lines)
