"""View › Refresh devices: the sampler looks for the devices again (the window's request)."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from inspector.gui.common.actions import ActionSpec
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

REFRESH = ActionSpec("devices.refresh", "refreshDevicesAction", QT_TRANSLATE_NOOP("Menus", "&Refresh devices"),
                     QKeySequence.StandardKey.Refresh)  # fmt: skip
