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


def test_the_devices_box_names_the_machine_the_session_runs_on_from_the_state_alone(qtbot):
    # A remote window's server is a value of the state (``host``): the devices feature titles its
    # box from it, in each language; the remote window never writes the devices' widgets.
    from PySide6.QtWidgets import QGroupBox, QVBoxLayout

    box = QGroupBox("Devices")
    qtbot.addWidget(box)
    panel = DevicesPanel()
    QVBoxLayout(box).addWidget(panel)
    state = SessionState()
    follow = DevicesFollow(state=state, devices=panel, parent=panel)
    said = []
    state.hostChanged.connect(said.append)

    state.set_host("")  # this machine: nothing changes, nothing is said
    assert box.title() == "Devices" and said == []
    state.set_host("gpu-box")
    assert box.title() == "Devices on gpu-box" and said == ["gpu-box"]
    box.setTitle("Devices")  # a change of language: the frame says its own title first...
    follow.retranslate()  # ...then the feature names the server again
    assert box.title() == "Devices on gpu-box"
