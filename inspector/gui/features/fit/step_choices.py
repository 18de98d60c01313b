""""Will it fit?"'s choices of how one step runs, as ``fit --keep-output`` and ``--use-cache``
(issue 47 items 3 and 4): the loop that keeps the output (logits) through backward instead of
freeing it first, as transformers' Trainer does, and a forward that keeps a model's key/value
cache instead of calling it with ``use_cache=False``. Each answer names which it planned (the
notes); these two let the user ask for the other. Texts: context "FitDialog"."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QWidget

from inspector.gui.common.i18n import Retranslates, translate


class StepChoices(Retranslates, QWidget):
    """Two checks in a row; ``asked()`` gives their FitRequest fields."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.keepOutputCheck = QCheckBox(self)
        self.keepOutputCheck.setObjectName("fitKeepOutputCheck")
        self.useCacheCheck = QCheckBox(self)
        self.useCacheCheck.setObjectName("fitUseCacheCheck")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.keepOutputCheck)
        layout.addWidget(self.useCacheCheck)
        self.retranslate()

    def asked(self) -> dict[str, Any]:
        return {"keep_output": self.keepOutputCheck.isChecked(), "use_cache": self.useCacheCheck.isChecked()}

    def retranslate(self) -> None:
        self.keepOutputCheck.setText(translate("FitDialog", "keep the output"))
        self.keepOutputCheck.setToolTip(translate(
            "FitDialog", "Plan the loop out = model(x); out.loss.backward(); optimizer.step(), which holds the output "
                         "(logits) through backward (unchecked: freed before backward, as transformers' Trainer does)"
        ))  # fmt: skip
        self.useCacheCheck.setText(translate("FitDialog", "keep the KV cache"))
        self.useCacheCheck.setToolTip(translate(
            "FitDialog", "Call a model that takes use_cache with use_cache=True: its key/value cache is kept "
                         "(unchecked: use_cache=False, whatever its config says)"
        ))  # fmt: skip
