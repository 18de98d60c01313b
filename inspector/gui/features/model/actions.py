"""The model's action: File › Open model… (bound by the window: a remote one opens its own way)."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from inspector.gui.common.actions import ActionSpec, when_idle
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

OPEN = ActionSpec("model.open", "openModelAction", QT_TRANSLATE_NOOP("Menus", "&Open model…"),
                  QKeySequence.StandardKey.Open, enabled=when_idle)  # fmt: skip
