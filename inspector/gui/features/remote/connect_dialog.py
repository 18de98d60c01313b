"""File › Connect to server…'s dialog: a host (with the recent ones) and the command that
starts the agent there, and what is remembered of them between runs (QSettings: the recent
hosts, and the command last used for each).

The host is one word, never an option (``core.remote.hosts``): the dialog says why one is
refused and will not connect to it, the suggested command is ``ssh -- HOST
torch-device-inspector agent`` (an argv, shown quoted), and a recent host read back from the
settings that fails the same check is dropped, never offered. Options the user means go in
the Command field, which is theirs.

The window it opens is ``remote_window``'s; this module knows nothing of it (it needs no torch
and no agent client, so the dialog opens at once).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from PySide6.QtCore import QSettings, Qt
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

from inspector.core.remote import command_text, default_agent_argv, host_problem
from inspector.gui.common import settings_values
from inspector.gui.common.i18n import Retranslates, core_text, translate

#: What the command field suggests while the host is not (yet) one: the default's shape.
PLACEHOLDER_COMMAND = "ssh -- HOST torch-device-inspector agent"
RECENT_HOSTS_KEY = "remote/recentHosts"
COMMANDS_KEY = "remote/commands"  # JSON: {host: the command last used for it}
MAX_RECENT_HOSTS = 10
#: The remembered commands' JSON (one per recent host, each a line of shell).
MAX_COMMANDS_CHARS = MAX_RECENT_HOSTS * 2 * settings_values.MAX_TEXT_CHARS


# ---------------------------------------------------------------------- settings


def recent_hosts(settings: QSettings) -> list[str]:
    """The recent hosts that are still hosts (a poisoned entry, ``-oProxyCommand=…``, is dropped
    from the settings with one line, never offered)."""
    hosts = settings_values.texts(settings, RECENT_HOSTS_KEY, max_items=MAX_RECENT_HOSTS)
    kept = [host for host in hosts if host_problem(host) is None]
    if len(kept) != len(hosts):
        print(f"warning: settings: ignored {len(hosts) - len(kept)} of the {len(hosts)} entries of "
              f"{RECENT_HOSTS_KEY} (not a host: {host_problem(next(h for h in hosts if h not in kept))})",
              file=sys.stderr)  # fmt: skip
        sys.stderr.flush()
        settings.setValue(RECENT_HOSTS_KEY, kept)
    return kept


def command_for(settings: QSettings, host: str) -> str:
    """The command last used for ``host``, else the default one naming it (the placeholder
    while ``host`` is not one)."""
    if host_problem(host) is not None:
        return PLACEHOLDER_COMMAND
    saved = _commands(settings).get(host)
    return saved if isinstance(saved, str) and saved.strip() else command_text(default_agent_argv(host))


def remember(settings: QSettings, host: str, command: str) -> None:
    """Put ``host`` first in the recent list with ``command``; a host that is not one is not kept."""
    if host_problem(host) is not None:
        return
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
    "ssh -J bastion -- gpu1 torch-device-inspector agent\n"
    "ssh -p 2222 -- gpu1 torch-device-inspector agent\n"
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
        #: Why the host is refused, in words (empty while it is one).
        self.host_problem_label = QLabel(self)
        self.host_problem_label.setObjectName("remoteHostProblem")
        self.host_problem_label.setWordWrap(True)
        self.host_problem_label.setTextFormat(Qt.TextFormat.PlainText)
        self._host_label, self._command_label = QLabel(self), QLabel(self)
        form = QFormLayout()
        form.addRow(self._host_label, self.host_combo)
        form.addRow(self._command_label, self.command_edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        # A button of its own, not the standard OK renamed: the box would name that "OK"
        # again on a change of language (after this dialog's retranslate).
        self._ok = buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self._ok.setObjectName("connectButton")
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
        layout.addWidget(self.host_problem_label)
        layout.addWidget(self._hint)
        layout.addWidget(buttons)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(translate("ConnectDialog", "Connect to server"))
        host_edit = self.host_combo.lineEdit()
        if host_edit is not None:  # (the combo is editable: it has one)
            host_edit.setPlaceholderText(translate("ConnectDialog", "gpu-server, user@host, or a name from ~/.ssh/config"))
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
        self._update_ok()  # the host's problem, in the new language

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

    def problem(self) -> str:
        """Why the host cannot be connected to, in the window's language; "" when it can."""
        problem = host_problem(self.host())
        return core_text(problem) if problem is not None else ""

    def accept(self) -> None:
        # Enter in a field reaches here even while Connect is disabled: refuse the same way.
        if self.problem() or not self.command():
            self._update_ok()
            return
        super().accept()

    def _update_ok(self) -> None:
        problem = self.problem()
        self.host_problem_label.setText(problem)
        self.host_problem_label.setVisible(bool(problem))
        self._ok.setEnabled(not problem and bool(self.command()))
