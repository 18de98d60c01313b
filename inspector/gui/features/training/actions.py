"""Tools › Run one training step… (bound to the step's confirmation, ``step.TrainingStep.confirm``,
when the feature is installed)."""

from __future__ import annotations

from inspector.gui.common.actions import ActionSpec, when_idle_with_model
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

TRAIN_STEP = ActionSpec(
    "training.step", "trainStepAction", QT_TRANSLATE_NOOP("Menus", "Run one &training step…"), "Ctrl+T",
    QT_TRANSLATE_NOOP("Menus", "One real forward, backward and optimizer step on the model: its weights "
                               "change, and its gradients and optimizer state appear in the tree"),
    enabled=when_idle_with_model,
)  # fmt: skip
