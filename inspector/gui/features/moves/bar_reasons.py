"""Why each of the action bar's controls is disabled now, and its tooltip while it is enabled:
pure functions of what the window knows (``ActionState``), in the language now installed, kept
apart from the bar's widgets so tests read them alone. Their texts keep the bar's translation
context, "ActionBar".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.task_words import task_label

#: Each control's tooltip while it is enabled (English, marked; ``enabled_tip`` translates).
ENABLED_TIPS = {
    "toDeviceButton": QT_TRANSLATE_NOOP(
        "ActionBar", "model.to(device, dtype): works on every machine when device falls back to the CPU"
    ),
    "cudaButton": QT_TRANSLATE_NOOP(
        "ActionBar", "model.cuda(): needs a CUDA GPU; on a machine without one you will see why .to(device) is preferred"
    ),
    "cpuButton": QT_TRANSLATE_NOOP("ActionBar", "model.cpu(): bring every tensor back to the CPU"),
    "benchmarkButton": QT_TRANSLATE_NOOP(
        "ActionBar", "Time the model on its current device (warm-up first; every sample kept)"
    ),
    "cancelButton": QT_TRANSLATE_NOOP(
        "ActionBar", "Stop the running move (it rolls back) or benchmark (between samples)"
    ),
    "pinnedCheck": QT_TRANSLATE_NOOP(
        "ActionBar",
        "Pin the host tensors (page-locked memory) and copy with non_blocking=True, for .to(device) "
        "and .cuda(): compare the GB/s with an unpinned move to see whether pinning pays here",
    ),
}


@dataclass(frozen=True)
class ActionState:
    """What the window knows that decides which buttons can act."""

    busy_task: str | None = None  # "load" | "move" | "benchmark" | "export"
    has_model: bool = False
    #: Why a benchmark cannot run now (no input, a bad shape, a split model); None if it can.
    benchmark_blocker: str | None = None
    #: Why a pinned move makes no sense now (see ``pinned_blocker``); None if it does.
    pinned_blocker: str | None = None


def pinned_blocker(target: str, model_devices: Sequence[str]) -> str | None:
    """Why the "pinned" option cannot apply to a move to ``target`` of a model whose tensors
    are on ``model_devices``; None when it can (a CUDA target, some tensors on the host).

    The move engine pins only for host -> CUDA copies (anywhere else it would ignore the
    option with a note), so the window does not offer it there.
    """
    kind = target.split(":", 1)[0]
    if kind == "cpu":
        return translate("ActionBar", "pinning only speeds host-to-GPU copies; no GPU is the target")
    if kind != "cuda":
        return fill(translate("ActionBar", "pinning only speeds host-to-CUDA copies; the target is %1"), target)
    if model_devices and "cpu" not in model_devices:
        devices = ", ".join(model_devices)
        return fill(translate("ActionBar", "pinning only speeds host-to-GPU copies; the model is already on %1"), devices)
    return None


_BUSY_WORDS = {
    "load": QT_TRANSLATE_NOOP("ActionBar", "a model is loading"),
    "move": QT_TRANSLATE_NOOP("ActionBar", "a move is running"),
    "benchmark": QT_TRANSLATE_NOOP("ActionBar", "a benchmark is running"),
    "export": QT_TRANSLATE_NOOP("ActionBar", "the report is being written"),
    "report": QT_TRANSLATE_NOOP("ActionBar", "the report is being built"),
    "train step": QT_TRANSLATE_NOOP("ActionBar", "a training step is running"),
}


def disabled_reasons(state: ActionState) -> dict[str, str | None]:
    """For each control, why it is disabled (None: enabled), in the language now installed.
    Kept pure so tests can read it."""
    if state.busy_task is not None:
        words = _BUSY_WORDS.get(state.busy_task)
        doing = translate("ActionBar", words) if words else task_label(state.busy_task)
        cancellable = state.busy_task in ("move", "benchmark", "load")
        if cancellable:
            busy = fill(translate("ActionBar", "Not now: %1 (Cancel stops it)"), doing)
        else:
            busy = fill(translate("ActionBar", "Not now: %1"), doing)
        reasons: dict[str, str | None] = {
            name: busy for name in ("toDeviceButton", "cudaButton", "cpuButton", "benchmarkButton", "pinnedCheck")
        }
        if cancellable:
            reasons["cancelButton"] = None
        elif words:
            reasons["cancelButton"] = fill(translate("ActionBar", "%1 cannot be cancelled"), translate("ActionBar", words))
        else:
            reasons["cancelButton"] = translate("ActionBar", "this cannot be cancelled")
        return reasons
    no_model = None if state.has_model else translate("ActionBar", "No model is loaded (File › Open model…)")
    benchmark_blocker = core_text(state.benchmark_blocker) if state.benchmark_blocker is not None else None
    pinned = core_text(state.pinned_blocker) if state.pinned_blocker is not None else None
    return {
        "toDeviceButton": no_model,
        "cudaButton": no_model,
        "cpuButton": no_model,
        "benchmarkButton": no_model or benchmark_blocker,
        "pinnedCheck": no_model or pinned,
        "cancelButton": translate("ActionBar", "Nothing to cancel: no move or benchmark is running"),
    }


def enabled_tip(name: str) -> str:
    """The tooltip of the control ``name`` while it is enabled, in the language now installed."""
    return translate("ActionBar", ENABLED_TIPS[name])
