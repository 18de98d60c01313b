"""The model's actions: File › Open model…, and Tools › Run one training step… (bound to the
move commands' confirmation, ``moves.commands.ModelCommands.confirm_train_step``, by the shell)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QKeySequence

from inspector.gui.common.actions import ActionSpec, when_idle, when_idle_with_model

OPEN = ActionSpec("model.open", "openModelAction", QT_TRANSLATE_NOOP("Menus", "&Open model…"),
                  QKeySequence.StandardKey.Open, enabled=when_idle)  # fmt: skip
TRAIN_STEP = ActionSpec(
    "model.train_step", "trainStepAction", QT_TRANSLATE_NOOP("Menus", "Run one &training step…"), "Ctrl+T",
    QT_TRANSLATE_NOOP("Menus", "One real forward, backward and optimizer step on the model: its weights "
                               "change, and its gradients and optimizer state appear in the tree"),
    enabled=when_idle_with_model,
)  # fmt: skip
