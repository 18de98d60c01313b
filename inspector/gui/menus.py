"""The window's menus and actions, as data: one row per action, built by ``build_menus``.

A row names the action's object name (the test handle DESIGN.md lists), its text and
shortcut, what it calls (a dotted path from the window to one of its parts, widgets or
signals: ``"reports.export_report_dialog"``, ``"errorBanner.dismiss"``; ``:arg`` passes one
argument), its tooltip and its platform menu role. Adding an action is adding a row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

Shortcut = Union[QKeySequence.StandardKey, str, None]


@dataclass(frozen=True)
class ActionSpec:
    name: str
    text: str
    shortcut: Shortcut
    slot: str
    tooltip: str = ""
    role: QAction.MenuRole | None = None


#: In a menu's row list: a separator, and the "Open recent" sub-menu.
SEPARATOR = "-"
RECENT = "recent"

MENUS: tuple[tuple[str, tuple[ActionSpec | str, ...]], ...] = (
    ("&File", (
        ActionSpec("openModelAction", "&Open model…", QKeySequence.StandardKey.Open, "open_model_dialog"),
        RECENT,
        ActionSpec("connectServerAction", "Co&nnect to server…", "Ctrl+Shift+N", "connectServerRequested.emit",
                   "Open a second window whose model, moves and benchmarks run on another machine, "
                   "reached through your own command (ssh HOST torch-device-inspector agent)"),
        SEPARATOR,
        ActionSpec("exportReportAction", "&Export report…", "Ctrl+E", "reports.export_report_dialog"),
        ActionSpec("openReportAction", "Open re&port…", "Ctrl+Shift+O", "reports.open_report_dialog",
                   "Open a saved .json timing report and compare it with this session"),
        ActionSpec("compareWithAction", "Compare &with…", None, "reports.compare_with_dialog",
                   "Compare the opened report with a second one from disk"),
        SEPARATOR,
        ActionSpec("quitAction", "&Quit", QKeySequence.StandardKey.Quit, "close", role=QAction.MenuRole.QuitRole),
    )),
    ("&Edit", (
        ActionSpec("copyMarkdownAction", "&Copy report as Markdown", "Ctrl+Shift+C", "reports.copy_markdown_report",
                   "Put this session's report on the clipboard, ready to paste into an issue"),
        SEPARATOR,
        ActionSpec("preferencesAction", "&Preferences…", QKeySequence.StandardKey.Preferences, "preferences_dialog",
                   role=QAction.MenuRole.PreferencesRole),
    )),
    ("&View", (
        ActionSpec("refreshDevicesAction", "&Refresh devices", QKeySequence.StandardKey.Refresh,
                   "requestRediscover.emit"),
        ActionSpec("dismissErrorAction", "&Hide error message", None, "errorBanner.dismiss"),
    )),
    ("&Tools", (
        ActionSpec("fitAction", "Will it &fit?…", "Ctrl+Shift+F", "fit.show",
                   "Memory of one step on each device, estimated without allocating, then proven"),
        ActionSpec("trainStepAction", "Run one &training step…", "Ctrl+T", "commands.confirm_train_step",
                   "One real forward, backward and optimizer step on the model: its weights change, "
                   "and its gradients and optimizer state appear in the tree"),
    )),
    ("&Help", (
        ActionSpec("gettingStartedAction", "&Getting started", QKeySequence.StandardKey.HelpContents,
                   "help.show:start", "What to click first, on a machine with and without a GPU"),
        ActionSpec("shortcutsAction", "&Keyboard shortcuts", None, "help.show:shortcuts"),
        ActionSpec("reportFormatAction", "The &report format", None, "help.show:report",
                   "What an exported timing report holds, and its formats"),
        SEPARATOR,
        ActionSpec("aboutAction", "&About Torch Device Inspector", None, "help.about", role=QAction.MenuRole.AboutRole),
    )),
)  # fmt: skip


def build_menus(window: QMainWindow) -> dict[str, QAction]:
    """Add ``MENUS`` to ``window``'s menu bar; each action also becomes ``window.<name>``,
    and the recent-models sub-menu ``window.recentMenu``. Returns the actions by name."""
    actions: dict[str, QAction] = {}
    for title, rows in MENUS:
        menu = window.menuBar().addMenu(title)
        for row in rows:
            if row == SEPARATOR:
                menu.addSeparator()
            elif row == RECENT:
                recent = QMenu("Open &recent", window)
                recent.setObjectName("recentMenu")
                menu.addMenu(recent)
                window.recentMenu = recent  # type: ignore[attr-defined]
            elif isinstance(row, ActionSpec):
                action = make_action(window, row, _resolve(window, row.slot))
                menu.addAction(action)
                setattr(window, row.name, action)
                actions[row.name] = action
    return actions


def make_action(parent: QMainWindow, spec: ActionSpec, slot: Callable[[], Any]) -> QAction:
    action = QAction(spec.text, parent)
    action.setObjectName(spec.name)
    if spec.shortcut is not None:
        action.setShortcut(QKeySequence(spec.shortcut))
    if spec.tooltip:
        action.setToolTip(spec.tooltip)
    if spec.role is not None:
        action.setMenuRole(spec.role)
    action.triggered.connect(lambda _checked=False: slot())
    return action


def _resolve(obj: Any, dotted: str) -> Callable[[], Any]:
    """``"errorBanner.dismiss"`` -> that bound method; ``"help.show:start"`` -> a call with
    that one argument."""
    dotted, colon, argument = dotted.partition(":")
    if colon:
        method = _resolve(obj, dotted)
        return lambda: method(argument)
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj  # type: ignore[no-any-return]
