"""The window's language: which one, its Qt translators, and the words every part shares.

Texts are marked with ``translate("Context", "text")`` (Qt's ``QCoreApplication.translate``)
rather than ``self.tr``: PySide's ``tr`` looks a text up under the *runtime* class name, so a
subclass (or a test's subclass) would lose every translation of its base class, while
``pyside6-lupdate`` files it under the class that wrote it. An explicit context is the same
at both ends. Plurals go through Qt's numerus forms: ``translate(ctx, "%n tensor(s)", None, n)``.

The language follows the system locale (Simplified Chinese for ``zh_CN``, ``zh_SG`` and any
``zh_Hans`` locale; English otherwise) until View › Language picks one, which QSettings keeps
(``language_choice.chosen_language`` reads it). ``apply_language`` swaps the translators at
run time; Qt then sends every widget a ``LanguageChange`` event, on which each part sets its
texts again (``retranslate``).

Almost every module of the window imports this one, so it imports no other module of the
window: each import here would add a floor under all of them. The shared word lists
(``task_words``, ``vocabulary_words``) and the tables' and menus' helpers (``table_model``,
``actions``) look their words up with ``QCoreApplication.translate`` themselves (their words
are marked with ``QT_TRANSLATE_NOOP`` and looked up by variable): they import nothing of the
window, so the many modules above them stand a floor lower (issue 37).
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QSettings, QTranslator
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication

from inspector import resource_files as rf
from inspector.core.files import escape_control
from inspector.core.messages import Text

#: ``translate(context, source, disambiguation=None, n=-1)``; pyside6-lupdate finds the calls
#: by this name, so import it as it is (``from inspector.gui.common.i18n import translate``).
translate = QCoreApplication.translate

ENGLISH = "en"
CHINESE = "zh_CN"
#: Each language the window speaks, with its name written in that language (as menus show it).
LANGUAGES: dict[str, str] = {ENGLISH: "English", CHINESE: "简体中文"}
#: "" (or missing): follow the system locale.
SETTINGS_KEY = "view/language"

#: The translators installed now: kept referenced, or PySide deletes them under Qt's feet.
_installed: list[QTranslator] = []
#: The catalogues' bytes: ``QTranslator.load(data)`` reads them in place, so they must outlive it.
_catalogues: list[bytes] = []
_current = ENGLISH
#: The families that draw Han characters in Simplified Chinese's own forms, most wanted first
#: (Noto's and Adobe's names on Linux, the systems' own on Windows and macOS).
SC_FAMILIES = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "Source Han Sans CN",
               "WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC")  # fmt: skip
#: The application's font before a language chose its families (English goes back to it).
_base_font: list[QFont] = []


def language_for_locale(locale: QLocale) -> str:
    """Simplified Chinese for a Chinese locale written in simplified characters, else English.

    ``zh_CN`` and ``zh_SG`` are written in simplified characters, and so is any locale that
    names the Han simplified script (``zh_Hans_HK``); ``zh_TW``/``zh_HK`` (traditional) get
    English, which their readers are likelier to read than a script they do not use.
    """
    if locale.language() != QLocale.Language.Chinese:
        return ENGLISH
    script = locale.script()
    if script == QLocale.Script.SimplifiedHanScript:
        return CHINESE
    if script == QLocale.Script.TraditionalHanScript:
        return ENGLISH
    territory = locale.territory()
    simplified = (QLocale.Country.China, QLocale.Country.Singapore)
    return CHINESE if territory in simplified else ENGLISH


def remember_language(language: str, settings: QSettings | None = None) -> None:
    """Keep View › Language's choice ("" goes back to following the system)."""
    settings = settings if settings is not None else QSettings()
    settings.setValue(SETTINGS_KEY, language if language in LANGUAGES else "")


def current_language() -> str:
    return _current


def catalogue_name(language: str) -> str:
    """The compiled catalogue of ``language`` inside the package's resources."""
    return f"i18n/inspector_{language}.qm"


