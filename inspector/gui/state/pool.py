"""``run_in_pool``: the one way the window runs a short job (a file read or written) off the
GUI thread and hears how it went."""

from __future__ import annotations

from typing import Callable, TypeVar

from PySide6.QtCore import QThreadPool

from inspector.core.errors import Failure, InspectorError
from inspector.core.vocabulary import FailureKind


#: What the job returns, which ``done`` is handed.
R = TypeVar("R")


def run_in_pool(
    pool: QThreadPool,
    work: Callable[[], R],
    *,
    done: Callable[[R], None],
    failed: Callable[[Failure], None],
    unforeseen: Callable[[Exception], str],
) -> None:
    """Run ``work()`` on ``pool``; then ``done(result)`` or ``failed(Failure)``, exactly one.

    Both run on the pool thread: pass a signal's ``emit`` (queued to the receiver's thread),
    never a function that touches a widget. ``unforeseen(exc)`` says an error nobody foresaw
    (a bug), which reaches the user instead of dying on the pool thread: a whole sentence in
    the window's language, said by the caller (``fill(translate(ctx, "could not open %1: %2"),
    path, exc)``), so this module translates nothing and imports none of the window's.
    """

    def run() -> None:
        try:
            result = work()
        except InspectorError as exc:
            failed(Failure.from_exception(exc))
        except Exception as exc:  # noqa: BLE001 -- a bug must still reach the user, not die on the pool thread
            failed(Failure(FailureKind.ERROR, unforeseen(exc), repr(exc)))
        else:
            done(result)

    pool.start(run)
