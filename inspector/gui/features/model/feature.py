"""The model feature, installed (``state.feature``): the tree, box title and hints that show
the loaded model (``shown.ModelShown``), and the opener that loads one (``opener.ModelOpener``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from inspector.gui.features.model.opener import ModelOpener
from inspector.gui.features.model.shown import ModelShown, TensorTree

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    frame = context.frame
    tree = cast(TensorTree, frame.parameters)  # this feature's own panel
    shown = ModelShown(state=context.state, parameters=tree, model_box=frame.model_box, input_field=frame.action_bar,
                       status=frame.status, parent=context.parent)  # fmt: skip
    opener = ModelOpener(
        context.parent, dispatcher=context.dispatcher, request=context.requests.load, action_bar=frame.action_bar,
        code=frame.code, settings=context.settings, state=context.state, ask_trust=context.ask_trust,
    )  # fmt: skip
    # The tree's "move this module" asks the action bar's target and dtype.
    bar = frame.action_bar
    tree.move_target = lambda: (bar.target_device(), bar.dtype())
    context.retranslatable.append(shown)
    context.publish(opener=opener)
