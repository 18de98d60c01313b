"""The model panel: every parameter, buffer, gradient and optimizer-state tensor, by module.

A ``QAbstractItemModel`` over a plain node tree (no widget per row) feeds a ``QTreeView``
with uniform row heights, so a model of 100,000 tensors shows as fast as one of ten: the
view only asks for the rows it paints. Totals per device sit in the header, and the
placement findings (split model, optimizer state left behind) show as warnings above it.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QEvent, QModelIndex, QObject, QPoint, QRegularExpression, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from inspector.core import gc_pause
from inspector.core.placement.tensor_rows import device_bytes_text, meta_text, size_text
from inspector.core.report.modules import format_flops
from inspector.core.units import format_bytes, format_ms
from inspector.gui.panels.devices import device_colour, device_swatch  # noqa: F401
from inspector.gui.panels.table_model import header_text
from inspector.gui.plain_text import plain_tooltip

KIND_LABELS = {
    "parameter": "parameter",
    "buffer": "buffer",
    "grad": "gradient",
    "optimizer_state": "optimizer state",
}
#: Header tooltips: what a column means where its title cannot say it all.
HEADER_TIPS = {
    1: "What the row holds: a parameter, buffer, gradient or optimizer state; "
    "\"module (N)\" = a module and the N tensors under it.",
    6: "Grad, for a parameter: \"yes\" = requires_grad (training updates it), \"no\" = frozen; "
    "\"· has .grad\" = a backward pass left a gradient in it now (its .grad row is listed too). "
    "Gradients appear after a training step (Tools › Run one training step).",
    5: "Memory really allocated; tied tensors (shared storage) are counted once in the totals.",
}

#: Models up to this many tensors open fully expanded; bigger ones show their top level.
EXPAND_ALL_LIMIT = 300
#: The text the filter field matches: a tensor's full name, kind, dtype and device; a
#: module's full path (so a filter by device or dtype keeps only the tensors that match).
FILTER_ROLE = Qt.ItemDataRole.UserRole + 1
#: The Name column never gets narrower than this (the others scroll sideways instead):
#: "in_p…weight" four modules deep (names elide in the middle; the tooltip has them whole).
NAME_MIN_WIDTH = 150
#: The other columns are sized to what they show (``fit_columns``), each at most this wide:
#: a longer cell (a mixed module's dtypes, a 6-d shape) elides, its tooltip has it whole.
COLUMN_MAX_WIDTH = 150


class _Node:
    """A module: its children (modules and tensors) and what they hold in total."""

    __slots__ = ("name", "parent", "index", "seq", "children", "count", "bytes", "devices", "dtypes", "stats")
    row = None  # a module has no TensorRow

    def __init__(self, name: str, parent: "_Node | None") -> None:
        self.name = name
        self.parent = parent
        self.index = 0  # position among the parent's children
        self.seq = 0  # position in the model's own order (sorting by no column restores it)
        self.stats: Any = None  # core.measure.attribution.ModuleStats after a per-module run
        self.children: list[_Node | _Leaf] = []
        self.count = 0
        self.bytes = 0
        self.devices: dict[str, None] = {}  # ordered sets
        self.dtypes: dict[str, None] = {}

    def add(self, child: "_Node | _Leaf") -> "_Node | _Leaf":
        child.index = child.seq = len(self.children)
        self.children.append(child)
        return child


class _Leaf:
    """One tensor row. Kept small: a model of 100,000 tensors makes 100,000 of these."""

    __slots__ = ("name", "parent", "index", "seq", "row")
    children: tuple = ()
    stats = None

    def __init__(self, name: str, parent: _Node, row: Any) -> None:
        self.name = name
        self.parent = parent
        self.index = 0
        self.seq = 0
        self.row = row


def _tree_parent(row: Any) -> str:
    """The module a row belongs under. Gradients go with their parameter's module."""
    if row.kind == "grad":
        return row.name.removesuffix(".grad").rpartition(".")[0]
    return row.module


