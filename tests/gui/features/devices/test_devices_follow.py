"""The devices feature alone: built with the session state and its panel, nothing of any
other feature, it lists the inventory the state holds, selects the target device the state
says, and a row picked in it becomes the state's target (the action bar that shows the target
is another feature's: only the state joins them)."""

from __future__ import annotations

from dataclasses import replace

from inspector.core.devices.inventory import DeviceInventory, discover_devices
from inspector.gui.features.devices.follows import DevicesFollow
from inspector.gui.features.devices.panel import DevicesPanel
from inspector.gui.state.session_state import SessionState


def test_the_devices_feature_alone_follows_the_inventory_and_the_target_device(qtbot):
    cpu = discover_devices().devices[0]
    gpu = replace(cpu, id="cuda:0", type="cuda", index=0, name="A GPU")
    state = SessionState()
    panel = DevicesPanel()
    qtbot.addWidget(panel)
    DevicesFollow(state=state, devices=panel, parent=panel)
    selected = []
    panel.deviceSelected.connect(selected.append)

    state.set_target_device("cuda:0")  # picked before the devices are known: nothing to select yet
    state.set_inventory(DeviceInventory((cpu, gpu)))
    assert panel.model.device_ids() == ["cpu", "cuda:0"]
    assert selected == ["cuda:0"]  # the target the state holds, selected once listed
    state.set_target_device("cpu")
    assert selected == ["cuda:0", "cpu"]
    panel.table.selectRow(1)  # the user picks the GPU's row
    assert state.target_device == "cuda:0"
