"""File › Connect to server…'s dialog: a host (with the recent ones) and the command that
starts the agent there, and what is remembered of them between runs (QSettings: the recent
hosts, and the command last used for each).

The window it opens is ``remote_window``'s; this module knows nothing of it (it needs no torch
and no agent client, so the dialog opens at once).
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from inspector.gui.common import settings_values
from inspector.gui.common.i18n import Retranslates, translate

DEFAULT_COMMAND = "ssh {host} torch-device-inspector agent"
RECENT_HOSTS_KEY = "remote/recentHosts"
COMMANDS_KEY = "remote/commands"  # JSON: {host: the command last used for it}
MAX_RECENT_HOSTS = 10
#: The remembered commands' JSON (one per recent host, each a line of shell).
MAX_COMMANDS_CHARS = MAX_RECENT_HOSTS * 2 * settings_values.MAX_TEXT_CHARS


# ---------------------------------------------------------------------- settings


def recent_hosts(settings: QSettings) -> list[str]:
    return settings_values.texts(settings, RECENT_HOSTS_KEY, max_items=MAX_RECENT_HOSTS)


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
    saved = settings_values.text(settings, COMMANDS_KEY, "{}", max_chars=MAX_COMMANDS_CHARS)
    try:
        value = json.loads(saved)
    except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested past Python's limit
        value = None
    if not isinstance(value, dict):
        settings_values.drop(settings, COMMANDS_KEY, f"expected a JSON object, found {settings_values.shown(saved)}")
        return {}
    return value


# ---------------------------------------------------------------------- the dialog


#: The tooltip's examples of commands (code: the same in every language).
_COMMAND_EXAMPLES = (
    "ssh -J bastion gpu1 torch-device-inspector agent\n"
    "ssh gpu1 ~/venv/bin/torch-device-inspector agent\n"
    "kubectl exec -i pod -- torch-device-inspector agent\n"
    "docker exec -i container torch-device-inspector agent"
)


class ConnectDialog(Retranslates, QDialog):
    """A host (with the recent ones) and the editable command that starts the agent there."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("connectServerDialog")
        self.setMinimumWidth(560)
        self._settings = settings
        self._suggested = ""

        self.host_combo = QComboBox(self)
        self.host_combo.setObjectName("remoteHostCombo")
        self.host_combo.setEditable(True)
        self.host_combo.addItems(recent_hosts(settings))
        self.host_combo.setCurrentText(self.host_combo.itemText(0) if self.host_combo.count() else "")

        self.command_edit = QLineEdit(self)
        self.command_edit.setObjectName("agentCommandEdit")

        self._hint = QLabel(self)
        self._hint.setWordWrap(True)
        self._host_label, self._command_label = QLabel(self), QLabel(self)
        form = QFormLayout()
        form.addRow(self._host_label, self.host_combo)
        form.addRow(self._command_label, self.command_edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        # A button of its own, not the standard OK renamed: the box would name that "OK"
        # again on a change of language (after this dialog's retranslate).
        self._ok = buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self._ok.setDefault(True)
        if self.style().styleHint(QStyle.StyleHint.SH_DialogButtonBox_ButtonsHaveIcons):
            self._ok.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_DialogOkButton))  # as OK has
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.command_edit.textChanged.connect(lambda _t: self._update_ok())
        self.host_combo.currentTextChanged.connect(self._host_changed)
        self._host_changed(self.host())
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self._hint)
        layout.addWidget(buttons)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(translate("ConnectDialog", "Connect to server"))
        self.host_combo.lineEdit().setPlaceholderText(
            translate("ConnectDialog", "gpu-server, user@host, or a name from ~/.ssh/config")
        )
        self.command_edit.setToolTip(
            translate("ConnectDialog", "Started on this machine; its stdin/stdout carry the session. Examples:")
            + "\n" + _COMMAND_EXAMPLES
        )
        self._hint.setText(translate(
            "ConnectDialog",
            "The agent runs through your own command (your SSH keys, config and jump hosts) and "
            "talks only through its pipes: nothing listens on the network. It needs "
            "torch-device-inspector installed on the server (no Qt there).",
        ))  # fmt: skip
        self._host_label.setText(translate("ConnectDialog", "Host"))
        self._command_label.setText(translate("ConnectDialog", "Command"))
        self._ok.setText(translate("ConnectDialog", "Connect"))

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
