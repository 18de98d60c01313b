"""A switch of language says again what the window already showed: the History tab's rows
(made in English, read in Chinese, and in English again, word for word) and the comments of the
code in the code view (prose; the code stays as it is, runs, and Copy copies what is shown).

Also: core's vocabulary (a mode, the example's spec, a move's method) in words, not as the
CLI's values, where the window names it: the code view's caption, the model box, the title,
the Compare tab's Mode and Method columns.
"""

from __future__ import annotations

import io
import tokenize

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from inspector.core.files.models import Net
from inspector.gui.common import i18n
from inspector.gui.common.pages import COMPARISON
from tests.gui.conftest import wait_idle
from tests.gui.languages import has_chinese, speak
from tests.gui.shell.test_language_walk import code_comments, english_left, our_lines
from inspector.gui.features.training.step import TrainingStep
from inspector.gui.features.moves.commands import ModelCommands
from tests.gui import doors
from inspector.gui.features.latency.launch import BenchmarkLaunch
from inspector.gui.features.lessons.panel import LessonsPanel
from inspector.gui.features.report.flow import ReportFlow


def _rows(window) -> list[tuple[str, ...]]:
    """Every history row as the view shows it: each cell, and its tooltip."""
    model = doors.history_view(window).history
    return [
        tuple(model.index(r, c).data() or "" for c in range(model.columnCount()))
        + (model.index(r, model.RESULT).data(Qt.ItemDataRole.ToolTipRole) or "",)
        for r in range(model.rowCount())
    ]


def _session(window, qtbot, tmp_path) -> None:
    """A few rows of each kind: a load (done), .cuda() (fails without a GPU), a move with a
    cast, a forward and a train-step measurement, a training step, a lesson that quotes
    PyTorch, a load that fails, a report written and opened."""
    bar = doors.bar(window)
    doors.part(window, ModelCommands).move_cuda()
    wait_idle(qtbot, window)
    bar.dtypeCombo.setCurrentIndex(bar.dtypeCombo.findData("float64"))
    assert doors.part(window, ModelCommands).move_to_target()
    wait_idle(qtbot, window)
    bar.runsSpin.setValue(10)
    assert doors.part(window, BenchmarkLaunch).run_benchmark()
    wait_idle(qtbot, window, timeout=60_000)
    bar.modeCombo.setCurrentIndex(bar.modeCombo.findData("train-step"))
    bar.runsSpin.setValue(5)
    assert doors.part(window, BenchmarkLaunch).run_benchmark()
    wait_idle(qtbot, window, timeout=60_000)
    bar.modeCombo.setCurrentIndex(bar.modeCombo.findData("forward"))
    assert doors.part(window, TrainingStep).run()
    wait_idle(qtbot, window)
    doors.part(window, LessonsPanel).list.setCurrentRow(2)  # lesson 3: .cuda() or .to(); PyTorch's message quoted
    doors.part(window, LessonsPanel).runButton.click()
    qtbot.waitUntil(lambda: 3 in doors.part(window, LessonsPanel).results, timeout=30_000)
    wait_idle(qtbot, window)
    report = tmp_path / "r.json"
    assert doors.part(window, ReportFlow).export_report(report)
    qtbot.waitUntil(lambda: report.exists() and doors.busy(window) is None, timeout=30_000)
    doors.part(window, ReportFlow).open_report(report)
    qtbot.waitUntil(lambda: any("load_report" in row[1] for row in _rows(window)), timeout=30_000)
    window.open_model(str(tmp_path / "missing.pt"))
    qtbot.waitUntil(lambda: doors.busy(window) is None and not _rows(window)[-1][-1].startswith("load_report"), timeout=30_000)
    wait_idle(qtbot, window)


def test_history_rows_made_in_english_read_in_chinese_after_a_switch_and_in_english_again(
    make_window, qtbot, qapp, tmp_path
):
    window = make_window()
    _session(window, qtbot, tmp_path)
    english = _rows(window)
    assert len(english) >= 9 and not any(has_chinese(" ".join(row)) for row in english)
    assert any(row[1].startswith("forward ×10 · ") and row[1].endswith(" float64 · input 64x3") for row in english)
    assert any(row[-1].startswith("failed: ") or "failed: " in row[-1] for row in english)

    speak(qapp, i18n.CHINESE)
    try:
        chinese = _rows(window)
        assert len(chinese) == len(english)
        assert [row[0] for row in chinese] == [row[0] for row in english]  # each row keeps its time
        left = [(row, english_left(our_lines(text))) for row in chinese for text in row if english_left(our_lines(text))]
        assert not left, left[:5]
        calls = [row[1] for row in chinese]
        assert any(call.startswith("前向传播 ×10 · ") and call.endswith(" float64 · 输入 64x3") for call in calls)
        assert any(call.startswith("训练步 ×5 · ") and call.endswith(" float64 · 输入 64x3") for call in calls)
        assert "load_model('example')" in calls  # code stays code
        assert any(row[4].startswith("Net (示例)：4 个张量") for row in chinese)
        assert any(row[4].startswith("失败：") for row in chinese)  # the failed load, said again
    finally:
        speak(qapp, i18n.ENGLISH)
    assert _rows(window) == english  # word for word, as they were made


