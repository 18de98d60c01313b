"""File › Connect to server…: a second window whose session runs in an agent.

The "server" is this machine: the command is ``python -m inspector agent``, so the tests
exercise the real pipe, process and protocol. A misbehaving agent is a small script.
"""

from __future__ import annotations

from PySide6.QtGui import QAction
import json
import sys
import threading

import pytest
import torch
from torch import nn

from inspector.core.remote.client import local_agent_command
from tests.warm_python import warm_command
from inspector.gui.features.remote.connect_dialog import ConnectDialog, remember
from inspector.gui.shell.app import connect_server
from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS
from tests.processes import CLEAN_EXIT_S

HOST = "gpu-test"


def _connect(qtbot, local, opened, command, host=HOST):
    window = connect_server(local, host, command)
    opened.append(window)
    return window


def _idle(qtbot, window, timeout=60_000):
    qtbot.waitUntil(lambda: doors.model(window) is not None and doors.busy(window) is None, timeout=timeout)


def _patient(remote, monkeypatch) -> None:
    """The window's close gives its agent 1 s to exit before ending it; these tests assert the
    agent's clean exit on its stdin's close, not its speed, so they wait CLEAN_EXIT_S for it."""
    link = remote.kind.link
    close = link.close
    monkeypatch.setattr(link, "close", lambda timeout=1.0: close(timeout=CLEAN_EXIT_S))


def _results(window):
    return [entry.result for entry in doors.history_view(window).history.entries()]


def test_connect_dialog_suggests_the_command_and_remembers_hosts(clean_settings, qtbot):
    dialog = ConnectDialog(clean_settings)
    qtbot.addWidget(dialog)
    dialog.host_combo.setCurrentText("gpu1")
    assert dialog.command() == "ssh -- gpu1 torch-device-inspector agent"  # follows the host
    dialog.command_edit.setText("ssh -J bastion gpu1 ~/venv/bin/torch-device-inspector agent")
    dialog.host_combo.setCurrentText("gpu1 ")
    assert dialog.command().startswith("ssh -J bastion")  # the user's own edit is kept

    remember(clean_settings, "gpu1", dialog.command())
    remember(clean_settings, "gpu2", "ssh -- gpu2 torch-device-inspector agent")
    again = ConnectDialog(clean_settings)
    qtbot.addWidget(again)
    assert [again.host_combo.itemText(i) for i in range(again.host_combo.count())] == ["gpu2", "gpu1"]
    again.host_combo.setCurrentText("gpu1")
    assert again.command() == "ssh -J bastion gpu1 ~/venv/bin/torch-device-inspector agent"


