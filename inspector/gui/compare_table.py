"""The comparison's sortable tables: rows of ``Cell``s in a ``HeaderedTableModel`` behind a
``QSortFilterProxyModel`` that sorts numbers as numbers, shown in a ``QTableView``.

A column is named by its header key (what ``cell`` and the tests ask for); the view shows
``header_text(key)``, the key in the window's language."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from inspector.gui.panels.table_model import HeaderedTableModel
from inspector.gui.plain_text import shown, shown_tip

#: The role the proxy sorts by: a cell's number (missing values last), else its text.
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
_BOLD = QFont()
_BOLD.setBold(True)


@dataclass
class Cell:
    """One read-only cell: its text, what it sorts by, and how it looks."""

    text: str
    sort_value: float | str | None = None
    numeric: bool = False
    tooltip: str = ""
    foreground: QColor | None = None
    bold: bool = False

    def __post_init__(self) -> None:
        if self.sort_value is None:
            self.sort_value = math.inf if self.numeric else self.text


#: The most characters a cell holds (the view elides what does not fit).
_CELL_LIMIT = 400


class CellModel(HeaderedTableModel):
    """Rows of ``Cell``s under headers that change with each comparison."""

    def __init__(self, parent: QWidget | None = None, header_text: Callable[[str], str] = str) -> None:
        super().__init__(parent)
        self.HEADERS: tuple[str, ...] = ()
        self.rows: list[list[Cell]] = []
        self.header_text = header_text

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.header_text(self.HEADERS[section])
        return None

    def items(self) -> list[list[Cell]]:
        return self.rows

    def set_rows(self, headers: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
        self.beginResetModel()
        self.HEADERS = tuple(headers)
        self.rows = [list(r) for r in rows]
        self.endResetModel()

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        cell = self.rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:  # names and paths from report files (plain_text)
            return shown(cell.text, _CELL_LIMIT)
        if role == SORT_ROLE:
            return cell.sort_value
        if role == Qt.ItemDataRole.ToolTipRole:
            return shown_tip(cell.tooltip) if cell.tooltip else None
        if role == Qt.ItemDataRole.TextAlignmentRole and cell.numeric:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            return cell.foreground
        if role == Qt.ItemDataRole.FontRole and cell.bold:
            return _BOLD
        return None


class _SortProxy(QSortFilterProxyModel):
    """Sorts numbers as numbers and text as text (a column may hold a "—" among numbers)."""

    def lessThan(self, left: QModelIndex | QPersistentModelIndex, right: QModelIndex | QPersistentModelIndex) -> bool:
        mine, theirs = left.data(SORT_ROLE), right.data(SORT_ROLE)
        if isinstance(mine, (int, float)) and isinstance(theirs, (int, float)):
            return mine < theirs
        return str(mine) < str(theirs)


class ComparisonTable(QTableView):
    """A sortable table of cells: ``CellModel`` behind a ``_SortProxy``."""

    def __init__(self, name: str, parent: QWidget | None = None, header_text: Callable[[str], str] = str) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.cells = CellModel(self, header_text)
        self.proxy = _SortProxy(self)
        self.proxy.setSourceModel(self.cells)
        self.setModel(self.proxy)
        self.verticalHeader().setVisible(False)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # Widths from the rows on screen and the first 100 (Qt reads 1,000 by default, several
        # times over: a second of the GUI thread for 4,000 rows).
        self.horizontalHeader().setResizeContentsPrecision(100)
        self.horizontalHeader().setStretchLastSection(True)
        # Rows stay in the order the comparison gives them until the user clicks a header.
        self.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.setSortingEnabled(True)

    def set_rows(self, headers: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
        self.cells.set_rows(headers, rows)

    def headers(self) -> list[str]:
        return list(self.cells.HEADERS)

    def row_count(self) -> int:
        return self.proxy.rowCount()

    def rowCount(self) -> int:
        """The rows shown (the QTableWidget name, which callers of the old tables use)."""
        return self.row_count()

    def cell(self, row: int, header: str, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """What the view shows under ``header`` in ``row`` (in the current sort order)."""
        column = self.headers().index(header)  # ValueError: no such column
        return self.proxy.index(row, column).data(role)

    def sort_by(self, header: str, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sortByColumn(self.headers().index(header), order)
