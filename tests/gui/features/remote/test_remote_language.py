"""The remote window in Simplified Chinese, and back in English, without losing the connection.

Driven as tests/gui/features/remote/test_remote.py drives it: the "server" is this machine, reached through a
local agent on a pipe. Needs the compiled catalogue (``tools/update_translations.py`` builds it).
"""

from __future__ import annotations

import torch
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPushButton
from torch import nn

from inspector.core.remote.client import local_agent_command
from inspector.gui.common import dialogs, i18n
from inspector.gui.features.remote.connect_dialog import ConnectDialog
from inspector.gui.shell.app import connect_server
from tests.warm_python import warm_command
from inspector.gui.features.moves.availability import CommandAvailability
from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS

HOST = "gpu-test"





def _switch(qtbot, language: str, done) -> None:
    """Change the language as View › Language does, and wait until ``done()`` (the window
    hears the change through posted events)."""
    assert i18n.apply_language(language)
    qtbot.waitUntil(done, timeout=GENEROUS_MS)


def test_connect_dialog_speaks_chinese_and_english_again(chinese, clean_settings, qtbot):
    dialog = ConnectDialog(clean_settings)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "连接服务器"
    assert dialog._ok.text() == "连接" and dialog._host_label.text() == "主机"
    assert dialog.command_edit.toolTip().startswith("在本机上启动")
    assert "ssh -J bastion -- gpu1 torch-device-inspector agent" in dialog.command_edit.toolTip()  # code stays
    dialog.host_combo.setCurrentText("gpu1")
    assert dialog.command() == "ssh -- gpu1 torch-device-inspector agent"

    _switch(qtbot, i18n.ENGLISH, lambda: dialog.windowTitle() == "Connect to server")
    assert dialog._ok.text() == "Connect" and dialog._command_label.text() == "Command"
    assert dialog.command_edit.toolTip().startswith("Started on this machine")
    assert "torch-device-inspector installed on the server" in dialog._hint.text()


