""""Will it fit?"'s table cells for one answer (``core.measure.fit_result.FitResult``): the device
as the answer names it (a planned GPU as planned, never the ``cuda:0`` its plan was laid out on),
its input and largest batch, and a CPU's measured peak below what RSS resolves said so rather
than "0 B" and "0.000" (issue 45 items 2 and 3); the question's choices as they read, and the
status line after an answer. Texts in context "FitDialog"."""

from __future__ import annotations

from typing import Any

from inspector.core.units import format_bytes
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

_MODES = ((QT_TRANSLATE_NOOP("FitDialog", "train step"), "train-step"), (QT_TRANSLATE_NOOP("FitDialog", "forward"), "forward"))
#: How each optimizer the estimate knows reads in the list (its value stays the CLI's name).
_OPTIMIZER_LABELS = {
    "none": QT_TRANSLATE_NOOP("FitDialog", "no optimizer"),
    "sgd": QT_TRANSLATE_NOOP("FitDialog", "SGD"),
    "sgd-momentum": QT_TRANSLATE_NOOP("FitDialog", "SGD with momentum"),
    "adam": QT_TRANSLATE_NOOP("FitDialog", "Adam"),
    "adamw": QT_TRANSLATE_NOOP("FitDialog", "AdamW"),
}


def shown_name(result: Any) -> str:
    """``"RTX 4090, planned: not on this machine"``, in the window's language; the device id otherwise;
    (a distributed plan's row adds its ranks: ``device_name``)."""
    return core_text(result.shown_device)


def answer_cells(result: Any) -> list[str]:
    """The row's cells, in ``dialog.COLUMNS``' order."""
    if result.fits is None:
        verdict = translate("FitDialog", "unknown")
    else:
        verdict = translate("FitDialog", "yes") if result.fits else translate("FitDialog", "NO")
    margin = "—"
    if result.margin_bytes is not None:
        margin = ("" if result.margin_bytes >= 0 else "−") + format_bytes(abs(result.margin_bytes))
    under = result.measured_note
    ratio = f"{result.ratio:.3f}" if result.ratio is not None and under is None else "—"
    peak = format_bytes(result.estimated_peak_bytes)
    later = getattr(result, "later_step_peak_bytes", None)
    if later is not None and later > result.estimated_peak_bytes:  # the verdict judges the larger
        peak = fill(translate("FitDialog", "%1 (later steps %2)"), peak, format_bytes(later))
    largest = "—"
    search = getattr(result, "batch_search", None)
    if search is not None:
        largest = fill(translate("FitDialog", "%1 (batch %2 does not fit)"), f"{search.batch:,}", f"{search.next_batch:,}") \
            if search.next_batch is not None else fill(translate("FitDialog", "at least %1"), f"{search.batch:,}")
    return [
        device_name(result, shown_name(result)),  # a plan's: "cpu, each of 4 ranks (fsdp)"
        core_text(result.shown_input),
        format_bytes(result.parameters_bytes),
        format_bytes(result.gradients_bytes),
        format_bytes(result.optimizer_state_bytes),
        format_bytes(result.activations_bytes),
        peak,
        format_bytes(result.free_bytes),
        verdict,
        margin,
        core_text(under) if under is not None else format_bytes(result.measured_peak_bytes),
        ratio,
        largest,
    ]


def _outcome_text(outcome: Any) -> str:
    """The status line after an answer: the question asked, and how it was estimated."""
    first = outcome.results[0] if outcome.results else None
    if first is None:
        return translate("FitDialog", "No device could be estimated.")
    shapes = ", ".join("x".join(map(str, s)) for s in first.input_shapes) or translate("FitDialog", "no input")
    mode = next((translate("FitDialog", label) for label, value in _MODES if value == first.mode), first.mode)
    text = translate("FitDialog", "One %1 in %2 with optimizer %3, input %4: estimated without allocating "
                                  "(FakeTensorMode + MemTracker) in %5 s.")  # fmt: skip
    optimizer = translate("FitDialog", _OPTIMIZER_LABELS[first.optimizer]) if first.optimizer in _OPTIMIZER_LABELS else first.optimizer
    return fill(text, mode, first.dtype, optimizer, shapes, f"{outcome.seconds:.2f}")


def device_name(result: Any, name: str) -> str:
    """The device row's name: a plan's says it is each of its ranks ("cpu, each of 4 ranks (fsdp)")."""
    plan = getattr(result, "cluster", None)
    if plan is None:
        return name
    return fill(translate("FitDialog", "%1, each of %2 ranks (%3)"), name, str(plan.gpus), plan.strategy)
