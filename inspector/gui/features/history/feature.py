"""The history feature, installed (``state.feature``): a row per load, move, measurement and
failure the state says (``rows.HistoryRows``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.gui.features.history.rows import HistoryRows

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    HistoryRows(state=context.state, tasks=context.tasks, history=context.frame.history, parent=context.parent)
