"""What the window asks its ModelWorker to do: moves and the training step, sent one at a
time (the benchmark is the latency feature's: ``features.latency.launch``).

The requests leave through the one door to the worker (``state.dispatcher.Dispatcher``).
``ModelCommands`` turns the action bar and the Tools menu into requests, read once
(``resolve_request``), and shows the PyTorch code of a move once it ends, from the request
its result carries, and the code of a training step once one ran (it hears the session
state's ``moveFinished`` and ``trainStepFinished``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, SignalInstance, Slot
from PySide6.QtWidgets import QWidget

from inspector.core.errors import Failure, InputError
from inspector.core.moves import MoveRequest, MoveResult, resolve_request
from inspector.core.vocabulary import FailureKind
from inspector.gui.state.readiness import input_shape
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.state.tasks import Task, task_label
from inspector.gui.state.workers import request_call

if TYPE_CHECKING:
    from inspector.gui.features.moves.action_bar import ActionBar
    from inspector.gui.common.code_panel import CodePanel
    from inspector.gui.common.error_banner import ErrorBanner
    from inspector.gui.state.dispatcher import Dispatcher
    from inspector.gui.state.session_state import SessionState


class ModelCommands(QObject):
    """The moves and the training step (see the module docstring). A QObject
    living on the GUI thread, so the worker's ``moveFinished`` is delivered there, queued."""

    def __init__(
        self, parent: QWidget, *, dispatcher: Dispatcher, move: SignalInstance, train_step: SignalInstance,
        action_bar: ActionBar, banner: ErrorBanner, code: CodePanel, state: SessionState,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.parent_widget = parent  # the training step's confirmation opens over it
        self.dispatcher = dispatcher
        self._move, self._train_step = move, train_step
        self.action_bar = action_bar
        self.banner = banner
        self.code = code
        self.state = state
        state.moveFinished.connect(self.on_move_finished)
        state.trainStepFinished.connect(self.on_train_step_finished)
        # The action bar's buttons and its input field's Return ask for these.
        a = action_bar
        a.toDeviceButton.clicked.connect(self.move_to_target)
        a.cudaButton.clicked.connect(self.move_cuda)
        a.cpuButton.clicked.connect(self.move_cpu)

    def request_move(self, request: MoveRequest) -> bool:
        # Read once, here: the plot's mark, the worker, the move and its result use this reading.
        try:
            request = resolve_request(request)
        except InputError:
            pass  # no move: the worker's move says why, as it always has
        return self.dispatcher.send(Task.MOVE, self._move, request, mark=request_call(request), drawn_first=True)

    def move_to_target(self) -> bool:
        a = self.action_bar
        return self.request_move(MoveRequest("to", device=a.target_device(), dtype=a.dtype(), pinned=a.pinned()))

    def move_cuda(self) -> bool:
        target = self.action_bar.target_device()
        device = target if target.startswith("cuda") else None
        return self.request_move(MoveRequest("cuda", device=device, pinned=self.action_bar.pinned()))

    def move_cpu(self) -> bool:
        return self.request_move(MoveRequest("cpu"))

    def confirm_train_step(self) -> bool:
        """Ask first (the step changes the model's weights), then run one training step."""
        from inspector.gui.common import dialogs

        if self.state.model is None or not dialogs.confirm_train_step(self.parent_widget):
            return False
        return self.run_train_step()

    def run_train_step(self) -> bool:
        """One real training step on the model, with its own input or the input-shape field's."""
        try:
            shape = input_shape(self.action_bar)
        except Exception as exc:  # noqa: BLE001 - the field's parse error, as the benchmark shows it
            problem = core_text(exc.message) if isinstance(exc, InputError) else str(exc)
            message = fill(translate("ModelCommands", "Input shape: %1"), problem)
            self.banner.show_failure(Failure(FailureKind.INPUT, message), "train step", source=Task.TRAIN_STEP)
            return False
        return self.dispatcher.send(Task.TRAIN_STEP, self._train_step, shape, mark=task_label(Task.TRAIN_STEP), drawn_first=True)

    @Slot(object)
    def on_move_finished(self, result: MoveResult) -> None:
        """The move ended (done, cancelled or failed): the code of the call that was asked for,
        from the request the result carries."""
        call, request = result.call, result.request
        if request is None:  # (a result from an agent older than results that carry it)
            return
        # (functions: the panel says the comments and the caption again when the language changes)
        self.code.show_code(partial(_move_code, request), lambda: fill(translate("ModelCommands", "Equivalent PyTorch code: %1"), call))


    @Slot(object)
    def on_train_step_finished(self, _result: Any) -> None:
        self.code.show_code(train_step_code, lambda: translate("WorkerResults", "Equivalent PyTorch code: one training step"))


def train_step_code() -> str:
    """What a training step runs, as the user would write it, its comments in the window's
    language (the code the same in every language)."""
    lines = (
        ("model.train()", ""),
        ("output = model(*inputs)", ""),
        ("loss = output.sum()", translate("WorkerResults", "a stand-in loss")),
        ("optimizer.zero_grad(set_to_none=True)", ""),
        ("loss.backward()", translate("WorkerResults", "each parameter gets a .grad")),
        ("optimizer.step()", translate("WorkerResults", "the optimizer keeps state")),
    )
    return "".join(f"{code:<28} # {comment}\n" if comment else f"{code}\n" for code, comment in lines)


def _move_code(request: MoveRequest) -> str:
    """The code of the move ``request``, its comments in the window's language."""
    from inspector.core.report import move_snippet

    try:
        return move_snippet(request, say=core_text)
    except InputError as exc:
        return "# " + fill(translate("ModelCommands", "no snippet for this move: %1"), core_text(exc.message))