def test_remote_window_trusts_moves_benchmarks_cancels_exports_and_survives_a_killed_agent(
    make_window, remote_windows, qtbot, tmp_path, monkeypatch
):
    local = make_window()
    asked = []
    monkeypatch.setattr(ConnectDialog, "exec", lambda dialog: asked.append(dialog.command()) or 0)
    local.findChild(QAction, "connectServerAction").trigger()
    assert asked == ["ssh -- HOST torch-device-inspector agent"]  # the menu item opens the dialog
    remote = _connect(qtbot, local, remote_windows, warm_command(local_agent_command()[1:]))
    _idle(qtbot, remote)
    qtbot.waitUntil(lambda: remote.inventory is not None, timeout=GENEROUS_MS)
    # Labelled with the host everywhere the user looks.
    assert HOST in remote.windowTitle() and remote.devices.parentWidget().title() == f"Devices on {HOST}"
    assert remote.kind.remoteStatus.text().startswith(f"Connected to {HOST}")
    assert remote.model_state.info.class_name == "Net"
    # The one window class, of the remote kind: no recent models (this machine's), no lessons.
    assert type(remote) is type(local) and remote.objectName() == "remoteWindow" and local.objectName() == "mainWindow"
    assert not remote.recentMenu.menuAction().isVisible() and remote.kind.host == HOST
    assert not remote.findChild(QAction, "lessonsAction").isEnabled() and local.findChild(QAction, "lessonsAction").isEnabled()

    # A file that needs trust: the prompt names the server and the path there.
    path = tmp_path / "whole.pt"
    torch.save(nn.Sequential(nn.Linear(3, 2)), path)
    remote.open_model(str(path))
    qtbot.waitUntil(lambda: remote.kind.trust_box is not None, timeout=30_000)
    assert HOST in remote.kind.trust_box.text() and remote.kind.trust_box.detailedText() == f"{HOST}:{path}"
    remote.kind.trust_box.button(remote.kind.trust_box.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: remote.busy_task is None and remote.model_state.info.class_name == "Sequential", timeout=30_000)
    remote.open_model("example")
    _idle(qtbot, remote)
    qtbot.waitUntil(lambda: remote.model_state.info.class_name == "Net", timeout=30_000)

    # The worker, not the GUI thread, talks to the agent.
    threads = []
    move = remote.kind.link.session.move
    remote.kind.link.session.move = lambda *a, **k: (threads.append(threading.current_thread()), move(*a, **k))[1]
    remote.action_bar.set_target_device("cpu")
    remote.action_bar.dtypeCombo.setCurrentIndex(remote.action_bar.dtypeCombo.findData("float64"))
    remote.action_bar.toDeviceButton.click()
    qtbot.waitUntil(lambda: remote.busy_task is None and remote.model_state.placement.totals.by_dtype.keys() == {"float64"}, timeout=30_000)
    assert threads and threads[0] is not threading.main_thread()
    # The memory view's model curve steps with the move, as for a local model (44 B -> 88 B).
    steps = [entry["by_device"]["cpu"]["parameter"] for entry in remote.timeline.model_report()]
    assert steps[-2:] == [44, 88]

    remote.action_bar.runsSpin.setValue(50)
    remote.action_bar.benchmarkButton.click()
    qtbot.waitUntil(lambda: remote.busy_task is None, timeout=30_000)
    series = remote.latencyPlot.series[("cpu", "float64", "forward")]
    assert len(series.samples) == 50  # the streamed samples, then the exact result
    qtbot.waitUntil(lambda: "cpu" in remote.timeline.devices(), timeout=GENEROUS_MS)  # memory streams in

    # Cancel mid-benchmark: stopped at the agent, the window free again.
    remote.action_bar.runsSpin.setValue(remote.action_bar.runsSpin.maximum())
    remote.action_bar.benchmarkButton.click()
    qtbot.waitUntil(lambda: len(remote.latencyPlot.series[("cpu", "float64", "forward")].samples) > 5, timeout=30_000)
    remote.action_bar.cancelButton.click()
    qtbot.waitUntil(lambda: remote.busy_task is None, timeout=30_000)
    assert _results(remote)[-1].startswith("cancelled")

    exported = tmp_path / "remote.json"
    assert remote.export_report(exported)
    qtbot.waitUntil(lambda: exported.exists() and remote.reports.exporting is None, timeout=30_000)
    report = json.loads(exported.read_text())
    assert report["moves"][-1]["call"] == "model.to('cpu', dtype=torch.float64)"
    assert report["latency"][0]["dtype"] == "float64" and report["memory"]["cpu"]
    assert report["model_memory"][-1]["by_device"]["cpu"]["parameter"] == 88

    # A killed agent: a banner, what was measured kept, Export still writes it, Reconnect works.
    rows = len(_results(remote))
    remote.kind.link._connection.kill()
    qtbot.waitUntil(lambda: remote.kind.connection_lost is not None, timeout=GENEROUS_MS)
    assert not remote.errorBanner.isHidden() and HOST in remote.errorBanner.message.text()
    assert remote.kind.reconnectButton.isEnabled()
    assert remote.model_state.placement.totals.by_dtype.keys() == {"float64"}
    assert len(_results(remote)) > rows and ("cpu", "float64", "forward") in remote.latencyPlot.series
    after = tmp_path / "after.json"
    assert remote.export_report(after)
    qtbot.waitUntil(lambda: after.exists() and remote.reports.exporting is None, timeout=30_000)
    assert json.loads(after.read_text())["latency"][0]["dtype"] == "float64"
    remote.action_bar.benchmarkButton.click()
    qtbot.waitUntil(lambda: remote.busy_task is None, timeout=GENEROUS_MS)
    assert "not connected" in remote.errorBanner.message.text()

    remote.close()
    assert remote.threads_stopped  # no thread left behind: the app exits 0
    assert not local.closed  # the local window carries on


