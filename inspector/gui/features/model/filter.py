"""The filter field's view of the parameter tree: a ``QSortFilterProxyModel`` that keeps the
rows matching every word typed, with the modules above them.

The match runs in Qt (a regular expression over ``FILTER_ROLE``), so filtering a 10,000-tensor
model makes no Python call per row beyond that role's text; the pattern and the text matched
are ``parameter_cells``' (Qt-free, tested without a QApplication).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QRegularExpression, QSortFilterProxyModel, Qt

from inspector.gui.features.model.cells import FILTER_ROLE, filter_pattern

if TYPE_CHECKING:
    from inspector.core.measure import Attribution
    from inspector.core.placement import TensorRow


class Placements(Protocol):
    """What the filter passes on to its source (``item_model.PlacementModel``)."""

    @property
    def attribution(self) -> Attribution | None: ...

    def sort(self, column: int, order: Qt.SortOrder = ...) -> None: ...

    def tensor_count(self) -> int: ...

    def find(self, name: str) -> QModelIndex: ...

    def row_at(self, index: QModelIndex) -> TensorRow | None: ...


class PlacementFilter(QSortFilterProxyModel):
    """The filter field's view of the tree: rows whose name, kind, dtype or device match every
    word, with their modules (recursive filtering). Sorting is left to ``PlacementModel``,
    which orders sizes and times as numbers, in O(tensors)."""

    def __init__(self, source: QAbstractItemModel, parent: QObject | None = None) -> None:
        """``source``: a ``PlacementModel`` (what ``Placements`` names)."""
        super().__init__(parent)
        self.setSourceModel(source)
        self.setRecursiveFilteringEnabled(True)
        self.setFilterRole(FILTER_ROLE)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def source(self) -> Placements:
        return cast(Placements, self.sourceModel())

    def set_filter_text(self, text: str) -> None:
        expression = QRegularExpression(filter_pattern(text), QRegularExpression.PatternOption.CaseInsensitiveOption)
        self.setFilterRegularExpression(expression)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.source().sort(column, order)

    # What tests and the panel read through the view's model, passed on to the source.
    @property
    def attribution(self) -> Attribution | None:
        return self.source().attribution

    def tensor_count(self) -> int:
        return self.source().tensor_count()

    def find(self, name: str) -> QModelIndex:
        return self.mapFromSource(self.source().find(name))

    def row_at(self, index: QModelIndex) -> TensorRow | None:
        return self.source().row_at(self.mapToSource(index))
