"""Chinese chosen at run time from an English locale draws Simplified Chinese's own glyph forms
(issue 45 item 5: fontconfig fell back to Noto Sans CJK JP, whose ： and ； sit centred): the
font's families follow the language shown, and English gets back the font it had."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontDatabase, QGuiApplication, QTextLayout

from inspector.gui.common import i18n


def _families_drawing(text: str) -> set[str]:
    layout = QTextLayout(text, QGuiApplication.font())
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    return {run.rawFont().familyName() for run in layout.glyphRuns()}


def test_chinese_at_run_time_draws_its_own_han_forms_and_english_gets_its_font_back(qapp):
    sc = [f for f in i18n.SC_FAMILIES if f in QFontDatabase.families()]
    if not sc:
        pytest.skip("no Simplified Chinese font installed here")
    assert i18n.apply_language(i18n.ENGLISH)
    before = QGuiApplication.font()
    try:
        assert i18n.apply_language(i18n.CHINESE)
        font = QGuiApplication.font()
        assert font.families()[: len(before.families())] == before.families()  # Latin text keeps its font
        assert sc[0] in font.families()
        drawn = _families_drawing("保持数据类型：；")
        assert drawn and all(not f.endswith((" JP", " KR", " TC", " HK")) for f in drawn), drawn
    finally:
        assert i18n.apply_language(i18n.ENGLISH)
    assert QGuiApplication.font() == before
