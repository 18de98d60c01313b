"""Edit › Copy devices table as CSV, installed (``state.feature``): the action is declared,
bound and put into the Edit menu here, from the session state alone."""

from __future__ import annotations

from typing import TYPE_CHECKING


from inspector.gui.common.actions import ActionSpec, Menu
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.features.devices_csv.copy import copy_devices_table

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext

COPY_CSV = ActionSpec(
    "devices_csv.copy", "copyDevicesTableAction", QT_TRANSLATE_NOOP("Menus", "Copy &devices table as CSV"),
    tooltip=QT_TRANSLATE_NOOP("Menus", "Put one row per device (its type, name and memory as last read) on the "
                                       "clipboard"),
)  # fmt: skip


def install(context: FeatureContext) -> None:
    state, status = context.state, context.frame.status

    def copy() -> bool:
        return copy_devices_table(state.inventory, state.readings, lambda text: status.flash(text, 10_000))

    context.add_action(COPY_CSV, copy, menu=Menu.EDIT, enabled=lambda _situation: state.inventory is not None)
