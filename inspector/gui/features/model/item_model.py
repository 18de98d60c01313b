"""The parameter tree's Qt item model: a ``QAbstractItemModel`` over ``parameter_tree``'s nodes.

No widget per row and no copy of the rows: an index points at its node, and ``data()`` asks
``parameter_cells`` for the text of the few cells a view paints, so a model of 100,000 tensors
shows as fast as one of ten. What Qt alone knows lives here: roles, colours, swatches, the
announcements that keep a view's expansion and scrolling across a move or a sort, and the
translation of ``parameter_cells``' words (``shown``) in the language now installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, overload

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QStyle

from inspector.core.messages import Text
from inspector.gui.common.i18n import core_text, translate
from inspector.gui.features.model import cells
from inspector.gui.common.theme import device_swatch
from inspector.gui.features.model.tree import ModuleNode, Node, PlacementTree
from inspector.gui.common.table_model import Index, header_text
from inspector.gui.common.plain_text import shown as shown_line
from inspector.gui.common.plain_text import shown_tip

if TYPE_CHECKING:
    from inspector.core.measure import Attribution
    from inspector.core.placement import Placement, TensorRow

#: The role the filter field matches (``parameter_cells.filter_text``).
FILTER_ROLE = cells.FILTER_ROLE
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def shown(text: str) -> str:
    """A text ``parameter_cells`` marked (context "ParameterCells"), or one of core's, in the
    language now installed: the ``tr`` its functions take."""
    return core_text(text) if isinstance(text, Text) else translate("ParameterCells", text)


class PlacementModel(cells.Columns, QAbstractItemModel):
    """Columns: name, kind, shape, dtype, device (coloured), size, requires_grad, and the
    per-module time, share, output shape and FLOPs (``Columns``)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tree: PlacementTree | None = None
        self._attribution: Attribution | None = None
        self._sort: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)

    def largest_module(self) -> int:
        """The most tensors one module row counts (its Kind cell says "module (N)")."""
        return self._tree.largest_module() if self._tree is not None else 0

    def has_grads(self) -> bool:
        """Whether a parameter has a gradient now (the Grad column then says so)."""
        return self._tree is not None and bool(self._tree.with_grad)

    # ----- feeding

    def set_placement(self, placement: Placement) -> bool:
        """Show ``placement``; True when the tree was rebuilt (False: updated in place)."""
        names = tuple(r.name for r in placement.tensors)
        if self._tree is not None and self._tree.names == names:
            self._tree.update_rows(placement)
            self._announce_all_rows()
            return False
        self.beginResetModel()
        self._tree = PlacementTree(placement)
        self._attribution = None  # another model: its timings are gone
        self._apply_sort()
        self.endResetModel()
        return True

    def _announce_all_rows(self) -> None:
        """Every row's cells changed (after a move), at every depth: announced as a layout
        change, which every view and proxy answers by reading all rows again (a tree view
        repaints its whole viewport, a QSortFilterProxyModel re-filters and re-sorts), while
        expansion, selection and scrolling stay (rows keep their places, so no persistent
        index changes). Announcing the top level alone left expanded children stale.

        Not one ``dataChanged`` per module: a shown QTreeView maps each range to rectangles
        through this Python model, about 1 ms a module (9.5 s for a 10,000-tensor model, 33 s
        behind a sort/filter proxy, which also maps every parent eagerly); a reset would
        collapse the tree and lose the scroll position."""
        if self._tree is None:
            return
        self.layoutAboutToBeChanged.emit()
        self.layoutChanged.emit()

    def set_attribution(self, attribution: Attribution) -> None:
        """Show a per-module run (``core.measure.attribution.Attribution``) in the module rows."""
        if self._tree is None:
            return
        self.beginResetModel()
        self._attribution = attribution
        self._tree.attach(attribution)
        self._apply_sort()
        self.endResetModel()

    @property
    def attribution(self) -> Attribution | None:
        return self._attribution

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._sort = (column, order)
        if self._tree is None:
            return
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        nodes = [(index.internalPointer(), index.column()) for index in before]
        self._apply_sort()
        after = [self.createIndex(node.index, column_, node) for node, column_ in nodes]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    def _apply_sort(self) -> None:
        if self._tree is None:
            return
        column, order = self._sort
        self._tree.sort(cells.sort_key(self._tree, column, shown), descending=order == Qt.SortOrder.DescendingOrder)

    def retranslate(self) -> None:
        """The titles and every cell again in the language now installed; a column sorted by its
        text is sorted again (the words changed)."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.HEADERS) - 1)
        self.sort(*self._sort)  # a layout change: every view and proxy reads the rows again

    def tensor_count(self) -> int:
        return len(self._tree.leaves) if self._tree is not None else 0

    def find(self, name: str) -> QModelIndex:
        """The index (column 0) of the tensor row called ``name``; invalid if absent."""
        leaf = self._tree.find(name) if self._tree is not None else None
        return self.createIndex(leaf.index, 0, leaf) if leaf is not None else QModelIndex()

    def row_at(self, index: QModelIndex) -> TensorRow | None:
        """The TensorRow behind ``index``, or None for a module row."""
        node = self._node(index)
        return node.row if node is not None else None

    # ----- Qt model interface

    def _node(self, index: Index) -> Node | None:
        if not index.isValid():
            return self._tree.root if self._tree is not None else None
        node: Node = index.internalPointer()  # every index this model makes points at its node
        return node

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        node = self._node(parent)
        if node is None or not (0 <= row < len(node.children)) or not (0 <= column < len(self.HEADERS)):
            return QModelIndex()
        return self.createIndex(row, column, node.children[row])

    @overload
    def parent(self) -> QObject | None: ...

    @overload
    def parent(self, index: Index, /) -> QModelIndex: ...

    def parent(self, index: Index | None = None) -> QObject | QModelIndex | None:  # noqa: D401 - Qt's overloaded name
        if index is None:  # QObject.parent()
            return super().parent()
        if not index.isValid():
            return QModelIndex()
        node: Node = index.internalPointer()
        parent = node.parent
        if parent is None or parent.parent is None:
            return QModelIndex()
        return self.createIndex(parent.index, 0, parent)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        node = self._node(parent)
        return len(node.children) if node is not None else 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return len(self.HEADERS)

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:
        return self.rowCount(parent) > 0

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        timing = self._attribution is not None and section in (self.TIME, self.SHARE)
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            if timing and self._attribution is not None:  # what the figures are, and why they are rough when they are
                return cells.timing_header_tip(self._attribution, shown)
            tip = cells.HEADER_TIPS.get(section)
            return translate("ParameterCells", tip) if tip else None
        if role == Qt.ItemDataRole.DecorationRole and orientation == Qt.Orientation.Horizontal:
            # A warning sign by the Time title when the per-module figures are rough.
            if timing and section == self.TIME and bool(getattr(self._attribution, "warnings", ())):
                return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
            return None
        return header_text(self.HEADERS, section, orientation, role, "ParameterCells")

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or self._tree is None:
            return None
        node: Node = index.internalPointer()
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:  # names from the file: escaped, elided (plain_text)
            text = cells.cell_text(self._tree, node, column, shown)
            return shown_line(text) if text is not None else None  # an empty cell, never "None"
        if role == FILTER_ROLE:
            return cells.filter_text(node, shown)
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = cells.tooltip_text(node, column, shown)
            return shown_tip(tip) if tip is not None else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if cells.right_aligned(node, column) else None
        if column == self.DEVICE:
            return _device_look(node, role)
        return None


def _device_look(node: Node, role: int) -> object:
    """The Device cell's swatch (one device) or red text (a module split across devices). The
    colour goes in a swatch, not the text: light hues on white would be unreadable."""
    devices = tuple(node.devices) if isinstance(node, ModuleNode) else (node.row.device,)
    if role == Qt.ItemDataRole.DecorationRole and len(devices) == 1:
        return device_swatch(devices[0])
    if role == Qt.ItemDataRole.ForegroundRole and len(devices) > 1:
        return QColor("#c62828")
    return None
