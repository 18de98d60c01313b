"""One PNG renderer for every plot picture: the window's report export (the live plots'
``render_png``) and the CLI's HTML report (``report_images``) both draw through it; and the
rate at which the live plots redraw, the same for each of them."""

from __future__ import annotations

from typing import Any

#: Redraws per second of a live plot (latency, memory). Five to ten reads as live; more only costs CPU.
DEFAULT_REDRAW_FPS = 8.0


def plot_png(item: Any, width: int, height: int) -> bytes:
    """PNG bytes of a pyqtgraph PlotItem, exactly ``width`` x ``height`` pixels.

    pyqtgraph's ImageExporter keeps the item's aspect ratio, so the item is laid out at the
    target size first: pass an offscreen plot, never one a user is looking at.
    """
    from pyqtgraph.exporters import ImageExporter
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF

    item.setGeometry(QRectF(0, 0, width, height))
    exporter = ImageExporter(item)
    params = exporter.parameters()
    params["width"] = int(width)
    # Setting the width rescales the height by the aspect ratio; pin it to the exact size.
    params.param("height").setValue(int(height), blockSignal=exporter.heightChanged)
    image = exporter.export(toBytes=True)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


#: The name the plot widgets use.
png_bytes = plot_png
