"""What a test's worker runs (``core.launcher.run_app_worker(ENTRY, argv)``): small entries that
report how the worker was started, or stay alive the way a long measurement does."""

from __future__ import annotations

import json
import os
import sys
import time


def report() -> None:
    """Print, as one JSON line, what a worker's start decided: flags, folder, argv, its app."""
    import inspector

    print(json.dumps({
        "isolated": sys.flags.isolated, "cwd": os.getcwd(), "cwd_entries": os.listdir(os.getcwd()),
        "argv": sys.argv[1:], "xoptions": sorted(sys._xoptions), "warnoptions": list(sys.warnoptions),
        "inspector": os.path.realpath(inspector.__file__), "path": sys.path,
    }))  # fmt: skip


def stay_without_deathsig() -> None:
    """Write this process's pid to ``argv[1]``, clear the kernel's parent-death signal, and stay
    busy (as a measurement is): only the pipe from the parent can end it now."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, 0, 0, 0, 0)  # PR_SET_PDEATHSIG, none
    with open(sys.argv[1] + ".tmp", "w") as out:
        out.write(str(os.getpid()))
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
    end = time.monotonic() + 600
    while time.monotonic() < end:  # pure Python, holding the GIL between switches
        sum(range(1000))
