"""Tools › Will it fit?…, bound to the fit flow (``flow.FitFlow``) once it is built."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP

from inspector.gui.common.actions import ActionRegistry, ActionSpec

if TYPE_CHECKING:
    from inspector.gui.features.fit.flow import FitFlow

SHOW = ActionSpec(
    "fit.show", "fitAction", QT_TRANSLATE_NOOP("Menus", "Will it &fit?…"), "Ctrl+Shift+F",
    QT_TRANSLATE_NOOP("Menus", "Memory of one step on each device, estimated without allocating, then proven"),
)  # fmt: skip


def bind(registry: ActionRegistry, fit: FitFlow) -> None:
    registry.bind(SHOW, fit.show)
