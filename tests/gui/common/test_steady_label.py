"""The move price is always two lines tall: no price it states, and no price at all, moves
the window (the top panels grew and shrank as the model loaded and a dtype was chosen, and a
cast's end relaid out and repainted the whole window). A price too long for two lines is cut
at a word with "…"; its tooltip has all of it."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtWidgets import QVBoxLayout, QWidget  # noqa: E402

from inspector.gui.features.moves.action_bar import ActionBar  # noqa: E402
from inspector.gui.common.steady_label import SteadyHeightLabel  # noqa: E402

LONG = ("model.to('cpu', dtype=torch.bfloat16) needs 1.5 GiB on cpu for a moment: the model and its copy, "
        "until the copy is complete and the original is freed")  # fmt: skip
SHORT = "model.to('cpu'): nothing to copy"


def _at_the_top_of_a_window(qtbot, make, width: int):
    """``make(window)`` at the top of a shown window, as tall as it asks to be (the rest below it)."""
    window = QWidget()
    qtbot.addWidget(window)
    widget = make(window)
    layout = QVBoxLayout(window)
    layout.addWidget(widget)
    layout.addStretch(1)
    window.resize(width, 400)
    window.show()
    qtbot.waitExposed(window)
    widget.host = window  # (the window lives as long as the widget's test)
    return widget


@pytest.fixture
def bar(qtbot):
    return _at_the_top_of_a_window(qtbot, ActionBar, 900)


def _settled(qtbot, bar) -> tuple[int, int]:
    qtbot.wait(20)  # the layout's turn
    return bar.movePriceLabel.height(), bar.height()


def test_no_price_a_short_one_and_a_long_one_leave_the_bar_exactly_as_tall(qtbot, bar):
    label = bar.movePriceLabel
    bar.set_move_price("", new_model=True)  # loading: no price yet
    empty = _settled(qtbot, bar)
    for text in (SHORT, LONG, SHORT, ""):
        bar.set_move_price(text)
        assert _settled(qtbot, bar) == empty, text
    # A line as drawn, Chinese included (a CJK fallback font's line is taller than the spacing).
    assert empty[0] >= label.fontMetrics().lineSpacing()
    bar.set_move_price("把模型移到 cpu：无需复制（模型已在那里，且数据类型相同）。" * 2)
    assert _settled(qtbot, bar) == empty
    bar.retranslate()  # (what a change of language does)
    assert _settled(qtbot, bar) == empty


def test_a_price_longer_than_two_lines_is_cut_at_a_word_and_whole_in_the_tooltip(qtbot):
    label = _at_the_top_of_a_window(qtbot, SteadyHeightLabel, 300)
    window = label.host
    label.setText(LONG)
    qtbot.wait(20)
    assert label.is_cut() and label.text().endswith("…")
    shown = label.text()[:-1]
    assert LONG.startswith(shown) and LONG[len(shown)] == " "  # cut where a word ends
    assert label.full_text == LONG
    window.resize(1400, 400)  # wide enough: all of it, still two lines tall
    qtbot.wait(20)
    assert not label.is_cut() and label.text() == LONG
    label.setText(SHORT)
    assert label.text() == SHORT and not label.is_cut()
