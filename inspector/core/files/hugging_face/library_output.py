"""What the libraries print while a Hugging Face folder is read, escaped like the app's own lines.

Transformers repeats text from the config in its warnings: ``"rope_type": "\\x1b]0;TITLE\\x07\\x1b[2J"``
set the terminal's title and cleared the screen through its logger. So while the app reads a
folder, every line a library would print is taken instead and said again, one line each,
control characters escaped (``terminal_text.one_line``):

- the records of the libraries' loggers (``transformers``, ``huggingface_hub``, ``kernels``,
  ``accelerate``; their own handlers are set aside for the load, so a record reaches only us),
  at the levels those loggers let through;
- ``warnings.warn`` (as the filters in force would show them);
- writes to ``sys.stdout`` / ``sys.stderr`` (a stray ``print``; a progress bar's carriage
  returns: bars are also switched off, ``libraries``).

The lines go to stderr and into the load's notes (the window shows those). ``SHOWN`` lines at
most, then how many more. Writes made below Python, on file descriptors 1 and 2, are not taken:
the libraries make none while reading a folder. Not thread-safe (a process has one stdout):
the CLI's only thread or the window's one model worker reads folders.
"""

from __future__ import annotations

import io
import logging
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout

from inspector.core.files.terminal_text import one_line
from inspector.core.messages import Text

LIBRARIES = ("transformers", "huggingface_hub", "kernels", "accelerate")
#: Lines said again; the rest are counted.
SHOWN = 20


class _Taken(logging.Handler):
    def __init__(self, lines: list[str]) -> None:
        super().__init__(logging.NOTSET)
        self.lines = lines

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(f"[{record.name.partition('.')[0]}] {record.getMessage()}")
        except Exception:  # noqa: BLE001 -- a record whose arguments do not format: its template
            self.lines.append(f"[{record.name.partition('.')[0]}] {record.msg}")


@contextmanager
def taken_output(lines: list[str]) -> Iterator[None]:
    """Inside, what the libraries print is appended to ``lines`` (raw) instead."""
    handler = _Taken(lines)
    saved = []
    for name in LIBRARIES:
        logger = logging.getLogger(name)
        saved.append((logger, logger.handlers[:], logger.propagate))
        logger.handlers = [handler]
        logger.propagate = False
    printed = io.StringIO()
    try:
        with warnings.catch_warnings(record=True) as caught, redirect_stdout(printed), redirect_stderr(printed):
            yield
    finally:
        for logger, handlers, propagate in saved:
            logger.handlers = handlers
            logger.propagate = propagate
        lines += [f"[{w.category.__name__}] {w.message}" for w in caught]
        lines += [line for line in printed.getvalue().replace("\r", "\n").splitlines() if line.strip()]


def said_again(lines: list[str]) -> list[str]:
    """The lines, each once, escaped and one line each (``SHOWN`` at most, then how many
    more), printed on stderr; returned for the load's notes."""
    unique = list(dict.fromkeys(lines))
    shown = [one_line(line) for line in unique[:SHOWN]]
    if len(unique) > SHOWN:
        shown.append(Text("load.hf_library_more", count=f"{len(unique) - SHOWN:,}"))
    for line in shown:
        print(line, file=sys.stderr)
    return shown
