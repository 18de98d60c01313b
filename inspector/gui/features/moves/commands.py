"""The moves the window asks its ModelWorker for, sent one at a time (the benchmark is the
latency feature's: ``features.latency.launch``; the training step the training feature's).

The requests leave through the one door to the worker (``state.dispatcher.Dispatcher``).
``ModelCommands`` turns the action bar's move buttons into requests, read once
(``resolve_request``), and shows the PyTorch code of a move once it ends, from the request
its result carries (it hears the session state's ``taskEnded``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, SignalInstance, Slot
from PySide6.QtWidgets import QWidget

from inspector.core.errors import InputError
from inspector.core.moves import MoveRequest, MoveResult, resolve_request
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.state.tasks import Task
from inspector.gui.state.workers import request_call

if TYPE_CHECKING:
    from inspector.gui.features.moves.action_bar import ActionBar
    from inspector.gui.common.code_panel import CodePanel
    from inspector.gui.common.error_banner import ErrorBanner
    from inspector.gui.state.dispatcher import Dispatcher
    from inspector.gui.state.outcomes import TaskEnded
    from inspector.gui.state.session_state import SessionState


class ModelCommands(QObject):
    """The moves (see the module docstring). A QObject
    living on the GUI thread, so the state's ``taskEnded`` is delivered there."""

    def __init__(
        self, parent: QWidget, *, dispatcher: Dispatcher, move: SignalInstance, action_bar: ActionBar,
        banner: ErrorBanner, code: CodePanel, state: SessionState,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.dispatcher = dispatcher
        self._move = move
        self.action_bar = action_bar
        self.banner = banner
        self.code = code
        self.state = state
        state.taskEnded.connect(self.on_task_ended)
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

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        if (moved := end.result_of(MoveResult)) is not None:
            self.on_move_finished(moved)

    def on_move_finished(self, result: MoveResult) -> None:
        """The move ended (done, cancelled or failed): the code of the call that was asked for,
        from the request the result carries."""
        call, request = result.call, result.request
        if request is None:  # (a result from an agent older than results that carry it)
            return
        # (functions: the panel says the comments and the caption again when the language changes)
        self.code.show_code(partial(_move_code, request), lambda: fill(translate("ModelCommands", "Equivalent PyTorch code: %1"), call))


def _move_code(request: MoveRequest) -> str:
    """The code of the move ``request``, its comments in the window's language."""
    from inspector.core.report import move_snippet

    try:
        return move_snippet(request, say=core_text)
    except InputError as exc:
        return "# " + fill(translate("ModelCommands", "no snippet for this move: %1"), core_text(exc.message))
