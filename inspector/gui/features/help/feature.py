"""The help feature's part of the session (``state.feature``; its menu and pages come with the
window's frame): once the devices are known, a machine without an accelerator is told so once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.gui.features.help.pages import note_cpu_only_once

if TYPE_CHECKING:
    from inspector.core.devices import DeviceInventory
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    status_bar, settings = context.frame.status_bar, context.settings

    def devices(inventory: DeviceInventory) -> None:
        note_cpu_only_once(status_bar, settings, [i for i in inventory.ids() if i != "cpu"])

    context.state.inventoryChanged.connect(devices)
