"""File › Connect to server…: what it calls is the window's to say (the app opens the remote
window's dialog, ``shell.remote_window``)."""

from __future__ import annotations


from inspector.gui.common.actions import ActionSpec
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

CONNECT = ActionSpec(
    "remote.connect", "connectServerAction", QT_TRANSLATE_NOOP("Menus", "Co&nnect to server…"), "Ctrl+Shift+N",
    QT_TRANSLATE_NOOP("Menus", "Open a second window whose model, moves and benchmarks run on another "
                               "machine, reached through your own command (ssh HOST torch-device-inspector agent)"),
)  # fmt: skip
