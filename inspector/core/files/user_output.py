"""Keep stdout for the program's own output while user code runs.

A factory, a trusted pickle or a model's forward may ``print`` (or write to file
descriptor 1 from C++, or start a process that does): with ``--json`` that would corrupt
the document on stdout. Inside ``user_output_to_stderr()`` all of it goes to stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout
from typing import TextIO


#: The stdout each ``user_output_to_stderr`` now active replaced: (stream, saved descriptor).
_OUTER: list[tuple[TextIO, int | None]] = []


@contextmanager
def user_output_to_stderr() -> Iterator[None]:
    """Point ``sys.stdout`` and, where stdout is file descriptor 1, the descriptor at stderr.

    Restored on the way out, whatever happens inside. Not thread-safe (a process has one
    stdout): the CLI calls it from its only thread.
    """
    original = sys.stdout
    original.flush()
    saved: int | None = None
    try:
        if sys.stdout.fileno() == 1 and sys.stderr.fileno() == 2:
            saved = os.dup(1)
            os.dup2(2, 1)
    except (AttributeError, OSError, ValueError):  # no real descriptors (a test's capture)
        saved = None
    _OUTER.append((original, saved))
    try:
        with redirect_stdout(sys.stderr):
            yield
    finally:
        _OUTER.pop()
        try:
            sys.stderr.flush()
            original.flush()  # what user code wrote to the old stream object: still stderr
        finally:
            if saved is not None:
                os.dup2(saved, 1)
                os.close(saved)


@contextmanager
def program_output() -> Iterator[None]:
    """Inside ``user_output_to_stderr``: stdout back for the program's own lines a moment
    (``fit`` prints its estimate before the real step, which runs user code again)."""
    if not _OUTER:
        yield
        return
    original, saved = _OUTER[-1]
    sys.stderr.flush()
    redirected: int | None = None
    if saved is not None:
        redirected = os.dup(1)
        os.dup2(saved, 1)
    try:
        with redirect_stdout(original):
            yield
    finally:
        try:
            original.flush()
        finally:
            if redirected is not None:
                os.dup2(redirected, 1)
                os.close(redirected)
