"""``agent``: serve a Session over JSON lines on stdin/stdout, the far end of the window's
"Connect to server…" (reached through ssh; never listens on a socket)."""

from __future__ import annotations

import sys


def cmd_agent(args) -> int:
    """The remote session's far end (``inspector.core.remote.agent``): protocol on stdout, all else on stderr."""
    import os

    from inspector.core.remote import run_agent

    status = run_agent()
    sys.stderr.flush()
    # At once: its work is cancelled and answered, nothing is left to write, and tearing down
    # the interpreter (torch's modules, a worker still leaving a long forward) takes seconds
    # the window would spend waiting for it to go.
    os._exit(status)
