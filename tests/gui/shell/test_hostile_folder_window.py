"""Issue 43: the window's own roads through a hostile world. Started in a folder full of decoys
(``inspector.py``, ``sitecustomize.py``, every lazily imported name), with ``PYTHONPATH`` naming
another such folder and every proxy variable a listener that counts connections, the window
opens the example and a Hugging Face folder, benchmarks per module, and connects to a server
through the command a user types. No decoy runs, nothing connects to the listener or opens an
internet socket from this process, and every process the window starts is the one asked for.
(The CLI and the agent: tests/test_hostile_folder.py.)"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from inspector.gui.shell.app import connect_server
from tests.decoys import decoys_that_ran
from tests.gui.helpers import widget
from tests.hf_folders import config_folder
from tests.test_hostile_folder import Listener, _plant
from tests.gui import doors

#: What the audit hook below saw while a test recorded: (kind, what).
_SEEN: list[tuple[str, object]] | None = None


def _hook(event: str, args: tuple) -> None:
    if _SEEN is None:
        return
    if event == "subprocess.Popen":
        _SEEN.append(("process", [os.fsdecode(a) for a in args[1]] if args[1] is not None else args[0]))
    elif event in ("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty"):
        _SEEN.append(("process", event))
    elif event == "socket.connect" and getattr(args[0], "family", None) in (socket.AF_INET, socket.AF_INET6):
        _SEEN.append(("socket", args[1]))


sys.addaudithook(_hook)  # an audit hook cannot be removed: it records only while a test asks


@pytest.fixture
def hostile_world(tmp_path, monkeypatch):
    global _SEEN
    marks, work, evil = tmp_path / "marks", tmp_path / "work", tmp_path / "evil"
    _plant(work, marks, "work")
    _plant(evil, marks, "pythonpath")
    listener = Listener()
    monkeypatch.chdir(work)
    monkeypatch.setattr(sys, "path", [entry for entry in sys.path if entry not in ("", ".")])
    monkeypatch.setenv("PYTHONPATH", str(evil))
    monkeypatch.setenv("HF_ENDPOINT", listener.url)
    for name in ("http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.setenv(name, listener.url)
        monkeypatch.setenv(name.upper(), listener.url)
    monkeypatch.setenv("no_proxy", "")
    monkeypatch.setenv("NO_PROXY", "")
    _SEEN = []
    try:
        yield {"marks": marks, "listener": listener, "llama": config_folder(tmp_path / "models", "llama")}
    finally:
        _SEEN = None
        listener.close()


def _console_script() -> Path:
    script = Path(sys.executable).with_name("torch-device-inspector")
    if not script.exists():
        pytest.skip("the console script is not installed next to this Python")
    return script


def test_the_windows_open_benchmark_and_connect_flows_run_nothing_unasked_and_open_no_socket(
    make_window, remote_windows, qtbot, hostile_world
):
    window = make_window("example")
    doors.bar(window).runsSpin.setValue(5)
    doors.bar(window).perModuleCheck.setChecked(True)
    qtbot.mouseClick(widget(window, QPushButton, "benchmarkButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=60_000)
    window.open_model(str(hostile_world["llama"]))
    qtbot.waitUntil(lambda: doors.busy(window) is None and doors.model(window).info.class_name == "LlamaForCausalLM",
                    timeout=120_000)  # fmt: skip

    # The command a user types for a server: here this machine's own console script.
    command = f"{_console_script()} agent"
    remote = connect_server(window, "gpu-test", command)
    remote_windows.append(remote)
    qtbot.waitUntil(lambda: remote.model_state is not None and remote.busy_task is None, timeout=120_000)
    remote.action_bar.runsSpin.setValue(5)
    remote.action_bar.benchmarkButton.click()
    qtbot.waitUntil(lambda: remote.busy_task is None, timeout=60_000)

    assert decoys_that_ran(hostile_world["marks"]) == []
    assert hostile_world["listener"].connections == []
    assert [what for kind, what in _SEEN if kind == "socket"] == []
    started = [what for kind, what in _SEEN if kind == "process"]
    assert started and all(isinstance(argv, list) for argv in started), started
    # the one process asked for: the user's command, as typed
    assert [argv for argv in started if os.path.basename(argv[0]) != "torch-device-inspector"] == []