@pytest.mark.slow  # a second agent start (torch's import) on top of the first
def test_reconnect_after_a_killed_agent_starts_a_new_one_and_reopens_the_model(make_window, remote_windows, qtbot, monkeypatch):
    local = make_window()
    remote = _connect(qtbot, local, remote_windows, warm_command(local_agent_command()[1:]))
    _idle(qtbot, remote)
    first = remote.kind.link._connection
    first.kill()
    qtbot.waitUntil(lambda: remote.kind.connection_lost is not None, timeout=GENEROUS_MS)
    remote.kind.reconnectButton.click()
    qtbot.waitUntil(lambda: remote.busy_task is None and remote.kind.connection_lost is None and remote.kind.link.alive, timeout=60_000)
    assert remote.kind.link._connection is not first and remote.model_state.info.class_name == "Net"
    assert remote.kind.remoteStatus.text().startswith(f"Connected to {HOST}") and remote.errorBanner.isHidden()
    remote.action_bar.runsSpin.setValue(10)
    remote.action_bar.benchmarkButton.click()
    qtbot.waitUntil(lambda: remote.busy_task is None, timeout=30_000)
    assert _results(remote)[-1].startswith("median")
    second = remote.kind.link._connection
    _patient(remote, monkeypatch)
    remote.close()
    assert remote.threads_stopped and second._process.returncode == 0  # it ended on stdin's close


_GARBAGE_AGENT = r"""
import json, sys, time
def send(obj):
    sys.stdout.write(obj if isinstance(obj, str) else json.dumps(obj)); sys.stdout.write("\n"); sys.stdout.flush()
for line in sys.stdin:
    msg = json.loads(line); i, op = msg["id"], msg["op"]
    if op == "hello":
        send({"id": i, "ok": True, "result": {"protocol": "1.0", "agent": "odd", "python": "3", "torch": "?", "host": "odd", "pid": 1, "time": time.time()}})
    elif op == "devices":
        send({"id": i, "ok": True, "result": {"devices": [], "notes": ["from a strange agent"]}})
    elif op == "memory.start":
        send({"id": i, "ok": True, "result": {}})
        send({"id": i, "event": "memory", "data": {"readings": [{"device": 5}]}})
    elif op == "open":
        for junk in ["Last login: yesterday", "{\"id\": %d, \"event\": 3}" % i, "[]", "{" * 10000]:
            send(junk)
        send({"id": i, "ok": True, "result": {"info": "not a model state"}})
    else:
        send({"id": i, "ok": False, "error": {"kind": "error", "message": "no"}})
"""


def test_malformed_lines_from_the_agent_never_crash_the_window(make_window, remote_windows, qtbot, monkeypatch):
    local = make_window()
    remote = _connect(qtbot, local, remote_windows, [sys.executable, "-c", _GARBAGE_AGENT], host="odd")
    qtbot.waitUntil(lambda: remote.busy_task is None and not remote.errorBanner.isHidden(), timeout=30_000)
    assert "result.info" in remote.errorBanner.message.text() or "state" in remote.errorBanner.message.text()
    assert remote.model_state is None and remote.kind.link.alive  # still talking
    connection = remote.kind.link._connection
    assert connection.malformed_lines >= 3
    _patient(remote, monkeypatch)
    remote.close()
    assert remote.threads_stopped and connection._process.returncode == 0  # stdin closed: it ended


def test_ctrl_c_in_the_terminal_closes_the_remote_windows_too(make_window, remote_windows, qtbot, monkeypatch):
    import signal

    from inspector.gui.shell.app import _ctrl_c_closes

    local = make_window()
    remote = _connect(qtbot, local, remote_windows, [sys.executable, "-c", _GARBAGE_AGENT], host="odd")
    qtbot.waitUntil(lambda: remote.busy_task is None and remote.kind.link.alive, timeout=30_000)
    connection = remote.kind.link._connection
    _patient(remote, monkeypatch)
    with _ctrl_c_closes(local) as interrupted:
        signal.getsignal(signal.SIGINT)(signal.SIGINT, None)  # what Ctrl+C runs
    assert interrupted and local.closed
    assert remote.threads_stopped and connection._process.returncode == 0  # its agent ended too