class PlacementTree:
    """The node tree of a placement: modules nest by their dotted path. Built in O(tensors)."""

    def __init__(self, placement: Any) -> None:
        self.root = _Node("", None)
        self.leaves: list[_Leaf] = []
        self.modules: list[_Node] = []  # creation order: every parent before its children
        by_path: dict[str, _Node] = {"": self.root}
        self.by_path = by_path
        with gc_pause.paused():
            for row in placement.tensors:
                path = _tree_parent(row)
                parent = by_path.get(path)
                if parent is None:
                    parent = self._module(path, by_path)
                leaf_name = row.name[len(path) + 1 :] if path else row.name
                self.leaves.append(parent.add(_Leaf(leaf_name, parent, row)))
            self.names = tuple(r.name for r in placement.tensors)
            self._note_grads(placement)
            self.aggregate()

    def _module(self, path: str, by_path: dict[str, _Node]) -> _Node:
        parent_path, _, name = path.rpartition(".")
        parent = by_path.get(parent_path)
        if parent is None:
            parent = self._module(parent_path, by_path)
        node = by_path[path] = parent.add(_Node(name, parent))
        self.modules.append(node)
        return node

    def attach(self, attribution: Any) -> None:
        """Per-module figures onto the module rows; a module without tensors (a ReLU, a
        Dropout) gets a row of its own, so its time shows too."""
        for node in (self.root, *self.modules):
            node.stats = None
        added = False
        for stats in attribution.modules:
            node = self.by_path.get(stats.name)
            if node is None:
                node = self._module(stats.name, self.by_path)
                added = True
            node.stats = stats
        if added:
            self._reorder(getattr(attribution, "module_order", ()))

    def _reorder(self, module_order: Any) -> None:
        """Put added modules where the model defines them: a module's own tensors first (as
        ``named_parameters`` lists them), then its submodules in ``named_modules`` order."""
        rank = {name: i for i, name in enumerate(module_order)}
        path_of = {id(node): path for path, node in self.by_path.items()}
        last = len(rank)

        def key(child: "_Node | _Leaf") -> tuple[int, int, int]:
            if isinstance(child, _Leaf):
                return (0, child.seq, 0)
            return (1, rank.get(path_of.get(id(child), ""), last), child.seq)

        for node in (self.root, *self.modules):
            node.children.sort(key=key)
            for i, child in enumerate(node.children):
                child.index = child.seq = i

    def sort(self, key: Any, descending: bool) -> None:
        """Order every module's children by ``key(node)`` (None sorts last either way);
        ``key`` None restores the model's own order."""
        nodes = [self.root, *self.modules]
        for node in nodes:
            children = node.children
            if key is None:
                children.sort(key=lambda c: c.seq)
            else:
                keyed = [(key(c), c) for c in children]
                present = sorted((kc for kc in keyed if kc[0] is not None), key=lambda kc: kc[0], reverse=descending)
                node.children = [c for _, c in present] + [c for k, c in keyed if k is None]
            for i, child in enumerate(node.children):
                child.index = i

    def update_rows(self, placement: Any) -> None:
        """Same tensors, new facts (after a move): swap the rows in, keep the nodes."""
        for leaf, row in zip(self.leaves, placement.tensors):
            leaf.row = row
        self._note_grads(placement)
        self.aggregate()

    def _note_grads(self, placement: Any) -> None:
        """Parameters that hold a gradient now (their "<name>.grad" row exists)."""
        self.with_grad = {r.name.removesuffix(".grad") for r in placement.tensors if r.kind == "grad"}

    def aggregate(self) -> None:
        """Count, bytes, devices and dtypes per module (shared storage counted once)."""
        for node in (self.root, *self.modules):
            node.count = node.bytes = 0
            node.devices, node.dtypes = {}, {}
        for leaf in self.leaves:
            row, parent = leaf.row, leaf.parent
            parent.devices[row.device] = None
            parent.dtypes[row.dtype] = None
            if row.shares_with is None:
                parent.count += 1
                parent.bytes += row.bytes
        for node in reversed(self.modules):  # children before parents
            parent = node.parent
            parent.count += node.count
            parent.bytes += node.bytes
            parent.devices.update(node.devices)
            parent.dtypes.update(node.dtypes)


