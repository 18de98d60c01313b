"""Edit › Copy tensor table as CSV (bound when the feature is installed: ``feature``)."""

from __future__ import annotations


from inspector.gui.common.actions import ActionSpec
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

COPY_CSV = ActionSpec(
    "tensor_table.copy_csv", "copyTensorTableAction", QT_TRANSLATE_NOOP("Menus", "Copy tensor &table as CSV"),
    tooltip=QT_TRANSLATE_NOOP("Menus", "Put one row per tensor of the model (parameters, buffers, grads, optimizer "
                                       "state) on the clipboard: its device, dtype, shape and bytes"),
)  # fmt: skip
