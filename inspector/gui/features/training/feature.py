"""The training step, installed (``state.feature``): Tools › Run one training step… bound to its
confirmation (``step.TrainingStep``), which sends the request and shows what the step ran."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.gui.features.training.actions import TRAIN_STEP
from inspector.gui.features.training.step import TrainingStep

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    frame = context.frame
    step = TrainingStep(
        context.parent, dispatcher=context.dispatcher, request=context.requests.train_step, bar=frame.action_bar,
        banner=frame.banner, code=frame.code, state=context.state,
    )  # fmt: skip
    context.actions.bind(TRAIN_STEP, step.confirm)
    context.retranslatable.append(step)
