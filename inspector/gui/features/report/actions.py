"""The report's actions: File › Export report…, Open report…, Compare with…; Edit › Copy
report as Markdown. Bound to the report flow (``flow.ReportFlow``) once it is built. Export and Copy
need a model and an idle window; Compare with… a report opened from disk (the flow says when
that may have changed: ``actionsChanged``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol


from inspector.gui.common.actions import ActionRegistry, ActionSpec, when_idle_with_model
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

EXPORT = ActionSpec(
    "report.export", "exportReportAction", QT_TRANSLATE_NOOP("Menus", "&Export report…"), "Ctrl+E",
    QT_TRANSLATE_NOOP("CommandAvailability", "Write the timing report (moves, latency, memory) as HTML, JSON, CSV or Markdown"),
    enabled=when_idle_with_model, tip_context="CommandAvailability",
    disabled_tip=QT_TRANSLATE_NOOP("CommandAvailability", "Available once a model is loaded and nothing is running"),
)  # fmt: skip
OPEN = ActionSpec(
    "report.open", "openReportAction", QT_TRANSLATE_NOOP("Menus", "Open re&port…"), "Ctrl+Shift+O",
    QT_TRANSLATE_NOOP("Menus", "Open a saved .json timing report and compare it with this session"),
)  # fmt: skip
COMPARE_WITH = ActionSpec(
    "report.compare_with", "compareWithAction", QT_TRANSLATE_NOOP("Menus", "Compare &with…"), None,
    QT_TRANSLATE_NOOP("Menus", "Compare the opened report with a second one from disk"),
)  # fmt: skip
COPY_MARKDOWN = ActionSpec(
    "report.copy_markdown", "copyMarkdownAction", QT_TRANSLATE_NOOP("Menus", "&Copy report as Markdown"),
    "Ctrl+Shift+C",
    QT_TRANSLATE_NOOP("Menus", "Put this session's report on the clipboard, ready to paste into an issue"),
    enabled=when_idle_with_model,
)  # fmt: skip


class ReportCommands(Protocol):
    """What the actions call (``flow.ReportFlow``'s; named here, not imported: the menus
    import this module with the window's frame, the flow comes with the session)."""

    def export_report_dialog(self) -> object: ...
    def open_report_dialog(self) -> object: ...
    def compare_with_dialog(self) -> object: ...
    def copy_markdown_report(self) -> object: ...
    def can_compare_with(self) -> bool: ...

    @property
    def actionsChanged(self) -> SignalInstance: ...  # noqa: N802 (the flow's Qt signal)


def bind(registry: ActionRegistry, reports: ReportCommands) -> None:
    registry.bind(EXPORT, reports.export_report_dialog)
    registry.bind(OPEN, reports.open_report_dialog)
    registry.bind(COMPARE_WITH, reports.compare_with_dialog, enabled=lambda _situation: reports.can_compare_with())
    registry.bind(COPY_MARKDOWN, reports.copy_markdown_report)
    reports.actionsChanged.connect(registry.refresh)
