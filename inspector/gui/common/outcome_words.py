"""Words several features say about how a task ended: a failure ("failed: …"), a file that
needs an architecture (as the window asks for one), and a device's "will it fit?" verdict.

"OutcomeWords", this module's name, is the translation context of every feature's words about
how a task ended (the bar's, the History's rows, the Memory tab's marks, the code view's captions):
one context, so a sentence said by two features is translated once.
"""

from __future__ import annotations

from typing import Callable

from inspector.gui.common.i18n import core_text, fill, translate


def failed_text(message: str | Callable[[], str]) -> str:
    """A failed task's history row: "failed: " and its message (core's, or the function that says one)."""
    return fill(translate("OutcomeWords", "failed: %1"), message() if callable(message) else core_text(message))


def architecture_message(message: str) -> str:
    """A file that needs an architecture, as the window asks for one (the CLI says --arch)."""
    return fill(translate(
        "OutcomeWords",
        "%1: enter it in the Architecture field of File › Open model… (it opens with this file filled in)",
    ), core_text(message))  # fmt: skip


def fit_verdict(device: str, fits: bool | None, peak: str) -> str:
    """One device's answer to "will it fit?", in words."""
    if fits:
        return fill(translate("OutcomeWords", "%1 fits (%2)"), device, peak)
    if fits is False:
        return fill(translate("OutcomeWords", "%1 does not fit (%2)"), device, peak)
    return fill(translate("OutcomeWords", "%1 unknown (%2)"), device, peak)
