"""Which of the window's commands are available now, and why not.

Reads the session state's model, the busy task and the action bar's inputs, and enables the
action bar to match; the reasons it gives are the tooltips and the benchmark's refusal
(``state.readiness.benchmark_blocker``, also asked by the benchmark's launch). It refreshes when the model
changes (``SessionState.modelChanged``), a task starts or ends, or an input changes. (The menus'
actions declare their own enablement: ``common.actions``.) It also keeps the action bar's target
combo with the machine's devices (``inventoryChanged``) and with ``SessionState.target_device``
(the devices table follows it, and a device picked there becomes the combo's target).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from inspector.core.errors import InputError
from inspector.core.moves import MoveRequest, call_code, held_bytes, price_line
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.features.moves.action_bar import ActionBar
from inspector.gui.features.moves.bar_reasons import ActionState, enabled_tip, pinned_blocker
from inspector.gui.state.readiness import benchmark_blocker, input_shape

if TYPE_CHECKING:
    from inspector.gui.state.session_state import SessionState
    from inspector.gui.state.tasks import TaskController


class CommandAvailability(QObject):
    """Enables and explains the action bar's commands; never runs one."""

    def __init__(
        self, *, action_bar: ActionBar, tasks: TaskController, state: SessionState, parent: QObject | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.action_bar = action_bar
        self.tasks = tasks
        self.state = state
        # The placement last priced, and its bytes per (device, dtype): one pass per snapshot,
        # so a change of target or dtype prices a 10,000-tensor model in microseconds.
        self._priced: tuple[object, dict[tuple[str, str], int]] | None = None
        #: The model whose prices the action bar shows (a new one: its label sizes afresh).
        self._priced_model: object = None
        # Re-check whenever an input the checks read changes.
        a = action_bar
        a.inputShapeEdit.textChanged.connect(lambda _text: self.refresh())
        a.targetDeviceCombo.currentIndexChanged.connect(lambda _i: self.target_changed())
        a.dtypeCombo.currentIndexChanged.connect(lambda _i: self.update_move_tip())
        a.pinnedCheck.toggled.connect(lambda _on: self.update_move_tip())
        # A change of language reset the bar's tooltips: the prices go back on.
        a.retranslated.connect(self.update_move_tip)
        state.modelChanged.connect(lambda _model: self.refresh())
        state.inventoryChanged.connect(self.on_inventory)
        state.targetDeviceChanged.connect(a.set_target_device)
        tasks.busyChanged.connect(lambda _task: self.refresh())

    def on_inventory(self, inventory: Any) -> None:
        """The machine's devices: the target combo lists them, an accelerator preferred."""
        ids = inventory.ids() or ["cpu"]
        accelerators = [i for i in ids if i != "cpu"]
        self.action_bar.set_devices(ids, preferred=accelerators[0] if accelerators else "cpu")
        self.state.set_target_device(self.action_bar.target_device())

    def input_problem(self) -> str | None:
        """What is wrong with the input field now (shown under it), None when nothing is."""
        state = self.state.model
        try:
            specs = input_shape(self.action_bar)
        except InputError as exc:
            return core_text(exc.message)
        if specs is None and state is not None and not state.info.has_example_input:
            return translate(
                "CommandAvailability", "This model brings no example input: enter its input shape(s), e.g. 1,3,224,224"
            )
        return None

    def retranslate(self) -> None:
        """The reasons and tooltips again, in the language now installed."""
        self.refresh()

    def refresh(self) -> None:
        state = self.state.model
        self.action_bar.show_input_problem(self.input_problem())
        self.action_bar.apply(ActionState(
            busy_task=self.tasks.task,
            has_model=state is not None,
            benchmark_blocker=benchmark_blocker(state, self.action_bar) if state is not None else None,
            pinned_blocker=self.pinned_blocker(),
        ))  # fmt: skip
        self.update_move_tip()

    def pinned_blocker(self) -> str | None:
        devices = self.state.model.placement.devices if self.state.model is not None else ()
        return pinned_blocker(self.action_bar.target_device(), devices)

    def target_changed(self) -> None:
        self.state.set_target_device(self.action_bar.target_device())  # the devices table follows it
        self.refresh()  # whether "pinned" applies depends on the target

    def update_move_tip(self) -> None:
        """The move buttons' tooltips and the price label: what each move holds at its peak."""
        a = self.action_bar
        state = self.state.model
        to_request = MoveRequest("to", device=a.target_device(), dtype=a.dtype(), pinned=a.pinned())
        if state is None:
            a.set_move_price("")
            return
        placement = state.placement
        if self._priced is None or self._priced[0] is not placement:
            self._priced = (placement, held_bytes(placement))
        held = self._priced[1]
        warnings, packed = state.info.move_warnings, state.info.packed_weights
        to_price = core_text(price_line(held, to_request, warnings=warnings, packed_weights=packed))
        a.set_move_price(to_price, new_model=state.info != self._priced_model)
        self._priced_model = state.info
        if a.toDeviceButton.isEnabled():
            call = call_code(to_request)
            works = translate(
                "CommandAvailability", "%1: works on every machine when the device falls back to the CPU."
            )
            a.toDeviceButton.setToolTip(f"{fill(works, call)}\n{to_price}")
        for button, request in ((a.cudaButton, MoveRequest("cuda")), (a.cpuButton, MoveRequest("cpu"))):
            if button.isEnabled():
                tip = enabled_tip(button.objectName())
                price = core_text(price_line(held, request, warnings=warnings, packed_weights=packed))
                button.setToolTip(fill(translate("CommandAvailability", "%1.\n%2"), tip, price))
