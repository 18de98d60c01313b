"""The device table as the session goes on: the inventory once the sampler found it, the
memory readings (at most once a second: the sampler reads at 10 Hz), and the row of the
target device (``SessionState.target_device``): the one picked in the action bar is selected
here, and a row picked here becomes the target; and the box's title names the machine when the
session runs on another (``SessionState.host``: a remote window's server), said again on a change
of language (``retranslate``, after the frame's own "Devices").

It hears the session state (``state.session_state``) and imports no other feature.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QGroupBox

from inspector.gui.common.i18n import fill, translate

if TYPE_CHECKING:
    from inspector.core.devices import DeviceInventory, MemoryReading
    from inspector.gui.features.devices.panel import DevicesPanel
    from inspector.gui.state.session_state import SessionState

#: The device table repaints from the 10 Hz samples at most this often.
TABLE_REFRESH_S = 1.0


class DevicesFollow(QObject):
    """Keeps the device table with the session (see the module docstring)."""

    def __init__(self, *, state: SessionState, devices: DevicesPanel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.devices = devices
        self._table_refreshed_at = 0.0
        state.inventoryChanged.connect(self.on_inventory)
        state.readingsChanged.connect(self.on_readings)
        state.targetDeviceChanged.connect(devices.select_device)
        devices.deviceSelected.connect(state.set_target_device)
        state.hostChanged.connect(lambda _host: self.retranslate())

    def retranslate(self) -> None:
        """The box's title names the server the devices are on (the frame says "Devices" here)."""
        box = self.devices.parentWidget()
        if self.state.host and isinstance(box, QGroupBox):
            # (context "RemoteWindow": the remote window said it before, so its translation is kept)
            box.setTitle(fill(translate("RemoteWindow", "Devices on %1"), self.state.host))

    @Slot(object)
    def on_inventory(self, inventory: DeviceInventory) -> None:
        self.devices.set_inventory(inventory)
        self.devices.select_device(self.state.target_device)
        if self.state.readings:
            self.devices.set_readings(self.state.readings)

    @Slot(object)
    def on_readings(self, readings: tuple[MemoryReading, ...]) -> None:
        now = time.monotonic()
        if now - self._table_refreshed_at >= TABLE_REFRESH_S:
            self._table_refreshed_at = now
            self.devices.set_readings(readings)
