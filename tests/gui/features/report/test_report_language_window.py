"""The window's reports in its language, or in English for sharing (issue 35, §2): File ›
Export report… writes the HTML and Markdown in the window's language; the dialog's "in English
for sharing" filters write English, images included (the memory plot's marks, written in the
window's language, said again), and the dialog starts on that filter next time. The CLI's
images follow ``--lang``, not the language the process happens to have installed."""

from __future__ import annotations

import re

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QFileDialog

pytest.importorskip("pytestqt")

from inspector.core.devices.discovery import memory_reading  # noqa: E402
from inspector.core.files.models import example_model  # noqa: E402
from inspector.core.measure.timing import measure_latency  # noqa: E402
from inspector.core.report.timing_report import build_report, load_report  # noqa: E402
from inspector.gui.features.report import export  # noqa: E402
from inspector.gui.common import i18n  # noqa: E402
from inspector.gui.features.latency import plot as latency_module  # noqa: E402
from inspector.gui.features.memory import plot as memory_module  # noqa: E402
from inspector.gui.features.report.export import mark_in  # noqa: E402
from inspector.gui.shell.report_images import report_images  # noqa: E402
from tests.gui.helpers import widget  # noqa: E402
from tests.gui.languages import has_chinese, speak  # noqa: E402
from tests.gui.shell.test_language_walk import host_data, without  # noqa: E402
from tests.gui.features.report.test_window_plots import benchmark, cast_on_cpu, history, wait_history  # noqa: E402
from tests.prose import english_words  # noqa: E402
from tests.report_edge import typed  # noqa: E402
from tests.gui import doors
from inspector.gui.common.pages import MEMORY


class ImageWords:
    """Every text the report's plot images draw: titles, axes, legends, marks, notes. Read off
    each offscreen twin just before it is rendered to PNG."""

    def __init__(self, monkeypatch) -> None:
        self.texts: list[str] = []
        for module in (memory_module, latency_module):
            real = module.png_bytes

            def spy(item, width, height, real=real):
                self.texts += list(_scene_texts(item))
                return real(item, width, height)

            monkeypatch.setattr(module, "png_bytes", spy)

    def take(self) -> list[str]:
        texts, self.texts = self.texts, []
        return [t for t in texts if t.strip()]


def _scene_texts(item: pg.PlotItem):
    yield item.titleLabel.text
    for name in ("left", "bottom", "right", "top"):
        axis = item.getAxis(name)
        if axis.isVisible() and axis.labelText:
            yield axis.labelText
    for child in item.scene().items():
        if isinstance(child, pg.TextItem):  # marks' labels (InfLineLabel), bar notes
            yield child.toPlainText()
        elif isinstance(child, pg.LabelItem):  # legend entries
            yield re.sub(r"<[^>]+>", "", child.text)


def _chosen(monkeypatch, path, chosen_filter: str, asked: list[tuple]) -> None:
    def dialog(parent, title, start, filters, *selected):
        asked.append((filters, *selected))
        return str(path), chosen_filter

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)


def _export_through_the_dialog(qtbot, window, monkeypatch, path, chosen_filter, asked):
    _chosen(monkeypatch, path, chosen_filter, asked)
    before = len(history(window))
    widget(window, QAction, "exportReportAction").trigger()
    wait_history(qtbot, window, before + 1)
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=30_000)
    written = export.path_with_suffix(path, chosen_filter)  # (a name typed without its suffix gets it)
    assert written.exists(), history(window)[-1]
    return written.read_text(encoding="utf-8")


def _prose(text: str, data: list[str]) -> list[str]:
    text = re.sub(r"<style>.*?</style>|<title>.*?</title>|data:image/png;base64,[^\"]+", " ", text, flags=re.S)
    text = re.sub(r"\\([\\`*_\[\]<>&|~#+-])", r"\1", text)  # Markdown's escapes
    return english_words(without(data, text))


def _report_data(window, report: dict, *folders) -> list[str]:
    env = report["environment"]
    found = host_data(window, *folders) + [str(v) for k, v in env.items() if isinstance(v, str) and k != "cpu_huge_pages"]
    found += ["madvise", "always", "never"]  # the kernel's THP mode, in the huge pages line
    return sorted({f for f in found if f.strip()}, key=len, reverse=True)


@pytest.fixture
def session(qtbot, make_window, chinese, monkeypatch):
    """A window speaking Chinese after a cast and a benchmark (marks on the memory plot)."""
    monkeypatch.setattr(i18n, "has_cjk_font", lambda: True)  # as a machine that draws Chinese
    window = make_window()
    cast_on_cpu(qtbot, window, "float64")
    benchmark(qtbot, window, runs=20)
    return window


