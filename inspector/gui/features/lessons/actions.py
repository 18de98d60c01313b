"""Help › Lessons, bound to the lessons panel (``panel.LessonsPanel``) once it is built."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP

from inspector.gui.common.actions import ActionRegistry, ActionSpec

if TYPE_CHECKING:
    from inspector.gui.features.lessons.panel import LessonsPanel

SHOW = ActionSpec(
    "lessons.show", "lessonsAction", QT_TRANSLATE_NOOP("Menus", "&Lessons"), "F2",
    QT_TRANSLATE_NOOP("Menus", "The tutorial's lessons, each run for real on this machine"),
)  # fmt: skip


def bind(registry: ActionRegistry, lessons: LessonsPanel) -> None:
    registry.bind(SHOW, lessons.show)
