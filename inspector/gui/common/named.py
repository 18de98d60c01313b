"""``named(QLabel(parent), "readout")``: a widget made and given its object name in one
expression, as Qt's ``objectName=`` keyword does at run time (PySide6's stubs do not know it)."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QObject

Q = TypeVar("Q", bound=QObject)


def named(thing: Q, name: str) -> Q:
    thing.setObjectName(name)
    return thing
