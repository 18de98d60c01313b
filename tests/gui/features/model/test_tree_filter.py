"""Issue 35, section 4: the model tree's filter after it hides every row, and after another
model is loaded. A filter that matches nothing says so under the field (an empty tree alone
looks like a model without tensors); loading another model clears the filter, whose words
were about the last model's names; loading the same model again keeps it."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QLineEdit, QTreeView

from tests.gui.conftest import wait_idle
from tests.gui.helpers import tree_rows, widget
from tests.gui import doors

OTHER = "from torch import nn\ndef make():\n    return nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))\n"


def _load(qtbot, window, spec: str) -> None:
    loads = doors.history_view(window).history.rowCount()
    assert window.open_model(spec)
    qtbot.waitUntil(lambda: doors.history_view(window).history.rowCount() > loads, timeout=30_000)
    wait_idle(qtbot, window)


def _factory(tmp_path) -> str:
    path = tmp_path / "other.py"
    path.write_text(OTHER)
    return f"{path}:make"


def test_a_filter_that_hides_every_row_says_so(qtbot, window):
    edit = widget(window, QLineEdit, "parameterFilterEdit")
    note = widget(window, QLabel, "parameterNoMatches")
    model = widget(window, QTreeView, "parameterView").model()
    assert not note.isVisibleTo(window)
    edit.setText("cuda")
    assert model.rowCount() == 0
    assert note.isVisibleTo(window) and note.text() == "No row matches “cuda”: clear the filter to see every row."
    edit.setText("fc1 weight")
    assert set(tree_rows(model)) == {"fc1.weight"} and not note.isVisibleTo(window)
    edit.clear()
    assert not note.isVisibleTo(window) and len(tree_rows(model)) == 4


def test_loading_another_model_clears_the_filter_and_shows_all_its_rows(qtbot, window, tmp_path):
    edit = widget(window, QLineEdit, "parameterFilterEdit")
    note = widget(window, QLabel, "parameterNoMatches")
    model = widget(window, QTreeView, "parameterView").model()
    edit.setText("fc1")
    assert set(tree_rows(model)) == {"fc1.weight", "fc1.bias"}
    _load(qtbot, window, _factory(tmp_path))
    assert edit.text() == "" and not note.isVisibleTo(window)
    assert set(tree_rows(model)) == {"0.weight", "0.bias", "2.weight", "2.bias"}


def test_the_same_model_loaded_again_keeps_the_filter_and_its_note(qtbot, window, tmp_path):
    spec = _factory(tmp_path)
    _load(qtbot, window, spec)
    edit = widget(window, QLineEdit, "parameterFilterEdit")
    note = widget(window, QLabel, "parameterNoMatches")
    edit.setText("fc1")  # the example's name: nothing in this model
    assert note.isVisibleTo(window)
    _load(qtbot, window, spec)
    assert edit.text() == "fc1" and note.isVisibleTo(window)
    assert widget(window, QTreeView, "parameterView").model().rowCount() == 0


def test_the_no_matches_note_is_chinese_in_chinese(qtbot, window, chinese):
    edit = widget(window, QLineEdit, "parameterFilterEdit")
    edit.setText("cuda")
    text = widget(window, QLabel, "parameterNoMatches").text()
    assert text == "没有与“cuda”匹配的行：清空筛选即可看到所有行。"
