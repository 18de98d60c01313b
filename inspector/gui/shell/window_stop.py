"""How a window's session stops (``InspectorWindow.shutdown`` calls it, inside what its kind
does around it): the task machine closed (the cancel event set: a running move or benchmark
stops at its next safe point), the sample gate released, both workers' threads quit and waited
for, and a report file being written finished rather than abandoned, all within one bound.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from inspector.gui.state.threads import stop_threads

#: After a close's bound, how much longer the hidden window waits for work that cannot
#: be interrupted to reach its next cancel check.
LINGER_S = 20.0


class Stopping(Protocol):
    """What is asked of the window (``shell.window.InspectorWindow``) to stop its session."""

    tasks: Any  # state.tasks.TaskController
    sample_gate: Any  # state.sample_gate.SampleGate | None
    session_started: bool
    requests: Any  # state.requests.Requests: the sampler stops on its stop_sampler (on its own thread)
    model_thread: Any
    sampler_thread: Any
    features: Any  # state.feature.FeatureContext: the waits the features left in it

    def hide(self) -> None: ...


def stop_session(window: Stopping, timeout_s: float) -> bool:
    """True when everything ended within ``timeout_s`` (see the module docstring)."""
    window.tasks.close()  # sets the cancel event: a running move or benchmark stops
    gate = window.sample_gate
    if gate is not None:  # the worker no longer waits for this thread to park
        gate.close()
    if not window.session_started:  # closed while torch was being imported: no thread of its own
        return True
    deadline = time.monotonic() + timeout_s
    window.requests.stop_sampler.emit()  # the sampler stops its timer and quits its own thread
    window.model_thread.quit()  # ends once the running move/benchmark sees the cancel
    threads = [window.model_thread, window.sampler_thread]
    stopped = stop_threads(threads, timeout_s, quit=False)
    if not stopped:
        # The cancel is set; what still runs cannot be interrupted (a first import of
        # torch._dynamo takes ~2 s under load). A QThread destroyed while it runs aborts
        # the process, so the window goes out of sight and waits for it a while longer.
        window.hide()
        stopped = stop_threads(threads, LINGER_S, quit=False)
        deadline = time.monotonic() + timeout_s
    # A file being written is finished rather than abandoned (it is written atomically,
    # so even an interrupted one would leave the old file), within what is left of the bound.
    for wait in window.features.waits:
        stopped = wait(max(0, int((deadline - time.monotonic()) * 1000))) and stopped
    return stopped
