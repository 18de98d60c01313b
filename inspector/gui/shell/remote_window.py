"""File › Connect to server…: a second window whose session runs on another machine.

The user names a host and the command that reaches an agent there in ``connect_dialog``'s
dialog (``ssh -- HOST torch-device-inspector agent`` by default; ``ssh -J bastion -- host …``,
``kubectl exec -i pod -- …`` or a remote venv's path work as well: the command is theirs);
the app's ``connect_server`` opens the window for them: the one window class
(``shell.window.InspectorWindow``) of the kind here, ``RemoteKind`` (``shell.window_kind``),
whose workers drive ``features.remote.link``'s connection: the same panels show the server's
devices, model, moves, benchmarks and memory. The local window stays open beside it. This
module never imports the window: it reaches it as ``window_kind.KindHost``.

A dropped connection shows the error banner, keeps the history, plots and the last report,
and offers Reconnect (a new agent; the model is opened again). Disconnect ends the agent on
purpose. Closing the window closes the agent's stdin: it cancels its work and exits.

Help › Lessons stays off here (the window asks the session's capabilities): the lessons run in
the local window (the agent's protocol has no lesson to run). The texts that follow the
connection (the remote bar, the window title, the devices' title, a dropped connection's
banner, the trust question) are kept as state and said again in the new language when it
changes; their translation context stays "RemoteWindow".
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from PySide6.QtCore import QObject, Qt, QTimer, Slot
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QToolBar, QWidget

from inspector.core.remote import AgentInfo
from inspector.gui.common import dialogs
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.common.plain_text import plain_label
from inspector.gui.common.plain_text import shown as shown_text
from inspector.gui.features.lessons import actions as lessons_actions
from inspector.gui.features.remote.link import RemoteLink, RemoteSampler
from inspector.gui.shell.window_kind import KindHost
from inspector.gui.state.notes import Note, NoteFailure
from inspector.gui.state.workers import ModelWorker

log = logging.getLogger(__name__)


class RemoteKind(QObject):
    """The window's remote kind (``window_kind.WindowKind``): its session in an agent on
    ``host`` reached through ``command``. A QObject, the window's child once attached: the
    link's signals reach its slots on the GUI thread."""

    object_name = "remoteWindow"
    #: The local window opened it; closed, it goes.
    deletes_on_close = True
    #: No saved layout (that is the local window's), and a close just ends the agent.
    saves_layout = False
    #: The local recent list holds this machine's specs; this window opens the server's.
    keeps_recent_models = False

    def __init__(self, host: str, command: str | list[str]) -> None:
        super().__init__()
        self.host = host
        self._command = command
        self.agent_info: AgentInfo | None = None
        self.connection_lost: str | None = None
        #: The connection to the agent (made with the workers).
        self.link: RemoteLink | None = None
        # What the remote bar, the title and the banner say, kept so a new language can say it again.
        self._connection: str = "connecting"  # connecting | connected | disconnected | lost | reconnecting
        self._title: str | None = None  # the window's own title; None: still connecting
        self._trust_path: str | None = None
        self.trust_box: Any = None

    def attach(self, window: KindHost) -> None:
        self.window = window
        self.setParent(window.window())

    # ----- built with the window's session (before its first load is sent)

    def make_workers(self, hz: float) -> tuple[Any, Any]:
        window = self.window
        self.link = RemoteLink(self.host, self._command, window.timeline, hz)
        # The stock worker, driving the agent's session (the link starts and watches its connection).
        worker = ModelWorker(window.cancel_event, session=self.link.session)
        sampler = RemoteSampler(window.timeline, self.link)
        self.link.signals.connected.connect(self._on_connected)
        self.link.signals.connectionLost.connect(self._on_connection_lost)
        self.link.signals.inventoryReady.connect(window.session_state.set_inventory)
        window.session_state.set_host(self.host)  # (the devices feature names it)
        self._build_remote_bar()
        self._retranslate_remote()  # (the title too: the host, "connecting…")
        return worker, sampler

    def _build_remote_bar(self) -> None:
        bar = QToolBar(self.window.window())
        bar.setObjectName("remoteBar")
        bar.setMovable(False)
        self.remoteStatus = plain_label(QLabel(bar))
        self.remoteStatus.setObjectName("remoteStatus")
        self.reconnectButton = QPushButton(bar)
        self.reconnectButton.setObjectName("reconnectButton")
        self.reconnectButton.clicked.connect(self.reconnect)
        self.reconnectButton.setEnabled(False)
        self.disconnectButton = QPushButton(bar)
        self.disconnectButton.setObjectName("disconnectButton")
        self.disconnectButton.clicked.connect(self.disconnect_server)
        bar.addWidget(self.remoteStatus)
        spacer = QWidget(bar)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar.addWidget(spacer)
        bar.addWidget(self.reconnectButton)
        bar.addWidget(self.disconnectButton)
        self.window.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.remoteBar = bar

    def title(self, title: str | None) -> str:
        """``host — title``; None: the host and "connecting…" (in the language of the moment)."""
        self._title = title
        shown = translate("RemoteWindow", "connecting…") if title is None else title
        return f"{shown_text(self.host)} — {shown}"

    # ----- its texts, again in each new language

    def retranslate(self) -> None:
        """After the window's (the menus first: they reset the Lessons action's tooltip)."""
        self._retranslate_remote()
        # Parts that set their texts after this window (its child widgets, the trust box)
        # could overwrite what names the server: say it again once they all have.
        QTimer.singleShot(0, self, self._retranslate_remote)

    def _retranslate_remote(self) -> None:
        if self.link is None:  # no remote bar before the window's session
            return
        window = self.window
        if window.closed:
            return
        self.remoteBar.setWindowTitle(translate("RemoteWindow", "Server"))
        self.reconnectButton.setText(translate("RemoteWindow", "Reconnect"))
        self.reconnectButton.setToolTip(
            translate("RemoteWindow", "Start the agent again with the same command and reopen the model")
        )
        self.disconnectButton.setText(translate("RemoteWindow", "Disconnect"))
        self.disconnectButton.setToolTip(
            translate("RemoteWindow", "End the agent on the server; what was measured stays in this window")
        )
        window.menu_actions.action(lessons_actions.SHOW).setToolTip(
            fill(translate("RemoteWindow", "The lessons run in the local window: the agent on %1 cannot run them"),
                 self.host)
        )  # fmt: skip
        window.show_title(self._title)
        self._show_connection()
        self._retranslate_trust_box()

    def _show_connection(self) -> None:
        """The remote bar's status, from the state of the connection."""
        host, info, state = self.host, self.agent_info, self._connection
        if state == "connected" and info is not None:
            if info.host == host:
                text = fill(translate("RemoteWindow", "Connected to %1 · agent %2 · torch %3 · Python %4"),
                            host, info.agent, info.torch, info.python)  # fmt: skip
            else:
                text = fill(translate("RemoteWindow", "Connected to %1 (%2) · agent %3 · torch %4 · Python %5"),
                            host, info.host, info.agent, info.torch, info.python)  # fmt: skip
        elif state == "disconnected":
            text = fill(translate("RemoteWindow", "Disconnected from %1: what was measured stays here"), host)
        elif state == "lost":
            text = fill(translate("RemoteWindow", "Connection to %1 lost"), host)
        elif state == "reconnecting":
            text = fill(translate("RemoteWindow", "Reconnecting to %1…"), host)
        else:
            text = fill(translate("RemoteWindow", "Connecting to %1…"), host)
        self.remoteStatus.setText(text)

    # ----- the connection

    @Slot(object)
    def _on_connected(self, info: AgentInfo) -> None:
        self.agent_info = info
        self.connection_lost = None
        self._connection = "connected"
        self._show_connection()
        self.reconnectButton.setEnabled(False)
        self.disconnectButton.setEnabled(True)
        host = self.host
        self.window.session_state.noted.emit(Note(
            lambda: fill(translate("RemoteWindow", "connect %1"), host),
            lambda: fill(translate("RemoteWindow", "agent %1, torch %2, pid %3"), info.agent, info.torch, info.pid),
        ))  # fmt: skip

    @Slot(str, bool)
    def _on_connection_lost(self, reason: str, deliberate: bool) -> None:
        if self.window.closed:
            return
        self.reconnectButton.setEnabled(True)
        self.disconnectButton.setEnabled(False)
        if deliberate:
            self._connection = "disconnected"
            self._show_connection()
            host = self.host
            self.window.session_state.noted.emit(Note(
                lambda: fill(translate("RemoteWindow", "disconnect %1"), host),
                lambda: translate("RemoteWindow", "the agent was ended"),
            ))  # fmt: skip
            return
        self.connection_lost = reason
        self._connection = "lost"
        self._show_connection()
        host = self.host
        # One note: the History's row, and the error banner's failure (the outcomes feature shows it).
        self.window.session_state.noted.emit(Note(
            lambda: fill(translate("RemoteWindow", "connection to %1"), host),
            lambda: fill(translate("RemoteWindow", "lost: %1"), core_text(reason)), ok=False,
            failure=NoteFailure("disconnected", lambda: _lost_message(host, reason), reason),
        ))  # fmt: skip

    def reconnect(self) -> bool:
        """A new agent through the same command, and the model opened there again."""
        window = self.window
        spec = window.model_state.info.spec if window.model_state is not None else None
        load = window.opener.pending_load
        if spec is None:
            spec = load.spec if load is not None else "example"
        trust = bool(load is not None and load.spec == spec and load.trust)
        architecture = load.architecture if load is not None and load.spec == spec else None
        self._connection = "reconnecting"
        self._show_connection()
        window.errorBanner.dismiss()  # (the frame's shared banner: the lost connection is being mended)
        return window.open_model(spec, trust=trust, architecture=architecture)

    def disconnect_server(self) -> None:
        self.window.cancel()
        if self.link is not None:
            self.link.disconnect()

    # ----- what differs from a local window

    def open_model_dialog(self) -> None:
        # Modal (exec): the language cannot change while it is open.
        dialog = dialogs.OpenModelDialog([], self.window.window())
        dialog.setWindowTitle(fill(translate("RemoteWindow", "Open model on %1"), self.host))
        dialog.spec_edit.setPlaceholderText(
            fill(translate("RemoteWindow", "on %1: example, /path/there/model.pt, package.module:factory"), self.host)
        )
        # Browse… is the dialog's one push button of its own (OK/Cancel belong to its button
        # box); found so, not by its text, which depends on the language.
        for button in dialog.findChildren(QPushButton, options=Qt.FindChildOption.FindDirectChildrenOnly):
            button.setVisible(False)  # it would browse this machine's files
        if dialog.exec() == dialogs.OpenModelDialog.DialogCode.Accepted and dialog.spec():
            self.window.open_model(dialog.spec(), architecture=dialog.architecture())

    def ask_trust(self, path: str, wanted: tuple[str, ...]) -> None:
        """The trust question names the server and the path there."""
        self.trust_box, self._trust_path = self.window.opener.ask_trust(path, wanted), path
        self._retranslate_trust_box()

    def _retranslate_trust_box(self) -> None:
        """The question's first line and its details, naming the file and the server (it is
        window-modal: the local window's View › Language may change while it waits)."""
        import html
        from pathlib import PurePosixPath

        import shiboken6

        box, path = self.trust_box, self._trust_path
        if box is None or path is None or not shiboken6.isValid(box):
            return
        box.setText(fill(
            translate("RemoteWindow", "<b>%1</b> on <b>%2</b> needs to run code to load."),
            html.escape(PurePosixPath(path).name), html.escape(self.host),
        ))  # fmt: skip
        box.setDetailedText(f"{self.host}:{path}")

    def shutdown(self, stop: Callable[[], bool]) -> bool:
        """Close the agent's stdin first (its work is cancelled there, and any wait on it
        ends), then stop the threads as a local window does (``stop``), then wait for the agent."""
        if self.link is None:  # closed before its session started
            return stop()
        self.link.disconnect()
        stopped = stop()
        self.link.close(timeout=1.0)
        return stopped


def _lost_message(host: str, reason: str) -> str:
    """A lost connection, for the error banner, in the language now installed."""
    return fill(translate(
        "RemoteWindow",
        "The connection to %1 was lost (%2). What was measured stays in this window and can be "
        "exported; Reconnect starts the agent again and reopens the model.",
    ), host, core_text(reason))  # fmt: skip
