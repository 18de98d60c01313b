"""Errors a user can cause, and the plain-value form in which they cross threads."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.core.vocabulary import FailureKind


class InspectorError(Exception):
    """A failure with a message fit to show a user as-is.

    ``kind`` is a short machine-readable tag (a ``FailureKind``: ``"load"``, ``"untrusted"``,
    ``"device"``, ``"oom"``, ``"input"``, ``"cancelled"``, ...) the GUI and CLI use to pick
    wording; ``detail`` holds optional extra text (a hint, the underlying error). Exit codes
    are the CLI's business (``inspector.cli.exit_code``): an ``InputError`` is the user's to fix.
    """

    kind: str = FailureKind.ERROR

    def __init__(self, message: str, *, detail: str = "", kind: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail
        if kind is not None:
            self.kind = kind


class InputError(InspectorError):
    """Something the user gave us is wrong: a spec, a file, a shape, a device name."""

    kind = FailureKind.INPUT


class Cancelled(InspectorError):
    """The user asked to stop; work was rolled back or left at a safe point."""

    kind = FailureKind.CANCELLED


@dataclass(frozen=True)
class Failure:
    """An error as plain values, safe to send through a Qt signal or write to a report."""

    kind: str
    message: str
    detail: str = ""

    @classmethod
    def from_exception(cls, exc: BaseException) -> "Failure":
        if isinstance(exc, InspectorError):
            return cls(exc.kind, exc.message, exc.detail)
        return cls(type(exc).__name__, str(exc) or type(exc).__name__, "")
