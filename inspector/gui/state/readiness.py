"""Whether the model can be benchmarked as the action bar asks, and what with: the inputs the
field asks for, the device and dtype the run will name, and the refusal's reason in words.
Shared by two features: the moves feature's ``availability`` disables the Benchmark button
with it, the latency feature's ``launch`` asks it again at the click. Its words keep the
translation context "CommandAvailability" they were said in before."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from inspector.core.errors import InputError
from inspector.core.files import InputSpec, parse_inputs
from inspector.gui.common.i18n import core_text, fill, translate

if TYPE_CHECKING:
    from inspector.core.session import ModelState


class InputField(Protocol):
    """What is read of the action bar here (the moves feature's ``ActionBar``): its input-shape field."""

    def input_shape_text(self) -> str: ...


def input_shape(action_bar: InputField) -> tuple[InputSpec, ...] | None:
    """The inputs the field asks for (``core.files.inputs`` syntax); None: the model's own."""
    text = action_bar.input_shape_text()
    return parse_inputs(text) if text else None


def model_device_and_dtype(state: ModelState | None) -> tuple[str, str]:
    """Where a benchmark will run and in which dtype, as the snapshot tells it ("?" when it
    cannot: the result names the run exactly when it comes back)."""
    if state is None:
        return "?", "?"
    devices = state.placement.devices
    floating = (r.dtype for r in state.placement.tensors
                if r.kind == "parameter" and r.dtype.startswith(("float", "bfloat", "complex")))  # fmt: skip
    return (devices[0] if len(devices) == 1 else "?"), next(floating, "?")


def benchmark_blocker(state: ModelState | None, action_bar: InputField) -> str | None:
    """Why the benchmark cannot run now, in words; None when it can."""
    if state is None:
        return translate("CommandAvailability", "No model is loaded (File › Open model…)")
    if any(f.code == "split_model" for f in state.placement.warnings):
        return translate(
            "CommandAvailability", "The model is split across devices: move it as a whole first (.to(device) or .cpu())"
        )
    try:
        shape = input_shape(action_bar)
    except InputError as exc:
        return fill(translate("CommandAvailability", "Input shape: %1"), core_text(exc.message))
    if shape is None and not state.info.has_example_input:
        return translate(
            "CommandAvailability", "This model brings no example input: enter an input shape such as 1,3,224,224"
        )
    return None