def apply_language(language: str) -> bool:
    """Install ``language``'s translators (the app's and Qt's own, for standard dialogs'
    buttons and the file dialogs) in place of the current ones. English needs none: it is the
    source language. Ours is installed last, so it is asked first: it covers what Qt's own
    catalogue lacks (``qt_own_texts``).

    Returns False when a catalogue could not be read (the window stays in English, as an
    app whose translation file is missing does, and the caller says so).
    """
    global _current
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("apply_language needs a QCoreApplication")
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    _catalogues.clear()
    _current = ENGLISH
    if language == ENGLISH or language not in LANGUAGES:
        apply_font(ENGLISH)
        return language == ENGLISH
    ours = QTranslator(app)
    try:
        data = rf.read_bytes(catalogue_name(language))
    except Exception:  # noqa: BLE001 -- a missing or unreadable catalogue leaves English, said by the caller
        return False
    _catalogues.append(data)
    if not ours.load(data):
        return False
    qt_own = QTranslator(app)
    qt_own.load(QLocale(language), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
    for translator in (qt_own, ours):
        if not translator.isEmpty():
            app.installTranslator(translator)
            _installed.append(translator)
    _current = language
    apply_font(language)
    return True


def apply_font(language: str) -> None:
    """The application font's families for ``language``: for Chinese its own Han forms
    (``SC_FAMILIES``) as the fallback after the font's Latin family, chosen by the language
    shown and not by the locale at start (from an English locale fontconfig falls back to
    Noto Sans CJK JP: centred ： and ；, issue 45 item 5); English gets the font it had."""
    app = QGuiApplication.instance()
    if not isinstance(app, QGuiApplication):
        return  # a QCoreApplication (the headless tests): no fonts
    if not _base_font:
        _base_font.append(QFont(QGuiApplication.font()))
    font = QFont(_base_font[0])
    if language == CHINESE:
        installed = set(QFontDatabase.families())
        font.setFamilies([*font.families(), *(f for f in SC_FAMILIES if f in installed)])
    QGuiApplication.setFont(font)


def has_cjk_font() -> bool:
    """Whether any installed font draws Simplified Chinese (else Qt shows empty boxes)."""
    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def is_language_change(event: QEvent) -> bool:
    return event.type() == QEvent.Type.LanguageChange


class Retranslates:
    """For a QWidget subclass that sets its texts in ``retranslate()``: Qt sends every widget a
    ``LanguageChange`` event when the translators change, and this calls ``retranslate`` on
    it. List it before the Qt base class: ``class ActionBar(Retranslates, QWidget)``."""

    def retranslate(self) -> None:
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)  # type: ignore[misc]


def _escaped_lines(text: object) -> str:
    """``plain_text.escaped_lines``, here too so that this module imports none of the window's:
    ``text``'s control characters as escapes, its newlines kept."""
    return escape_control(str(text), keep_newlines=True)


def core_text(value: object) -> str:
    """A text core made, in the window's language: a ``messages.Text`` (and every ``Text``
    among its arguments) through its template's translation, context "CoreText"; anything
    else as it is. A translation that lost a field gives the English sentence."""
    if not isinstance(value, Text):
        return _escaped_lines(value)
    # Its arguments are values, many from files: a newline or a bidi override in one is
    # shown as its escape, never obeyed (``plain_text``).
    return value.translated(lambda template: translate("CoreText", template), escape_control)


def fill(text: str, *args: object) -> str:
    """Qt's ``QString.arg`` for a translated ``str``: ``%1``… replaced by ``args`` (a translation
    may move them around the sentence). One pass, so an argument that itself holds "%1" (a file
    path) is left as it is. Each argument's control characters are shown as escapes (its
    newlines kept, for the window's own lines): a name's U+202E cannot reverse the words of
    the sentence around it (``plain_text``)."""
    def value(match: re.Match[str]) -> str:
        number = int(match.group(1))
        return _escaped_lines(args[number - 1]) if 1 <= number <= len(args) else match.group(0)

    return re.sub(r"%(\d+)", value, text)
