"""Tools › Will it fit?…, bound to the fit flow (``flow.FitFlow``) once it is built: enabled with
a model in an idle window, and the fit dialog (open or not) asks only while it is."""

from __future__ import annotations

from typing import Protocol


from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.actions import ActionRegistry, ActionSpec, when_idle_with_model

SHOW = ActionSpec(
    "fit.show", "fitAction", QT_TRANSLATE_NOOP("Menus", "Will it &fit?…"), "Ctrl+Shift+F",
    QT_TRANSLATE_NOOP("Menus", "Memory of one step on each device, estimated without allocating, then proven"),
    enabled=when_idle_with_model,
)  # fmt: skip


class Shows(Protocol):
    """What the action calls (``flow.FitFlow``'s)."""

    def show(self) -> object: ...
    def set_available(self, available: bool) -> None: ...


def bind(registry: ActionRegistry, fit: Shows) -> None:
    registry.bind(SHOW, fit.show)
    action = registry.action(SHOW)
    action.enabledChanged.connect(fit.set_available)
    fit.set_available(action.isEnabled())
