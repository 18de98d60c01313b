"""The window's menus and actions, as data: one row per action, built by ``build_menus``.

A row names the action's object name (the test handle DESIGN.md lists), its text and
shortcut, what it calls (a dotted path from the window to one of its parts, widgets or
signals: ``"reports.export_report_dialog"``, ``"errorBanner.dismiss"``; ``:arg`` passes one
argument), its tooltip and its platform menu role. Adding an action is adding a row.

Texts and tooltips are marked for translation (context "Menus") and translated when the
menus are built and again on every language change (``retranslate_menus``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from inspector.gui.common.i18n import translate

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
#: In a menu's row list: the Language sub-menu (``gui.language_menu``).
LANGUAGE = "language"

MENUS: tuple[tuple[str, tuple[ActionSpec | str, ...]], ...] = (
    (QT_TRANSLATE_NOOP("Menus", "&File"), (
        ActionSpec("openModelAction", QT_TRANSLATE_NOOP("Menus", "&Open model…"), QKeySequence.StandardKey.Open,
                   "open_model_dialog"),
        RECENT,
        ActionSpec("connectServerAction", QT_TRANSLATE_NOOP("Menus", "Co&nnect to server…"), "Ctrl+Shift+N",
                   "connectServerRequested.emit",
                   QT_TRANSLATE_NOOP("Menus", "Open a second window whose model, moves and benchmarks run on another "
                                              "machine, reached through your own command (ssh HOST torch-device-inspector agent)")),
        SEPARATOR,
        ActionSpec("exportReportAction", QT_TRANSLATE_NOOP("Menus", "&Export report…"), "Ctrl+E",
                   "reports.export_report_dialog"),
        ActionSpec("openReportAction", QT_TRANSLATE_NOOP("Menus", "Open re&port…"), "Ctrl+Shift+O",
                   "reports.open_report_dialog",
                   QT_TRANSLATE_NOOP("Menus", "Open a saved .json timing report and compare it with this session")),
        ActionSpec("compareWithAction", QT_TRANSLATE_NOOP("Menus", "Compare &with…"), None, "reports.compare_with_dialog",
                   QT_TRANSLATE_NOOP("Menus", "Compare the opened report with a second one from disk")),
        SEPARATOR,
        ActionSpec("quitAction", QT_TRANSLATE_NOOP("Menus", "&Quit"), QKeySequence.StandardKey.Quit, "close",
                   role=QAction.MenuRole.QuitRole),
    )),
    (QT_TRANSLATE_NOOP("Menus", "&Edit"), (
        ActionSpec("copyMarkdownAction", QT_TRANSLATE_NOOP("Menus", "&Copy report as Markdown"), "Ctrl+Shift+C",
                   "reports.copy_markdown_report",
                   QT_TRANSLATE_NOOP("Menus", "Put this session's report on the clipboard, ready to paste into an issue")),
        SEPARATOR,
        ActionSpec("preferencesAction", QT_TRANSLATE_NOOP("Menus", "&Preferences…"),
                   QKeySequence.StandardKey.Preferences, "preferences_dialog", role=QAction.MenuRole.PreferencesRole),
    )),
    (QT_TRANSLATE_NOOP("Menus", "&View"), (
        ActionSpec("refreshDevicesAction", QT_TRANSLATE_NOOP("Menus", "&Refresh devices"),
                   QKeySequence.StandardKey.Refresh, "requestRediscover.emit"),
        ActionSpec("dismissErrorAction", QT_TRANSLATE_NOOP("Menus", "&Hide error message"), None, "errorBanner.dismiss"),
        SEPARATOR,
        LANGUAGE,
    )),
    (QT_TRANSLATE_NOOP("Menus", "&Tools"), (
        ActionSpec("fitAction", QT_TRANSLATE_NOOP("Menus", "Will it &fit?…"), "Ctrl+Shift+F", "fit.show",
                   QT_TRANSLATE_NOOP("Menus", "Memory of one step on each device, estimated without allocating, "
                                              "then proven")),
        ActionSpec("trainStepAction", QT_TRANSLATE_NOOP("Menus", "Run one &training step…"), "Ctrl+T",
                   "commands.confirm_train_step",
                   QT_TRANSLATE_NOOP("Menus", "One real forward, backward and optimizer step on the model: its weights "
                                              "change, and its gradients and optimizer state appear in the tree")),
    )),
    (QT_TRANSLATE_NOOP("Menus", "&Help"), (
        ActionSpec("gettingStartedAction", QT_TRANSLATE_NOOP("Menus", "&Getting started"),
                   QKeySequence.StandardKey.HelpContents, "help.show:start",
                   QT_TRANSLATE_NOOP("Menus", "What to click first, on a machine with and without a GPU")),
        ActionSpec("lessonsAction", QT_TRANSLATE_NOOP("Menus", "&Lessons"), "F2", "lessons.show",
                   QT_TRANSLATE_NOOP("Menus", "The tutorial's lessons, each run for real on this machine")),
        ActionSpec("shortcutsAction", QT_TRANSLATE_NOOP("Menus", "&Keyboard shortcuts"), None, "help.show:shortcuts"),
        ActionSpec("reportFormatAction", QT_TRANSLATE_NOOP("Menus", "The &report format"), None, "help.show:report",
                   QT_TRANSLATE_NOOP("Menus", "What an exported timing report holds, and its formats")),
        SEPARATOR,
        ActionSpec("aboutAction", QT_TRANSLATE_NOOP("Menus", "&About Torch Device Inspector"), None, "help.about",
                   role=QAction.MenuRole.AboutRole),
    )),
)  # fmt: skip


def build_menus(window: QMainWindow) -> dict[str, QAction]:
    """Add ``MENUS`` to ``window``'s menu bar; each action also becomes ``window.<name>``,
    the recent-models sub-menu ``window.recentMenu``, and the menu that takes the Language
    sub-menu ``window.languageParentMenu``. Returns the actions by name."""
    actions: dict[str, QAction] = {}
    for title, rows in MENUS:
        menu = window.menuBar().addMenu(translate("Menus", title))
        menu.setObjectName(_menu_name(title))
        for row in rows:
            if row == SEPARATOR:
                menu.addSeparator()
            elif row == RECENT:
                recent = QMenu(translate("Menus", "Open &recent"), window)
                recent.setObjectName("recentMenu")
                menu.addMenu(recent)
                window.recentMenu = recent  # type: ignore[attr-defined]
            elif row == LANGUAGE:
                window.languageParentMenu = menu  # type: ignore[attr-defined]
            elif isinstance(row, ActionSpec):
                # Resolved when triggered: the window's parts are made after its frame is shown
                # (``window``: the frame paints before torch is imported), the menus with the frame.
                action = make_action(window, row, lambda slot=row.slot: _resolve(window, slot)())
                menu.addAction(action)
                setattr(window, row.name, action)
                actions[row.name] = action
    return actions


def retranslate_menus(window: QMainWindow) -> None:
    """Set every menu title, action text and tooltip of ``build_menus`` again, in the
    language now installed."""
    for title, rows in MENUS:
        menu = window.menuBar().findChild(QMenu, _menu_name(title))
        if menu is not None:
            menu.setTitle(translate("Menus", title))
        for row in rows:
            if isinstance(row, ActionSpec):
                _set_texts(getattr(window, row.name), row)
    recent = getattr(window, "recentMenu", None)
    if recent is not None:
        recent.setTitle(translate("Menus", "Open &recent"))


def _menu_name(title: str) -> str:
    """"&File" -> "fileMenu": a name that does not change with the language."""
    return title.replace("&", "").lower() + "Menu"


def make_action(parent: QMainWindow, spec: ActionSpec, slot: Callable[[], Any]) -> QAction:
    action = QAction(parent)
    action.setObjectName(spec.name)
    _set_texts(action, spec)
    if spec.shortcut is not None:
        action.setShortcut(QKeySequence(spec.shortcut))
    if spec.role is not None:
        action.setMenuRole(spec.role)
    action.triggered.connect(lambda _checked=False: slot())
    return action


def _set_texts(action: QAction, spec: ActionSpec) -> None:
    action.setText(translate("Menus", spec.text))
    if spec.tooltip:
        action.setToolTip(translate("Menus", spec.tooltip))


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
