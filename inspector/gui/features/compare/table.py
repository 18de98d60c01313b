"""The comparison's sortable tables: rows of ``Cell``s in a ``HeaderedTableModel`` behind a
``QSortFilterProxyModel`` that sorts numbers as numbers, shown in a ``QTableView``.

A column is named by its header key (what ``cell`` and the tests ask for); the view shows
``header_text(key)``, the key in the window's language.

The columns fit the table's width (``fit_widths``): at 1024x700 the Compare tab is about
580 px wide, and the verdict sat past the right edge, behind a horizontal scrollbar that
also took a row's height (issue 35). The widest texts give way first, shortened with "…"
(the cell's tooltip has them whole); numbers are never shortened. Columns a side-by-side
table folds into its cells' tooltips (``folded``) are hidden until asked for (right-click a
column title)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, QSortFilterProxyModel, Qt
from PySide6.QtGui import QFont, QHelpEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMenu,
    QStyledItemDelegate,
    QStyleOptionHeader,
    QStyleOptionViewItem,
    QTableView,
    QToolTip,
    QWidget,
)

from inspector.gui.common.i18n import translate
from inspector.gui.common.table_model import HeaderedTableModel
from inspector.gui.common.plain_text import menu_text, shown, shown_tip
from inspector.gui.features.compare.cell import Cell

# The role the proxy sorts by: a cell's number (missing values last), else its text.
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
# The role of a cell's whole text and its tooltip, for a tooltip where the cell is shortened.
WHOLE_TIP_ROLE = Qt.ItemDataRole.UserRole + 2
# No column of text is shortened below this (nor any title cut, nor any number); the last
# one (the verdict, side by side) not below ``_LAST_MIN_PX``.
_COLUMN_MIN_PX = 64
_LAST_MIN_PX = 120
# Pixels a title gets beside its text, at the least.
_TITLE_MARGIN_PX = 10
_BOLD = QFont()
_BOLD.setBold(True)


# The most characters a cell holds (the view elides what does not fit).
_CELL_LIMIT = 400


class CellModel(HeaderedTableModel):
    """Rows of ``Cell``s under headers that change with each comparison."""

    def __init__(self, parent: QWidget | None = None, header_text: Callable[[str], str] = str) -> None:
        super().__init__(parent)
        self.HEADERS: tuple[str, ...] = ()
        self.rows: list[list[Cell]] = []
        self.header_text = header_text

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.HEADERS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.header_text(self.HEADERS[section])
        if role == Qt.ItemDataRole.ToolTipRole:  # a title may be shortened to fit
            hint = translate("ComparisonView", "Right-click a column title to show or hide columns")
            return self.header_text(self.HEADERS[section]) + "\n" + hint
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
        if role == WHOLE_TIP_ROLE:
            return shown_tip(f"{cell.text}\n{cell.tooltip}" if cell.tooltip else cell.text)
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


def two_lines(title: str) -> str:
    """A column title on two lines: its unit under it ("A median" over "(ms)"), else its last
    word under the rest ("95 %" over "CI"); a title of one word, or "B ÷ A", stays one line."""
    head, paren, unit = title.rpartition(" (")
    if paren and head:
        return f"{head}\n({unit}"
    head, space, tail = title.rpartition(" ")
    return f"{head}\n{tail}" if space and len(head) > 1 and len(tail) > 1 else title


def fit_widths(wanted: Sequence[int], floors: Sequence[int], room: int) -> list[int]:
    """Column widths that fill ``room`` pixels: each column as wide as it ``wanted`` where they
    all fit; else the widest are cut to one width, as wide as the room allows, none below
    its floor. The last column takes what is left over (it stretches)."""
    def cut(level: int) -> list[int]:
        return [max(floor, min(want, level)) for want, floor in zip(wanted, floors)]

    if not wanted:
        return []
    low, high = 0, max(wanted)
    while low < high:  # the widest level at which the columns still fit
        level = (low + high + 1) // 2
        if sum(cut(level)) <= room:
            low = level
        else:
            high = level - 1
    widths = cut(low)
    widths[-1] += max(0, room - sum(widths))
    return widths


@dataclass(frozen=True)
class _Sizes:
    """What one column's texts need, in pixels: its widest cell (``content``), its title on
    one line and on two (``title``, ``broken``; without a sort arrow), a sort arrow beside
    the title (``arrow``); and whether its cells are numbers (never shortened)."""

    content: int
    title: int
    broken: int
    arrow: int
    numeric: bool


class _WholeTextTips(QStyledItemDelegate):
    """A cell whose text is shortened to fit its column has the whole text in its tooltip."""

    def helpEvent(self, event: QHelpEvent, view: QAbstractItemView, option: QStyleOptionViewItem,
                  index: QModelIndex | QPersistentModelIndex) -> bool:  # fmt: skip
        if event is not None and event.type() == QEvent.Type.ToolTip and index.isValid():
            rect = view.visualRect(index)
            unwrapped = QStyleOptionViewItem(option)  # (a table wraps words: its one line's width)
            unwrapped.rect = QRect(0, 0, 1 << 20, rect.height())
            if self.sizeHint(unwrapped, index).width() > rect.width():
                QToolTip.showText(event.globalPos(), str(index.data(WHOLE_TIP_ROLE) or ""), view.viewport(), rect)
                return True
        return super().helpEvent(event, view, option, index)


class _Header(QHeaderView):
    """The tables' column titles; a column too narrow for its title on one line shows it on
    two (``two_lines``), the header two lines tall. The model's titles stay one line."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.broken: frozenset[int] = frozenset()  # the columns whose titles show on two lines

    def break_titles(self, columns: frozenset[int]) -> None:
        if columns != self.broken:
            self.broken = columns
            self.headerDataChanged(Qt.Orientation.Horizontal, 0, max(0, self.count() - 1))  # (its height again)
            self.viewport().update()

    def initStyleOptionForIndex(self, option: QStyleOptionHeader, logicalIndex: int) -> None:  # noqa: N802, N803 (Qt's names)
        super().initStyleOptionForIndex(option, logicalIndex)
        if logicalIndex in self.broken:
            option.text = two_lines(option.text)

    def sectionSizeFromContents(self, logicalIndex: int) -> QSize:  # noqa: N802, N803 (Qt's names)
        size = super().sectionSizeFromContents(logicalIndex)
        if logicalIndex in self.broken:
            size.setHeight(size.height() + self.fontMetrics().lineSpacing())
        return size


