"""View › Refresh devices: the sampler looks for the devices again (the window's request)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QKeySequence

from inspector.gui.common.actions import ActionSpec

REFRESH = ActionSpec("devices.refresh", "refreshDevicesAction", QT_TRANSLATE_NOOP("Menus", "&Refresh devices"),
                     QKeySequence.StandardKey.Refresh)  # fmt: skip
