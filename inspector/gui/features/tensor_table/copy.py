"""The tensor table as CSV text, and the action that puts it on the clipboard.

One row per tensor of the model's placement (``ModelState.placement.tensors``: core's rows,
as ``inspector.core.placement`` makes them), in their order; the columns are the rows' own
fields, under their own names (data for a program, so not translated). Torch-free: it reads
the frozen state the workers sent, never the model.
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING

from PySide6.QtGui import QGuiApplication

from inspector.gui.common.actions import FeatureHost
from inspector.gui.common.i18n import fill, translate

if TYPE_CHECKING:
    from inspector.core.session import ModelState

# The columns, in order: what a tensor's row holds (``core.placement``'s ``TensorRow``).
COLUMNS = (
    "name", "kind", "module", "device", "dtype", "shape", "bytes", "elements", "requires_grad", "storage",
    "shares_with",
)  # fmt: skip


def csv_text(state: ModelState) -> str:
    """``state``'s tensors as CSV: a header, then one line per tensor (``shape`` as a JSON list,
    ``shares_with`` empty for a tensor that shares its memory with none)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in state.placement.tensors:
        writer.writerow((
            row.name, row.kind, row.module, row.device, row.dtype, json.dumps(list(row.shape)), row.bytes,
            row.elements, row.requires_grad, row.storage, row.shares_with or "",
        ))  # fmt: skip
    return out.getvalue()


def copy_tensor_table(host: FeatureHost) -> bool:
    """Put the model's tensor table on the clipboard, saying so; with no model loaded, say that
    instead and leave the clipboard alone. True when copied."""
    state = host.model()
    if state is None:
        host.say(translate("TensorTable", "No model is loaded: there is no tensor table to copy"))
        return False
    QGuiApplication.clipboard().setText(csv_text(state))
    host.say(fill(translate("TensorTable", "Tensor table copied as CSV: %1 rows"), len(state.placement.tensors)))
    return True

