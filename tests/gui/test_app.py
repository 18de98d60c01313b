"""has_display: whether Qt would find a display, or abort before the window exists."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from inspector.gui import app


@pytest.fixture
def linux(monkeypatch):
    monkeypatch.setattr(app.sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
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
    code = "from inspector.gui.app import main; raise SystemExit(main())"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stderr.startswith("error: the window needs a display")
