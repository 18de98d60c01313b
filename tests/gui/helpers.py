"""Reading the window the way a user sees it: widgets by object name, cells by text."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtWidgets import QWidget

from tests.processes import GENEROUS_S

#: ``qtbot.waitUntil``/``waitSignal``'s deadline for what the test then asserts happened (pytest-qt's
#: default is 5 s, which a loaded machine overruns while the code is right); never a speed bound.
GENEROUS_MS = int(GENEROUS_S * 1000)


def widget(window: QWidget, cls: type, name: str):
    found = window.findChild(cls, name)
    assert found is not None, f"no {cls.__name__} named {name!r}"
    return found


def column_names(model: QAbstractItemModel) -> list[str]:
    """The model's column names in English (its ``HEADERS``, the source texts), whatever
    language the header shows: tests read cells by column, in any language."""
    english = getattr(model, "HEADERS", None) or getattr(getattr(model, "sourceModel", lambda: None)(), "HEADERS", None)
    return list(english) if english else [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]


def tree_rows(model: QAbstractItemModel) -> dict[str, dict[str, str]]:
    """Every tensor row of a tree model: full dotted name -> {header: cell text}."""
    headers = column_names(model)
    rows: dict[str, dict[str, str]] = {}

    def walk(parent: QModelIndex, prefix: str) -> None:
        for r in range(model.rowCount(parent)):
            first = model.index(r, 0, parent)
            cells = {h: model.index(r, c, parent).data() for c, h in enumerate(headers)}
            if model.hasChildren(first) or str(cells.get("Kind", "")).startswith("module"):
                walk(first, f"{prefix}{cells[headers[0]]}.")
            else:
                rows[f"{prefix}{cells[headers[0]]}"] = cells

    walk(QModelIndex(), "")
    return rows


def table_rows(model: QAbstractItemModel) -> list[dict[str, str]]:
    headers = column_names(model)
    return [
        {h: model.index(r, c).data() for c, h in enumerate(headers)} for r in range(model.rowCount())
    ]
