"""What makes a window local or remote, handed to the one window class (``shell.window``) by the
app (``shell.app``, the composition root): a *kind* (``WindowKind``).

The window's class is the same for both: its frame, menus, parts and workers' wiring. What
differs is small and lives in its kind: the object name, the two workers (the session in this
process, or an agent's), the Open model dialog and the trust question (a remote window names
the server), the recent models (a remote window keeps none), the title (a remote one names its
host first), texts of its own said again on a change of language, whether the layout is saved
on close, and what the shutdown does around stopping the threads (a remote window closes the
agent's stdin first and waits for the agent after). What the *session* can do (lessons, work
that a Cancel cannot interrupt in this process) is not the kind's to say: the window asks the
session's ``capabilities`` (``core.session.SessionCapabilities``).

``KindHost`` is what a kind may reach on the window it is attached to, so a kind never imports
the window (``shell.remote_window`` is the remote kind; ``shell.window`` holds the local one).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QToolBar, QWidget

    from inspector.core.measure import MemoryTimeline
    from inspector.core.session import LoadRequest, ModelState
    from inspector.gui.common.actions import ActionRegistry
    from inspector.gui.common.error_banner import ErrorBanner
    from inspector.gui.features.devices.panel import DevicesPanel
    from inspector.gui.state.session_state import SessionState


class Opener(Protocol):
    """What a kind asks of the window's model opener (``features.model.opener.ModelOpener``)."""

    #: The load asked for last (spec, trust, architecture), if any.
    pending_load: LoadRequest | None

    def ask_trust(self, path: str, wanted: tuple[str, ...]) -> object:
        """The trust question (the box shown, window-modal)."""


class KindHost(Protocol):
    """The window as its kind sees it (``InspectorWindow`` is one)."""

    cancel_event: threading.Event
    session_state: SessionState
    errorBanner: ErrorBanner  # noqa: N815 (the window's object names)
    devices: DevicesPanel
    menu_actions: ActionRegistry
    #: Made with the session (before the kind's workers).
    timeline: MemoryTimeline

    @property
    def opener(self) -> Opener: ...

    @property
    def closed(self) -> bool: ...

    @property
    def model_state(self) -> ModelState | None: ...

    def open_model(
        self, spec: str, *, trust: bool = False, architecture: str | None = None, inputs: str | None = None
    ) -> bool: ...

    def cancel(self) -> None: ...

    def show_title(self, title: str | None) -> None:
        """The title again: the window's own part (a model's name, None: none yet) through its kind."""

    def window(self) -> QWidget:
        """The window as a widget (``QWidget.window``): the parent of the kind's dialogs."""

    def addToolBar(self, area: Qt.ToolBarArea, toolbar: QToolBar) -> None: ...  # noqa: N802 (Qt's name)


class WindowKind(Protocol):
    """What differs between a local and a remote window (see the module's docstring)."""

    #: The window's object name ("mainWindow", "remoteWindow").
    object_name: str
    #: The window deletes itself once closed (a remote one: the local window opened it).
    deletes_on_close: bool
    #: The layout is saved on close, and a close that would throw away a long benchmark asks
    #: first (the local window's; a remote window's close just ends its agent).
    saves_layout: bool
    #: File › Recent models: this machine's specs (a remote window opens the server's).
    keeps_recent_models: bool

    def attach(self, window: KindHost) -> None:
        """Called once by the window, with its frame and menus built, before its session."""

    def make_workers(self, hz: float) -> tuple[Any, Any]:
        """The model worker and the memory sampler (their signals as ``ModelWorker``'s and
        ``MemorySampler``'s); called once the session's parts exist (the timeline, the state)."""

    def open_model_dialog(self) -> None:
        """File › Open model…"""

    def ask_trust(self, path: str, wanted: tuple[str, ...]) -> None:
        """A file that needs to run code to load: ask whether to trust it."""

    def title(self, title: str | None) -> str | None:
        """The window's title for the window's own part ``title``; None: leave it as it is."""

    def retranslate(self) -> None:
        """The kind's own texts again, after the window's (a new language)."""

    def shutdown(self, stop: Callable[[], bool]) -> bool:
        """Around ``stop`` (the window's threads stopped and waited for): what it returns."""