class ComparisonTable(QTableView):
    """A sortable table of cells: ``CellModel`` behind a ``_SortProxy``, its columns fitted to
    its width. ``folded(headers)``: the columns hidden until the user shows them (their
    figures are in other cells' tooltips)."""

    def __init__(self, name: str, parent: QWidget | None = None, header_text: Callable[[str], str] = str,
                 folded: Callable[[Sequence[str]], frozenset[str]] = lambda headers: frozenset()) -> None:  # fmt: skip
        super().__init__(parent)
        self.setObjectName(name)
        self.cells = CellModel(self, header_text)
        self.proxy = _SortProxy(self)
        self.proxy.setSourceModel(self.cells)
        self._header = _Header(self)
        self.setHorizontalHeader(self._header)
        self.setModel(self.proxy)
        self.verticalHeader().setVisible(False)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.setItemDelegate(_WholeTextTips(self))
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # fitted by fit_columns
        # Widths from the rows on screen and the first 100 (Qt reads 1,000 by default, several
        # times over: a second of the GUI thread for 4,000 rows).
        header.setResizeContentsPrecision(100)
        header.setStretchLastSection(False)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._column_menu)
        # Rows stay in the order the comparison gives them until the user clicks a header.
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.setSortingEnabled(True)
        header.sortIndicatorChanged.connect(lambda *_: self.fit_columns())  # (the arrow takes room)
        self._folded = folded
        # The user's choices, by column key: shown (True) or hidden (False).
        self._chosen: dict[str, bool] = {}
        # Per column, what its texts need: measured once per set of rows.
        self._measured: dict[int, _Sizes] = {}
        self._fitted_for = -1  # the viewport width the columns were fitted to

    def set_rows(self, headers: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
        folded = self._folded(headers)
        if folded:  # side by side: what every row says alike is said once, in the Device tooltips
            same = uniform_columns(headers, rows)
            rows = with_said_once(headers, rows, same, self.cells.header_text)
            folded = folded | same
        self.cells.set_rows(headers, rows)
        for column, key in enumerate(headers):
            self.setColumnHidden(column, not self._chosen.get(key, key not in folded))
        self._measured.clear()
        self.fit_columns()

    def show_column(self, header: str, shown: bool = True) -> None:
        """Show or hide the column ``header`` (the user's choice, kept for later comparisons)."""
        self._chosen[header] = bool(shown)
        self.setColumnHidden(self.headers().index(header), not shown)
        self.fit_columns()

    def shown_headers(self) -> list[str]:
        """The keys of the columns on screen, in order."""
        return [key for column, key in enumerate(self.headers()) if not self.isColumnHidden(column)]

    def _column_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        for column, key in enumerate(self.headers()):
            action = menu.addAction(menu_text(self.cells.header_text(key)))
            action.setCheckable(True)
            action.setChecked(not self.isColumnHidden(column))
            action.setEnabled(column > 0)  # (a table keeps its first column)
            action.toggled.connect(lambda on, key=key: self.show_column(key, on))
        menu.exec(self.horizontalHeader().mapToGlobal(pos))
        menu.deleteLater()

    def fit_columns(self) -> None:
        """Fit the columns on screen to the viewport's width, in steps as room runs out: each
        column whole with room for a sort arrow; without that room (but the sorted column's);
        titles on two lines; then the widest texts shortened, none below its floor (``_Sizes``)."""
        header = self._header
        columns = [c for c in range(self.cells.columnCount()) if not header.isSectionHidden(c)]
        room = self.viewport().width()
        self._fitted_for = room
        if not columns or room <= 0:
            return
        self._measure([c for c in columns if c not in self._measured])
        arrow = header.sortIndicatorSection()
        sizes = [self._measured[c] for c in columns]
        generous = [max(m.content, m.title + m.arrow) for m in sizes]
        tight = [max(m.content, m.title + (m.arrow if c == arrow else 0)) for c, m in zip(columns, sizes)]
        broken = [max(m.content, m.broken + (m.arrow if c == arrow else 0)) for c, m in zip(columns, sizes)]
        floors = [max(m.broken + (m.arrow if c == arrow else 0), m.content if m.numeric else min(m.content, _COLUMN_MIN_PX))
                  for c, m in zip(columns, sizes)]  # fmt: skip
        floors[-1] = max(floors[-1], min(broken[-1], _LAST_MIN_PX))
        if sum(generous) <= room:
            widths = fit_widths(generous, generous, room)
        elif sum(tight) <= room:
            widths = fit_widths(generous, tight, room)
        elif sum(broken) <= room:
            widths = fit_widths(tight, broken, room)
        else:
            widths = fit_widths(broken, floors, room)
        titles = set()
        for column, width, one_line in zip(columns, widths, tight):
            header.resizeSection(column, width)
            if width < one_line and self._measured[column].broken < self._measured[column].title:
                titles.add(column)
        header.break_titles(frozenset(titles))

    def _measure(self, columns: list[int]) -> None:
        """Measure ``columns``: their texts' widths, their titles' on one line and on two, the
        room a sort arrow takes beside a title."""
        if not columns:
            return
        header = self.horizontalHeader()
        metrics = header.fontMetrics()

        def advance(text: str) -> int:
            return max(metrics.horizontalAdvance(line) for line in text.split("\n"))

        with_arrow = {c: header.sectionSizeHint(c) for c in columns}
        arrows = header.isSortIndicatorShown()
        header.setSortIndicatorShown(False)
        plain = {c: header.sectionSizeHint(c) for c in columns}
        header.setSortIndicatorShown(arrows)
        rows = self.cells.rows
        for c in columns:
            title = self.cells.header_text(self.cells.HEADERS[c])
            margin = plain[c] - advance(title)  # (the title as the header measured it: one line)
            margin = max(margin, _TITLE_MARGIN_PX)  # (some styles leave the text touching the lines)
            self._measured[c] = _Sizes(
                content=self.sizeHintForColumn(c), title=margin + advance(title), broken=margin + advance(two_lines(title)),
                arrow=with_arrow[c] - plain[c], numeric=bool(rows) and all(row[c].numeric for row in rows[:1000]),
            )  # fmt: skip

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.viewport().width() != self._fitted_for:
            self.fit_columns()
        return super().viewportEvent(event)

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


#: Columns a side-by-side table folds when every row says the same in them (a bench of one
#: mode and input on several devices): the tab is half the window since issue 45's layout, and
#: the verdict needs their room more than a repeated "forward" does.
_FOLDED_WHEN_UNIFORM = ("Dtype", "Mode", "Input")


def uniform_columns(headers: Sequence[str], rows: Sequence[Sequence[Cell]]) -> frozenset[str]:
    """The ``_FOLDED_WHEN_UNIFORM`` columns whose cells all say the same."""
    if not rows or "Device" not in headers:
        return frozenset()
    return frozenset(h for h in _FOLDED_WHEN_UNIFORM
                     if h in headers and len({row[headers.index(h)].text for row in rows}) == 1)  # fmt: skip


def with_said_once(headers: Sequence[str], rows: Sequence[Sequence[Cell]], same: frozenset[str],
                   header_text: Callable[[str], str] = str) -> list[list[Cell]]:
    """``rows`` whose Device cells' tooltips also say what the folded ``same`` columns hold
    ("Mode: forward", the column's title as shown)."""
    if not same:
        return [list(r) for r in rows]
    device = headers.index("Device")
    out = []
    for row in rows:
        said = "\n".join(f"{header_text(h)}: {row[headers.index(h)].text}" for h in headers if h in same)
        cell = row[device]
        cells = list(row)
        cells[device] = replace(cell, tooltip=f"{cell.tooltip}\n{said}" if cell.tooltip else said)
        out.append(cells)
    return out
