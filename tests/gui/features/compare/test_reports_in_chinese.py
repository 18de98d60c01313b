"""The Compare view, the Ranks tab and what the window says after a task, in Chinese and back:
what stays on screen is said again in the new language, the history's rows stay as written."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

pytest.importorskip("pytestqt")

from PySide6.QtWidgets import QSpinBox, QTabWidget  # noqa: E402

from inspector.core.files.models import example_model  # noqa: E402
from inspector.core.measure.timing import measure_latency  # noqa: E402
from inspector.core.report.timing_report import build_report  # noqa: E402
from inspector.gui.features.compare.view import ComparisonView  # noqa: E402
from inspector.gui.features.ranks.table import show_ranks  # noqa: E402
from tests.gui.helpers import GENEROUS_MS, widget  # noqa: E402
from tests.gui.languages import has_chinese, speak  # noqa: E402
from tests.gui.shell.test_window import click, history, wait_history  # noqa: E402
from tests.report_edge import typed  # noqa: E402
from tests.gui import doors

pytestmark = pytest.mark.usefixtures("chinese")  # each test starts in Chinese; English comes back after


@pytest.fixture(scope="module")
def session_report():
    loaded = example_model()
    return build_report(loaded, latency=[measure_latency(loaded, runs=20)])


def _other(session_report):
    report = json.loads(json.dumps(session_report))
    report["moves"] = [{"call": "model.to('cuda:0')", "method": "to", "source": "cpu", "target": "cuda:0",
                        "dtype": None, "pinned": False, "seconds": 0.5, "bytes": 1 << 30,
                        "gbps": (1 << 30) / 0.5 / 1e9, "ok": True, "error": None}]  # fmt: skip
    return report


def _headers(table) -> list[str]:
    model = table.model()
    return [model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())]


def test_the_compare_view_says_its_headers_and_words_again_when_the_language_changes(qtbot, qapp, session_report):
    view = ComparisonView()
    qtbot.addWidget(view)
    view.set_reports(typed(session_report), typed(_other(session_report)), label_a=None, label_b="server.json")
    with qtbot.waitSignal(view.comparisonShown, timeout=GENEROUS_MS):  # (compared on the view's pool thread)
        view.set_session_report(typed(session_report))
    assert {"设备", "数据类型", "A 中位数", "B 中位数", "B ÷ A", "结论"} <= set(_headers(view.latency_table))
    assert "本次会话" in view.summary_label.text() and "server.json" in view.summary_label.text()
    assert [view.tabs.tabText(i) for i in range(3)] == ["延迟", "移动", "环境"] and view.open_button.text() == "打开报告…"
    assert view.cell_text(view.moves_table, 0, "Pinned") == "否"  # the columns keep their English keys
    env = view.environment_table
    assert "创建时间" in {view.cell_text(env, r, "What") for r in range(env.row_count())}
    # (side by side, the band and the speed-up are folded into the median's tooltip)
    tip = view.latency_table.cell(0, "A median (ms)", Qt.ItemDataRole.ToolTipRole).splitlines()
    assert tip[0] == "20 个样本" and tip[1].startswith("p5–p95：") and tip[2].startswith("相对 CPU：")

    speak(qapp, "en")
    assert {"Device", "Dtype", "A median", "B median", "B ÷ A", "Verdict"} <= set(_headers(view.latency_table))
    assert "This session" in view.summary_label.text()
    assert [view.tabs.tabText(i) for i in range(3)] == ["Latency", "Moves", "Environment"]
    assert view.cell_text(view.moves_table, 0, "Pinned") == "no"
    assert "Created" in {view.cell_text(env, r, "What") for r in range(env.row_count())}
    assert not [h for h in _headers(view.moves_table) + _headers(env) if has_chinese(h)]


def test_the_compare_views_summary_line_is_said_again_and_a_failure_stays_told(qtbot, qapp, tmp_path):
    view = ComparisonView()
    qtbot.addWidget(view)
    assert view.summary_label.text() == "还没有报告：请运行一次基准测试，或打开已保存的报告。"
    speak(qapp, "en")
    assert view.summary_label.text() == "No report yet: run a benchmark, or open a saved report."
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with qtbot.waitSignal(view.failed, timeout=GENEROUS_MS):
        view.open_report(bad)
    told = view.summary_label.text()
    assert "No report yet" not in told and told.endswith("bad.json is not a timing report: it is not JSON")
    speak(qapp, "zh_CN")
    # the file's failure (core's words) said again in Chinese, not the empty view's line
    assert view.summary_label.text().endswith("bad.json 不是计时报告：它不是 JSON")
    assert view.wait(GENEROUS_MS)


def _ranks_report() -> dict:
    def rank(number, host, factor, ok=True):
        samples = [1.9 * factor] + [2.0 * factor] * 18 + [2.2 * factor]  # (a rank's figures are its samples')
        latency = [{"device": "cuda:0", "dtype": "float32", "mode": "forward", "samples_ms": samples,
                    "median_ms": 2.0 * factor}] if ok else []  # fmt: skip
        return {"rank": number, "local_rank": number % 2, "world_size": 4, "host": host, "device": f"cuda:{number % 2}",
                "ok": ok, "error": None if ok else "out of memory on cuda:1", "moves": [], "latency": latency}  # fmt: skip

    return {"ranks": [rank(0, "node-0", 1.0), rank(1, "node-0", 1.5), rank(2, "node-1", 1.2), rank(3, "node-2", 1, ok=False)]}


def test_the_ranks_tab_says_its_table_and_summary_again_when_the_language_changes(qtbot, qapp):
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    view = show_ranks(tabs, typed(_ranks_report()))
    headers = [view.table.horizontalHeaderItem(c).text() for c in range(view.table.columnCount())]
    assert tabs.tabText(0) == "各进程" and headers[:2] == ["进程号", "主机"]
    assert view.summaryLabel.text().startswith("4 个进程，位于 3 台主机 · 最慢：进程 1")
    assert view.table.item(3, 6).text() == "失败：out of memory on cuda:1"

    speak(qapp, "en")
    headers = [view.table.horizontalHeaderItem(c).text() for c in range(view.table.columnCount())]
    assert tabs.tabText(0) == "Ranks" and headers[:2] == ["Rank", "Host"]
    assert view.summaryLabel.text().startswith("4 ranks on 3 hosts · slowest: rank 1 (cuda:1 on node-0)")
    assert view.table.item(3, 6).text() == "failed: out of memory on cuda:1"


def test_after_a_benchmark_what_stays_on_screen_follows_the_language_and_the_history_too(qtbot, qapp, window):
    speak(qapp, "zh_CN")  # the window was made in English: a live switch
    assert window.model_box.title() == "模型 — Net (示例)"
    assert doors.bar(window).inputShapeEdit.placeholderText().startswith("模型输入 ")
    widget(window, QSpinBox, "runsSpin").setValue(20)
    before = len(history(window))
    click(qtbot, window, "benchmarkButton")
    row = wait_history(qtbot, window, before + 1)[-1]
    assert row["Result"].startswith("中位数 ") and " · p95 " in row["Result"]
    assert doors.bar(window).progressBar.format().startswith("中位数 ")
    assert window.code.caption.text() == "等价的 PyTorch 代码：在 cpu 上计时前向传播"

    speak(qapp, "en")
    assert window.model_box.title() == "Model — Net (example)"
    assert doors.bar(window).inputShapeEdit.placeholderText().startswith("model input ")
    assert doors.bar(window).progressBar.format().startswith("median ")
    assert window.code.caption.text() == "Equivalent PyTorch code: forward timing on cpu"
    english = history(window)[-1]["Result"]  # the row said again in the language now installed
    assert english.startswith("median ") and " · p95 " in english and english != row["Result"]