class PlacementModel(QAbstractItemModel):
    """Columns: name, kind, shape, dtype, device (coloured), size, requires_grad."""

    HEADERS = ("Name", "Kind", "Shape", "Dtype", "Device", "Size", "Grad", "Time", "% of forward", "Output shape", "FLOPs")
    NAME, KIND, SHAPE, DTYPE, DEVICE, SIZE, GRAD, TIME, SHARE, OUTPUT, FLOPS = range(11)
    #: The per-module columns: empty (and hidden by the panel) until a per-module run.
    MODULE_COLUMNS = (TIME, SHARE, OUTPUT, FLOPS)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tree: PlacementTree | None = None
        self._attribution: Any = None
        self._sort: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)

    def largest_module(self) -> int:
        """The most tensors one module row counts (its Kind cell says "module (N)")."""
        return max((node.count for node in self._tree.modules), default=0) if self._tree is not None else 0

    def has_grads(self) -> bool:
        """Whether a parameter has a gradient now (the Grad column then says so)."""
        return self._tree is not None and bool(self._tree.with_grad)

    # ----- feeding

    def set_placement(self, placement: Any) -> bool:
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

    def set_attribution(self, attribution: Any) -> None:
        """Show a per-module run (``core.measure.attribution.Attribution``) in the module rows."""
        if self._tree is None:
            return
        self.beginResetModel()
        self._attribution = attribution
        self._tree.attach(attribution)
        self._apply_sort()
        self.endResetModel()

    @property
    def attribution(self) -> Any:
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
        key = self._sort_key(column)
        self._tree.sort(key, descending=order == Qt.SortOrder.DescendingOrder)

    def _sort_key(self, column: int) -> Any:
        if column < 0 or column >= len(self.HEADERS):
            return None
        figures = {
            self.TIME: lambda s: s.median_ms,
            self.SHARE: lambda s: s.share,
            self.FLOPS: lambda s: s.flops,
            self.OUTPUT: lambda s: _shapes_text(s.output_shapes),
        }
        if column in figures:
            pick = figures[column]
            return lambda node: pick(node.stats) if node.stats is not None else None
        if column == self.SIZE:
            return lambda node: node.row.bytes if node.row is not None else node.bytes
        if column == self.NAME:
            return lambda node: node.name.lower()
        return lambda node: str(self.data(self.createIndex(0, column, node)) or "") or None

    def tensor_count(self) -> int:
        return len(self._tree.leaves) if self._tree is not None else 0

    def find(self, name: str) -> QModelIndex:
        """The index (column 0) of the tensor row called ``name``; invalid if absent."""
        if self._tree is None:
            return QModelIndex()
        for leaf in self._tree.leaves:
            if leaf.row.name == name:
                return self.createIndex(leaf.index, 0, leaf)
        return QModelIndex()

    def row_at(self, index: QModelIndex) -> Any:
        """The TensorRow behind ``index``, or None for a module row."""
        node = self._node(index)
        return node.row if node is not None else None

    # ----- Qt model interface

    def _node(self, index: QModelIndex) -> _Node | _Leaf | None:
        if not index.isValid():
            return self._tree.root if self._tree is not None else None
        return index.internalPointer()

    def index(self, row: int, column: int, parent: QModelIndex = QModelIndex()) -> QModelIndex:
        node = self._node(parent)
        if node is None or not (0 <= row < len(node.children)) or not (0 <= column < len(self.HEADERS)):
            return QModelIndex()
        return self.createIndex(row, column, node.children[row])

    def parent(self, index: QModelIndex = None):  # noqa: D401 - Qt's overloaded name
        if index is None:  # QObject.parent()
            return super().parent()
        if not index.isValid():
            return QModelIndex()
        parent = index.internalPointer().parent
        if parent is None or parent.parent is None:
            return QModelIndex()
        return self.createIndex(parent.index, 0, parent)

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        node = self._node(parent)
        return len(node.children) if node is not None else 0

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return len(self.HEADERS)

    def hasChildren(self, parent: QModelIndex = QModelIndex()) -> bool:
        return self.rowCount(parent) > 0

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            return HEADER_TIPS.get(section)
        return header_text(self.HEADERS, section, orientation, role)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        node = index.internalPointer()
        column = index.column()
        if role == FILTER_ROLE:
            return _filter_text(node)
        if column in self.MODULE_COLUMNS:
            return self._timing_data(node.stats, column, role)
        if node.row is None:
            return self._module_data(node, column, role)
        return self._tensor_data(node.row, node.name, column, role)

    def _timing_data(self, stats: Any, column: int, role: int):
        if stats is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.TIME:
                return format_ms(stats.median_ms)
            if column == self.SHARE:
                return f"{100 * stats.share:.1f} %"
            if column == self.OUTPUT:
                return _shapes_text(stats.output_shapes)
            if column == self.FLOPS:
                return format_flops(stats.flops) if stats.flops else "0"
        elif role == Qt.ItemDataRole.TextAlignmentRole and column != self.OUTPUT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        elif role == Qt.ItemDataRole.ToolTipRole:
            speed = f", {format_flops(stats.flops_per_s, '/s')}" if stats.flops_per_s else ""
            calls = f", called {stats.calls}× per forward" if stats.calls != 1 else ""
            return plain_tooltip(
                f"{stats.name or '(model)'} ({stats.type}) on {stats.device}{calls}\n"
                f"median {format_ms(stats.median_ms)} with its children, "
                f"{format_ms(stats.self_ms)} itself\n"
                f"{format_flops(stats.flops)}{speed}\n"
                f"outputs {format_bytes(stats.activation_bytes)} of new tensors; "
                f"parameters {format_bytes(stats.parameters_bytes)}"
            )
        return None

    def _tensor_data(self, row: Any, name: str, column: int, role: int):
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.NAME:
                return name
            if column == self.KIND:
                return KIND_LABELS.get(row.kind, row.kind)
            if column == self.SHAPE:
                return "×".join(map(str, row.shape)) if row.shape else "scalar"
            if column == self.DTYPE:
                return row.dtype
            if column == self.DEVICE:
                return row.device
            if column == self.SIZE:
                return f"(tied) {size_text(row)}" if row.shares_with else size_text(row)
            if column == self.GRAD:
                if row.kind != "parameter":
                    return ""
                trains = "yes" if row.requires_grad else "no"
                return f"{trains} · has .grad" if self._tree is not None and row.name in self._tree.with_grad else trains
        elif role == Qt.ItemDataRole.DecorationRole and column == self.DEVICE:
            # The colour goes in a swatch, not the text: light hues on white would be unreadable.
            return device_swatch(row.device)
        elif role == Qt.ItemDataRole.TextAlignmentRole and column == self.SIZE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        elif role == Qt.ItemDataRole.ToolTipRole:
            tip = f"{row.name} — {KIND_LABELS.get(row.kind, row.kind)}, {row.elements:,} elements on {row.device}"
            tip += _storage_tip(row)
            if row.shares_with:
                tip += f"\nshares its storage with {row.shares_with} (counted once in the totals)"
            return plain_tooltip(tip)
        return None

    def _module_data(self, node: _Node, column: int, role: int):
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.NAME:
                return node.name
            if column == self.KIND:  # (short: the Kind column stays narrow at 1024 px)
                return f"module ({node.count:,})"
            if column == self.DTYPE:
                return ", ".join(node.dtypes)
            if column == self.DEVICE:
                return ", ".join(node.devices)
            if column == self.SIZE:
                return format_bytes(node.bytes)
            return ""
        if role == Qt.ItemDataRole.ToolTipRole and column == self.NAME:
            return plain_tooltip(f"{module_path(node) or '(model)'} — {node.count:,} tensors, {format_bytes(node.bytes)}")
        if role == Qt.ItemDataRole.DecorationRole and column == self.DEVICE and len(node.devices) == 1:
            return device_swatch(next(iter(node.devices)))
        if role == Qt.ItemDataRole.ForegroundRole and column == self.DEVICE and len(node.devices) > 1:
            return QColor("#c62828")  # a module split across devices
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.SIZE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def module_path(node: Any) -> str:
    """The dotted path of a module node ("" for the model itself)."""
    parts = []
    while node is not None and node.parent is not None:
        parts.append(node.name)
        node = node.parent
    return ".".join(reversed(parts))


