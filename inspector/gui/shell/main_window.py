"""The main window: the window (``gui.window``) with its session in this process.

Its model worker and memory sampler run on threads of their own here; a remote session's
window (``gui.remote_window``) is the same window with an agent's instead.
"""

from __future__ import annotations

from typing import Any

from inspector.gui.shell.window import InspectorWindow


class MainWindow(InspectorWindow):
    def _make_workers(self, hz: float) -> tuple[Any, Any]:
        # Imported with the session (torch comes with them), not with the window's frame.
        from inspector.gui.state.sample_gate import SampleGate
        from inspector.gui.state.sampler import MemorySampler
        from inspector.gui.state.workers import ModelWorker

        # The GUI thread and the sampler stop while a chunk of samples is timed (``gui.sample_gate``).
        self.sample_gate = SampleGate(self)
        self.sample_gate.give_up = self.cancel_event.is_set
        worker = ModelWorker(self.cancel_event, self.timeline, gate=self.sample_gate, stop_event=self.tasks.stop_event)
        return worker, MemorySampler(self.timeline, hz, gate=self.sample_gate)
