"""View › Language: follow the system, English, or 简体中文; kept in the settings.

A choice applies at once: the translators are swapped (``i18n.apply_language``) and every
widget sets its texts again; the model, the history and the plots stay as they are.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QWidget

from inspector.gui.common import i18n
from inspector.gui.common.language_choice import chosen_language, picked_language
from inspector.gui.common.i18n import translate

#: The settings value that means "follow the system".
SYSTEM = ""


class LanguageMenu(QObject):
    """The Language sub-menu of ``parent_menu``. ``changed`` carries the language now shown
    (after a choice that changed it)."""

    changed = Signal(str)
    #: A catalogue that could not be read: the window stays in English and says so.
    unavailable = Signal(str)

    def __init__(self, parent_menu: QMenu, settings: QSettings, parent: QWidget) -> None:
        super().__init__(parent)
        self.settings = settings
        self.menu = QMenu(parent)
        self.menu.setObjectName("languageMenu")
        parent_menu.addMenu(self.menu)
        self.group = QActionGroup(self)
        self.actions: dict[str, QAction] = {}
        for value in (SYSTEM, *i18n.LANGUAGES):
            action = QAction(self.menu)
            action.setCheckable(True)
            action.setObjectName(f"language_{value or 'system'}Action")
            action.triggered.connect(lambda _checked=False, v=value: self.choose(v))
            self.group.addAction(action)
            self.menu.addAction(action)
            self.actions[value] = action
        picked = picked_language(settings)
        self.actions[picked if picked in i18n.LANGUAGES else SYSTEM].setChecked(True)
        self.retranslate()

    def retranslate(self) -> None:
        self.menu.setTitle(translate("LanguageMenu", "&Language"))
        self.actions[SYSTEM].setText(translate("LanguageMenu", "Follow the system"))
        for language, name in i18n.LANGUAGES.items():
            self.actions[language].setText(name)  # each language's own name, in every language

    def choose(self, value: str) -> None:
        i18n.remember_language(value, self.settings)
        self.actions[value].setChecked(True)
        language = chosen_language(self.settings)
        if language == i18n.current_language():
            return
        if not i18n.apply_language(language):
            self.unavailable.emit(language)
            return
        self.changed.emit(language)
