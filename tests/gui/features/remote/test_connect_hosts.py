"""Issue 43, item 2, in the window: Connect to server… refuses a host that is not one word
(each with its sentence, Connect disabled, Enter refused), suggests ``ssh -- HOST …``, and never
offers a poisoned Recent entry read back from the settings."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialog, QPushButton

from inspector.core.remote import command_argv
from inspector.gui.features.remote.connect_dialog import RECENT_HOSTS_KEY, ConnectDialog, remember, recent_hosts

HOSTILE = ["-oProxyCommand=touch x gpu1", "-F/path/config", "-E/path/log", "gpu1; touch x", "gpu1\nx", "$(touch x)", ""]


def _dialog(settings, qtbot) -> ConnectDialog:
    dialog = ConnectDialog(settings)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _connect_button(dialog: ConnectDialog) -> QPushButton:
    button = dialog.findChild(QPushButton, "connectButton")
    assert button is not None
    return button


@pytest.mark.parametrize("host", HOSTILE)
def test_the_dialog_refuses_each_hostile_host_with_a_sentence(host, clean_settings, qtbot):
    dialog = _dialog(clean_settings, qtbot)
    dialog.host_combo.setCurrentText(host)
    dialog.command_edit.setText("ssh -- gpu1 torch-device-inspector agent")  # a command alone does not make it go
    assert not _connect_button(dialog).isEnabled()
    assert dialog.host_problem_label.isVisible()
    said = dialog.host_problem_label.text()
    assert said and ("host" in said) and "\n" not in said
    dialog.accept()  # Enter in a field, while Connect is disabled
    assert dialog.result() != QDialog.DialogCode.Accepted and dialog.isVisible()


def test_a_good_host_gets_the_default_argv_and_connects(clean_settings, qtbot):
    dialog = _dialog(clean_settings, qtbot)
    dialog.host_combo.setCurrentText("gpu1")
    assert command_argv(dialog.command()) == ["ssh", "--", "gpu1", "torch-device-inspector", "agent"]
    assert _connect_button(dialog).isEnabled() and not dialog.host_problem_label.isVisible()
    dialog.host_combo.setCurrentText("-oProxyCommand=touch x gpu1")
    assert "ProxyCommand" not in dialog.command()  # the suggestion never carries a refused host
    dialog.host_combo.setCurrentText("gpu1")
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted


def test_a_poisoned_recent_host_is_dropped_never_offered(clean_settings, qtbot, capsys):
    clean_settings.setValue(RECENT_HOSTS_KEY, ["-oProxyCommand=touch x gpu1", "gpu1", "gpu2; touch x", "-F/tmp/c"])
    dialog = _dialog(clean_settings, qtbot)
    assert [dialog.host_combo.itemText(i) for i in range(dialog.host_combo.count())] == ["gpu1"]
    assert dialog.host() == "gpu1" and _connect_button(dialog).isEnabled()
    assert "ignored 3 of the 4 entries of remote/recentHosts" in capsys.readouterr().err
    assert recent_hosts(clean_settings) == ["gpu1"]  # gone from the settings: said once
    assert capsys.readouterr().err == ""
    remember(clean_settings, "-E/tmp/log", "ssh -E/tmp/log x")  # nor kept when handed one
    assert recent_hosts(clean_settings) == ["gpu1"]
