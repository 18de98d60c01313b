"""The Qt window. Importing this package loads no Qt; create_window/main do."""

from inspector.gui.shell.app import create_window, main

__all__ = ["create_window", "main"]
