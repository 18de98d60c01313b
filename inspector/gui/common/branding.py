"""Give the QApplication its names, icon and style sheet.

Call ``apply_branding(app)`` right after creating the QApplication: window managers match
windows to the ``.desktop`` entry through the desktop file name, and every window created
afterwards inherits the icon.
"""

from __future__ import annotations

import logging
import sys

from PySide6.QtGui import QGuiApplication, QIcon, QPixmap
from PySide6.QtWidgets import QApplication

from inspector import resource_files as rf
from inspector.core.errors import InspectorError

log = logging.getLogger(__name__)


def toolkit_line() -> str:
    """The Qt, PySide6 and pyqtgraph versions, for ``--version`` and the About box."""
    import PySide6
    from PySide6 import QtCore

    try:
        import pyqtgraph

        plots = f"pyqtgraph {pyqtgraph.__version__}"
    except ImportError:
        plots = "pyqtgraph not installed"
    return f"Qt {QtCore.qVersion()} (PySide6 {PySide6.__version__}), {plots}"


def app_icon() -> QIcon:
    """The app icon with every PNG size added, so Qt never scales a 512 px image down to 16 px."""
    icon = QIcon()
    for size, data in rf.icon_pngs().items():
        pixmap = QPixmap()
        # From bytes rather than a path: QIcon loads files lazily, and a resource path may be
        # a temporary file (importlib.resources.as_file) gone by the time Qt paints it.
        if not pixmap.loadFromData(data, "PNG"):
            raise InspectorError(f"the app icon {rf.icon_png_name(size)!r} is not a readable PNG; reinstall torch-device-inspector")
        icon.addPixmap(pixmap)
    return icon


def style_sheet() -> str:
    return rf.read_text(rf.STYLE_SHEET)


def set_names(app: QGuiApplication) -> None:
    app.setApplicationName(rf.APP_NAME)  # also names the QSettings file
    app.setApplicationDisplayName(rf.DISPLAY_NAME)
    app.setOrganizationName(rf.ORGANIZATION_NAME)
    app.setOrganizationDomain(rf.ORGANIZATION_DOMAIN)
    app.setDesktopFileName(rf.APP_ID)  # without ".desktop", as Qt documents
    from inspector import __version__

    app.setApplicationVersion(__version__)


def _set_windows_taskbar_id() -> None:
    # Without an explicit AppUserModelID, Windows groups the window under python.exe and
    # shows Python's icon in the taskbar.
    if sys.platform == "win32":  # (ctypes.windll exists there only; mypy reads this on Windows)
        import ctypes

        ctypes.windll.shell32.SetCurrentProcessExplicitAppUserModelID(rf.APP_ID)


def apply_branding(app: QApplication) -> None:
    """Names, desktop file name, window icon and style sheet for the whole application."""
    set_names(app)
    if sys.platform == "win32":
        _set_windows_taskbar_id()
    # A missing icon or style sheet is cosmetic: warn and keep the app usable.
    try:
        app.setWindowIcon(app_icon())
        app.setStyleSheet(style_sheet())
    except (InspectorError, OSError) as exc:
        log.warning("starting without the app's icon or style sheet: %s", exc)
