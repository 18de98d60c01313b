"""Tools › Will it fit?…, bound to the fit flow (``flow.FitFlow``) once it is built."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QT_TRANSLATE_NOOP

from inspector.gui.common.actions import ActionRegistry, ActionSpec

SHOW = ActionSpec(
    "fit.show", "fitAction", QT_TRANSLATE_NOOP("Menus", "Will it &fit?…"), "Ctrl+Shift+F",
    QT_TRANSLATE_NOOP("Menus", "Memory of one step on each device, estimated without allocating, then proven"),
)  # fmt: skip


class Shows(Protocol):
    """What the action calls (``flow.FitFlow``'s)."""

    def show(self) -> object: ...


def bind(registry: ActionRegistry, fit: Shows) -> None:
    registry.bind(SHOW, fit.show)
