"""The drawing half of the memory plot: one curve per device and figure, the legend, the
markers of moves and benchmarks, and the y unit. ``MemoryPlot`` (``memory.py``) adds the
controls and the redraw timer around it; an offscreen twin renders it for reports."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from inspector.core.memory_log import MemoryTimeline
from inspector.gui.plain_text import plain_tooltip
from inspector.gui.plots.theme import device_color, restyle, theme_colors, translucent

#: Figures of a MemoryReading drawn as curves (not ``total``: a device's size would flatten
#: every other curve against the floor).
MEMORY_FIGURES = ("allocated", "reserved", "used")
#: Up to this many curves the memory legend names each one; beyond (several GPUs) it names the
#: devices (colour) and the figures (line style) apart, so it stays two rows high.
LEGEND_CURVES_MAX = 6
#: The line-style key of that compact legend.
FIGURE_KEYS = {
    "allocated": "allocated (cpu: RSS)",
    "reserved": "reserved (cache)",
    "used": "used (cpu: system)",
}
_BINARY_UNITS = (("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40))
# Lines tell a device's figures apart by style; the device is the colour.
_FIGURE_STYLES = {
    "allocated": Qt.PenStyle.SolidLine,
    "reserved": Qt.PenStyle.DashLine,
    "used": Qt.PenStyle.DotLine,
}

def pick_unit(max_bytes: float) -> tuple[str, int]:
    """The largest binary unit in which ``max_bytes`` is still at least 1 (MiB at the least)."""
    name, size = _BINARY_UNITS[0]
    for unit, unit_size in _BINARY_UNITS:
        if max_bytes >= unit_size:
            name, size = unit, unit_size
    return name, size


def _label_text(text: str) -> str:
    # InfLineLabel formats its text with str.format({value}); braces in a label are literal.
    return text.replace("{", "{{").replace("}", "}}")


@dataclass(frozen=True)
class Marker:
    """A labelled instant (``end`` None) or span on the memory plot; times are time.time()."""

    label: str
    start: float
    end: float | None = None


def figure_label(device: str, figure: str) -> str:
    """Legend text: what each figure means on that kind of device (see ``MemoryReading``)."""
    if device == "cpu":
        return {"allocated": "cpu RSS (this process)", "used": "cpu system used"}.get(figure, f"cpu {figure}")
    return {
        "allocated": f"{device} allocated",
        "reserved": f"{device} reserved (cache)",
        "used": f"{device} used (whole device)",
    }.get(figure, f"{device} {figure}")


class MemoryCanvas(pg.PlotWidget):
    """The drawing half of MemoryPlot: curves per device and figure, plus markers.

    Separate from the toolbar so an offscreen twin can render the same timeline at a
    fixed size for the report without touching the live plot's zoom.
    """

    def __init__(self, parent: QWidget | None = None, name: str = "memoryPlotCanvas") -> None:
        super().__init__(parent)
        self.setObjectName(name)
        restyle(self, legend_columns=3)
        item = self.getPlotItem()
        # pyqtgraph draws only what is in view, reduced to min/max per pixel column, so an
        # hour of readings repaints as cheaply as a minute.
        item.setClipToView(True)
        item.setDownsampling(auto=True, mode="peak")
        item.setLabel("bottom", "time since start (s)")
        item.setLabel("left", "memory (MiB)")
        self.curves: dict[tuple[str, str], pg.PlotDataItem] = {}
        self.marker_items: list[pg.GraphicsObject] = []
        self.unit = ("MiB", 1 << 20)
        self._legend_keys: list[pg.PlotDataItem] = []  # the compact legend's samples
        self._legend_for: tuple = ()  # the curves the legend was built for

    def draw(self, timeline: MemoryTimeline, last_seconds: float | None = None) -> float:
        """Put the timeline's readings on the curves; returns the latest time (s).

        With ``last_seconds``, only that tail is handed to pyqtgraph: following the last
        30 s of an hour-long timeline then costs what 30 s of data costs.
        """
        devices = timeline.devices()
        if last_seconds is None:
            columns = {device: timeline.series(device) for device in devices}
            latest = max((float(c["t"][-1]) for c in columns.values() if c["t"].size), default=0.0)
        else:
            # series_since(inf) is each device's last reading alone: the clock's "now".
            lasts = [timeline.series_since(device, math.inf)["t"] for device in devices]
            latest = max((float(t[-1]) for t in lasts if t.size), default=0.0)
            columns = {device: timeline.series_since(device, latest - last_seconds) for device in devices}
        peak = max(
            (float(np.nanmax(col[f])) for col in columns.values() for f in MEMORY_FIGURES
             if col[f].size and not np.all(np.isnan(col[f]))),
            default=0.0,
        )  # fmt: skip
        self._set_unit(pick_unit(peak))
        scale = self.unit[1]
        for device, col in columns.items():
            for figure in MEMORY_FIGURES:
                values = col[figure]
                curve = self.curves.get((device, figure))
                if curve is None:
                    if not values.size or np.all(np.isnan(values)):
                        continue  # e.g. the CPU has no allocator cache: no empty legend entry
                    curve = self._add_curve(device, figure)
                curve.setData(col["t"], values / scale)
        if tuple(self.curves) != self._legend_for:
            self._rebuild_legend()
        return latest

    def _rebuild_legend(self) -> None:
        """One entry per curve, or (many curves) one per figure and one per device.

        Clicking a compact entry hides or shows every curve it stands for, as clicking a
        curve's own entry does for that curve.
        """
        legend = self.getPlotItem().legend
        legend.clear()
        self._legend_keys.clear()
        self._legend_for = tuple(self.curves)
        if len(self.curves) <= LEGEND_CURVES_MAX:
            legend.setColumnCount(3)  # e.g. a GPU's allocated, reserved, used per row
            for (device, figure), curve in self.curves.items():
                legend.addItem(curve, figure_label(device, figure))
            return
        legend.setColumnCount(6)
        foreground = theme_colors(self)[1]
        for figure in (f for f in MEMORY_FIGURES if any(f == fig for _, fig in self.curves)):
            pen = pg.mkPen(foreground, width=1, style=_FIGURE_STYLES[figure])
            self._add_legend_key(pen, FIGURE_KEYS[figure], [c for (_, f), c in self.curves.items() if f == figure])
        for device in dict.fromkeys(device for device, _ in self.curves):
            pen = pg.mkPen(device_color(device), width=3)
            self._add_legend_key(pen, device, [c for (d, _), c in self.curves.items() if d == device])

    def _add_legend_key(self, pen: Any, label: str, curves: list[pg.PlotDataItem]) -> None:
        key = pg.PlotDataItem(pen=pen)  # never added to the plot: it only lends its sample
        key.visibleChanged.connect(lambda: [curve.setVisible(key.isVisible()) for curve in curves])
        self._legend_keys.append(key)
        self.getPlotItem().legend.addItem(key, label)

    def _set_unit(self, unit: tuple[str, int]) -> None:
        if unit != self.unit:
            self.unit = unit
            self.getPlotItem().setLabel("left", f"memory ({unit[0]})")

    def _add_curve(self, device: str, figure: str) -> pg.PlotDataItem:
        pen = pg.mkPen(device_color(device), width=1, style=_FIGURE_STYLES[figure])
        # Peak downsampling to one min/max pair per pixel column draws the exact envelope;
        # pyqtgraph's default (5 samples per pixel) draws 5x the points for no visible gain.
        # Unnamed: the legend is built by _rebuild_legend, per curve or compact.
        curve = self.getPlotItem().plot(pen=pen, connect="finite", autoDownsampleFactor=1.0)
        self.curves[(device, figure)] = curve
        return curve

    def add_marker(self, marker: Marker, t0: float, number: int) -> None:
        foreground = theme_colors(self)[1]
        # Labels sit beside their line near the top, staggered so close neighbours stay legible
        # (right of the line, or left of it near the right edge).
        opts = {"position": 0.97 - 0.08 * (number % 5), "anchors": [(0, 0), (1, 0)],
                "color": foreground, "fill": translucent(self.backgroundBrush().color(), 200)}
        if marker.end is None:
            line = pg.InfiniteLine(marker.start - t0, angle=90, movable=False,
                                   pen=pg.mkPen(foreground, width=1, style=Qt.PenStyle.DashLine),
                                   label=_label_text(marker.label), labelOpts=opts)  # fmt: skip
            line.setToolTip(plain_tooltip(marker.label))
            self.addItem(line, ignoreBounds=True)
            self.marker_items.append(line)
            return
        region = pg.LinearRegionItem(
            (marker.start - t0, marker.end - t0), movable=False,
            brush=translucent(foreground, 28), pen=pg.mkPen(translucent(foreground, 120), width=1),
        )  # fmt: skip
        region.setToolTip(plain_tooltip(f"{marker.label} ({marker.end - marker.start:.3f} s)"))
        pg.InfLineLabel(region.lines[0], text=_label_text(marker.label), **opts)
        self.addItem(region, ignoreBounds=True)
        self.marker_items.append(region)

    def remove_marker(self, index: int) -> None:
        self.removeItem(self.marker_items.pop(index))

    def clear_all(self) -> None:
        for item in self.marker_items:
            self.removeItem(item)
        self.marker_items.clear()
        for curve in self.curves.values():
            self.removeItem(curve)
        self.curves.clear()
        self.getPlotItem().legend.clear()
        self._legend_keys.clear()
        self._legend_for = ()
