"""Help › Lessons in the window: each lesson runs on the live session and shows what PyTorch did."""

from __future__ import annotations

import pytest
import torch
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox

from tests.gui.conftest import wait_idle
from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS
from inspector.gui.features.lessons.panel import LessonsPanel


def run_lesson(window, qtbot, number: int) -> str:
    panel = doors.part(window, LessonsPanel)
    window.findChild(QAction, "lessonsAction").trigger()
    assert panel.isVisible()
    panel.list.setCurrentRow(number - 1)
    before = doors.history_view(window).history.rowCount()
    panel.runButton.click()
    qtbot.waitUntil(lambda: number in panel.results, timeout=30_000)
    wait_idle(qtbot, window)
    assert doors.history_view(window).history.rowCount() > before  # the lesson (and any move it made) in the history
    return panel.answer.toPlainText()


@pytest.mark.cpu_only
def test_lesson_1_says_cpu_and_why(make_window, qtbot):
    window = make_window()
    text = run_lesson(window, qtbot, 1)
    assert "torch.cuda.is_available() is False: device is cpu." in text
    assert "Why: " in text
    assert window.code.code().startswith('device = torch.device("cuda:0"')  # the code view shows the lesson


def test_lesson_2_keeps_the_live_models_parameter_objects(make_window, qtbot):
    window = make_window()
    state = doors.model(window)
    text = run_lesson(window, qtbot, 2)
    assert "y is a new tensor on meta;" in text and "(y is x: no)" in text  # as PyTorch prints it: not meta:0
    assert "meta:0" not in text
    assert "returned net itself: yes; the same parameter objects: yes" in text
    assert "cpu float32 → cpu float64" in text  # the copy's cast
    assert {r.dtype for r in doors.model(window).placement.tensors} == {r.dtype for r in state.placement.tensors}


@pytest.mark.cpu_only
def test_lesson_3_quotes_pytorchs_cuda_message(make_window, qtbot):
    window = make_window()
    text = run_lesson(window, qtbot, 3)
    with pytest.raises((AssertionError, RuntimeError)) as raised:
        torch.nn.Linear(1, 1).cuda()
    assert f"{type(raised.value).__name__}: {raised.value}" in text
    assert '.to("cpu") worked: yes.' in text


@pytest.mark.cpu_only
def test_lesson_4_shows_the_state_left_behind(make_window, qtbot):
    window = make_window()
    text = run_lesson(window, qtbot, 4)
    assert "Stepped before the move, its state stayed: cpu float32." in text
    assert "The placement check says: The optimizer's state stayed in float32" in text
    # What the next step really did here (a dtype mismatch on the CPU: it ran), and what a GPU does.
    assert "fails or mixes devices" not in text
    assert ("Its next optimizer.step(), after the move, ran without an error or a warning: the parameters are "
            "cpu float64, its state is still cpu float32") in text
    assert "On a GPU the state would stay on the CPU" in text and "Tensors of the same index must be on the same device" in text


@pytest.mark.cpu_only
def test_lesson_4_in_chinese_says_the_step_ran(make_window, qtbot, chinese):
    window = make_window()
    text = run_lesson(window, qtbot, 4)
    assert "会失败或混用设备" not in text
    assert "下一次 optimizer.step() 照常运行" in text


def test_each_lessons_footer_points_up_at_its_answer_and_names_the_main_window(make_window, qtbot):
    """Issue 35, section 3: the line under the answer says the answer is above it (it is), and
    sends the reader to the main window for the panels the lessons dialog may cover."""
    window = make_window()
    panel = doors.part(window, LessonsPanel)
    for number in (1, 2, 3, 4, 5):
        run_lesson(window, qtbot, number)
        footer = panel.look.text()
        assert footer and "below" not in footer and "above" in footer, footer
        assert panel.look.geometry().top() >= panel.answer.geometry().bottom()  # the answer is above it
        for name in ("Devices panel", "History tab", "tree"):
            if name in footer:
                assert "main window" in footer, footer


def test_the_footers_in_chinese_point_up(make_window, qtbot, chinese):
    window = make_window()
    for number in (1, 5):
        run_lesson(window, qtbot, number)
        footer = doors.part(window, LessonsPanel).look.text()
        assert "上方" in footer and "下方" not in footer and "下面" not in footer, footer


def test_lesson_5_quotes_the_device_mismatch_and_the_fix(make_window, qtbot):
    window = make_window()
    text = run_lesson(window, qtbot, 5)
    with pytest.raises(RuntimeError) as raised:
        window.worker.session.loaded.module(torch.randn(4, 3, device="meta"))
    assert str(raised.value) in text
    assert "The fix, the input on cpu: an output of shape (4, 1) on cpu." in text


def test_a_lesson_asks_before_replacing_another_model(make_window, qtbot, monkeypatch, tmp_path):
    factory = tmp_path / "other.py"
    factory.write_text("from torch import nn\ndef make():\n    return nn.Linear(5, 5)\n")
    window = make_window(f"{factory}:make")
    answers = [QMessageBox.StandardButton.No]
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: answers.pop(0))
    window.findChild(QAction, "lessonsAction").trigger()
    doors.part(window, LessonsPanel).list.setCurrentRow(4)
    doors.part(window, LessonsPanel).runButton.click()
    assert doors.model(window).info.spec.endswith(":make") and 5 not in doors.part(window, LessonsPanel).results  # declined

    answers.append(QMessageBox.StandardButton.Yes)
    doors.part(window, LessonsPanel).runButton.click()
    qtbot.waitUntil(lambda: 5 in doors.part(window, LessonsPanel).results, timeout=30_000)
    assert doors.model(window).info.spec == "example"


def test_the_lessons_follow_the_language(make_window, qtbot, chinese):
    window = make_window()
    text = run_lesson(window, qtbot, 1)
    assert "device 是 cpu" in text and doors.part(window, LessonsPanel).windowTitle() == "课程"
    from inspector.gui.common import i18n

    i18n.apply_language(i18n.ENGLISH)
    qtbot.waitUntil(lambda: doors.part(window, LessonsPanel).windowTitle() == "Lessons", timeout=GENEROUS_MS)
    assert "device is cpu" in doors.part(window, LessonsPanel).answer.toPlainText()  # the answer is said again, in English
