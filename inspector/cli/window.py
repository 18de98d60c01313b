"""No sub-command: open the window. Qt is imported only here and only when it runs, so every
other command works where PySide6 is not installed."""

from __future__ import annotations

from inspector.core.errors import InspectorError


def cmd_window(args) -> int:
    try:
        import pyqtgraph  # noqa: F401
        from PySide6 import QtWidgets  # noqa: F401
    except ImportError as exc:
        raise InspectorError(
            f"the window needs PySide6 and pyqtgraph ({exc}); install them, or use the headless commands: devices, inspect, bench"
        ) from None
    from inspector.gui.shell.app import main as gui_main

    return gui_main(model_spec=args.model, trust=args.trust)
