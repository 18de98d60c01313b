"""The history: every load, move, measurement and export, with its outcome.

Everything it shows follows the window's language: the column titles (context "HistoryView")
and the rows. A row keeps what it means, not only the words it was first said in: a part
that records one gives, for its call, result and detail, either a text that is the same in
every language (code such as ``model.to('cpu')``, a number) or the function that says it
(``lambda: fill(translate("OutcomeWords", "failed: %1"), core_text(message))``: the message
ids and their arguments). On a change of language every row is said again from those, so a
row made in English reads in Chinese after the switch, and in English again after the next.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, replace
from typing import Callable, Union

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from inspector.core.units import format_gbps, format_seconds
from inspector.gui.common.i18n import Retranslates
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.table_model import HeaderedTableModel
from inspector.gui.common.plain_text import shown, shown_tip


#: A row's text: the same in every language (``str``), or the function that says it in the
#: language installed when it is called.
Said = Union[str, Callable[[], str]]


def say(text: Said) -> str:
    """``text`` in the language now installed."""
    return text() if callable(text) else text


@dataclass(frozen=True)
class RowMeaning:
    """What a row says, as it was recorded: each part a text or the function that says it."""

    call: Said
    result: Said
    detail: Said = ""


@dataclass(frozen=True)
class HistoryEntry:
    """One row as it reads in the language now installed (``said_again`` for another)."""

    time: _dt.datetime
    call: str
    seconds: float | None
    gbps: float | None
    result: str
    ok: bool = True
    #: Longer text for the tooltip (a failure's detail, a move's memory figures).
    detail: str = ""
    #: What the row means (None: its texts are the same in every language).
    meaning: RowMeaning | None = None

    @classmethod
    def of(
        cls, time: _dt.datetime, meaning: RowMeaning, seconds: float | None, gbps: float | None, ok: bool = True
    ) -> HistoryEntry:
        """The row that says ``meaning`` in the language now installed."""
        entry = cls(time, "", seconds, gbps, "", ok, "", meaning)
        return entry.said_again()

    def said_again(self) -> HistoryEntry:
        """This row in the language now installed."""
        if self.meaning is None:
            return self
        m = self.meaning
        return replace(self, call=say(m.call), result=say(m.result), detail=_trimmed(say(m.detail)))


def _trimmed(text: str) -> str:
    """``text`` without blank lines around it; its first line keeps its indentation (a quote of
    PyTorch's own message is indented by two spaces, as the lessons show it)."""
    lines = text.rstrip().splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(lines)


class HistoryModel(HeaderedTableModel):
    HEADERS = (
        QT_TRANSLATE_NOOP("HistoryView", "Time"),
        QT_TRANSLATE_NOOP("HistoryView", "Call"),
        # No unit in the title: each cell says its own ("1.500 ms", "36.2 µs"); "Seconds" (秒)
        # stood over cells in ms and µs (issue 45 item 7).
        QT_TRANSLATE_NOOP("HistoryView", "Duration"),
        "GB/s",  # a unit: the same in every language
        QT_TRANSLATE_NOOP("HistoryView", "Result"),
    )
    HEADER_CONTEXT = "HistoryView"
    TIME, CALL, SECONDS, GBPS, RESULT = range(5)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._entries: list[HistoryEntry] = []

    def append(self, entry: HistoryEntry) -> None:
        row = len(self._entries)
        self.beginInsertRows(QModelIndex(), row, row)
        self._entries.append(entry)
        self.endInsertRows()

    def entries(self) -> list[HistoryEntry]:
        return list(self._entries)

    def said_again(self) -> None:
        """Every row in the language now installed (the titles too)."""
        self._entries = [entry.said_again() for entry in self._entries]
        self.retranslate()

    def items(self) -> list[HistoryEntry]:
        return self._entries

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
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
    def __init__(self, parent: QWidget | None = None) -> None:
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
        self.history.said_again()

    def add(self, entry: HistoryEntry) -> None:
        self.history.append(entry)

    def record(
        self, call: Said, seconds: float | None, gbps: float | None, result: Said, *, ok: bool = True, detail: Said = ""
    ) -> None:
        """A row for what just happened, stamped with the time now: each text as it is, or
        the function that says it (said again on every change of language)."""
        meaning = RowMeaning(call, result, detail)
        self.add(HistoryEntry.of(_dt.datetime.now(), meaning, seconds, gbps, ok))

    def unsaved_results(self) -> int:
        """How many rows of work done (a measurement, a fit, a move, a training step) came after
        the last report written: what a quit would drop (``shell.close_guard``). Loads, reports
        read or written, and failures are no results."""
        count = 0
        for entry in self.history.entries():
            if entry.ok and entry.call.startswith(_SAVED):
                count = 0
            elif entry.ok and not entry.call.startswith(_NOT_RESULTS):
                count += 1
        return count


#: The calls of rows that are no results of their own (their code, the same in every language).
_SAVED = "save_report("
_NOT_RESULTS = ("load_model(", "load_report(", _SAVED)
