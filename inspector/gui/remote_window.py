"""File › Connect to server…: a second window whose session runs on another machine.

The user names a host and the command that reaches an agent there (``ssh HOST
torch-device-inspector agent`` by default; ``ssh -J bastion host …``, ``kubectl exec -i pod --
…`` or a remote venv's path work as well: the command is theirs). The ``RemoteWindow`` is the
main window with its workers swapped for ``gui.remote``'s: the same panels show the server's
devices, model, moves, benchmarks and memory. The local window stays open beside it.

A dropped connection shows the error banner, keeps the history, plots and the last report,
and offers Reconnect (a new agent; the model is opened again). Disconnect ends the agent on
purpose. Closing the window closes the agent's stdin: it cancels its work and exits.
"""

from __future__ import annotations

import json
import logging
from typing import Any, TypeVar

from PySide6.QtCore import QSettings, Qt, Slot
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QSizePolicy,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from inspector.core.remote.agent_answers import AgentInfo
from inspector.core.errors import Failure
from inspector.gui import dialogs
from inspector.gui.window import InspectorWindow
from inspector.gui.plain_text import plain_label
from inspector.gui.remote import RemoteLink, RemoteSampler
from inspector.gui.workers import ModelWorker

log = logging.getLogger(__name__)

DEFAULT_COMMAND = "ssh {host} torch-device-inspector agent"
RECENT_HOSTS_KEY = "remote/recentHosts"
COMMANDS_KEY = "remote/commands"  # JSON: {host: the command last used for it}
MAX_RECENT_HOSTS = 10


# ---------------------------------------------------------------------- settings


def recent_hosts(settings: QSettings) -> list[str]:
    value = settings.value(RECENT_HOSTS_KEY, [], type=list)
    return [str(v) for v in value if str(v).strip()]


def command_for(settings: QSettings, host: str) -> str:
    """The command last used for ``host``, else the default one naming it."""
    saved = _commands(settings).get(host)
    return saved if isinstance(saved, str) and saved.strip() else DEFAULT_COMMAND.format(host=host or "HOST")


def remember(settings: QSettings, host: str, command: str) -> None:
    hosts = [host] + [h for h in recent_hosts(settings) if h != host]
    settings.setValue(RECENT_HOSTS_KEY, hosts[:MAX_RECENT_HOSTS])
    commands = {h: c for h, c in _commands(settings).items() if h in hosts[:MAX_RECENT_HOSTS]}
    commands[host] = command
    settings.setValue(COMMANDS_KEY, json.dumps(commands))


def _commands(settings: QSettings) -> dict[str, Any]:
    try:
        value = json.loads(str(settings.value(COMMANDS_KEY, "{}")))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


# ---------------------------------------------------------------------- the dialog


class ConnectDialog(QDialog):
    """A host (with the recent ones) and the editable command that starts the agent there."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("connectServerDialog")
        self.setWindowTitle("Connect to server")
        self.setMinimumWidth(560)
        self._settings = settings
        self._suggested = ""

        self.host_combo = QComboBox(self)
        self.host_combo.setObjectName("remoteHostCombo")
        self.host_combo.setEditable(True)
        self.host_combo.addItems(recent_hosts(settings))
        self.host_combo.setCurrentText(self.host_combo.itemText(0) if self.host_combo.count() else "")
        self.host_combo.lineEdit().setPlaceholderText("gpu-server, user@host, or a name from ~/.ssh/config")

        self.command_edit = QLineEdit(self)
        self.command_edit.setObjectName("agentCommandEdit")
        self.command_edit.setToolTip(
            "Started on this machine; its stdin/stdout carry the session. Examples:\n"
            "ssh -J bastion gpu1 torch-device-inspector agent\n"
            "ssh gpu1 ~/venv/bin/torch-device-inspector agent\n"
            "kubectl exec -i pod -- torch-device-inspector agent\n"
            "docker exec -i container torch-device-inspector agent"
        )

        hint = QLabel(
            "The agent runs through your own command (your SSH keys, config and jump hosts) and "
            "talks only through its pipes: nothing listens on the network. It needs "
            "torch-device-inspector installed on the server (no Qt there).",
            self,
        )
        hint.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Host", self.host_combo)
        form.addRow("Command", self.command_edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Connect")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self._ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.command_edit.textChanged.connect(lambda _t: self._update_ok())
        self.host_combo.currentTextChanged.connect(self._host_changed)
        self._host_changed(self.host())
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(hint)
        layout.addWidget(buttons)

    def host(self) -> str:
        return self.host_combo.currentText().strip()

    def command(self) -> str:
        return self.command_edit.text().strip()

    def _host_changed(self, _text: str) -> None:
        # Follow the host while the command is the one we suggested; keep the user's own edits.
        if not self.command_edit.text().strip() or self.command_edit.text() == self._suggested:
            self._suggested = command_for(self._settings, self.host())
            self.command_edit.setText(self._suggested)
        self._update_ok()

    def _update_ok(self) -> None:
        self._ok.setEnabled(bool(self.host()) and bool(self.command()))


W = TypeVar("W", bound=InspectorWindow)


def offer_remote_sessions(window: W) -> W:
    """Wire ``window``'s File › Connect to server… to the dialog; returns the window."""
    window.connectServerRequested.connect(lambda: connect_server_dialog(window))
    return window


