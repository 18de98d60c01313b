"""The moves feature, installed (``state.feature``): the action bar's moves (``commands``; its
Benchmark button is the latency feature's) and what they are allowed to do now (``availability``);
how each task went is the outcomes feature's."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from inspector.gui.features.moves.action_bar import ActionBar
from inspector.gui.features.moves.availability import CommandAvailability
from inspector.gui.features.moves.commands import ModelCommands

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    frame, state, requests = context.frame, context.state, context.requests
    bar = cast(ActionBar, frame.action_bar)  # this feature's own bar
    commands = ModelCommands(
        context.parent, dispatcher=context.dispatcher, move=requests.move, action_bar=bar, banner=frame.banner,
        code=frame.code, state=state,
    )  # fmt: skip
    availability = CommandAvailability(action_bar=bar, tasks=context.tasks, state=state, parent=context.parent)
    bar.cancelButton.clicked.connect(context.cancel)
    bar.cancelButton.setShortcut(QKeySequence(Qt.Key.Key_Escape))
    context.started.append(availability.refresh)
    context.retranslatable.append(availability)
    # (for the benchmarks' scripts, which drive a window as a user would; tests find ModelCommands: tests/gui/doors)
    context.publish(request_move=commands.request_move, move_to_target=commands.move_to_target,
                    move_cuda=commands.move_cuda)  # fmt: skip
