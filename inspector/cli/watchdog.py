"""``bench`` keeps its own cap even when a forward never returns.

A measurement stops at ``MAX_MEASURE_SECONDS`` between samples; a forward that never
returns (a model waiting on something that never comes, a hung driver) never reaches the
next check, and nothing can interrupt it from outside. So each measurement runs under a
watchdog: past the cap plus GRACE_S (a slow model's last sample and its warm-up calls), it
says so in one line and ends the process with status 1, rather than hang a script or a CI
job for ever. A Python loop in the forward still lets the watchdog's thread run (the
interpreter switches threads every few milliseconds), and a C call that sleeps releases
the interpreter.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator

from inspector.cli.printing import _say
from inspector.core.vocabulary import MAX_MEASURE_SECONDS

#: A measurement's cap (read at each start, so a test can make it tiny).
CAP_S = MAX_MEASURE_SECONDS
#: Past the cap, how long the watchdog still waits: a slow model's last sample and warm-ups.
GRACE_S = 300.0

#: Ends the process without the interpreter's teardown, which would wait for the stuck
#: thread (a test replaces it).
_leave: Callable[[int], None] = os._exit


@contextlib.contextmanager
def measurement_watchdog(what: str) -> Iterator[None]:
    """Run the block under the watchdog: ``what`` ("the benchmark on cuda:0") names it in
    the line said if it outlives CAP_S + GRACE_S."""
    cap, grace = CAP_S, GRACE_S
    done = threading.Event()

    def watch() -> None:
        if done.wait(cap + grace):
            return
        _say(f"error: {what} has not returned {cap + grace:,.0f} s after it began (a measurement stops at "
             f"{cap:,.0f} s): a forward pass that never returns cannot be interrupted; exiting")  # fmt: skip
        sys.stdout.flush()
        _leave(1)

    threading.Thread(target=watch, name="bench-watchdog", daemon=True).start()
    try:
        yield
    finally:
        done.set()