def connect_server_dialog(window: InspectorWindow) -> None:
    dialog = ConnectDialog(window.settings, window)
    if dialog.exec() == QDialog.DialogCode.Accepted and dialog.host() and dialog.command():
        connect_server(window, dialog.host(), dialog.command())


def connect_server(
    window: InspectorWindow, host: str, command: str | list[str], *, model_spec: str = "example"
) -> "RemoteWindow":
    """Open (and show) a window connected to ``host`` through ``command``; remembered in the recent list."""
    if isinstance(command, str):
        remember(window.settings, host, command)
    remote = offer_remote_sessions(RemoteWindow(host, command, model_spec=model_spec, settings=window.settings))
    opened = window.__dict__.setdefault("remote_windows", [])
    opened.append(remote)
    remote.destroyed.connect(lambda *_: opened.remove(remote) if remote in opened else None)
    remote.show()
    return remote


# ---------------------------------------------------------------------- the window


class RemoteWindow(InspectorWindow):
    """The main window, its session in an agent on ``host`` reached through ``command``."""

    def __init__(
        self, host: str, command: str | list[str], *, model_spec: str = "example", settings: QSettings | None = None
    ) -> None:
        self.host = host
        self._command = command
        self.agent_info: AgentInfo | None = None
        self.connection_lost: str | None = None
        super().__init__(model_spec=model_spec, settings=settings)
        self.setObjectName("remoteWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.recentMenu.menuAction().setVisible(False)  # local specs; this window opens the server's

    # ----- built by InspectorWindow.__init__ (before its first load is sent)

    def _make_workers(self, hz: float) -> tuple[Any, Any]:
        self.link = RemoteLink(self.host, self._command, self.timeline, hz)
        # The stock worker: its session is the link, which forwards each call to the agent.
        worker = ModelWorker(self.cancel_event, session=self.link)  # type: ignore[arg-type]
        sampler = RemoteSampler(self.timeline, self.link)
        self.link.signals.connected.connect(self._on_connected)
        self.link.signals.connectionLost.connect(self._on_connection_lost)
        self.link.signals.inventoryReady.connect(self.sampler_results.on_inventory)
        self._build_remote_bar()
        self.devices.parentWidget().setTitle(f"Devices on {self.host}")
        self.setWindowTitle("connecting…")
        return worker, sampler

    def _build_remote_bar(self) -> None:
        bar = QToolBar("Server", self)
        bar.setObjectName("remoteBar")
        bar.setMovable(False)
        self.remoteStatus = plain_label(QLabel(f"Connecting to {self.host}…", bar))
        self.remoteStatus.setObjectName("remoteStatus")
        self.reconnectButton = QPushButton("Reconnect", bar)
        self.reconnectButton.setObjectName("reconnectButton")
        self.reconnectButton.setToolTip("Start the agent again with the same command and reopen the model")
        self.reconnectButton.clicked.connect(self.reconnect)
        self.reconnectButton.setEnabled(False)
        self.disconnectButton = QPushButton("Disconnect", bar)
        self.disconnectButton.setObjectName("disconnectButton")
        self.disconnectButton.setToolTip("End the agent on the server; what was measured stays in this window")
        self.disconnectButton.clicked.connect(self.disconnect_server)
        bar.addWidget(self.remoteStatus)
        spacer = QWidget(bar)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar.addWidget(spacer)
        bar.addWidget(self.reconnectButton)
        bar.addWidget(self.disconnectButton)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.remoteBar = bar

    def setWindowTitle(self, title: str) -> None:
        super().setWindowTitle(f"{self.host} — {title}")

    # ----- the connection

    @Slot(object)
    def _on_connected(self, info: AgentInfo) -> None:
        self.agent_info = info
        self.connection_lost = None
        same = "" if info.host == self.host else f" ({info.host})"
        self.remoteStatus.setText(
            f"Connected to {self.host}{same} · agent {info.agent} · torch {info.torch} · Python {info.python}"
        )
        self.reconnectButton.setEnabled(False)
        self.disconnectButton.setEnabled(True)
        self.historyView.record(
            f"connect {self.host}", None, None, f"agent {info.agent}, torch {info.torch}, pid {info.pid}"
        )

    @Slot(str, bool)
    def _on_connection_lost(self, reason: str, deliberate: bool) -> None:
        if self.closed:
            return
        self.reconnectButton.setEnabled(True)
        self.disconnectButton.setEnabled(False)
        if deliberate:
            self.remoteStatus.setText(f"Disconnected from {self.host}: what was measured stays here")
            self.historyView.record(f"disconnect {self.host}", None, None, "the agent was ended", ok=True)
            return
        self.connection_lost = reason
        self.remoteStatus.setText(f"Connection to {self.host} lost")
        message = (
            f"The connection to {self.host} was lost ({reason}). What was measured stays in this "
            "window and can be exported; Reconnect starts the agent again and reopens the model."
        )
        self.errorBanner.show_failure(Failure("disconnected", message, reason), f"connection to {self.host}")
        self.historyView.record(f"connection to {self.host}", None, None, f"lost: {reason}", ok=False)

    def reconnect(self) -> bool:
        """A new agent through the same command, and the model opened there again."""
        spec = self.model_state.info.spec if self.model_state is not None else None
        load = self.opener.pending_load
        if spec is None:
            spec = load.spec if load is not None else "example"
        trust = bool(load is not None and load.spec == spec and load.trust)
        architecture = load.architecture if load is not None and load.spec == spec else None
        self.remoteStatus.setText(f"Reconnecting to {self.host}…")
        self.errorBanner.dismiss()
        return self.open_model(spec, trust=trust, architecture=architecture)

    def disconnect_server(self) -> None:
        self.cancel()
        self.link.disconnect()

    # ----- what differs from a local window

    def open_model_dialog(self) -> None:
        dialog = dialogs.OpenModelDialog([], self)
        dialog.setWindowTitle(f"Open model on {self.host}")
        dialog.spec_edit.setPlaceholderText(f"on {self.host}: example, /path/there/model.pt, package.module:factory")
        for button in dialog.findChildren(QPushButton):
            if button.text() == "Browse…":
                button.setVisible(False)  # it would browse this machine's files
        if dialog.exec() == dialogs.OpenModelDialog.DialogCode.Accepted and dialog.spec():
            self.open_model(dialog.spec(), architecture=dialog.architecture())

    def ask_trust(self, path: str, wanted: tuple[str, ...]) -> None:
        """The trust question names the server and the path there."""
        import html
        from pathlib import PurePosixPath

        box = self.opener.ask_trust(path, wanted)
        box.setText(
            f"<b>{html.escape(PurePosixPath(path).name)}</b> on <b>{html.escape(self.host)}</b> needs to run code to load."
        )
        box.setDetailedText(f"{self.host}:{path}")
        self.trust_box = box

    def recent_models(self) -> list[str]:
        return []

    def add_recent_model(self, spec: str) -> None:
        pass  # the local recent list holds this machine's specs

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        QMainWindow.closeEvent(self, event)  # no saved layout: that is the local window's

    def shutdown(self, timeout_s: float = 2.0) -> bool:
        """Close the agent's stdin first (its work is cancelled there, and any wait on it
        ends), then stop the threads as a local window does, then wait for the agent."""
        if self.tasks.closed:
            return bool(self.threads_stopped)
        self.link.disconnect()
        stopped = super().shutdown(timeout_s)
        self.link.close(timeout=1.0)
        return stopped