def test_a_chinese_window_exports_chinese_and_english_for_sharing_when_asked(qtbot, session, tmp_path, monkeypatch):
    window = session
    images = ImageWords(monkeypatch)
    filters = export.export_filter().split(";;")
    assert filters[1:5] == ["带图表的 HTML 页面 (*.html)", "带图表的 HTML 页面，英文版（便于分享） (*.html)",
                            "Markdown，用于问题报告 (*.md)", "Markdown，用于问题报告，英文版（便于分享） (*.md)"]  # fmt: skip
    asked: list[tuple] = []

    # In the window's language: the page, its headings and the words inside its images.
    page = _export_through_the_dialog(qtbot, window, monkeypatch, tmp_path / "zh.html", filters[1], asked)
    assert page.startswith("<!DOCTYPE html>\n<html lang=zh-CN>") and "<h2>延迟</h2>" in page
    data = _report_data(window, window.last_export.to_dict(), tmp_path)
    assert not _prose(page, data), _prose(page, data)
    drawn = images.take()
    assert any(t.startswith("内存 (") for t in drawn) and any(t.startswith("延迟 (") for t in drawn), drawn
    assert not [t for t in drawn if english_words(without(data, t))], drawn
    marks = doors.page(window, MEMORY).markers
    assert [m.label for m in marks if "基准测试" in m.label]  # the window wrote its marks in Chinese

    # In English for sharing: no Chinese anywhere, the images' marks said again in English.
    page = _export_through_the_dialog(qtbot, window, monkeypatch, tmp_path / "en", filters[2], asked)
    assert (tmp_path / "en.html").exists() and page.startswith("<!DOCTYPE html>\n<html lang=en>")
    assert not has_chinese(page) and "<h2>Latency</h2>" in page
    drawn = images.take()
    assert drawn and not [t for t in drawn if has_chinese(t)], drawn
    assert [t for t in drawn if t.startswith("benchmark ×20 · cpu float64")], drawn
    assert [m.label for m in marks if "基准测试" in m.label]  # the window's own marks are as they were

    # The dialog starts on the English filter chosen last; a report in Chinese forgets it.
    markdown = _export_through_the_dialog(qtbot, window, monkeypatch, tmp_path / "zh.md", filters[3], asked)
    assert asked[1] == (export.export_filter(),) and asked[2] == (export.export_filter(), filters[2])
    assert markdown.startswith("### torch-device-inspector 计时报告") and not _prose(markdown, data)
    markdown = _export_through_the_dialog(qtbot, window, monkeypatch, tmp_path / "en.md", filters[4], asked)
    assert asked[3] == (export.export_filter(),)
    assert markdown.startswith("### torch-device-inspector timing report") and not has_chinese(markdown)
    _export_through_the_dialog(qtbot, window, monkeypatch, tmp_path / "data.json", filters[0], asked)
    assert asked[4] == (export.export_filter(), filters[4])  # a JSON export changes nothing

    # The JSON is data: the same keys and values whichever language the window speaks.
    assert load_report(tmp_path / "data.json").to_dict() == window.last_export.to_dict()


def test_copy_as_markdown_copies_the_window_s_language(qtbot, session):
    window = session
    widget(window, QAction, "copyMarkdownAction").trigger()
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text().startswith("### torch-device-inspector 计时报告"),
                    timeout=30_000)  # fmt: skip


def test_without_a_font_for_chinese_the_images_are_english_and_the_page_says_so(qtbot, session, tmp_path, monkeypatch):
    window = session
    monkeypatch.setattr(i18n, "has_cjk_font", lambda: False)
    images = ImageWords(monkeypatch)
    page = _export_through_the_dialog(qtbot, window, monkeypatch, tmp_path / "r.html", export.export_filter().split(";;")[1], [])
    assert "<html lang=zh-CN>" in page and "图表中的文字为英文。" in page
    drawn = images.take()
    assert drawn and not [t for t in drawn if has_chinese(t)], drawn


def test_the_cli_s_images_follow_its_language_not_the_one_installed(qapp, monkeypatch):
    monkeypatch.setattr(i18n, "has_cjk_font", lambda: True)
    loaded = example_model()
    report = build_report(loaded, latency=[measure_latency(loaded, runs=20)], memory={"cpu": [memory_reading("cpu")] * 3})
    images = ImageWords(monkeypatch)
    assert i18n.current_language() == "en"
    pictures, drawn_in = report_images(typed(report), language="zh_CN")
    assert set(pictures) == {"Latency samples", "Latency summary", "Memory"} and drawn_in == "zh_CN"
    assert any(t.startswith("内存 (") for t in images.take()) and i18n.current_language() == "en"  # put back afterwards
    speak(qapp, "zh_CN")
    try:
        pictures, drawn_in = report_images(typed(report), language="en")
        drawn = images.take()
        assert drawn_in == "en" and drawn and not [t for t in drawn if has_chinese(t)]
    finally:
        speak(qapp, "en")


@pytest.mark.usefixtures("chinese")
def test_a_mark_is_said_again_in_the_report_s_language():
    assert mark_in("基准测试 ×20 · cpu float64（中位数 15.3 µs）", "en") == "benchmark ×20 · cpu float64 (median 15.3 µs)"
    assert mark_in("加载 example …", "en") == "load example …"
    assert mark_in("model.to('cpu', dtype=torch.float64)（已取消）", "en") == "model.to('cpu', dtype=torch.float64) (cancelled)"
    assert mark_in("benchmark ×20 · cpu float64 (median 15.3 µs)", "zh_CN") == "基准测试 ×20 · cpu float64（中位数 15.3 µs）"
    assert mark_in("model.to('cpu')", "en") == "model.to('cpu')"  # code is code in every language
    assert mark_in("cast starts", "zh_CN") == "cast starts"  # a mark no part of the window made: as it is
