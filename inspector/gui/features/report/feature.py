"""The report feature, installed (``state.feature``): export, copy, open and compare reports
(``flow.ReportFlow``). It feeds the Compare tab (``common.pages.COMPARISON``) with this
session's report once that page is built, and a close waits for a file being written."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.gui.common.pages import COMPARISON
from inspector.gui.features.report import actions
from inspector.gui.features.report.flow import ReportFlow
from inspector.gui.state.feature import Live

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from inspector.gui.common.lazy_tabs import TabKey
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    frame, pages = context.frame, context.pages
    reports = ReportFlow(
        context.parent, dispatcher=context.dispatcher, request=context.requests.report, tasks=context.tasks,
        pages=pages, progress=frame.action_bar, banner=frame.banner, history=frame.history, status=frame.status,
        settings=context.settings, state=context.state,
    )  # fmt: skip
    frame.tabs.currentChanged.connect(lambda _i: reports.maybe_refresh_session())

    def built(key: TabKey[object], _page: QWidget) -> None:
        if key is COMPARISON:
            reports.comparison_view_built(pages.page(COMPARISON))  # (that page, as its face)

    pages.built.append(built)
    context.waits.append(reports.wait)
    actions.bind(context.actions, reports)
    context.retranslatable.append(reports)
    context.publish(
        reports=reports, export_report=reports.export_report, open_report=reports.open_report,
        last_export=Live(lambda: reports.last_export), _exporting=Live(lambda: reports.exporting),
    )  # fmt: skip
