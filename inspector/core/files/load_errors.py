"""What a failed model load says: its error kinds, and each failure told in one line.

Every loader (``factories``, ``model_files``, ``checkpoints``, ``state_dicts``) raises these,
so a front end learns what went wrong from the ``kind`` and shows one plain line, never a
traceback (that goes in ``detail``).
"""

from __future__ import annotations

import re
import traceback
from pathlib import Path
from typing import Any

from inspector.core.errors import InputError
from inspector.core.files.dangerous_names import dangerous_first, described, is_dangerous
from inspector.core.messages import Text, joined
from inspector.core.vocabulary import FailureKind


class ModelLoadError(InputError):
    """A model spec or model file could not be turned into a module (the user's input: exit 2)."""

    kind = FailureKind.LOAD


class ArchitectureNeeded(ModelLoadError):
    """A file holds only weights: the user must name the model they belong to. Each front
    end says where (the CLI's ``--arch``, the window's Architecture field)."""

    kind = FailureKind.ARCHITECTURE


class UntrustedFileError(ModelLoadError):
    """A file needs arbitrary code to load; nothing of it ran. ``wanted``: what it asked for."""

    kind = FailureKind.UNTRUSTED

    def __init__(self, message: str, *, path: str, wanted: tuple[str, ...], detail: str = ""):
        super().__init__(message, detail=detail)
        self.path = path
        self.wanted = wanted


def user_code_error(message: str, exc: BaseException) -> ModelLoadError:
    """User code (a factory, its module, a trusted pickle) raised ``exc``: the error to raise.

    Ctrl+C stays Ctrl+C (re-raised here); anything else user code raises (SystemExit, a
    custom BaseException subclass) is the user's code failing, told in ``message`` with the
    traceback as detail. Call it from the ``except`` block that caught ``exc``.
    """
    if isinstance(exc, KeyboardInterrupt):
        raise exc
    return ModelLoadError(message, detail=traceback.format_exc())


def incomplete(path: Path, reason: str) -> ModelLoadError:
    """The file is damaged or in no format PyTorch writes: the user needs another file."""
    return ModelLoadError(Text("load.incomplete", path=path, reason=reason))


#: How many of the names a refusal shows in its line: every one that reaches the system (up
#: to DANGEROUS_SHOWN), then classes up to NAMES_SHOWN in all; the rest are in ``detail``.
NAMES_SHOWN = 5
DANGEROUS_SHOWN = 12


def untrusted(
    path: Path, wanted: tuple[str, ...], detail: str = "", *, reason: str | None = None
) -> UntrustedFileError:
    """The refusal of a file that needs trust, naming the things it wants to run: those
    that reach the system first and never left out for classes, said for what they do
    (``posix.system — runs a shell command``). The whole list is in ``detail`` (``--debug``).
    ``reason``: why it needs trust (default: "loading it would run code it names")."""
    wanted = dangerous_first(wanted)
    if wanted:
        message = Text("load.untrusted", path=path, reason=reason or Text("load.reason_runs_code"),
                       wanted=shown_names(wanted))  # fmt: skip
        listed = "\n".join(f"  {described(item)}" for item in wanted)
        detail = f"{path} asks for:\n{listed}" + (f"\n\n{detail}" if detail else "")
    else:
        message = Text("load.untrusted_unreadable", path=path)
    return UntrustedFileError(
        message,
        path=str(path),
        wanted=wanted,
        detail=detail,
    )


def shown_names(wanted: tuple[str, ...]) -> str:
    """The names of ``wanted`` (ordered by ``dangerous_first``) a one-line refusal shows,
    described, with "and N more (…where to see them)" for the rest."""
    dangerous = [item for item in wanted if is_dangerous(item)][:DANGEROUS_SHOWN]
    others = [item for item in wanted if not is_dangerous(item)][: max(0, NAMES_SHOWN - len(dangerous))]
    shown = [described(item) for item in dangerous + others]
    more = len(wanted) - len(shown)
    names = joined(shown)
    return Text("load.untrusted_more", names=names, more=more) if more else names


def describe(exc: BaseException) -> str:
    """One line: "TypeError: message", long messages cut, PyTorch's ANSI bold removed."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    text = " ".join(text.split())
    if len(text) > 300:
        text = text[:297] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def a_value_of(value: Any) -> str:
    """ "a str", "a tuple of 3 items", "None" — what a user needs to see what went wrong."""
    if value is None:
        return "None"
    name = type(value).__name__
    article = "an" if name[:1].lower() in "aeiou" else "a"
    if isinstance(value, (tuple, list, dict)):
        return Text(f"load.value_{article}_of", type=name, count=len(value))
    return Text(f"load.value_{article}", type=name)
