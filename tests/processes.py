"""Watching processes a test started end: absence checked against a generous deadline, never speed."""

from __future__ import annotations

import time

import psutil

#: How long a test lets a process it ended (its stdin closed) exit cleanly: generous, since a loaded
#: machine can take seconds to unload torch, and the test asserts the clean exit, not its speed.
CLEAN_EXIT_S = 60.0

#: How long a test waits for something it then asserts happened (a thread joined, a signal, a
#: worker's result): a deadline only a hang reaches, since CI runs at a load of 16 on 2 cores.
#: A short wait is right only where the test asserts that something did NOT happen.
GENEROUS_S = 60.0


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE  # dead, waiting for init to reap it
    except psutil.NoSuchProcess:
        return True


def wait_for(condition, seconds: float) -> bool:
    """Poll ``condition`` until it holds or a generous deadline passes (absence, not speed)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()
