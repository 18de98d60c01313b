"""The outcomes feature, installed (``state.feature``): ``shown.TaskOutcomes`` hears the session
state and the task machine and speaks in the frame's shared bar, banner and status line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.gui.features.outcomes.shown import TaskOutcomes

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    frame = context.frame
    outcomes = TaskOutcomes(state=context.state, tasks=context.tasks, bar=frame.action_bar, banner=frame.banner,
                            status=frame.status, parent=context.parent)  # fmt: skip
    context.retranslatable.append(outcomes)
