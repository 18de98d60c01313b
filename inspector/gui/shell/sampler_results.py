"""How the window shows what the MemorySampler sends: the device inventory (the device table,
the target combo, the CPU-only note) and the memory readings (the table, at most once a
second, and the memory plot, which reads the timeline the sampler already filled)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QSettings, Slot
from PySide6.QtWidgets import QStatusBar

from inspector.gui.features.help.pages import note_cpu_only_once

if TYPE_CHECKING:
    from inspector.gui.common.lazy_tabs import LazyTabs
    from inspector.gui.features.moves.action_bar import ActionBar
    from inspector.gui.features.devices.panel import DevicesPanel
    from inspector.gui.state.snapshots import Snapshots

#: The device table repaints from the 10 Hz samples at most this often.
TABLE_REFRESH_S = 1.0


class SamplerResults(QObject):
    """The sampler's signals, shown in the device panel, the action bar and the memory plot."""

    def __init__(
        self, *, devices: DevicesPanel, action_bar: ActionBar, status_bar: QStatusBar, pages: LazyTabs,
        settings: QSettings, snapshots: Snapshots, parent: QObject | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.devices = devices
        self.action_bar = action_bar
        self.status_bar = status_bar
        self.pages = pages
        self.settings = settings
        self.snapshots = snapshots
        self._table_refreshed_at = 0.0

    @Slot(object)
    def on_inventory(self, inventory: Any) -> None:
        self.snapshots.inventory = inventory
        self.devices.set_inventory(inventory)
        ids = inventory.ids() or ["cpu"]
        accelerators = [i for i in ids if i != "cpu"]
        self.action_bar.set_devices(ids, preferred=accelerators[0] if accelerators else "cpu")
        note_cpu_only_once(self.status_bar, self.settings, accelerators)
        self.devices.select_device(self.action_bar.target_device())
        if self.snapshots.readings:
            self.devices.set_readings(self.snapshots.readings)

    @Slot(object)
    def on_samples(self, readings: tuple) -> None:
        self.snapshots.readings = readings
        now = time.monotonic()
        if now - self._table_refreshed_at >= TABLE_REFRESH_S:
            self._table_refreshed_at = now
            self.devices.set_readings(readings)

    @Slot(object)
    def on_memory_samples(self, _readings: tuple) -> None:
        # The sampler stored them in the timeline: a built plot repaints, an unbuilt one
        # draws the whole timeline when it is built.
        if self.pages.is_built("memoryPlot"):
            self.pages.page("memoryPlot").schedule_redraw()
