"""Words several features say about how a task ended: a failure ("failed: …"), a file that
needs an architecture (as the window asks for one), and a device's "will it fit?" verdict.

Their translation context stays "WorkerResults" (the part that said them before the window
was made of features), so their translations are kept.
"""

from __future__ import annotations

from typing import Callable

from inspector.gui.common.i18n import core_text, fill, translate


def failed_text(message: str | Callable[[], str]) -> str:
    """A failed task's history row: "failed: " and its message (core's, or the function that says one)."""
    return fill(translate("WorkerResults", "failed: %1"), message() if callable(message) else core_text(message))


def architecture_message(message: str) -> str:
    """A file that needs an architecture, as the window asks for one (the CLI says --arch)."""
    return fill(translate(
        "WorkerResults",
        "%1: enter it in the Architecture field of File › Open model… (it opens with this file filled in)",
    ), core_text(message))  # fmt: skip


def fit_verdict(device: str, fits: bool | None, peak: str) -> str:
    """One device's answer to "will it fit?", in words."""
    if fits:
        return fill(translate("WorkerResults", "%1 fits (%2)"), device, peak)
    if fits is False:
        return fill(translate("WorkerResults", "%1 does not fit (%2)"), device, peak)
    return fill(translate("WorkerResults", "%1 unknown (%2)"), device, peak)
