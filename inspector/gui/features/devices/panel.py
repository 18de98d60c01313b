"""The devices panel: one row per device with a live memory bar, and why no GPU is listed.

Titles, tooltips and states are translated (context "DevicesPanel") when shown; device ids,
names (the driver's) and figures stay as they are. Core's notes go through ``core_text``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Sequence

from PySide6.QtCore import QModelIndex, QObject, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.core.units import format_bytes
from inspector.gui.common.i18n import Retranslates, core_text, fill, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.table_model import HeaderedTableModel, Index
from inspector.gui.common.theme import device_swatch
from inspector.gui.common.plain_text import plain_label, plain_tooltip, shown

if TYPE_CHECKING:
    from inspector.core.devices import DeviceInventory, DeviceSnapshot, MemoryReading

GIB = 1 << 30
#: The device rows shown without scrolling (eight GPUs); more scroll.
SHOWN_ROWS = 8
#: Item-data role carrying (used, total) bytes for the memory bar delegate.
MEMORY_ROLE = Qt.ItemDataRole.UserRole + 1
#: Item-data role carrying the device id of a row.
DEVICE_ID_ROLE = Qt.ItemDataRole.UserRole + 2


#: The words for core's device details (``DeviceSnapshot.details`` keys) in the row's tooltip;
#: a key not listed shows as it is, its underscores as spaces.
DETAIL_LABELS = {
    "cores": QT_TRANSLATE_NOOP("DevicesPanel", "cores"),
    "physical_cores": QT_TRANSLATE_NOOP("DevicesPanel", "physical cores"),
    "torch_threads": QT_TRANSLATE_NOOP("DevicesPanel", "torch threads"),
    "architecture": QT_TRANSLATE_NOOP("DevicesPanel", "architecture"),
    "vector_capability": QT_TRANSLATE_NOOP("DevicesPanel", "vector capability"),
    "compute_capability": QT_TRANSLATE_NOOP("DevicesPanel", "compute capability"),
    "multiprocessors": QT_TRANSLATE_NOOP("DevicesPanel", "multiprocessors"),
    "memory_source": QT_TRANSLATE_NOOP("DevicesPanel", "memory source"),
    "driver_version": QT_TRANSLATE_NOOP("DevicesPanel", "driver version"),
    "driver_allocated_bytes": QT_TRANSLATE_NOOP("DevicesPanel", "driver allocated bytes"),
    "unified_memory": QT_TRANSLATE_NOOP("DevicesPanel", "unified memory"),
    "recommended_max_bytes": QT_TRANSLATE_NOOP("DevicesPanel", "recommended max bytes"),
    "max_compute_units": QT_TRANSLATE_NOOP("DevicesPanel", "max compute units"),
    "gpu_eu_count": QT_TRANSLATE_NOOP("DevicesPanel", "GPU EU count"),
    "platform_name": QT_TRANSLATE_NOOP("DevicesPanel", "platform name"),
    "nvml_index": QT_TRANSLATE_NOOP("DevicesPanel", "NVML index"),
    "minor_number": QT_TRANSLATE_NOOP("DevicesPanel", "device file minor number"),
}


def gib_text(used: int | None, total: int | None) -> str:
    if used is None or total is None or total <= 0:
        return format_bytes(used) if used is not None else translate("DevicesPanel", "unknown")
    return f"{used / GIB:.1f} / {total / GIB:.1f} GiB ({100 * used / total:.0f}%)"


class DeviceTableModel(HeaderedTableModel):
    """Rows: the devices of the last discovery; memory columns follow the latest readings."""

    HEADERS = (
        QT_TRANSLATE_NOOP("DevicesPanel", "Device"),
        QT_TRANSLATE_NOOP("DevicesPanel", "Name"),
        QT_TRANSLATE_NOOP("DevicesPanel", "Memory used / total"),
        QT_TRANSLATE_NOOP("DevicesPanel", "This process"),
    )
    HEADER_CONTEXT = "DevicesPanel"

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._snapshots: list[DeviceSnapshot] = []
        self._readings: dict[str, MemoryReading] = {}  # by device id

    # ----- feeding

    def set_inventory(self, inventory: DeviceInventory) -> None:
        self.beginResetModel()
        self._snapshots = list(inventory.devices)
        self._readings = {}
        self.endResetModel()

    def set_readings(self, readings: Sequence[MemoryReading]) -> None:
        self._readings.update({r.device: r for r in readings})
        if self._snapshots:
            self.dataChanged.emit(
                self.index(0, 2), self.index(len(self._snapshots) - 1, 3), [Qt.ItemDataRole.DisplayRole, MEMORY_ROLE]
            )

    def device_ids(self) -> list[str]:
        return [s.id for s in self._snapshots]

    def snapshot(self, row: int) -> DeviceSnapshot:
        return self._snapshots[row]

    # ----- Qt model interface

    def items(self) -> list[DeviceSnapshot]:
        return self._snapshots

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        snap = self._snapshots[index.row()]
        column = index.column()
        if role == DEVICE_ID_ROLE:
            return snap.id
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            return device_swatch(snap.id)
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(self._tooltip(snap))
        used, total, own = self._memory(snap)
        if role == MEMORY_ROLE and column == 2:
            return (used, total)
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return shown(snap.id)  # a remote agent's words: escaped, like every name the window shows
            if column == 1:
                return shown(snap.name)
            if column == 2:
                return gib_text(used, total)
            if column == 3:
                return format_bytes(own)
        if role == Qt.ItemDataRole.TextAlignmentRole and column == 3:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _memory(self, snap: DeviceSnapshot) -> tuple[int | None, int | None, int | None]:
        reading = self._readings.get(snap.id)
        if reading is None:
            return snap.used_bytes, snap.total_bytes, snap.allocated_bytes
        return reading.used, reading.total, reading.allocated

    def _tooltip(self, snap: DeviceSnapshot) -> str:
        used, total, own = self._memory(snap)
        lines = [shown(f"{snap.id}: {snap.name}", 200), fill(translate("DevicesPanel", "memory used: %1"), gib_text(used, total))]
        if snap.type == "cpu":
            lines.append(fill(translate("DevicesPanel", "this process (RSS): %1"), format_bytes(own)))
        else:
            lines.append(fill(translate("DevicesPanel", "allocated by this process: %1"), format_bytes(own)))
        if snap.reserved_bytes is not None:
            lines.append(fill(translate("DevicesPanel", "reserved by this process: %1"), format_bytes(snap.reserved_bytes)))
        limit = getattr(snap, "free_limit", None)
        if snap.free_bytes is not None and limit:  # the figure fit compares with, and what sets it
            lines.append(fill(translate("DevicesPanel", "free for this process: %1, set by %2"),
                              format_bytes(snap.free_bytes), core_text(limit)))  # fmt: skip
        for key, value in snap.details.items():
            text = value if isinstance(value, (str, int, float)) else json.dumps(value)
            label = DETAIL_LABELS.get(key)
            name = translate("DevicesPanel", label) if label else key.replace("_", " ")
            lines.append(fill(translate("DevicesPanel", "%1: %2"), name, text))
        return "\n".join(lines)


class MemoryBarDelegate(QStyledItemDelegate):
    """Paints used / total memory as a bar with the figures on it (no widget per row)."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        used, total = index.data(MEMORY_ROLE) or (None, None)
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text = opt.text
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        bar = option.rect.adjusted(4, 4, -4, -4)
        tallest = opt.fontMetrics.lineSpacing() + 10  # a row grown for a wrapped name keeps a bar this tall
        if bar.height() > tallest:
            bar = QRect(bar.left(), bar.center().y() - tallest // 2, bar.width(), tallest)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QColor("#9a9a9a"))
        painter.setBrush(QColor("#f2f2f2"))
        painter.drawRoundedRect(bar, 3, 3)
        if used is not None and total:
            fraction = max(0.0, min(1.0, used / total))
            filled = QRect(bar.left(), bar.top(), round(bar.width() * fraction), bar.height())
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(_fill_colour(fraction))
            painter.drawRoundedRect(filled, 3, 3)
        # The bar has fixed light colours, so the text on it is dark whatever the theme.
        painter.setPen(QColor("#1a1a1a"))
        painter.drawText(bar, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        hint = super().sizeHint(option, index)
        return QSize(max(hint.width() + 16, 190), hint.height() + 8)


def _fill_colour(fraction: float) -> QColor:
    if fraction >= 0.9:
        return QColor("#e57373")
    if fraction >= 0.7:
        return QColor("#ffb74d")
    return QColor("#81c784")


class DevicesPanel(Retranslates, QWidget):
    """The device table and the note saying why no accelerator is listed."""

    deviceSelected = Signal(str)
    #: The height its rows and notes need (``needed_height``), said when it changes: the layout
    #: gives the devices no more (a laptop's one CPU took a third of the column, issue 45).
    neededHeightChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = DeviceTableModel(self)
        self.table = QTableView(self)
        self.table.setObjectName("deviceTable")
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(2, MemoryBarDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(round(self.fontMetrics().lineSpacing() * 1.6))
        # A long device name wraps onto more lines rather than being cut (a 1024-pixel
        # screen leaves the Name column ~100 px); rows grow to fit it.
        self.table.setWordWrap(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideNone)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(2, 170)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        header.sectionResized.connect(lambda section, _old, _new: self._fit_rows() if section == 1 else None)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)

        self.note = plain_label(QLabel(self))
        self.note.setObjectName("deviceNote")
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note.setVisible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addWidget(self.note)
        self._notes: list[str] = []  # core's, kept to say them again in another language
        #: Torch is still being imported (the window's first second): no device is known yet.
        self._loading = False

    def retranslate(self) -> None:
        self.model.retranslate()
        self._show_notes()

    def _fit_rows(self) -> None:
        """Rows as tall as their wrapped name (a handful of rows: cheap)."""
        self.table.resizeRowsToContents()
        least = self.table.verticalHeader().defaultSectionSize()
        for row in range(self.model.rowCount()):
            if self.table.rowHeight(row) < least:
                self.table.setRowHeight(row, least)
        self._say_needed_height()

    def needed_height(self) -> int:
        """The table's header and rows (at most ``SHOWN_ROWS``; more scroll) and the notes
        under it, at the panel's width now."""
        table = self.table
        rows = sum(table.rowHeight(r) for r in range(min(SHOWN_ROWS, self.model.rowCount())))
        rows = max(rows, table.verticalHeader().defaultSectionSize())
        height = table.horizontalHeader().sizeHint().height() + rows + 2 * table.frameWidth()
        if table.horizontalScrollBar().isVisible():
            height += table.horizontalScrollBar().sizeHint().height()
        if not self.note.isHidden():
            width = max(100, self.width())
            layout = self.layout()  # (the panel's own, made in __init__; PySide6 types it optional)
            height += (layout.spacing() if layout is not None else 0) + self.note.heightForWidth(width)
        return height

    def _say_needed_height(self) -> None:
        self.neededHeightChanged.emit(self.needed_height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._say_needed_height()  # the notes wrap onto more or fewer lines

    def set_inventory(self, inventory: DeviceInventory) -> None:
        self.model.set_inventory(inventory)
        self._fit_rows()
        self._notes = list(inventory.notes)
        self._loading = False
        self._show_notes()

    def show_loading(self) -> None:
        """No device is known yet: PyTorch is being imported (the devices come after)."""
        self._loading = True
        self._show_notes()

    def _show_notes(self) -> None:
        if self._loading:
            self.note.setText(translate("DevicesPanel", "Loading PyTorch…"))
            self.note.setVisible(True)
            self._say_needed_height()
            return
        self.note.setText("\n".join(_sentence(core_text(n)) for n in self._notes))
        self.note.setVisible(bool(self._notes))
        self._say_needed_height()

    def set_readings(self, readings: Sequence[MemoryReading]) -> None:
        self.model.set_readings(readings)

    def select_device(self, device: str) -> None:
        ids = self.model.device_ids()
        if device in ids:
            self.table.selectRow(ids.index(device))

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.deviceSelected.emit(self.model.data(current, DEVICE_ID_ROLE))


def _sentence(note: str) -> str:
    note = note.strip()
    return (note[:1].upper() + note[1:]) if note else note
