"""Which language the window speaks: the one View › Language picked (kept in QSettings,
read through ``settings_values``), else the system locale's (``i18n.language_for_locale``).

Apart from ``i18n`` so that ``i18n``, which nearly every module imports, imports none of
the window's modules."""

from __future__ import annotations

from PySide6.QtCore import QLocale, QSettings

from inspector.gui.common.i18n import LANGUAGES, SETTINGS_KEY, language_for_locale
from inspector.gui.common.settings_values import text


def chosen_language(settings: QSettings | None = None, system: QLocale | None = None) -> str:
    """The language to show: the one View › Language picked, else the system locale's."""
    settings = settings if settings is not None else QSettings()
    picked = picked_language(settings)
    if picked in LANGUAGES:
        return picked
    return language_for_locale(system if system is not None else QLocale.system())


def picked_language(settings: QSettings) -> str:
    """View › Language's choice in ``settings``: a language, or "" for the system's."""
    return text(settings, SETTINGS_KEY, choices=("", *LANGUAGES))
