"""The window's own texts in Simplified Chinese, switched live and back (issue 23): the tab
and box titles, the recent-models menu, the commands' reasons and tooltips, the code panel's
caption, the Help pages; and the notice a system without a Chinese font gets, once."""

from __future__ import annotations


import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMessageBox, QPushButton, QTextBrowser

from inspector.gui.common import i18n
from inspector.gui.features.help.pages import CJK_FONT_NOTE_KEY
from inspector.gui.features.moves.commands import ModelCommands
from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS



@pytest.fixture
def english_after(qapp):
    """Whatever a test switches to, the next test starts in English."""
    yield
    i18n.apply_language(i18n.ENGLISH)


def switch(qtbot, language: str) -> None:
    assert i18n.apply_language(language)
    qtbot.wait(10)  # Qt posts the LanguageChange events; let them and the deferred refreshes run


def tab_titles(window) -> list[str]:
    return [window.tabs.tabText(i) for i in range(window.tabs.count())]


def box_titles(window) -> list[str]:
    return [window.frame.devices_box.title(), window.tabs.tabText(window.tabs.indexOf(window.frame.code))]


def code_caption(window) -> str:
    return window.code.caption.text()


def test_the_window_speaks_chinese_and_english_again_live(qtbot, window, english_after):
    # A move, so the code panel's caption is one the window made.
    doors.part(window, ModelCommands).move_cpu()
    qtbot.waitUntil(lambda: doors.busy(window) is None and "model.cpu()" in code_caption(window), timeout=30_000)
    window.tabs.setCurrentIndex(1)  # the Memory tab gets built: its title survives the swap
    english = {
        "tabs": tab_titles(window), "boxes": box_titles(window), "recent": window.recentMenu.actions()[-1].text(),
        "export tip": window.findChild(QAction, "exportReportAction").toolTip(), "caption": code_caption(window),
        "busy": window.dispatcher.busy_text(), "cuda tip": doors.bar(window).cudaButton.toolTip(),
    }  # fmt: skip
    assert english["tabs"] == ["History", "Memory", "Latency", "Compare", "Code"]
    assert english["boxes"] == ["Devices", "Code"]
    assert english["recent"] == "Clear the list"
    assert english["caption"] == "Equivalent PyTorch code: model.cpu()"

    switch(qtbot, i18n.CHINESE)
    assert tab_titles(window) == ["历史记录", "内存", "延迟", "比较", "代码"]
    assert box_titles(window) == ["设备", "代码"]
    assert window.recentMenu.actions()[-1].text() == "清空列表"
    assert window.findChild(QAction, "exportReportAction").toolTip().startswith("把计时报告")
    assert code_caption(window) == "等价的 PyTorch 代码：model.cpu()"
    # The action bar's own tip in Chinese, and the move's price put back after it.
    cuda_tip = doors.bar(window).cudaButton.toolTip().split("\n")
    assert len(cuda_tip) == 2 and cuda_tip[0].startswith("model.cuda()") and cuda_tip[0].endswith("。")
    assert cuda_tip[0] != english["cuda tip"].split("\n")[0]

    switch(qtbot, i18n.ENGLISH)
    assert tab_titles(window) == english["tabs"]
    assert box_titles(window) == english["boxes"]
    assert window.recentMenu.actions()[-1].text() == english["recent"]
    assert window.findChild(QAction, "exportReportAction").toolTip() == english["export tip"]
    assert code_caption(window) == english["caption"]
    assert window.dispatcher.busy_text() == english["busy"]
    assert doors.bar(window).cudaButton.toolTip() == english["cuda tip"]


def test_a_model_without_example_input_says_why_in_chinese(qtbot, make_window, tmp_path, english_after):
    factory = tmp_path / "small_model.py"
    factory.write_text("import torch\n\ndef make():\n    return torch.nn.Linear(4, 2)\n")
    window = make_window(f"{factory}:make")
    button = window.findChild(QPushButton, "benchmarkButton")
    assert "brings no example input" in button.toolTip()
    switch(qtbot, i18n.CHINESE)
    assert "没有自带示例输入" in button.toolTip()
    problem = [label.text() for label in doors.bar(window).findChildren(QLabel) if "示例输入" in label.text()]
    assert problem, "the input field's problem is not said in Chinese"
    switch(qtbot, i18n.ENGLISH)
    assert "brings no example input" in button.toolTip()


