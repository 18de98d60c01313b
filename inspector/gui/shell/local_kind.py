"""The default kind of window (``window_kind.WindowKind``): the session in this process, this
machine's recent models and layout. The window makes one when it is handed no kind; like the
remote kind (``remote_window``), it never imports the window: it knows it as ``LocalHost``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

from inspector.gui.shell.window_kind import KindHost

if TYPE_CHECKING:
    from inspector.gui.state.sample_gate import SampleGate
    from inspector.gui.state.tasks import TaskController


class LocalOpener(Protocol):
    """What the local kind asks of the model feature's opener."""

    def open_dialog(self, recent: list[str]) -> object: ...

    def ask_trust(self, path: str, wanted: tuple[str, ...]) -> object: ...


class LocalHost(KindHost, Protocol):
    """The window as the local kind sees it (``InspectorWindow`` is one)."""

    tasks: TaskController
    #: Parks the window's threads around timed samples (the local kind makes it).
    sample_gate: SampleGate | None

    @property
    def opener(self) -> LocalOpener: ...  # type: ignore[override]

    def recent_models(self) -> list[str]: ...


class LocalKind:
    """The session in this process (see the module docstring)."""

    object_name = "mainWindow"
    deletes_on_close = False
    saves_layout = True
    keeps_recent_models = True

    def attach(self, window: KindHost) -> None:
        # The window that made it (``InspectorWindow.__init__``): the local kind is its own.
        self.window: LocalHost = window  # type: ignore[assignment]

    def make_workers(self, hz: float) -> tuple[Any, Any]:
        # Imported with the session (torch comes with them), not with the window's frame.
        from inspector.gui.state.sample_gate import SampleGate
        from inspector.gui.state.sampler import MemorySampler
        from inspector.gui.state.workers import ModelWorker

        window = self.window
        # The GUI thread and the sampler stop while a chunk of samples is timed (``state.sample_gate``).
        gate = window.sample_gate = SampleGate(window.window())
        gate.give_up = window.cancel_event.is_set
        worker = ModelWorker(window.cancel_event, window.timeline, gate=gate, stop_event=window.tasks.stop_event)
        return worker, MemorySampler(window.timeline, hz, gate=gate)

    def open_model_dialog(self) -> None:
        self.window.opener.open_dialog(self.window.recent_models())

    def ask_trust(self, path: str, wanted: tuple[str, ...]) -> None:
        self.window.opener.ask_trust(path, wanted)

    def title(self, title: str | None) -> str | None:
        return title

    def retranslate(self) -> None:
        pass  # nothing of its own

    def shutdown(self, stop: Callable[[], bool]) -> bool:
        return stop()