def test_remote_window_in_chinese_then_english(chinese, make_window, remote_windows, qtbot, tmp_path, monkeypatch):
    local = make_window()
    remote = connect_server(local, HOST, warm_command(local_agent_command()[1:]))
    remote_windows.append(remote)
    qtbot.waitUntil(lambda: remote.model_state is not None and remote.busy_task is None, timeout=60_000)
    qtbot.waitUntil(lambda: remote.kind.agent_info is not None, timeout=GENEROUS_MS)

    # The remote bar, the title, the devices' title: Chinese, naming the host.
    assert remote.kind.remoteStatus.text().startswith(f"已连接到 {HOST}")
    assert remote.kind.reconnectButton.text() == "重新连接" and remote.kind.disconnectButton.text() == "断开连接"
    assert remote.kind.remoteBar.windowTitle() == "服务器"
    assert remote.devices.parentWidget().title() == f"{HOST} 上的设备"
    assert remote.windowTitle().startswith(f"{HOST} — ") and "Net" in remote.windowTitle()
    assert f"连接 {HOST}" in [entry.call for entry in remote.historyView.history.entries()]

    # Help › Lessons stays off here, saying why; the checks that enable commands leave it off.
    assert not remote.findChild(QAction, "lessonsAction").isEnabled()
    assert remote.findChild(QAction, "lessonsAction").toolTip() == f"“课程”只在本地窗口中运行：{HOST} 上的代理无法运行它们"
    doors.part(remote, CommandAvailability).refresh()
    remote.action_bar.runsSpin.setValue(10)
    remote.action_bar.benchmarkButton.click()
    qtbot.waitUntil(lambda: remote.busy_task is None, timeout=30_000)
    assert not remote.findChild(QAction, "lessonsAction").isEnabled()
    assert local.findChild(QAction, "lessonsAction").isEnabled()  # the local window keeps its lessons

    # The open dialog names the server, and hides Browse… whatever its label says.
    seen = []

    def fake_exec(dialog):
        seen.append(dialog)
        return 0

    monkeypatch.setattr(dialogs.OpenModelDialog, "exec", fake_exec)
    remote.open_model_dialog()
    (dialog,) = seen
    assert dialog.windowTitle() == f"在 {HOST} 上打开模型"
    assert dialog.spec_edit.placeholderText().startswith(f"在 {HOST} 上：")
    own = [b for b in dialog.findChildren(QPushButton) if b.parent() is dialog]
    assert own and all(b.isHidden() for b in own)
    assert any(not b.isHidden() for b in dialog.findChildren(QPushButton) if b.parent() is not dialog)  # Open, Cancel
    dialog.deleteLater()

    # The trust question names the file and the server, in Chinese, then in English.
    path = tmp_path / "whole.pt"
    torch.save(nn.Sequential(nn.Linear(3, 2)), path)
    remote.open_model(str(path))
    qtbot.waitUntil(lambda: remote.kind.trust_box is not None, timeout=30_000)
    box = remote.kind.trust_box
    assert box.text() == f"<b>{HOST}</b> 上的 <b>whole.pt</b> 需要运行代码才能加载。"
    _switch(qtbot, i18n.ENGLISH, lambda: box.text() == f"<b>whole.pt</b> on <b>{HOST}</b> needs to run code to load.")
    assert box.detailedText() == f"{HOST}:{path}"
    box.button(box.StandardButton.No).click()
    qtbot.waitUntil(lambda: remote.busy_task is None, timeout=GENEROUS_MS)

    # English again: every text of the connection, the model and its history kept.
    assert remote.kind.remoteStatus.text().startswith(f"Connected to {HOST}")
    assert remote.devices.parentWidget().title() == f"Devices on {HOST}"
    assert remote.kind.reconnectButton.text() == "Reconnect" and remote.kind.remoteBar.windowTitle() == "Server"
    assert remote.findChild(QAction, "lessonsAction").toolTip() == f"The lessons run in the local window: the agent on {HOST} cannot run them"
    assert not remote.findChild(QAction, "lessonsAction").isEnabled()
    assert remote.model_state.info.class_name == "Net"
    assert f"connect {HOST}" in [entry.call for entry in remote.historyView.history.entries()]  # said again in English

    # A dropped connection in Chinese: the bar and the banner say so, and again in English.
    _switch(qtbot, i18n.CHINESE, lambda: remote.kind.remoteStatus.text().startswith("已连接到"))
    remote.kind.link._connection.kill()
    qtbot.waitUntil(lambda: remote.kind.connection_lost is not None, timeout=GENEROUS_MS)
    assert remote.kind.remoteStatus.text() == f"与 {HOST} 的连接已中断"
    assert not remote.errorBanner.isHidden()
    assert remote.errorBanner.message.text().startswith(f"与 {HOST} 的连接已中断（")
    assert f"与 {HOST} 的连接" in remote.errorBanner.title.text()
    assert remote.historyView.history.entries()[-1].result.startswith("已中断：")

    _switch(qtbot, i18n.ENGLISH, lambda: remote.kind.remoteStatus.text() == f"Connection to {HOST} lost")
    qtbot.waitUntil(
        lambda: remote.errorBanner.message.text().startswith(f"The connection to {HOST} was lost ("), timeout=GENEROUS_MS
    )
    assert f"connection to {HOST}" in remote.errorBanner.title.text() and not remote.errorBanner.isHidden()

    # A benchmark without a connection: the link's own failure, in the language of the moment.
    _switch(qtbot, i18n.CHINESE, lambda: remote.kind.reconnectButton.text() == "重新连接")
    remote.action_bar.benchmarkButton.click()
    qtbot.waitUntil(lambda: remote.busy_task is None, timeout=GENEROUS_MS)
    assert remote.errorBanner.message.text().startswith(f"未连接到 {HOST}")
    assert remote.model_state.info.class_name == "Net"  # what was measured stays

    remote.close()
    assert remote.threads_stopped


def test_the_remote_window_says_the_agents_core_sentences_in_chinese(chinese, make_window, remote_windows, qtbot):
    """Protocol 1.2: a failed move's reason and a refused spec come from the agent as message
    ids with arguments, so the window says them in Chinese, as it says a local session's."""
    from inspector.core.moves.request import MoveRequest

    local = make_window()
    remote = connect_server(local, HOST, warm_command(local_agent_command()[1:]))
    remote_windows.append(remote)
    qtbot.waitUntil(lambda: remote.model_state is not None and remote.busy_task is None, timeout=60_000)
    entries = remote.historyView.history.entries
    before = len(entries())

    # A device the server does not have: the move fails there and is rolled back.
    assert remote.request_move(MoveRequest("to", "cuda:97"))
    qtbot.waitUntil(lambda: len(entries()) > before and remote.busy_task is None, timeout=30_000)
    result = entries()[-1].result
    assert "cuda:97 " in result and ("不可用" in result or "不存在" in result), result
    assert "is not available" not in result and "does not exist" not in result

    # A file the server does not have: the agent refuses the spec; the banner says why in Chinese.
    remote.open_model("/no/such/model.pt")
    qtbot.waitUntil(lambda: remote.busy_task is None and not remote.errorBanner.isHidden(), timeout=30_000)
    assert "没有这个文件：/no/such/model.pt" in remote.errorBanner.message.text()
    assert "no such file" not in remote.errorBanner.message.text()
    assert remote.model_state.info.class_name == "Net"  # the model there stays
