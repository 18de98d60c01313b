"""One look for every plot and panel: the device colours (the same in the device table, the
parameter view and the plots' curves) and their swatches, the palette for further runs (``pick_series_color``),
and the plots' style taken from the Qt palette so they follow a light or dark theme."""

from __future__ import annotations

from typing import Any, Collection

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QWidget

# Colour-blind-friendly hues (Okabe–Ito), one per device; the CPU keeps a neutral grey.
DEVICE_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
CPU_COLOUR = "#7f7f7f"
# Tableau 10: distinct hues that stay readable on light and dark backgrounds.
PALETTE = (
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1",
    "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac",
)  # fmt: skip


def device_colour(device: str) -> QColor:
    """A stable colour per device id: the same in the device table, the parameter view and
    the plots, so a curve and its row are told together at a glance."""
    if device in ("cpu", "", "meta"):
        return QColor(CPU_COLOUR)
    kind, _, index = device.partition(":")
    offset = {"cuda": 0, "mps": 3, "xpu": 5}.get(kind, 7)
    number = int(index) if index.isdigit() else 0
    return QColor(DEVICE_COLOURS[(offset + number) % len(DEVICE_COLOURS)])


#: The plots' historical name for it.
device_color = device_colour

_swatches: dict[str, QIcon] = {}


def device_swatch(device: str) -> QIcon:
    """A small filled square in the device's colour (cached: views ask for it per paint)."""
    icon = _swatches.get(device)
    if icon is None:
        pixmap = QPixmap(12, 12)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(device_colour(device))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawRoundedRect(1, 1, 10, 10, 2, 2)
        painter.end()
        icon = _swatches[device] = QIcon(pixmap)
    return icon


def pick_series_color(device: str, taken: Collection[QColor]) -> QColor:
    """A latency run's colour: its device's own for the device's first run; another free
    palette colour for the next dtype/mode on the same device, so every run on screen has a
    hue of its own (``taken``: the colours the runs on screen have)."""
    in_use = {c.name() for c in taken}
    own = device_color(device)
    if own.name() not in in_use:
        return own
    free = [c for c in PALETTE if QColor(c).name() not in in_use]
    return QColor(free[0] if free else PALETTE[len(taken) % len(PALETTE)])


def theme_colors(widget: QWidget) -> tuple[QColor, QColor]:
    """(background, foreground) from the Qt palette, so plots follow a light or dark theme."""
    palette = widget.palette()
    return palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)


def restyle(plot: Any, legend_columns: int = 0) -> None:
    background, foreground = theme_colors(plot)
    plot.setBackground(background)
    item = plot.getPlotItem()
    for axis in ("left", "bottom"):
        ax = item.getAxis(axis)
        ax.setPen(foreground)
        ax.setTextPen(foreground)
        # Our labels name their unit; pyqtgraph's "(x0.001)" scale suffix would contradict them.
        ax.enableAutoSIPrefix(False)
        # Ticks and grid lines at two levels, not three: the third level's hundreds of faint
        # grid lines cost more to paint than an hour of curves (about 8 ms a frame).
        ax.setStyle(maxTickLevel=1)
    item.showGrid(x=True, y=True, alpha=0.15)
    if legend_columns and item.legend is None:
        legend_above(item, foreground, legend_columns)


def legend_above(item: Any, foreground: QColor, columns: int) -> None:
    """The legend in a row above the plot area, where it never hides data or markers.

    The documented pyqtgraph way (as ``PlotItem.addLegend`` does): a ``LegendItem`` parented
    to the PlotItem with ``setParentItem`` and anchored to its top-left corner. The PlotItem's
    title row (no title is shown) is sized to the legend's height, so the legend floats over
    nothing. Named curves still register themselves, and clicking an entry still hides or
    shows its curve.
    """
    import pyqtgraph as pg

    legend = pg.LegendItem(offset=None, colCount=columns, labelTextColor=foreground, verSpacing=-4)
    legend.setParentItem(item)
    legend.anchor(itemPos=(0, 0), parentPos=(0, 0), offset=(LEGEND_INDENT, 0))
    item.legend = legend

    def make_room() -> None:
        # (LegendItem.size is its own attribute, not the widget size: ask the geometry.)
        item.layout.setRowFixedHeight(0, legend.geometry().height() if legend.items else 0)

    legend.geometryChanged.connect(make_room)
    make_room()


#: The legend starts past the y axis (whose labels are about this wide).
LEGEND_INDENT = 48


def translucent(color: QColor, alpha: int) -> QColor:
    out = QColor(color)
    out.setAlpha(alpha)
    return out
