"""Help › Lessons, bound to the lessons panel (``panel.LessonsPanel``) once it is built."""

from __future__ import annotations

from typing import Protocol


from inspector.gui.common.actions import ActionRegistry, ActionSpec
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

SHOW = ActionSpec(
    "lessons.show", "lessonsAction", QT_TRANSLATE_NOOP("Menus", "&Lessons"), "F2",
    QT_TRANSLATE_NOOP("Menus", "The tutorial's lessons, each run for real on this machine"),
    enabled=lambda situation: situation.lessons,  # where the session runs them (an agent has none)
)  # fmt: skip


class Shows(Protocol):
    """What the action calls (``panel.LessonsPanel``'s)."""

    def show(self) -> object: ...


def bind(registry: ActionRegistry, lessons: Shows) -> None:
    registry.bind(SHOW, lessons.show)