def _filter_text(node: Any) -> str:
    row = node.row
    if row is None:
        return module_path(node)
    return f"{row.name} {KIND_LABELS.get(row.kind, row.kind)} {row.kind} {row.dtype} {row.device}"


def filter_pattern(text: str) -> str:
    """Every word of ``text`` must appear (in any order, any case): ``cuda float16 weight``."""
    words = text.split()
    return "".join(f"(?=.*{QRegularExpression.escape(w)})" for w in words) + ".*" if words else ""


class PlacementFilter(QSortFilterProxyModel):
    """The filter field's view of the tree: rows whose name, kind, dtype or device match every
    word, with their modules (recursive filtering). Sorting is left to ``PlacementModel``,
    which orders sizes and times as numbers, in O(tensors)."""

    def __init__(self, source: PlacementModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSourceModel(source)
        self.setRecursiveFilteringEnabled(True)
        self.setFilterRole(FILTER_ROLE)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def source(self) -> PlacementModel:
        return self.sourceModel()  # type: ignore[return-value]

    def set_filter_text(self, text: str) -> None:
        expression = QRegularExpression(filter_pattern(text), QRegularExpression.PatternOption.CaseInsensitiveOption)
        self.setFilterRegularExpression(expression)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.source().sort(column, order)

    # What tests and the panel read through the view's model, passed on to the source.
    @property
    def attribution(self) -> Any:
        return self.source().attribution

    def tensor_count(self) -> int:
        return self.source().tensor_count()

    def find(self, name: str) -> QModelIndex:
        return self.mapFromSource(self.source().find(name))

    def row_at(self, index: QModelIndex) -> Any:
        return self.source().row_at(self.mapToSource(index))


#: The columns' order on screen (the model's own order stays, for code and tests).
VISUAL_ORDER = (PlacementModel.NAME, PlacementModel.SIZE, PlacementModel.DEVICE, PlacementModel.DTYPE,
                PlacementModel.SHAPE, PlacementModel.KIND, PlacementModel.GRAD)  # fmt: skip


class ParametersPanel(QWidget):
    """Totals per device, the placement findings, a filter field, and the tree of tensors."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.totals = QLabel("Loading the model…", self)
        self.totals.setObjectName("parameterTotals")
        self.totals.setWordWrap(True)
        self.totals.setTextFormat(Qt.TextFormat.RichText)

        self.warnings = QLabel(self)
        self.warnings.setObjectName("placementWarnings")
        self.warnings.setWordWrap(True)
        self.warnings.setTextFormat(Qt.TextFormat.RichText)
        self.warnings.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.warnings.setStyleSheet(
            "QLabel#placementWarnings { background: #fff4e5; color: #663c00; "
            "border: 1px solid #ffb74d; border-radius: 4px; padding: 6px; }"
        )
        self.warnings.setVisible(False)

        self.filterEdit = QLineEdit(self)
        self.filterEdit.setObjectName("parameterFilterEdit")
        self.filterEdit.setClearButtonEnabled(True)
        self.filterEdit.setPlaceholderText("Filter: name, device, dtype or kind (e.g. cuda float16 weight)")
        self.filterEdit.setToolTip("Rows whose full name, kind, dtype or device contain every word; empty shows all")
        self.filterEdit.textChanged.connect(self.set_filter)

        #: The move a "Copy the .to() line" writes: () -> (device, dtype or None). The window
        #: points it at the action bar's target.
        self.move_target: Any = lambda: ("cpu", None)

        self.model = PlacementModel(self)
        self.proxy = PlacementFilter(self.model, self)
        self.view = QTreeView(self)
        self.view.setObjectName("parameterView")
        self.view.setModel(self.proxy)
        self.view.setUniformRowHeights(True)  # lets the view skip measuring 100k rows
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # Names elide in the middle ("in_pro…weight": weight and bias stay apart when
        # narrow), the other columns at their end.
        self.view.setItemDelegateForColumn(PlacementModel.NAME, _MiddleElided(self.view))
        self.view.setIndentation(14)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        header = self.view.header()
        header.setStretchLastSection(False)
        # Fixed widths: ResizeToContents would measure every row of a big model. The Name
        # column takes what is left (``_fit_name_column``), never less than NAME_MIN_WIDTH.
        for column, width in enumerate((NAME_MIN_WIDTH, 126, 84, 72, 76, 104, 40, 80, 90, 110, 100)):
            header.resizeSection(column, width)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # Shown in the order a reader scans (where and how big first); on a narrow screen
        # the columns that scroll out of sight are Kind and Grad, which the row's tooltip also says.
        for visual, column in enumerate(VISUAL_ORDER):
            header.moveSection(header.visualIndex(column), visual)
        header.setSortIndicatorClearable(True)  # a third click goes back to the model's order
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSortingEnabled(True)  # the model's own order first: a header click sorts
        for column in PlacementModel.MODULE_COLUMNS:  # until a per-module run fills them
            self.view.setColumnHidden(column, True)
        self.view.viewport().installEventFilter(self)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.totals)
        layout.addWidget(self.warnings)
        layout.addWidget(self.filterEdit)
        layout.addWidget(self.view, 1)

    def set_placement(self, placement: Any) -> None:
        rebuilt = self.model.set_placement(placement)
        self.fit_columns(placement)
        if rebuilt:
            self._expand()
            self._show_module_columns(False)
        self.totals.setText(totals_html(placement))
        self._show_warnings(placement.warnings)

    def set_attribution(self, attribution: Any) -> None:
        """Fill the Time, % of forward, Output shape and FLOPs columns, and let them sort."""
        self.model.set_attribution(attribution)
        self._expand()
        self._show_module_columns(True)

    def set_filter(self, text: str) -> None:
        self.proxy.set_filter_text(text)
        if not text.split():
            self._expand()
        elif self.model.tensor_count() <= EXPAND_ALL_LIMIT:
            self.view.expandAll()  # the matches, wherever they are
        else:
            self._expand_first_matches()

    def _expand_first_matches(self, budget: int = EXPAND_ALL_LIMIT) -> None:
        """Open the modules holding the first ``budget`` matching rows (depth first): expanding
        every module of a 10,000-tensor model takes about a second."""
        proxy, shown = self.proxy, 0
        stack = [QModelIndex()]
        while stack and shown < budget:
            parent = stack.pop()
            rows = proxy.rowCount(parent)
            if parent.isValid():
                self.view.setExpanded(parent, True)
            shown += rows
            stack.extend(proxy.index(r, 0, parent) for r in reversed(range(rows)) if proxy.hasChildren(proxy.index(r, 0, parent)))

    def _expand(self) -> None:
        if self.model.tensor_count() <= EXPAND_ALL_LIMIT:
            self.view.expandAll()
        else:
            self.view.collapseAll()
            self.view.expandToDepth(0)

    def _show_module_columns(self, shown: bool) -> None:
        for column in PlacementModel.MODULE_COLUMNS:
            self.view.setColumnHidden(column, not shown)
        self._fit_name_column()

    def fit_columns(self, placement: Any) -> None:
        """Size Size, Device, Dtype, Shape, Kind and Grad to what they show (never less than
        their title), so Name gets the rest: at 1024 px every column is in view.

        Measured on a few widest candidates, not every row: ResizeToContents would ask the
        model for every cell of a 10,000-tensor model.
        """
        m = PlacementModel
        cell = self.view.fontMetrics()
        title = self.view.header().fontMetrics()
        margin = 2 * (self.view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.view) + 1) + 6
        rows = placement.tensors
        shapes = ["×".join(map(str, s)) if s else "scalar" for s in _widest_shapes({r.shape for r in rows})]
        kinds = {KIND_LABELS.get(kind, kind) for kind in {r.kind for r in rows}}
        texts = {
            m.SIZE: ["888.8 MiB"] + (["(tied) 888.8 MiB"] if any(r.shares_with for r in rows) else []),
            m.DEVICE: [", ".join(placement.devices) or "cpu"],
            m.DTYPE: [", ".join(placement.totals.by_dtype) or "float32"],
            m.SHAPE: shapes,
            m.KIND: [*kinds, f"module ({self.model.largest_module():,})"],
            m.GRAD: ["yes · has .grad" if self.model.has_grads() else "yes"],
        }
        header = self.view.header()
        for column, candidates in texts.items():
            icon = 16 if column == m.DEVICE else 0  # the device's colour swatch
            width = max(cell.horizontalAdvance(t) for t in candidates) + icon + margin
            heading = title.horizontalAdvance(m.HEADERS[column]) + margin + 6  # + most of a sort arrow
            header.resizeSection(column, min(COLUMN_MAX_WIDTH, max(width, heading)))
        self._fit_name_column()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.view.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_name_column()
        return False

    def _fit_name_column(self) -> None:
        """The Name column takes the width the other columns leave; below NAME_MIN_WIDTH the
        view scrolls sideways instead."""
        header = self.view.header()
        others = sum(header.sectionSize(c) for c in range(1, header.count()) if not header.isSectionHidden(c))
        header.resizeSection(PlacementModel.NAME, max(NAME_MIN_WIDTH, self.view.viewport().width() - others))

    # ----- context menu

    def _context_menu(self, point: QPoint) -> None:
        menu = self.context_menu(self.view.indexAt(point))
        menu.exec(self.view.viewport().mapToGlobal(point))

    def context_menu(self, index: QModelIndex) -> QMenu:
        """Copy the name / the ``.to()`` line of the row at ``index``; expand or collapse all."""
        menu = QMenu(self.view)
        menu.setObjectName("parameterContextMenu")
        name, module = self.names_at(index)
        if index.isValid():
            copy_name = menu.addAction(f"Copy name: {_short(name or '(model)')}")
            copy_name.setObjectName("copyNameAction")
            copy_name.triggered.connect(lambda: QGuiApplication.clipboard().setText(name))
            line = self.move_line(module)
            copy_move = menu.addAction(f"Copy the .to() line for {_short(module or 'the model')}")
            copy_move.setObjectName("copyMoveLineAction")
            copy_move.setToolTip(line)
            # The target as it is when chosen (the action bar may change while the menu is open).
            copy_move.triggered.connect(lambda: QGuiApplication.clipboard().setText(self.move_line(module)))
            menu.addSeparator()
        expand = menu.addAction("Expand all")
        expand.setObjectName("expandAllAction")
        expand.triggered.connect(self.view.expandAll)
        collapse = menu.addAction("Collapse all")
        collapse.setObjectName("collapseAllAction")
        collapse.triggered.connect(self.view.collapseAll)
        return menu

    def names_at(self, index: QModelIndex) -> tuple[str, str]:
        """(full name of the row, dotted path of its module) at a view index."""
        if not index.isValid():
            return "", ""
        node = self.proxy.mapToSource(index.siblingAtColumn(0)).internalPointer()
        if node.row is None:
            path = module_path(node)
            return path, path
        return node.row.name, _tree_parent(node.row)

    def move_line(self, module: str) -> str:
        from inspector.core.report.snippets import module_move_line

        device, dtype = self.move_target()
        return module_move_line(module, device, dtype)

    def _show_warnings(self, findings) -> None:
        if not findings:
            self.warnings.setVisible(False)
            self.warnings.clear()
            return
        items = "".join(
            f"<li>{html.escape(f.message)}"
            + (f"<br>Fix: <code>{html.escape(f.fix)}</code>" if getattr(f, "fix", "") else "")
            + "</li>"
            for f in findings
        )
        self.warnings.setText(f"<b>⚠ Placement warnings</b><ul style='margin:0'>{items}</ul>")
        self.warnings.setVisible(True)


class _MiddleElided(QStyledItemDelegate):
    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


def _widest_shapes(shapes: Any) -> list[Any]:
    """The distinct shapes whose text is longest (digits and dimensions), without their text."""
    lengths = {shape: sum(len(str(d)) + 1 for d in shape) if shape else 6 for shape in shapes}
    longest = max(lengths.values(), default=0)
    return [shape for shape, length in lengths.items() if length == longest][:3]


def _short(text: str, limit: int = 48) -> str:
    """A menu label keeps both ends of a long name."""
    return text if len(text) <= limit else f"{text[: limit // 2 - 1]}…{text[-(limit // 2):]}"


def _shapes_text(shapes: Any) -> str:
    return ", ".join("×".join(map(str, s)) or "scalar" for s in shapes) or "—"


def _storage_tip(row: Any) -> str:
    storage = getattr(row, "storage", "dense")
    if storage == "meta":
        return f"\non the meta device: nothing allocated; {format_bytes(row.dense_bytes)} once materialised"
    if storage == "quantized":
        return f"\nquantized: {format_bytes(row.bytes)} of integer storage"
    if storage != "dense":
        return (f"\n{storage.replace('_', ' ')}: {format_bytes(row.bytes)} of indices and values "
                f"({format_bytes(row.dense_bytes)} if dense)")  # fmt: skip
    return ""


def totals_html(placement: Any) -> str:
    t = placement.totals
    devices = " &nbsp; ".join(
        f"<span style='color:{device_colour(d).name()}'>■</span> <b>{html.escape(d)}</b> "
        f"{html.escape(device_bytes_text(t, d))}"
        for d in t.by_device
    )
    dtypes = ", ".join(f"{html.escape(d)} {format_bytes(b)}" for d, b in t.by_dtype.items())
    return (
        f"<b>{t.count:,}</b> tensors · {t.elements:,} elements · <b>{format_bytes(t.bytes)}</b>"
        f"{html.escape(meta_text(t))}"
        f" &nbsp;|&nbsp; {devices or 'no tensors'}" + (f" &nbsp;|&nbsp; {dtypes}" if dtypes else "")
    )
