"""The Help menu's actions: its three pages and the About box, bound to ``pages.HelpPages``
with the window's frame; the three pages work while torch is still imported (``while_loading``)."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QAction, QKeySequence

from inspector.gui.common.actions import ActionRegistry, ActionSpec
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

GETTING_STARTED = ActionSpec(
    "help.getting_started", "gettingStartedAction", QT_TRANSLATE_NOOP("Menus", "&Getting started"),
    QKeySequence.StandardKey.HelpContents,
    QT_TRANSLATE_NOOP("Menus", "What to click first, on a machine with and without a GPU"), while_loading=True,
)  # fmt: skip
SHORTCUTS = ActionSpec("help.shortcuts", "shortcutsAction", QT_TRANSLATE_NOOP("Menus", "&Keyboard shortcuts"),
                       while_loading=True)  # fmt: skip
REPORT_FORMAT = ActionSpec(
    "help.report_format", "reportFormatAction", QT_TRANSLATE_NOOP("Menus", "The &report format"), None,
    QT_TRANSLATE_NOOP("Menus", "What an exported timing report holds, and its formats"), while_loading=True,
)  # fmt: skip
ABOUT = ActionSpec(
    "help.about", "aboutAction", QT_TRANSLATE_NOOP("Menus", "&About Torch Device Inspector"),
    role=QAction.MenuRole.AboutRole,
)  # fmt: skip


class HelpCommands(Protocol):
    """What the actions call (``pages.HelpPages``'s)."""

    def show(self, topic: str) -> object: ...
    def about(self) -> object: ...


def bind(registry: ActionRegistry, help: HelpCommands) -> None:
    registry.bind(GETTING_STARTED, lambda: help.show("start"))
    registry.bind(SHORTCUTS, lambda: help.show("shortcuts"))
    registry.bind(REPORT_FORMAT, lambda: help.show("report"))
    registry.bind(ABOUT, help.about)
