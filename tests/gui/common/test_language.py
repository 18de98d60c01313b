"""The window's language: the system's, or View › Language's; switched live, losing nothing."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAction
from PySide6.QtCore import QLocale, QSettings

from inspector.gui.common import i18n
from inspector.gui.common.language_choice import chosen_language
from tests.gui.conftest import wait_idle
from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS
from inspector.gui.features.moves.commands import ModelCommands


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("zh_CN", i18n.CHINESE),
        ("zh_SG", i18n.CHINESE),
        ("zh_Hans_HK", i18n.CHINESE),
        ("zh_Hans", i18n.CHINESE),
        ("zh_TW", i18n.ENGLISH),  # traditional characters: English is the likelier read
        ("zh_HK", i18n.ENGLISH),
        ("zh_Hant_CN", i18n.ENGLISH),
        ("en_US", i18n.ENGLISH),
        ("de_DE", i18n.ENGLISH),
        ("C", i18n.ENGLISH),
    ],
)
def test_the_system_locale_picks_the_language(name, language):
    assert i18n.language_for_locale(QLocale(name)) == language


def test_a_choice_in_the_settings_beats_the_system_locale(clean_settings):
    assert chosen_language(clean_settings, QLocale("zh_CN")) == i18n.CHINESE
    i18n.remember_language(i18n.ENGLISH, clean_settings)
    assert chosen_language(clean_settings, QLocale("zh_CN")) == i18n.ENGLISH
    i18n.remember_language("", clean_settings)  # back to following the system
    assert chosen_language(clean_settings, QLocale("zh_CN")) == i18n.CHINESE
    clean_settings.setValue(i18n.SETTINGS_KEY, "klingon")  # a hand-edited settings file
    assert chosen_language(clean_settings, QLocale("fr_FR")) == i18n.ENGLISH


def test_qt_placeholders_fill_in_any_order():
    assert i18n.fill("%2 then %1", "a", "b") == "b then a"
    assert i18n.fill("%1 and %10", *"abcdefghij") == "a and j"
    assert i18n.fill("opened %1 at %2", "/tmp/100%1 report.json", "2 s") == "opened /tmp/100%1 report.json at 2 s"


def test_switching_language_keeps_the_model_and_its_history_and_comes_back(make_window, qtbot, clean_settings):
    window = make_window()
    doors.bar(window).dtypeCombo.setCurrentIndex(doors.bar(window).dtypeCombo.findData("float64"))
    assert doors.part(window, ModelCommands).move_to_target()
    wait_idle(qtbot, window)
    state, rows = doors.model(window), doors.history_view(window).history.rowCount()
    file_menu = window.menuBar().findChild(type(window.recentMenu), "fileMenu")

    window.language.actions[i18n.CHINESE].trigger()
    assert i18n.current_language() == i18n.CHINESE
    try:
        assert QSettings().value(i18n.SETTINGS_KEY) == i18n.CHINESE  # remembered
        qtbot.waitUntil(lambda: file_menu.title() != "&File", timeout=GENEROUS_MS)  # Qt posts the LanguageChange event
        assert file_menu.title() == "文件(&F)" and window.findChild(QAction, "openModelAction").text() == "打开模型(&O)…"
        assert window.statusBusy.text() == "就绪"
        assert doors.model(window) is state and doors.history_view(window).history.rowCount() == rows
        assert {r.dtype for r in state.placement.tensors} == {"float64"}
    finally:
        window.language.actions[""].trigger()  # follow the system again: English here
    assert i18n.current_language() == i18n.ENGLISH
    qtbot.waitUntil(lambda: file_menu.title() == "&File", timeout=GENEROUS_MS)
    assert file_menu.title() == "&File" and window.statusBusy.text() == "Ready"
    assert doors.model(window) is state and doors.history_view(window).history.rowCount() == rows
