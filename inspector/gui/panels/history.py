"""The history: every load, move, measurement and export, with its outcome.

The column titles follow the window's language (context "HistoryView"); a row stays in the
language it was written in, as a log does.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QT_TRANSLATE_NOOP, QModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from inspector.core.units import format_gbps, format_seconds
from inspector.gui.i18n import Retranslates
from inspector.gui.panels.table_model import HeaderedTableModel
from inspector.gui.plain_text import shown, shown_tip


@dataclass(frozen=True)
class HistoryEntry:
    time: _dt.datetime
    call: str
    seconds: float | None
    gbps: float | None
    result: str
    ok: bool = True
    #: Longer text for the tooltip (a failure's detail, a move's memory figures).
    detail: str = ""


class History(Protocol):
    """What a window part writes its outcomes to (the History tab is one)."""

    def record(
        self, call: str, seconds: float | None, gbps: float | None, result: str, *, ok: bool = True, detail: str = ""
    ) -> None: ...


class HistoryModel(HeaderedTableModel):
    HEADERS = (
        QT_TRANSLATE_NOOP("HistoryView", "Time"),
        QT_TRANSLATE_NOOP("HistoryView", "Call"),
        QT_TRANSLATE_NOOP("HistoryView", "Seconds"),
        "GB/s",  # a unit: the same in every language
        QT_TRANSLATE_NOOP("HistoryView", "Result"),
    )
    HEADER_CONTEXT = "HistoryView"
    TIME, CALL, SECONDS, GBPS, RESULT = range(5)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._entries: list[HistoryEntry] = []

    def append(self, entry: HistoryEntry) -> None:
        row = len(self._entries)
        self.beginInsertRows(QModelIndex(), row, row)
        self._entries.append(entry)
        self.endInsertRows()

    def entries(self) -> list[HistoryEntry]:
        return list(self._entries)

    def items(self) -> list:
        return self._entries

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        entry = self._entries[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.TIME:
                return entry.time.strftime("%H:%M:%S")
            if column == self.CALL:  # a spec or a name from a file: escaped, bounded (plain_text)
                return shown(entry.call, _CELL_LIMIT)
            if column == self.SECONDS:
                return format_seconds(entry.seconds) if entry.seconds else "—"
            if column == self.GBPS:
                return _gbps_text(entry.gbps)
            if column == self.RESULT:
                return shown(entry.result, _CELL_LIMIT)
        elif role == Qt.ItemDataRole.ToolTipRole:
            return shown_tip("\n\n".join(t for t in (entry.call, entry.result, entry.detail) if t))
        elif role == Qt.ItemDataRole.ForegroundRole and column == self.RESULT and not entry.ok:
            return QColor("#c62828")
        elif role == Qt.ItemDataRole.TextAlignmentRole and column in (self.SECONDS, self.GBPS):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


#: The most characters a Call or Result cell holds (the view elides what does not fit).
_CELL_LIMIT = 400


def _gbps_text(gbps: float | None) -> str:
    return format_gbps(gbps)  # the reports' words: "< 0.01", "—"


class HistoryView(Retranslates, QTableView):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("historyView")
        self.history = HistoryModel(self)
        self.setModel(self.history)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(round(self.fontMetrics().lineSpacing() * 1.6))
        header = self.horizontalHeader()
        for column, width in ((HistoryModel.TIME, 66), (HistoryModel.SECONDS, 84), (HistoryModel.GBPS, 56)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(column, width)
        # Call and Result share the width: at 1024 pixels a fixed 290-pixel Call left the
        # Result column (what happened) a few pixels wide.
        header.setSectionResizeMode(HistoryModel.CALL, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(HistoryModel.RESULT, QHeaderView.ResizeMode.Stretch)
        self.history.rowsInserted.connect(lambda *_: self.scrollToBottom())

    def retranslate(self) -> None:
        self.history.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(HistoryModel.HEADERS) - 1)

    def add(self, entry: HistoryEntry) -> None:
        self.history.append(entry)

    def record(
        self, call: str, seconds: float | None, gbps: float | None, result: str, *, ok: bool = True, detail: str = ""
    ) -> None:
        """A row for what just happened, stamped with the time now."""
        self.add(HistoryEntry(_dt.datetime.now(), call, seconds, gbps, result, ok, detail.strip()))
