"""After a move, every row of the parameter tree shows the new dtype, size and device, at
every depth (issue 12, item 1), for the view and for a sort/filter proxy over the model."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QRegularExpression, QSortFilterProxyModel
from PySide6.QtWidgets import QTreeView

from inspector.core.moves.request import MoveRequest
from inspector.gui.features.model.item_model import PlacementModel
from tests.gui.deep_models import TRANSFORMER, factory_spec
from tests.gui.helpers import tree_rows, widget, GENEROUS_MS
from tests.gui import doors
from inspector.gui.features.moves.commands import ModelCommands


class _PaintedRegion(QObject):
    """Collects what the viewport paints."""

    def __init__(self) -> None:
        super().__init__()
        self.region = None

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            self.region = event.region() if self.region is None else self.region.united(event.region())
        return False


def _proxy_rows(proxy) -> int:
    count = 0

    def walk(parent: QModelIndex) -> None:
        nonlocal count
        for r in range(proxy.rowCount(parent)):
            count += 1
            walk(proxy.index(r, 0, parent))

    walk(QModelIndex())
    return count


def test_every_row_shows_the_move_expanded_scrolled_and_through_a_proxy(qtbot, make_window, tmp_path):
    window = make_window(factory_spec(tmp_path, TRANSFORMER, "transformer"))
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window)
    view = widget(window, QTreeView, "parameterView")
    model = view.model()
    before = tree_rows(model)
    params = [name for name, row in before.items() if row["Kind"] == "parameter"]
    assert len(params) == 184 and {before[n]["Dtype"] for n in params} == {"float32"}

    # Fully expanded, at the top: the decoder (the last top-level row) is far out of view.
    view.expandAll()
    view.scrollToTop()
    qtbot.wait(10)
    last_top = model.index(model.rowCount() - 1, 0)
    assert model.rowCount(last_top) > 0 and view.isExpanded(last_top)
    assert not view.viewport().rect().intersects(view.visualRect(last_top))

    # A consumer that caches: a recursive filter on the Dtype column (what a tree filter does).
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setRecursiveFilteringEnabled(True)
    proxy.setFilterKeyColumn(PlacementModel.DTYPE)
    proxy.setFilterRegularExpression(QRegularExpression("^float32$"))
    assert _proxy_rows(proxy) > 184

    # What the model announces: every parameter row must be covered, under its own parent
    # (a dataChanged range there) or by a layout change (every row, at every depth).
    announced: list = []
    model.dataChanged.connect(lambda tl, br, roles=(): announced.append((tl.parent(), tl.row(), br.row())))
    model.layoutChanged.connect(lambda *args: announced.append("layout"))

    painted = _PaintedRegion()
    view.viewport().installEventFilter(painted)
    assert doors.part(window, ModelCommands).request_move(MoveRequest("to", device="cpu", dtype="float64"))
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=30_000)
    qtbot.waitUntil(lambda: painted.region is not None, timeout=GENEROUS_MS)

    def covered(index: QModelIndex) -> bool:
        return "layout" in announced or any(
            parent == index.parent() and first <= index.row() <= last
            for parent, first, last in (a for a in announced if a != "layout")
        )

    assert all(covered(model.find(name)) for name in params)
    after = tree_rows(model)  # every row read through the model's data()
    for name in params:
        assert after[name]["Dtype"] == "float64", name
        assert after[name]["Device"] == "cpu", name
        assert after[name]["Size"] != before[name]["Size"], name
    # The view repainted all it shows (children included), still expanded and at the top...
    assert painted.region.contains(view.viewport().rect())
    # (the index again: a plain QModelIndex taken before a layout change is not valid after it)
    last_top = model.index(model.rowCount() - 1, 0)
    assert view.isExpanded(last_top) and view.verticalScrollBar().value() == 0
    # ...and the proxy re-filtered every row, at every depth: none is float32 any more.
    assert _proxy_rows(proxy) == 0
    proxy.setFilterRegularExpression(QRegularExpression("^float64$"))
    assert _proxy_rows(proxy) > 184
