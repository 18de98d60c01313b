"""While transformers reads a config and builds its model, nothing it calls may start a process
or reach the network, whatever the model's code does next.

The gate's other steps refuse what a config names (a Hub kernel, a class outside the
allow-list), but a class transformers ships can reach further by itself: RWKV's builder runs
``ninja --version`` to decide whether to compile a kernel, then asks the Hub's ``kernels`` for
one (transformers' own ``get_kernel``, which ``USE_HUB_KERNELS=NO`` does not reach); YOSO, MRA
and some quantizers do the same on a GPU. So the load runs sealed: an audit hook (installed
once per process; a hook cannot be removed) refuses, on the loading thread only, every event
that starts a process or opens or resolves a connection. The refusal is an exception raised
where the library made the call: code that probes (``is_ninja_available``) takes it as "not
there" and goes on; code that needs it fails, and the load says so in one line. What was
refused is said in the load's notes.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: The audit events that start a process or reach the network.
REFUSED = frozenset({
    "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "pty.spawn",
    "socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
})  # fmt: skip

_here = threading.local()
_lock = threading.Lock()
_installed = False


class SealedLoad(OSError):
    """What a library meets when it tries to start a process or connect during a sealed load
    (an ``OSError``: what those calls raise when they cannot, so a probe takes it as "not here")."""


def _describe(event: str, args: tuple[Any, ...]) -> str:
    if event == "subprocess.Popen" and len(args) > 1 and args[1] is not None:
        return " ".join(str(part) for part in list(args[1])[:6])
    if event.startswith("socket.") and len(args) > 1:
        return f"{event} {args[1]!r}"[:200]
    return event


def _hook(event: str, args: tuple[Any, ...]) -> None:
    refused = getattr(_here, "refused", None)
    if refused is None or event not in REFUSED:
        return
    what = _describe(event, args)
    refused.append(what)
    raise SealedLoad(f"refused while a Hugging Face folder loads: {what}")


@contextmanager
def sealed() -> Iterator[list[str]]:
    """Run the block sealed on this thread; yields the list of what was refused (filled as it goes)."""
    global _installed
    with _lock:
        if not _installed:
            sys.addaudithook(_hook)
            _installed = True
    outer = getattr(_here, "refused", None)
    refused: list[str] = []
    _here.refused = refused
    try:
        yield refused
    finally:
        _here.refused = outer
