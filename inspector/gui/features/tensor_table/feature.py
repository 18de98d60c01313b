"""Edit › Copy tensor table as CSV, installed (``state.feature``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.gui.common.actions import FeatureHost
from inspector.gui.features.tensor_table.actions import COPY_CSV
from inspector.gui.features.tensor_table.copy import copy_tensor_table

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    host = FeatureHost(parent=context.parent, model=lambda: context.state.model,
                       say=lambda text: context.frame.status.flash(text, 10_000))  # fmt: skip
    context.actions.bind(COPY_CSV, lambda: copy_tensor_table(host))
