"""The fit feature, installed (``state.feature``): Tools › Will it fit?… (``flow.FitFlow``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.gui.features.fit import actions
from inspector.gui.features.fit.flow import FitFlow

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    fit = FitFlow(context.parent, dispatcher=context.dispatcher, request=context.requests.fit,
                  action_bar=context.frame.action_bar, state=context.state)  # fmt: skip
    fit.cancelRequested.connect(context.cancel)
    actions.bind(context.actions, fit)
    context.publish(fit=fit, show_fit_dialog=fit.show)
