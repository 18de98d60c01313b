"""The ranks of a torchrun report side by side: latency per rank, the slowest highlighted.

A report written under torchrun carries ``ranks`` (see ``inspector.core.remote.ranks``). When the
window opens one, a "Ranks" tab appears with a table (rank, host, device, median, p5–p95,
how much slower than the fastest rank, status), a bar per rank, and one line that names the
slowest rank and the spread across ranks. Failed ranks are listed with their error.

Integration: ``ReportFlow`` (``gui/features/report/flow.py``) makes one call when a report is opened::

    show_ranks(self.window.tabs, report)  # adds/updates the tab; removes it for a report without ranks

Its texts follow the window's language: a change of language fills the table and the
summary again from the report kept (``retranslate``).
"""

from __future__ import annotations

from typing import Any, Sequence

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QTabWidget, QVBoxLayout, QWidget

from inspector.core.remote import ranks_summary
from inspector.core.report import RankEntry, TimingReport
from inspector.core.units import format_ms
from inspector.gui.common.i18n import Retranslates, fill, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

#: The table's column titles (translated where shown).
HEADERS = (
    QT_TRANSLATE_NOOP("RanksView", "Rank"),
    QT_TRANSLATE_NOOP("RanksView", "Host"),
    QT_TRANSLATE_NOOP("RanksView", "Device"),
    QT_TRANSLATE_NOOP("RanksView", "Median (ms)"),
    QT_TRANSLATE_NOOP("RanksView", "p5–p95 (ms)"),
    QT_TRANSLATE_NOOP("RanksView", "vs fastest"),
    QT_TRANSLATE_NOOP("RanksView", "Status"),
)
_SLOWEST_BG = QColor("#ffebee")
_FAILED = QColor("#c62828")
_BAR = QColor("#1565c0")
_SLOWEST_BAR = QColor("#c62828")


def _ms(value: object) -> str:
    return format_ms(value if isinstance(value, (int, float)) else None, unit=False)


def _item(text: str, *, numeric: bool = False) -> QTableWidgetItem:
    # Plain text only: host names and errors come from a file (never rich text).
    cell = QTableWidgetItem(text)
    cell.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    if numeric:
        cell.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return cell


def _text(value: object) -> str:
    text = str(value) if value is not None else "?"
    return "".join(c if c.isprintable() else "�" for c in text)


