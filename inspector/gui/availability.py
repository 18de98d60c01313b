"""Which of the window's commands are available now, and why not.

Reads the window's snapshots (model state, busy task, the action bar's inputs) and enables
the action bar, the menu actions and the fit dialog to match; the reasons it gives are the
tooltips and the benchmark's refusal. ``MainWindow.refresh_actions`` asks it after every
change of state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.core.moves import price as move_price
from inspector.core.errors import InputError
from inspector.core.moves.request import MoveRequest, call_code
from inspector.core.files.inputs import InputSpec, parse_inputs
from inspector.gui.panels.actions import ActionBar, ActionState, pinned_blocker

if TYPE_CHECKING:
    from inspector.gui.main_window import MainWindow


class CommandAvailability:
    """The window's command availability: enables and explains, never runs a command."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        # The placement last priced, and its bytes per (device, dtype): one pass per snapshot,
        # so a change of target or dtype prices a 10,000-tensor model in microseconds.
        self._priced: tuple[object, dict[tuple[str, str], int]] | None = None

    def connect(self, a: ActionBar) -> None:
        """Re-check whenever an input the checks read changes."""
        a.inputShapeEdit.textChanged.connect(lambda _text: self.refresh())
        a.targetDeviceCombo.currentIndexChanged.connect(lambda _i: self.target_changed())
        a.dtypeCombo.currentIndexChanged.connect(lambda _i: self.update_move_tip())
        a.pinnedCheck.toggled.connect(lambda _on: self.update_move_tip())

    def input_shape(self) -> tuple[InputSpec, ...] | None:
        """The inputs the field asks for (``core.files.inputs`` syntax); None: the model's own."""
        text = self.window.action_bar.input_shape_text()
        return parse_inputs(text) if text else None

    def model_device_and_dtype(self) -> tuple[str, str]:
        """Where a benchmark will run and in which dtype, as the snapshot tells it ("?" when it
        cannot: the result names the run exactly when it comes back)."""
        state = self.window.model_state
        if state is None:
            return "?", "?"
        devices = state.placement.devices
        floating = (r.dtype for r in state.placement.tensors
                    if r.kind == "parameter" and r.dtype.startswith(("float", "bfloat", "complex")))  # fmt: skip
        return (devices[0] if len(devices) == 1 else "?"), next(floating, "?")

    def benchmark_blocker(self) -> str | None:
        state = self.window.model_state
        if state is None:
            return "No model is loaded (File › Open model…)"
        if any(f.code == "split_model" for f in state.placement.warnings):
            return "The model is split across devices: move it as a whole first (.to(device) or .cpu())"
        try:
            shape = self.input_shape()
        except InputError as exc:
            return f"Input shape: {exc.message}"
        if shape is None and not state.info.has_example_input:
            return "This model brings no example input: enter an input shape such as 1,3,224,224"
        return None

    def input_problem(self) -> str | None:
        """What is wrong with the input field now (shown under it), None when nothing is."""
        state = self.window.model_state
        try:
            specs = self.input_shape()
        except InputError as exc:
            return exc.message
        if specs is None and state is not None and not state.info.has_example_input:
            return "This model brings no example input: enter its input shape(s), e.g. 1,3,224,224"
        return None

    def refresh(self) -> None:
        self.window.action_bar.show_input_problem(self.input_problem())
        state = ActionState(
            busy_task=self.window.busy_task,
            has_model=self.window.model_state is not None,
            benchmark_blocker=self.benchmark_blocker() if self.window.model_state is not None else None,
            pinned_blocker=self.pinned_blocker(),
        )
        self.window.action_bar.apply(state)
        idle = self.window.busy_task is None and not self.window.tasks.closed
        self.window.openModelAction.setEnabled(idle)
        self.window.recentMenu.setEnabled(idle)
        self.window.exportReportAction.setEnabled(idle and self.window.model_state is not None)
        self.window.exportReportAction.setToolTip(
            "Write the timing report (moves, latency, memory) as HTML, JSON, CSV or Markdown"
            if self.window.exportReportAction.isEnabled()
            else "Available once a model is loaded and nothing is running"
        )
        self.window.copyMarkdownAction.setEnabled(self.window.exportReportAction.isEnabled())
        self.window.fitAction.setEnabled(idle and self.window.model_state is not None)
        self.window.trainStepAction.setEnabled(idle and self.window.model_state is not None)
        if self.window.fit_dialog is not None:
            self.window.fit_dialog.set_busy(not self.window.fitAction.isEnabled())
        # "Compare with…" needs a report from disk to compare the second one with (none
        # before the Compare view is built).
        if self.window.lazy_tabs.is_built("comparisonView"):
            view = self.window.comparisonView
            self.window.compareWithAction.setEnabled(view.reports["b"] is not None or not view.follows_session)
        else:
            self.window.compareWithAction.setEnabled(False)
        self.update_move_tip()

    def pinned_blocker(self) -> str | None:
        devices = self.window.model_state.placement.devices if self.window.model_state is not None else ()
        return pinned_blocker(self.window.action_bar.target_device(), devices)

    def target_changed(self) -> None:
        self.window.devices.select_device(self.window.action_bar.target_device())  # keep table and combo in step
        self.refresh()  # whether "pinned" applies depends on the target

    def update_move_tip(self) -> None:
        """The move buttons' tooltips and the price label: what each move holds at its peak."""
        a = self.window.action_bar
        state = self.window.model_state
        to_request = MoveRequest("to", device=a.target_device(), dtype=a.dtype(), pinned=a.pinned())
        if state is None:
            a.set_move_price("")
            return
        placement = state.placement
        if self._priced is None or self._priced[0] is not placement:
            self._priced = (placement, move_price.held_bytes(placement))
        held = self._priced[1]
        facts = {"warnings": state.info.move_warnings, "packed_weights": state.info.packed_weights}
        to_price = move_price.price_line(held, to_request, **facts)
        a.set_move_price(to_price)
        if a.toDeviceButton.isEnabled():
            call = call_code(to_request)
            a.toDeviceButton.setToolTip(
                f"{call}: works on every machine when the device falls back to the CPU.\n{to_price}"
            )
        for button, request in ((a.cudaButton, MoveRequest("cuda")), (a.cpuButton, MoveRequest("cpu"))):
            if button.isEnabled():
                tip = ActionBar.ENABLED_TIPS[button.objectName()]
                button.setToolTip(f"{tip}.\n{move_price.price_line(held, request, **facts)}")
