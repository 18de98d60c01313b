"""An SVG exporter drawn by Qt, for the pyqtgraph releases whose own SVG exporter fails.

pyqtgraph's SVGExporter (0.14.0) fails on every plot with recent Qt (seen with 6.11 and
6.12): it re-parses Qt's path data and cannot read the close-path command ``Z`` Qt now
writes (pyqtgraph issue #3495, fixed upstream after 0.14.0). ``register_if_needed`` adds
``QtSvgExporter`` to the "Export..." menu only for those releases.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401  (registers ImageExporter/SVGExporter under pg.exporters)
import pyqtgraph.parametertree  # noqa: F401  (exporter parameters)
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize
from PySide6.QtGui import QPainter

from inspector.gui.common.marks import QT_TRANSLATE_NOOP

#: The last pyqtgraph release whose SVGExporter cannot read Qt's close-path command.
LAST_BROKEN_PYQTGRAPH = (0, 14, 0)


class QtSvgExporter(pg.exporters.Exporter):  # type: ignore[misc]  # pyqtgraph ships no stubs: its classes are Any
    """SVG through Qt's own QSvgGenerator, offered next to pyqtgraph's SVG exporter.

    pyqtgraph's SVGExporter (0.14.0) fails on every plot with recent Qt (seen with 6.11
    and 6.12): it re-parses Qt's path data and cannot read the close-path command ``Z``
    Qt now writes (pyqtgraph issue #3495, fixed upstream after 0.14.0). This one skips
    that re-parsing: the scene is drawn straight into the SVG, so "Export..." always has
    a working SVG entry.
    """

    #: pyqtgraph's Export dialog shows ``translate("Exporter", Name)``.
    Name = QT_TRANSLATE_NOOP("Exporter", "SVG, drawn by Qt (use this if the other SVG entry fails)")

    def __init__(self, item: object) -> None:
        super().__init__(item)
        self.params = pg.parametertree.Parameter.create(name="params", type="group", children=[])

    def parameters(self) -> Any:  # a pyqtgraph Parameter (no stubs)
        return self.params

    def export(  # noqa: N803 (pyqtgraph's names)
        self, fileName: str | None = None, toBytes: bool = False, copy: bool = False
    ) -> bytes | None:
        if fileName is None and not toBytes:
            self.fileSaveDialog(filter=["*.svg"])
            return None
        from PySide6.QtSvg import QSvgGenerator  # only needed here: keep startup lean

        source = self.getSourceRect()
        width, height = max(1, round(source.width())), max(1, round(source.height()))
        data = QByteArray()
        buffer = QBuffer(data)
        generator = QSvgGenerator()
        if toBytes:
            buffer.open(QIODevice.OpenModeFlag.WriteOnly)
            generator.setOutputDevice(buffer)
        else:
            generator.setFileName(str(fileName))
        generator.setSize(QSize(width, height))
        generator.setViewBox(QRectF(0, 0, width, height))
        generator.setTitle("torch-device-inspector plot")
        # Fonts are sized in points: draw at the screen's DPI (QSvgGenerator assumes 72) or
        # text comes out a third larger than the plot it labels.
        views = self.getScene().views()
        generator.setResolution(views[0].logicalDpiX() if views else 96)
        painter = QPainter(generator)
        try:
            self.setExportMode(True, {"painter": painter, "antialias": True, "background": None})
            self.getScene().render(painter, QRectF(0, 0, width, height), QRectF(source))
        finally:
            self.setExportMode(False)
            painter.end()
        return bytes(data.data()) if toBytes else None


def needs_workaround(version: str = pg.__version__) -> bool:
    """True for the pyqtgraph releases whose SVG exporter fails (see the module docstring)."""
    numbers = []
    for part in version.split(".")[:3]:
        digits = "".join(ch for ch in part if ch.isdigit())
        numbers.append(int(digits) if digits else 0)
    return tuple(numbers) <= LAST_BROKEN_PYQTGRAPH


def register_if_needed() -> bool:
    """Offer QtSvgExporter in "Export..." where pyqtgraph's own SVG fails; True if registered."""
    if not needs_workaround() or QtSvgExporter in pg.exporters.Exporter.Exporters:
        return False
    QtSvgExporter.register()
    return True
