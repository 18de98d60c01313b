"""The devices feature, installed (``state.feature``): the devices table follows the
inventory and the target device the state holds (``follows.DevicesFollow``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from inspector.gui.features.devices.follows import DevicesFollow
from inspector.gui.features.devices.panel import DevicesPanel

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    follow = DevicesFollow(state=context.state, devices=cast(DevicesPanel, context.frame.devices), parent=context.parent)
    context.retranslatable.append(follow)
