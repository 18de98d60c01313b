"""What the remote window's tests share."""

from __future__ import annotations

import pytest

from inspector.gui.shell.window import InspectorWindow


@pytest.fixture
def remote_windows(qtbot):
    """The remote windows a test opened (append each): closed afterwards, their threads stopped."""
    opened: list[InspectorWindow] = []  # (windows of the remote kind)
    yield opened
    import shiboken6

    for window in opened:
        if shiboken6.isValid(window):  # a closed remote window deletes itself
            window.close()
            assert window.threads_stopped, "a worker thread did not stop within 2 s"
