"""What the app's item models share: columns named by a HEADERS tuple."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt


def header_text(headers: tuple[str, ...], section: int, orientation: Qt.Orientation, role: int):
    """``headerData`` for column titles from ``headers`` (no row headers)."""
    if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
        return headers[section]
    return None


class HeaderedTableModel(QAbstractTableModel):
    """A flat table: one row per item of ``self.items()``, one column per ``HEADERS`` entry."""

    HEADERS: tuple[str, ...] = ()

    def items(self) -> list:
        raise NotImplementedError

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.items())

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        return header_text(self.HEADERS, section, orientation, role)
