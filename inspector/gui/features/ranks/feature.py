"""The ranks feature, installed (``state.feature``): a torchrun report opened into the Compare
tab (``SessionState.reportOpened``) shows its ranks side by side in a tab of their own."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.core.report import TimingReport
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    tabs = context.frame.tabs

    def opened(report: TimingReport) -> None:
        from inspector.gui.features.ranks.table import show_ranks  # (pyqtgraph's table: when first used)

        show_ranks(tabs, report)  # adds/updates the tab; removes it for a report without ranks

    context.state.reportOpened.connect(opened)