@pytest.mark.cpu_only
def test_the_code_views_comments_follow_the_language_and_copy_copies_them(make_window, qtbot, qapp):
    window = make_window()
    doors.bar(window).runsSpin.setValue(5)
    assert doors.part(window, BenchmarkLaunch).run_benchmark()
    wait_idle(qtbot, window, timeout=60_000)
    english, caption = window.code.code(), window.code.caption.text()
    assert "# where the app measured" in english and caption == "Equivalent PyTorch code: forward timing on cpu"

    speak(qapp, i18n.CHINESE)
    try:
        chinese = window.code.code()
        assert window.code.caption.text() == "等价的 PyTorch 代码：在 cpu 上计时前向传播"
        comments = code_comments(chinese).splitlines()
        assert comments and all(has_chinese(line) and not english_left(line) for line in comments), comments
        assert _code_only(chinese) == _code_only(english)  # the code itself, token for token
        window.code.copy_button.click()
        assert QGuiApplication.clipboard().text() == chinese  # Copy copies what is shown
        printed: list[str] = []
        exec(chinese, {"model": Net(), "print": printed.append})  # it runs as it is shown
        assert len(printed) == 1 and printed[0].startswith("median ") and "over 5 samples" in printed[0]
    finally:
        speak(qapp, i18n.ENGLISH)
    assert window.code.code() == english and window.code.caption.text() == caption


def test_the_cuda_and_training_step_code_say_their_comments_in_chinese(make_window, qtbot, chinese):
    window = make_window()
    doors.part(window, ModelCommands).move_cuda()
    wait_idle(qtbot, window)
    code = window.code.code()
    assert code.startswith("model = model.cuda()") and code_comments(code) == "需要 CUDA GPU；更推荐 .to(device)"
    assert doors.part(window, TrainingStep).run()
    wait_idle(qtbot, window)
    code = window.code.code()
    assert "loss = output.sum()" in code and "loss.backward()" in code and "optimizer.step()" in code
    assert code_comments(code).splitlines() == ["代替真实损失", "每个参数得到 .grad", "优化器保存状态"]
    compile(code, "<training step>", "exec")


def test_core_vocabulary_is_said_in_words_in_chinese(make_window, qtbot, chinese, tmp_path):
    window = make_window()
    assert window.windowTitle() == "Net — 示例"
    assert window.model_box.title() == "模型 — Net (示例)"
    doors.bar(window).runsSpin.setValue(5)
    doors.bar(window).modeCombo.setCurrentIndex(doors.bar(window).modeCombo.findData("train-step"))
    assert doors.part(window, BenchmarkLaunch).run_benchmark()
    wait_idle(qtbot, window, timeout=60_000)
    assert "训练步" in window.code.caption.text() and "train" not in window.code.caption.text()
    assert doors.part(window, ModelCommands).move_cpu()
    wait_idle(qtbot, window)
    report = tmp_path / "r.json"
    assert doors.part(window, ReportFlow).export_report(report)
    qtbot.waitUntil(lambda: report.exists() and doors.busy(window) is None, timeout=30_000)
    doors.part(window, ReportFlow).open_report(report)
    qtbot.waitUntil(lambda: window.lazy_tabs.is_built(COMPARISON), timeout=30_000)
    view = window.lazy_tabs.page(COMPARISON)
    latency, moves = view.latency_table, view.moves_table
    # the report, shown (its summary names the model as the window does: 示例)
    qtbot.waitUntil(lambda: "示例" in view.summary_label.text() and latency.row_count() and moves.row_count(), timeout=30_000)
    assert "example" not in view.summary_label.text()
    assert {view.cell_text(latency, r, "Mode") for r in range(latency.row_count())} == {"训练步"}
    assert {view.cell_text(moves, r, "Method") for r in range(moves.row_count())} == {".cpu()"}


def _code_only(code: str) -> list[tuple[int, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return [(t.type, t.string) for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL)]
