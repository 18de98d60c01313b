"""Fixtures for the window tests: an isolated QSettings store and a loaded main window.

Tests drive the window through its object names, like a user would, and wait on its state
with ``qtbot.waitUntil`` (never sleeps).
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from inspector.gui.shell.app import qt_binding_problem
from tests.gui.languages import chinese  # noqa: F401 -- the fixture, for every window test
from tests.gui import doors

_HERE = Path(__file__).parent
_BINDING_PROBLEM = qt_binding_problem()

#: Qt messages the offscreen platform prints by itself; they say nothing about the app.
OFFSCREEN_NOISE = ("This plugin does not support",)


def pytest_collection_modifyitems(config, items):
    if _BINDING_PROBLEM is None:
        return
    # Running them would abort the whole pytest process a few thousand Qt calls in.
    skip = pytest.mark.skip(reason=_BINDING_PROBLEM)
    for item in items:
        if _HERE in Path(item.path).parents:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def qapp(tmp_path_factory):
    """The app's own QApplication (torch first, branding applied), with settings in a temp dir."""
    from PySide6.QtCore import QSettings, QStandardPaths

    from inspector.gui.shell.app import ensure_application

    QStandardPaths.setTestModeEnabled(True)
    store = tmp_path_factory.mktemp("qsettings")
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(store / "user"))
        QSettings.setPath(fmt, QSettings.Scope.SystemScope, str(store / "system"))
    app = ensure_application()
    from inspector.gui.common import i18n

    # The window's texts are asserted in English: whatever the machine's locale says.
    i18n.apply_language(i18n.ENGLISH)
    return app


@pytest.fixture(autouse=True)
def _no_idle_builds(monkeypatch):
    """Pages built ahead of need at idle (``gui.lazy_tabs``) would be built or not depending on
    how long a test runs: off, so each test sees one state; tests of it set a short delay."""
    from inspector.gui.common import lazy_tabs

    monkeypatch.setattr(lazy_tabs, "IDLE_BUILD_DELAY_MS", 10**8)


@pytest.fixture
def clean_settings(qapp):
    from PySide6.QtCore import QSettings

    settings = QSettings()
    settings.clear()
    settings.sync()
    yield settings
    settings.clear()


def wait_idle(qtbot, window, timeout=30_000) -> None:
    """Until the window holds a model and no task runs."""
    qtbot.waitUntil(lambda: doors.model(window) is not None and doors.busy(window) is None, timeout=timeout)


@pytest.fixture
def make_window(qtbot, clean_settings):
    """``make_window(spec="example")``: a window with its model loaded and devices listed."""
    from inspector.gui.shell.app import create_window

    windows = []

    def make(spec: str = "example", *, wait: bool = True):
        window = create_window(model_spec=spec)
        windows.append(window)
        qtbot.addWidget(window)
        if wait:
            wait_idle(qtbot, window)
            qtbot.waitUntil(lambda: window.inventory is not None, timeout=30_000)
        return window

    yield make
    for window in windows:
        window.close()
        assert window.threads_stopped, "a worker thread did not stop within 2 s"
    # Free this test's windows now, while no worker thread runs. Left to the garbage
    # collector, a window can be collected on the GUI thread (holding the GIL) during a later
    # test while that test's worker emits a signal (holding Qt's connection lock and waiting
    # for the GIL): a deadlock seen twice under load.
    from PySide6.QtCore import QCoreApplication, QEvent

    for window in windows:
        window.deleteLater()
    windows.clear()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


@pytest.fixture
def window(make_window):
    return make_window()


@pytest.fixture
def remote_windows(qtbot):
    """The remote windows a test opened (append each): closed afterwards, their threads stopped."""
    opened = []  # (windows of the remote kind)
    yield opened
    import shiboken6

    for window in opened:
        if shiboken6.isValid(window):  # a closed remote window deletes itself
            window.close()
            assert window.threads_stopped, "a worker thread did not stop within 2 s"
