"""The window's menus, as data: each menu's title and the actions it shows, in order.

The actions are declared by the features that implement them (``features/<name>/actions.py``,
each an ``ActionSpec`` with its id, object name, text, shortcut and tooltip; ``common.actions``)
and owned by the window's ``ActionRegistry``, which calls what each feature binds to it. The
shell declares its own few (Quit, Preferences, Hide error message). A menu row is an action,
a separator, the "Open recent" sub-menu or the Language one. Adding a feature's action to a
menu is adding its line here.

Menu titles are marked for translation (context "Menus") and translated when the menus are
built and again on every language change (``retranslate_menus``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from inspector.gui.common.actions import ActionRegistry, ActionSpec, Menu
from inspector.gui.common.i18n import translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.features.devices import actions as devices
from inspector.gui.features.fit import actions as fit
from inspector.gui.features.help import actions as help
from inspector.gui.features.lessons import actions as lessons
from inspector.gui.features.model import actions as model
from inspector.gui.features.training import actions as training
from inspector.gui.features.remote import actions as remote
from inspector.gui.features.report import actions as report
from inspector.gui.features.tensor_table import actions as tensor_table


class Row:
    """A menu row that is no action: a separator, or a sub-menu the shell makes."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Row({self.name!r})"


#: In a menu's rows: a separator, the "Open recent" sub-menu, the Language sub-menu (``shell.language_menu``).
SEPARATOR = Row("separator")
RECENT = Row("recent")
LANGUAGE = Row("language")

MenuRow = Union[ActionSpec, Row]

# ----- the shell's own actions (the window's, no feature's)

QUIT = ActionSpec("window.quit", "quitAction", QT_TRANSLATE_NOOP("Menus", "&Quit"), QKeySequence.StandardKey.Quit,
                  role=QAction.MenuRole.QuitRole, while_loading=True)  # fmt: skip
PREFERENCES = ActionSpec("window.preferences", "preferencesAction", QT_TRANSLATE_NOOP("Menus", "&Preferences…"),
                         QKeySequence.StandardKey.Preferences, role=QAction.MenuRole.PreferencesRole)  # fmt: skip
DISMISS_ERROR = ActionSpec("window.dismiss_error", "dismissErrorAction",
                           QT_TRANSLATE_NOOP("Menus", "&Hide error message"))  # fmt: skip

#: Menu title -> its rows, in order.
MENUS: tuple[tuple[str, tuple[MenuRow, ...]], ...] = (
    (QT_TRANSLATE_NOOP("Menus", "&File"), (
        model.OPEN,
        RECENT,
        remote.CONNECT,
        SEPARATOR,
        report.EXPORT,
        report.OPEN,
        report.COMPARE_WITH,
        SEPARATOR,
        QUIT,
    )),
    (QT_TRANSLATE_NOOP("Menus", "&Edit"), (
        report.COPY_MARKDOWN,
        tensor_table.COPY_CSV,
        SEPARATOR,
        PREFERENCES,
    )),
    (QT_TRANSLATE_NOOP("Menus", "&View"), (
        devices.REFRESH,
        DISMISS_ERROR,
        SEPARATOR,
        LANGUAGE,
    )),
    (QT_TRANSLATE_NOOP("Menus", "&Tools"), (
        fit.SHOW,
        training.TRAIN_STEP,
    )),
    (QT_TRANSLATE_NOOP("Menus", "&Help"), (
        help.GETTING_STARTED,
        lessons.SHOW,
        help.SHORTCUTS,
        help.REPORT_FORMAT,
        SEPARATOR,
        help.ABOUT,
    )),
)  # fmt: skip


@dataclass(frozen=True)
class BuiltMenus:
    """What ``build_menus`` made that the window hands on."""

    #: The "Open recent" sub-menu (``window_settings.RecentModels`` fills it).
    recent: QMenu
    #: The menu the Language sub-menu goes into (``LanguageMenu``).
    language_parent: QMenu


def action_specs() -> tuple[ActionSpec, ...]:
    """Every action the menus show, in their order."""
    return tuple(row for _title, rows in MENUS for row in rows if isinstance(row, ActionSpec))


def build_menus(window: QMainWindow, registry: ActionRegistry) -> BuiltMenus:
    """Add ``MENUS`` to ``window``'s menu bar, each action made by ``registry``."""
    recent: QMenu | None = None
    language_parent: QMenu | None = None
    for title, rows in MENUS:
        menu = window.menuBar().addMenu(translate("Menus", title))
        menu.setObjectName(_menu_name(title))
        for row in rows:
            if row is SEPARATOR:
                menu.addSeparator()
            elif row is RECENT:
                recent = QMenu(translate("Menus", "Open &recent"), window)
                recent.setObjectName("recentMenu")
                menu.addMenu(recent)
            elif row is LANGUAGE:
                language_parent = menu
            elif isinstance(row, ActionSpec):
                menu.addAction(registry.add(row))
    assert recent is not None and language_parent is not None, "MENUS names the recent and language sub-menus"
    return BuiltMenus(recent=recent, language_parent=language_parent)


def retranslate_menus(window: QMainWindow, registry: ActionRegistry, built: BuiltMenus) -> None:
    """Set every menu title, action text and tooltip of ``build_menus`` again, in the
    language now installed."""
    for title, _rows in MENUS:
        menu = window.menuBar().findChild(QMenu, _menu_name(title))
        if menu is not None:
            menu.setTitle(translate("Menus", title))
    registry.retranslate()
    built.recent.setTitle(translate("Menus", "Open &recent"))


def place(window: QMainWindow, menu: Menu, action: QAction) -> None:
    """Put ``action`` (a feature's own, added when it is installed) at the end of ``menu``'s first
    group: before its first separator, or last where it has none."""
    shown = window.menuBar().findChild(QMenu, menu.value)
    if shown is None:
        raise LookupError(f"the window has no menu {menu.value!r}")
    separator = next((a for a in shown.actions() if a.isSeparator()), None)
    if separator is not None:
        shown.insertAction(separator, action)
    else:
        shown.addAction(action)


def _menu_name(title: str) -> str:
    """"&File" -> "fileMenu": a name that does not change with the language."""
    return title.replace("&", "").lower() + "Menu"
