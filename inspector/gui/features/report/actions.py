"""The report's actions: File › Export report…, Open report…, Compare with…; Edit › Copy
report as Markdown. Bound to the report flow (``flow.ReportFlow``) once it is built."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QT_TRANSLATE_NOOP

from inspector.gui.common.actions import ActionRegistry, ActionSpec

EXPORT = ActionSpec("report.export", "exportReportAction", QT_TRANSLATE_NOOP("Menus", "&Export report…"), "Ctrl+E")
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
)  # fmt: skip


class ReportCommands(Protocol):
    """What the actions call (``flow.ReportFlow``'s; named here, not imported: the menus
    import this module with the window's frame, the flow comes with the session)."""

    def export_report_dialog(self) -> object: ...
    def open_report_dialog(self) -> object: ...
    def compare_with_dialog(self) -> object: ...
    def copy_markdown_report(self) -> object: ...


def bind(registry: ActionRegistry, reports: ReportCommands) -> None:
    registry.bind(EXPORT, reports.export_report_dialog)
    registry.bind(OPEN, reports.open_report_dialog)
    registry.bind(COMPARE_WITH, reports.compare_with_dialog)
    registry.bind(COPY_MARKDOWN, reports.copy_markdown_report)
