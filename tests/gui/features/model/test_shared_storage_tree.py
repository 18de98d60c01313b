"""The window's parameter tree for a model whose buffers view its weight's storage (issue 32,
item 4): each view is marked and names the weight, and the totals count 4 MiB, not 14."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QTreeView

from tests.gui.helpers import column_names, tree_rows, widget
from tests.view_models import write_factory
from tests.gui import doors


def test_the_tree_marks_each_view_and_counts_the_storage_once(qtbot, make_window, tmp_path):
    window = make_window(write_factory(tmp_path))
    model = widget(window, QTreeView, "parameterView").model()
    rows = tree_rows(model)
    assert rows["weight"]["Size"] == "4.0 MiB"
    assert rows["flat"]["Size"] == rows["transposed"]["Size"] == "(view) 4.0 MiB"
    assert rows["head"]["Size"] == "(view) 2.0 MiB"
    size = column_names(model).index("Size")
    tips = {model.index(r, 0, QModelIndex()).data(): model.index(r, size, QModelIndex()).data(Qt.ItemDataRole.ToolTipRole)
            for r in range(model.rowCount(QModelIndex()))}  # fmt: skip
    assert "a view of weight's storage" in tips["head"]
    assert doors.model(window).placement.totals.bytes == 4 << 20