class RanksView(Retranslates, QWidget):
    """Ranks of one report. ``set_report(report)``; ``summary`` holds the figures shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ranksView")
        self.summary: dict[str, Any] = {}
        self._ranks: list[RankEntry] = []
        self.summaryLabel = QLabel(self)
        self.summaryLabel.setObjectName("ranksSummary")
        self.summaryLabel.setTextFormat(Qt.TextFormat.PlainText)
        self.summaryLabel.setWordWrap(True)
        self.table = QTableWidget(0, len(HEADERS), self)
        self.table.setObjectName("ranksTable")
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.plot = pg.PlotWidget(self)
        self.plot.setObjectName("ranksPlot")
        self.plot.setBackground("w")
        self.plot.showGrid(y=True, alpha=0.3)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.setMinimumHeight(140)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summaryLabel)
        layout.addWidget(self.table, 3)
        layout.addWidget(self.plot, 2)
        self.retranslate()

    def retranslate(self) -> None:
        """The titles, the table and the summary again, in the language now installed."""
        self.table.setHorizontalHeaderLabels([translate("RanksView", title) for title in HEADERS])
        self.plot.setLabel("left", translate("RanksView", "median (ms)"))
        self.plot.setLabel("bottom", translate("RanksView", "rank"))
        tabs = self.parentWidget()
        while tabs is not None and not isinstance(tabs, QTabWidget):
            tabs = tabs.parentWidget()
        if tabs is not None and tabs.indexOf(self) >= 0:
            tabs.setTabText(tabs.indexOf(self), translate("RanksView", "Ranks"))
        if self._ranks:
            self._fill(self._ranks)
            self.summaryLabel.setText(self.summary_text(self._ranks))

    def set_report(self, report: TimingReport) -> None:
        """Show ``report``'s ranks."""
        ranks = list(report.ranks)
        self._ranks = ranks
        self.summary = ranks_summary(ranks)
        self._fill(ranks)
        self._draw(ranks)
        self.summaryLabel.setText(self.summary_text(ranks))

    def summary_text(self, ranks: Sequence[RankEntry]) -> str:
        s = self.summary
        count, hosts = len(ranks), len({r.host for r in ranks})
        # Singular and plural are texts of their own: English has no catalogue to give Qt's
        # plural forms ("1 ranks on 1 hosts" would read wrong). One rank is on one host.
        if count == 1:
            parts = [translate("RanksView", "%n rank on 1 host", None, count)]
        elif hosts == 1:
            parts = [translate("RanksView", "%n ranks on 1 host", None, count)]
        else:
            parts = [fill(translate("RanksView", "%n ranks on %1 hosts", None, count), hosts)]
        medians = s["medians_ms"]
        if s["slowest"] is not None:
            slow = next(r for r in ranks if r.rank == s["slowest"])
            parts.append(fill(translate("RanksView", "slowest: rank %1 (%2 on %3), median %4 ms"), s["slowest"],
                              _text(slow.device), _text(slow.host), _ms(medians[s["slowest"]])))  # fmt: skip
        if s["spread"] is not None:
            parts.append(fill(
                translate("RanksView", "spread %1: the slowest rank's median over the fastest's (rank %2, %3 ms)"),
                f"{s['spread']:.1%}", s["fastest"], _ms(medians[s["fastest"]]),
            ))  # fmt: skip
        if s["failed"]:
            failed = ", ".join(map(str, s["failed"]))
            if len(s["failed"]) > 1:
                parts.append(fill(translate("RanksView", "failed: ranks %1"), failed))
            else:
                parts.append(fill(translate("RanksView", "failed: rank %1"), failed))
        return " · ".join(parts)

    def _fill(self, ranks: Sequence[RankEntry]) -> None:
        s = self.summary
        self.table.setRowCount(len(ranks))
        bold = QFont()
        bold.setBold(True)
        for row, entry in enumerate(sorted(ranks, key=lambda r: r.rank)):
            first = entry.latency[0] if entry.latency else None  # its figures are its samples'
            rank = entry.rank
            median = s["medians_ms"].get(rank)
            slower = (median / s["medians_ms"][s["fastest"]] - 1) if median is not None and s["fastest"] is not None else None
            if entry.ok:
                status = translate("RanksView", "ok")
            else:
                status = fill(translate("RanksView", "failed: %1"), _text(entry.error))
            cells = [
                _item(str(rank), numeric=True),
                _item(_text(entry.host)),
                _item(_text(entry.device)),
                _item(_ms(median), numeric=True),
                _item(f"{_ms(first.p5_ms)} – {_ms(first.p95_ms)}" if first is not None else "—", numeric=True),
                _item("—" if slower is None else f"+{slower:.1%}", numeric=True),
                _item(status),
            ]
            for col, cell in enumerate(cells):
                if rank == s["slowest"] and s["spread"] is not None:
                    cell.setBackground(QBrush(_SLOWEST_BG))
                    cell.setFont(bold)
                    cell.setToolTip(translate("RanksView", "the slowest rank"))
                if not entry.ok:
                    cell.setForeground(QBrush(_FAILED))
                self.table.setItem(row, col, cell)

    def _draw(self, ranks: Sequence[RankEntry]) -> None:
        self.plot.clear()
        medians = self.summary["medians_ms"]
        if not medians:
            return
        order = sorted(medians)
        brushes = [pg.mkBrush(_SLOWEST_BAR if r == self.summary["slowest"] and len(order) > 1 else _BAR) for r in order]
        self.bars = pg.BarGraphItem(x=order, height=[medians[r] for r in order], width=0.6, brushes=brushes)
        self.plot.addItem(self.bars)
        self.plot.getAxis("bottom").setTicks([[(r, str(r)) for r in order]])


def show_ranks(tabs: QTabWidget, report: TimingReport | None) -> RanksView | None:
    """Show ``report``'s ranks in a "Ranks" tab of ``tabs`` (made on first use); a report
    without ranks removes the tab. Returns the view, or None when there is nothing to show."""
    view = tabs.findChild(RanksView, "ranksView")
    if report is None or not report.ranks:
        if view is not None:
            tabs.removeTab(tabs.indexOf(view))
            view.deleteLater()
        return None
    if view is None:
        view = RanksView(tabs)
        tabs.addTab(view, translate("RanksView", "Ranks"))
    view.set_report(report)
    tabs.setCurrentWidget(view)
    return view
