"""The move price keeps its height when a shorter price follows a longer one: a label that
shrank with its text laid out and repainted the whole window as each cast ended."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtWidgets import QVBoxLayout, QWidget  # noqa: E402

from inspector.gui.panels.actions import ActionBar  # noqa: E402
from inspector.gui.panels.steady_label import SteadyHeightLabel  # noqa: E402

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


def test_a_shorter_price_after_a_longer_one_leaves_the_bar_as_tall(qtbot, bar):
    label = bar.movePriceLabel
    bar.set_move_price(SHORT, new_model=True)
    one_line, _ = _settled(qtbot, bar)
    bar.set_move_price(LONG)
    tall, bar_height = _settled(qtbot, bar)
    assert tall > one_line  # the long price wraps: the label grew for it
    bar.set_move_price(SHORT)
    assert _settled(qtbot, bar) == (tall, bar_height)  # and nothing around it moved
    assert label.text() == SHORT


def test_a_new_model_or_language_lets_the_price_take_its_own_height_again(qtbot, bar):
    bar.set_move_price(SHORT, new_model=True)
    one_line, _ = _settled(qtbot, bar)
    bar.set_move_price(LONG)
    _settled(qtbot, bar)
    bar.set_move_price(SHORT, new_model=True)
    assert _settled(qtbot, bar)[0] == one_line
    bar.set_move_price(LONG)
    _settled(qtbot, bar)
    bar.retranslate()  # (what a change of language does)
    bar.set_move_price(SHORT)
    assert _settled(qtbot, bar)[0] == one_line


def test_at_another_width_the_label_is_wrapped_and_sized_anew(qtbot):
    label = _at_the_top_of_a_window(qtbot, SteadyHeightLabel, 300)
    window = label.host
    label.setText(LONG)
    qtbot.wait(20)
    narrow = label.height()
    window.resize(900, 400)  # wider: fewer lines, and not the narrow height kept
    qtbot.wait(20)
    wide = label.height()
    assert wide == label.heightForWidth(label.width()) < narrow
    label.setText(SHORT)  # at this width, the floor is this width's tallest
    qtbot.wait(20)
    metrics = label.fontMetrics()
    assert metrics.horizontalAdvance(SHORT) < label.width() and wide >= 2 * metrics.lineSpacing()  # one line, in two
    assert label.height() == wide
