"""How the process ends: the exit code an error gives, and whether a torchrun rank leaves
without the interpreter's teardown.

Shared by the entry point (``inspector.cli``: ``main`` and ``entry``) and ``bench``'s rank
path, which sets the flag and gives rank 0's own error its code; it sits below both so that
no sub-command imports the package above it.
"""

from __future__ import annotations

from inspector.core.errors import InspectorError


def exit_code(exc: InspectorError) -> int:
    """2 for bad usage or input (an ``InputError``: the user can fix the command), 1 for an
    operation that failed."""
    from inspector.core.errors import InputError

    return 2 if isinstance(exc, InputError) else 1


#: Set by a torchrun rank: ``entry`` leaves without the interpreter's teardown. A rank's work
#: is done and sent by then; tearing down torch.distributed's C++ threads at exit sometimes
#: aborted a rank ("terminate called without an active exception", SIGABRT), and torchrun
#: then failed the whole job after rank 0 had written the report.
_LEAVE_AT_ONCE = False
