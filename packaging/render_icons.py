"""Render the app icon's PNGs from its SVG (run once after editing the SVG; commit the PNGs).

    .venv/bin/python packaging/render_icons.py

Rendered with Qt's own SVG renderer (QtSvg ships with PySide6-Essentials), so no extra tool
such as Inkscape or rsvg-convert is needed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from inspector.resource_files import ICON_SIZES, ICON_SVG, icon_png_name  # noqa: E402

RESOURCES = REPO / "resources"


def render(renderer: QSvgRenderer, size: int, target: Path) -> None:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    target.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(target), "PNG"):
        raise SystemExit(f"could not write {target}")


def main() -> int:
    _app = QGuiApplication.instance() or QGuiApplication([])  # QImage/QPainter need one
    renderer = QSvgRenderer(str(RESOURCES / ICON_SVG))
    if not renderer.isValid():
        raise SystemExit(f"{RESOURCES / ICON_SVG} is not a valid SVG")
    for size in ICON_SIZES:
        target = RESOURCES / icon_png_name(size)
        render(renderer, size, target)
        print(f"{target.relative_to(REPO)}  {target.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
