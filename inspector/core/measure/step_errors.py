"""A measured step that failed, in words a user can act on.

Only a failing forward call is blamed on the input's shape (with what PyTorch says the model
expected, where its message says it); a backward pass, an optimizer step or the device
failing is reported as what it is, and running out of memory as that.
"""

from __future__ import annotations

import re

from inspector.core.devices.discovery import is_out_of_memory
from inspector.core.errors import InputError, InspectorError
from inspector.core.messages import Text
from inspector.core.units import first_line
from inspector.core.vocabulary import FailureKind

_MATMUL = re.compile(r"mat1 and mat2 shapes cannot be multiplied \((\d+)x(\d+) and (\d+)x(\d+)\)")
_MISSING = re.compile(r"missing (\d+) required positional arguments?: (.+)$")
_TOO_MANY = re.compile(r"takes (\d+) positional arguments? but (\d+) (?:were|was) given")


class StepFailed(Exception):
    """What a timed step raised, and whether the model's forward call itself raised it.

    Only a failing forward call is blamed on the input's shape; a backward pass, an
    optimizer step or the device failing is reported as what it is.
    """

    def __init__(self, cause: BaseException, *, in_forward: bool):
        super().__init__(str(cause))
        self.cause = cause
        self.in_forward = in_forward


def _expected_shape_hint(message: str) -> str:
    """What PyTorch says the model expected, in words, where its message says it."""
    m = _MATMUL.search(message)
    if m:
        return Text("input.hint_last_dimension", wanted=m.group(3), got=m.group(2))
    m = _MISSING.search(message)
    if m:
        return Text("input.hint_missing_inputs", count=m.group(1), names=m.group(2))
    m = _TOO_MANY.search(message)
    if m:
        return Text("input.hint_forward_takes", count=int(m.group(1)) - 1)
    return ""


#: What a measured step is called in its failure ("forward pass", "training step").
_STEP_WORDS = {"forward pass": "failure.what_forward", "training step": "failure.what_training"}


def run_failed(
    exc: BaseException, shapes: list[tuple[int, ...]], device: str, what: str, *, blame_input: bool
) -> InspectorError:
    """Turn an exception from the measurement into a one-line error a user can act on.

    ``blame_input``: the model's forward call raised it, so the input's shape is the likely
    cause (an InputError naming it); otherwise it is an operation that failed.
    """
    shown = ", ".join(str(s) for s in shapes) or Text("failure.no_tensor")
    many = "s" if len(shapes) > 1 else ""
    step = Text(_STEP_WORDS[what]) if what in _STEP_WORDS else what
    if is_out_of_memory(exc):
        return InspectorError(
            Text(f"failure.step_oom_shape{many}", device=device, what=step, shapes=shown),
            detail=str(exc),
            kind=FailureKind.OOM,
        )
    message = first_line(exc)
    if not blame_input:
        return InspectorError(
            Text("failure.step_failed", what=step, device=device, error=message),
            detail=f"{type(exc).__name__}: {exc}",
        )
    return InputError(
        Text(f"input.step_failed_shape{many}", what=step, shapes=shown, error=message, hint=_expected_shape_hint(message)),
        detail=f"{type(exc).__name__}: {exc}",
    )