def test_help_pages_follow_the_language_while_open(qtbot, window, english_after):
    shown = {topic: window.help.show(topic) for topic in ("start", "shortcuts", "report")}
    text = {topic: d.findChild(QTextBrowser, "helpText").toPlainText() for topic, d in shown.items()}
    switch(qtbot, i18n.CHINESE)
    start = shown["start"].findChild(QTextBrowser, "helpText").toPlainText()
    assert shown["start"].windowTitle() == "入门"
    assert "在有 GPU 的机器上" in start and ".to(device)" in start and "Linear(3,2) → Linear(2,1)" in start
    shortcuts = shown["shortcuts"].findChild(QTextBrowser, "helpText").toPlainText()
    assert "键盘快捷键" in shortcuts and "工具 › 运行一次训练步" in shortcuts and "Ctrl+T" in shortcuts
    report = shown["report"].findChild(QTextBrowser, "helpText").toPlainText()
    assert "报告格式" in report and "schema_version" in report and ".json" in report
    switch(qtbot, i18n.ENGLISH)
    for topic, dialog in shown.items():
        assert dialog.findChild(QTextBrowser, "helpText").toPlainText() == text[topic]
        dialog.close()


def test_help_pages_keep_their_html_in_every_language(qapp, english_after):
    """The pages' markup is written once, around the texts: the same tags in both languages."""
    import re

    from inspector.gui.features.help.pages import GETTING_STARTED, REPORT_FORMAT, page_html

    def tags(html: str) -> list[str]:
        return re.findall(r"</?\w+", html)

    english = [page_html(page) for page in (GETTING_STARTED, REPORT_FORMAT)]
    assert i18n.apply_language(i18n.CHINESE)
    chinese = [page_html(page) for page in (GETTING_STARTED, REPORT_FORMAT)]
    for en, zh in zip(english, chinese):
        assert en != zh and tags(en) == tags(zh)
        assert re.findall(r"<code>(.*?)</code>", en) == re.findall(r"<code>(.*?)</code>", zh)


# ---------------------------------------------------------------- a system without a Chinese font


def notices(window) -> list[QMessageBox]:
    return [box for box in window.findChildren(QMessageBox, "cjkFontNotice") if box.isVisible()]


def test_without_a_chinese_font_the_window_says_so_once(qtbot, monkeypatch, make_window, clean_settings, english_after):
    monkeypatch.setattr(i18n, "has_cjk_font", lambda: False)
    switch(qtbot, i18n.CHINESE)
    first = make_window()
    [box] = notices(first)
    assert "fonts-noto-cjk" in box.text() and "No font on this system can draw Chinese" in box.text()
    assert "请安装中文字体" in box.text()  # and in Chinese, for a reader who copies it
    assert not box.isModal()  # the window stays usable
    assert clean_settings.value(CJK_FONT_NOTE_KEY, False, type=bool)
    box.close()
    second = make_window()
    assert not notices(second)  # said once, remembered


def test_choosing_chinese_without_a_font_says_so(qtbot, monkeypatch, window, clean_settings, english_after):
    monkeypatch.setattr(i18n, "has_cjk_font", lambda: False)
    assert not notices(window)  # English needs no Chinese font
    window.language.choose(i18n.CHINESE)
    qtbot.waitUntil(lambda: bool(notices(window)), timeout=GENEROUS_MS)
    notices(window)[0].close()
    window.language.choose(i18n.ENGLISH)
    window.language.choose(i18n.CHINESE)
    qtbot.wait(10)
    assert not notices(window)


def test_with_a_chinese_font_nothing_is_said(qtbot, monkeypatch, window, clean_settings, english_after):
    monkeypatch.setattr(i18n, "has_cjk_font", lambda: True)
    window.language.choose(i18n.CHINESE)
    qtbot.wait(10)
    assert not notices(window)
    assert not clean_settings.value(CJK_FONT_NOTE_KEY, False, type=bool)


def test_an_unreadable_catalogue_is_said_and_the_window_stays_english(qtbot, monkeypatch, window, english_after):
    def unreadable(_name):
        raise OSError("no such catalogue")

    monkeypatch.setattr(i18n.rf, "read_bytes", unreadable)
    window.language.choose(i18n.CHINESE)
    assert i18n.current_language() == i18n.ENGLISH
    assert "could not be read" in window.statusBar().currentMessage()
    assert window.tabs.tabText(0) == "History"


def test_a_catalogue_unreadable_at_start_is_said_by_the_first_window(qtbot, monkeypatch, make_window, english_after):
    from inspector.gui.shell import app

    monkeypatch.setattr(app, "_unavailable_language", i18n.CHINESE)
    first = make_window(wait=False)
    assert "简体中文 translation could not be read" in first.statusBar().currentMessage()
    assert app._unavailable_language is None  # said once
    second = make_window(wait=False)
    assert "could not be read" not in second.statusBar().currentMessage()
