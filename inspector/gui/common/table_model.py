"""What the app's item models share: columns named by a HEADERS tuple, translated when shown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QPersistentModelIndex, Qt

#: What Qt hands an item model's overrides as an index (PySide6's stubs name both).
Index = Union[QModelIndex, QPersistentModelIndex]


def header_text(
    headers: tuple[str, ...], section: int, orientation: Qt.Orientation, role: int, context: str = ""
) -> str | None:
    """``headerData`` for column titles from ``headers`` (no row headers): each title translated
    in ``context`` (where it was marked with ``QT_TRANSLATE_NOOP``), as it is without one."""
    if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
        return QCoreApplication.translate(context, headers[section]) if context else headers[section]
    return None


class HeaderedTableModel(QAbstractTableModel):
    """A flat table: one row per item of ``self.items()``, one column per ``HEADERS`` entry.

    A model whose titles are marked for translation names their context in
    ``HEADER_CONTEXT``; its view calls ``retranslate`` on a change of language."""

    HEADERS: tuple[str, ...] = ()
    HEADER_CONTEXT = ""

    def items(self) -> Sequence[object]:
        raise NotImplementedError

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.items())

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        return header_text(self.HEADERS, section, orientation, role, self.HEADER_CONTEXT)

    def retranslate(self) -> None:
        """The titles (and any text ``data`` translates) again, in the language now installed."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, max(0, len(self.HEADERS) - 1))
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))
