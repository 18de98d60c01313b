"""The Qt window. Importing this package (or any module of it) loads no Qt and none of the
window: ``create_window`` and ``main`` are the app's (``shell.app``), imported when first
asked for (PEP 562), as the CLI imports ``inspector.gui.shell.app`` itself."""

from __future__ import annotations

from typing import Any

__all__ = ["create_window", "main"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from inspector.gui.shell import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
