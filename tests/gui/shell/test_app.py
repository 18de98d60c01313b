"""has_display: whether Qt would find a display, or abort before the window exists."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

from inspector.gui.shell import app
from tests.processes import GENEROUS_S
from tests.warm_python import run_python


@pytest.fixture
def linux(monkeypatch):
    """Linux, no display variables, and every display server named in them answering."""
    monkeypatch.setattr(app.sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(app, "_x_server_answers", lambda: True)
    monkeypatch.setattr(app, "_wayland_compositor_answers", lambda: True)
    return monkeypatch


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, False),
        ({"DISPLAY": ":0"}, True),
        ({"WAYLAND_DISPLAY": "wayland-0"}, True),
        # Platforms that draw without a display server.
        ({"QT_QPA_PLATFORM": "offscreen"}, True),
        ({"QT_QPA_PLATFORM": "minimal"}, True),
        ({"QT_QPA_PLATFORM": "vnc:size=800x600"}, True),
        ({"QT_QPA_PLATFORM": "eglfs"}, True),
        ({"QT_QPA_PLATFORM": "linuxfb"}, True),
        # Platforms that need their server: Qt aborts without it.
        ({"QT_QPA_PLATFORM": "xcb"}, False),
        ({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, False),
        ({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"}, True),
        ({"QT_QPA_PLATFORM": "wayland"}, False),
        ({"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"}, False),
        ({"QT_QPA_PLATFORM": "wayland-egl", "WAYLAND_DISPLAY": "wayland-0"}, True),
        # A list Qt tries in order: usable if any entry is.
        ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"}, True),
        ({"QT_QPA_PLATFORM": "wayland;xcb"}, False),
        ({"QT_QPA_PLATFORM": "no-such-platform"}, False),
    ],
)
def test_has_display_trusts_only_platforms_that_can_open(linux, env, expected):
    for name, value in env.items():
        linux.setenv(name, value)
    assert app.has_display() is expected


def test_other_systems_always_have_a_display(monkeypatch):
    monkeypatch.setattr(app.sys, "platform", "darwin")
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    assert app.has_display()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display servers are a Linux/BSD matter")
def test_main_refuses_xcb_without_display_instead_of_letting_qt_abort():
    # In a child process: if the check let it through, Qt would abort the whole test run.
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["QT_QPA_PLATFORM"] = "xcb"
    code = "from inspector.gui.shell.app import main; raise SystemExit(main())"
    done = run_python(["-c", code], cwd=os.getcwd(), env=env, timeout=120)
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stderr.startswith("error: the window needs a display")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display servers are a Linux/BSD matter")
@pytest.mark.parametrize(
    "env",
    [
        {"DISPLAY": ":77"},
        {"DISPLAY": ":77", "QT_QPA_PLATFORM": "xcb"},
        {"WAYLAND_DISPLAY": "/nonexistent/wayland-9"},
        {"WAYLAND_DISPLAY": "wayland-77", "QT_QPA_PLATFORM": "wayland"},
    ],
    ids=["dead-x", "dead-x-xcb", "dead-wayland", "dead-wayland-platform"],
)
def test_a_display_variable_naming_no_server_is_no_display(monkeypatch, tmp_path, env):
    """Set but dead: Qt would abort (exit 134); the app asks the server first and says so."""
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))  # no compositor socket in here
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert app.has_display() is False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display servers are a Linux/BSD matter")
def test_main_with_a_dead_display_prints_the_message_instead_of_aborting(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(DISPLAY=":77", WAYLAND_DISPLAY="wayland-77", XDG_RUNTIME_DIR=str(tmp_path))
    done = run_python(["-m", "inspector"], cwd=os.getcwd(), env=env, timeout=120)
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stderr.startswith("error: the window needs a display")
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb to have an X server that answers")
def test_a_live_x_server_is_a_display(monkeypatch):
    # Xvfb picks a free display itself and writes its number to our pipe (a number we chose
    # could be taken, or locked by a server killed before).
    read_end, write_end = os.pipe()
    # -noreset: an X server with no client left resets, and refuses connections meanwhile (a
    # second has_display() in that moment read False under load); a desktop's never does.
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-noreset"], pass_fds=(write_end,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    os.close(write_end)
    try:
        with os.fdopen(read_end) as said:  # (a line once it listens; "" if it died)
            number = said.readline().strip()
        assert number, "Xvfb ended before it said its display"
        monkeypatch.setattr(app.sys, "platform", "linux")
        monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
        monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
        monkeypatch.setenv("DISPLAY", f":{number}")
        deadline = time.monotonic() + GENEROUS_S  # Xvfb's start under load; only a hang reaches it
        while not (answered := app.has_display()) and time.monotonic() < deadline and server.poll() is None:
            time.sleep(0.1)
        assert answered is True and app.has_display() is True
    finally:
        server.terminate()
        server.wait(timeout=GENEROUS_S)
