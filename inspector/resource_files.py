"""Where the app's data files are, and the names the desktop knows it by. Qt-free.

The files live in the top-level ``resources/`` folder of the repository, installed as the
package ``inspector.resources``; they are read with ``importlib.resources`` so they are found
in a wheel, an editable install and a PyInstaller bundle alike.
"""

from __future__ import annotations

import sys
from importlib import resources
from typing import TYPE_CHECKING

from inspector.core.errors import InspectorError

if TYPE_CHECKING:  # importlib.resources.abc is Python 3.11+; 3.10 has it in importlib.abc
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

RESOURCE_PACKAGE = "inspector.resources"

# One reverse-DNS id for the .desktop file, the AppStream metainfo and
# QGuiApplication.setDesktopFileName, so window managers match windows to the entry.
APP_ID = "io.github.torch_device_inspector.TorchDeviceInspector"
APP_NAME = "torch-device-inspector"
DISPLAY_NAME = "Torch Device Inspector"
ORGANIZATION_NAME = "torch-device-inspector"
ORGANIZATION_DOMAIN = "torch-device-inspector.github.io"

ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
# Laid out as the XDG hicolor icon theme, so installing is copying icons/hicolor as it is.
ICON_SVG = f"icons/hicolor/scalable/apps/{APP_ID}.svg"
DESKTOP_FILE = f"{APP_ID}.desktop"
METAINFO_FILE = f"{APP_ID}.metainfo.xml"
STYLE_SHEET = "style.qss"


def icon_png_name(size: int) -> str:
    return f"icons/hicolor/{size}x{size}/apps/{APP_ID}.png"


def resource(name: str) -> Traversable:
    """The resource file `name` (a '/'-separated path inside resources/); raises if missing."""
    item = resources.files(RESOURCE_PACKAGE)
    for part in name.split("/"):
        item = item.joinpath(part)
    if not item.is_file():
        raise InspectorError(f"the app's resource file {name!r} is missing from the installation; reinstall torch-device-inspector")
    return item


def read_bytes(name: str) -> bytes:
    return resource(name).read_bytes()


def read_text(name: str) -> str:
    return resource(name).read_text(encoding="utf-8")


def icon_pngs() -> dict[int, bytes]:
    """Every PNG size of the app icon, as {size: png bytes}."""
    return {size: read_bytes(icon_png_name(size)) for size in ICON_SIZES}
