"""Live plots: device memory over time (``MemoryPlot``) and benchmark latency (``LatencyPlot``).

Both are plain widgets the main window drops in where its placeholders were. They take
plain values (``MemoryReading`` tuples, milliseconds, ``LatencyResult``/report dicts), keep
them in stores (the memory plot in a ``MemoryTimeline``, which may be the window's), and
repaint from a QTimer on the GUI thread at a few frames per second, never once per sample
(ScopeFoundry style: data arrives fast, paint stays cheap).

Integration (the exact lines the main window needs)::

    from inspector.gui.plots import LatencyPlot, MemoryPlot

    # The window's MemoryTimeline is the store: the sampler fills it, the report reads it.
    self.memoryPlot = MemoryPlot(timeline=self.timeline)      # objectName "memoryPlot"
    self.latencyPlot = LatencyPlot()                          # objectName "latencyPlot"
    sampler.samples.connect(self.memoryPlot.schedule_redraw)  # sampler already stored them
    # (a sampler that does not store: sampler.samples.connect(self.memoryPlot.add_readings))

    # a move or a benchmark (t: a time.time() stamp, the MemoryReading clock; None = now)
    started = self.memoryPlot.mark("model.to('cuda:0')")       # a labelled vertical line
    self.memoryPlot.end_mark(started, result.call)             # when it ends: the line becomes a span
    # (or keep both: self.memoryPlot.mark_span(result.call, started))

    # a benchmark: samples stream in, then the result replaces them with the exact figures
    self.latencyPlot.begin_series(device, dtype, mode)         # when it starts ("?" if unknown)
    worker.latencySamples.connect(self.latencyPlot.add_sample_pairs)  # ((index, ms), ...)
    self.latencyPlot.finish_series(outcome.result)             # LatencyResult or its dict
    self.latencyPlot.abort_series("cancelled")                 # on cancel/failure instead

    # the report's plot images, rendered here on the GUI thread, written by a worker
    images = inspector.gui.export.plot_images(self.memoryPlot, self.latencyPlot)

    # a report opened from disk
    self.latencyPlot.show_report(report); self.memoryPlot.show_report(report)

Pause/resume and clear are on a small toolbar above the memory plot and in its context
menu; every plot keeps pyqtgraph's "Export..." context-menu entry (PNG, SVG, CSV, ...).
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401  (registers ImageExporter/SVGExporter under pg.exporters)
import pyqtgraph.parametertree  # noqa: F401  (exporter parameters)
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize, Qt, QTimer, Slot
from PySide6.QtGui import QAction, QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.core.devices import MemoryReading
from inspector.core.memory_log import MemoryTimeline
from inspector.core.vocabulary import BenchMode, DType
from inspector.gui.panels.devices import device_colour
from inspector.gui.report_images import plot_png

#: Redraws per second. Five to ten reads as live; more only costs CPU.
DEFAULT_REDRAW_FPS = 8.0
#: An hour at 20 Hz (the sampler's fastest rate), two hours at the default 10 Hz.
MEMORY_CAPACITY = 20 * 3600
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
#: The memory plot's "Show" choices: label -> seconds of history (None: the whole timeline).
MEMORY_WINDOWS = (("Whole timeline", None), ("Last 30 s", 30.0), ("Last 5 min", 300.0))

#: Share of the latency samples the y axis fits by default (the rest are outliers).
LATENCY_VISIBLE_FRACTION = 0.99

# Tableau 10: distinct hues that stay readable on light and dark backgrounds.
_PALETTE = (
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1",
    "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac",
)  # fmt: skip
_BINARY_UNITS = (("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40))
# Lines tell a device's figures apart by style; the device is the colour.
_FIGURE_STYLES = {
    "allocated": Qt.PenStyle.SolidLine,
    "reserved": Qt.PenStyle.DashLine,
    "used": Qt.PenStyle.DotLine,
}
_DTYPE_SYMBOLS = {DType.FLOAT32: "o", DType.FLOAT16: "t", DType.BFLOAT16: "s", DType.FLOAT64: "d"}


# --------------------------------------------------------------------------- shared helpers


def device_color(device: str) -> QColor:
    """One colour per device, the one its swatch has in the device table and the parameter
    view, so a curve and its row are told together at a glance."""
    return device_colour(device)


def pick_unit(max_bytes: float) -> tuple[str, int]:
    """The largest binary unit in which ``max_bytes`` is still at least 1 (MiB at the least)."""
    name, size = _BINARY_UNITS[0]
    for unit, unit_size in _BINARY_UNITS:
        if max_bytes >= unit_size:
            name, size = unit, unit_size
    return name, size


def _theme_colors(widget: QWidget) -> tuple[QColor, QColor]:
    """(background, foreground) from the Qt palette, so plots follow a light or dark theme."""
    palette = widget.palette()
    return palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)


def _label_text(text: str) -> str:
    # InfLineLabel formats its text with str.format({value}); braces in a label are literal.
    return text.replace("{", "{{").replace("}", "}}")


def _png_bytes(item: pg.PlotItem, width: int, height: int) -> bytes:
    """PNG bytes of ``item`` exactly ``width`` x ``height`` (callers pass an offscreen twin)."""
    return plot_png(item, width, height)


class QtSvgExporter(pg.exporters.Exporter):
    """SVG through Qt's own QSvgGenerator, offered next to pyqtgraph's SVG exporter.

    pyqtgraph's SVGExporter (0.14.0) fails on every plot with recent Qt (seen with 6.11
    and 6.12): it re-parses Qt's path data and cannot read the close-path command ``Z``
    Qt now writes (pyqtgraph issue #3495, fixed upstream after 0.14.0). This one skips
    that re-parsing: the scene is drawn straight into the SVG, so "Export..." always has
    a working SVG entry.
    """

    Name = "SVG, drawn by Qt (use this if the other SVG entry fails)"

    def __init__(self, item) -> None:
        super().__init__(item)
        self.params = pg.parametertree.Parameter.create(name="params", type="group", children=[])

    def parameters(self):
        return self.params

    def export(self, fileName=None, toBytes=False, copy=False):  # noqa: N803 (pyqtgraph's names)
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


QtSvgExporter.register()


# --------------------------------------------------------------------------- memory plot


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


class _MemoryCanvas(pg.PlotWidget):
    """The drawing half of MemoryPlot: curves per device and figure, plus markers.

    Separate from the toolbar so an offscreen twin can render the same timeline at a
    fixed size for the report without touching the live plot's zoom.
    """

    def __init__(self, parent: QWidget | None = None, name: str = "memoryPlotCanvas") -> None:
        super().__init__(parent)
        self.setObjectName(name)
        _restyle(self, legend_columns=3)
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
        foreground = _theme_colors(self)[1]
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
        foreground = _theme_colors(self)[1]
        # Labels sit beside their line near the top, staggered so close neighbours stay legible
        # (right of the line, or left of it near the right edge).
        opts = {"position": 0.97 - 0.08 * (number % 5), "anchors": [(0, 0), (1, 0)],
                "color": foreground, "fill": _translucent(self.backgroundBrush().color(), 200)}
        if marker.end is None:
            line = pg.InfiniteLine(marker.start - t0, angle=90, movable=False,
                                   pen=pg.mkPen(foreground, width=1, style=Qt.PenStyle.DashLine),
                                   label=_label_text(marker.label), labelOpts=opts)  # fmt: skip
            line.setToolTip(marker.label)
            self.addItem(line, ignoreBounds=True)
            self.marker_items.append(line)
            return
        region = pg.LinearRegionItem(
            (marker.start - t0, marker.end - t0), movable=False,
            brush=_translucent(foreground, 28), pen=pg.mkPen(_translucent(foreground, 120), width=1),
        )  # fmt: skip
        region.setToolTip(f"{marker.label} ({marker.end - marker.start:.3f} s)")
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


def _restyle(plot: pg.PlotWidget, legend_columns: int = 0) -> None:
    background, foreground = _theme_colors(plot)
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
        _legend_above(item, foreground, legend_columns)


def _legend_above(item: pg.PlotItem, foreground: QColor, columns: int) -> None:
    """The legend in a row above the plot area, where it never hides data or markers.

    pyqtgraph floats legends over the data; here it takes the (unused) title row of the
    PlotItem's layout instead. Named curves still register themselves, and clicking an
    entry still hides or shows its curve.
    """
    legend = pg.LegendItem(offset=None, colCount=columns, labelTextColor=foreground, verSpacing=-4)
    item.layout.removeItem(item.titleLabel)
    item.titleLabel.hide()
    item.layout.addItem(legend, 0, 1)
    # setTitle(None) pinned the title row at 0 px; let it take the legend's height.
    item.layout.setRowMinimumHeight(0, 0)
    item.layout.setRowMaximumHeight(0, 10_000)
    item.legend = legend


def _translucent(color: QColor, alpha: int) -> QColor:
    out = QColor(color)
    out.setAlpha(alpha)
    return out


class MemoryPlot(QWidget):
    """Memory of every device over time: one curve per device and figure, with markers.

    ``add_readings`` only stores (O(1) per reading, in ``timeline``'s ring buffers); a
    timer on the GUI thread repaints at ``redraw_fps``. Pausing freezes the picture while
    readings keep being recorded, so the report's memory timeline stays complete.
    """

    def __init__(self, parent: QWidget | None = None, *, timeline: MemoryTimeline | None = None,
                 redraw_fps: float = DEFAULT_REDRAW_FPS) -> None:  # fmt: skip
        super().__init__(parent)
        self.setObjectName("memoryPlot")
        self.timeline = timeline if timeline is not None else MemoryTimeline(capacity=MEMORY_CAPACITY)
        self.markers: list[Marker] = []
        self._paused = False
        self._window: float | None = None
        self._dirty = False

        self.canvas = _MemoryCanvas(self)
        self.pause_button = QToolButton(self, objectName="memoryPauseButton", checkable=True)
        self.pause_button.setToolTip("Freeze the picture; readings are still recorded")
        self.pause_button.toggled.connect(self.set_paused)
        self.clear_button = QToolButton(self, objectName="memoryClearButton", text="Clear")
        self.clear_button.setToolTip("Forget every reading and marker and start the clock again")
        self.clear_button.clicked.connect(self.clear)
        self.window_combo = QComboBox(self, objectName="memoryWindowCombo")
        for text, seconds in MEMORY_WINDOWS:
            self.window_combo.addItem(text, seconds)
        self.window_combo.currentIndexChanged.connect(self._window_changed)
        self._build_layout()
        self._add_menu_actions()
        self._update_pause_text()

        # Single-shot: the first reading after a quiet spell schedules one redraw; readings
        # that arrive before it fires ride along (at most redraw_fps repaints per second).
        self._timer = QTimer(self, singleShot=True, interval=max(1, round(1000 / redraw_fps)))
        self._timer.timeout.connect(self._timer_fired)

    def _timer_fired(self) -> None:
        # Behind another tab nothing is painted: draw when shown instead (showEvent).
        if self.isVisible():
            self.redraw()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._dirty:
            self.redraw()

    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.pause_button)
        bar.addWidget(self.clear_button)
        bar.addSpacing(12)
        bar.addWidget(QLabel("Show:", self))
        bar.addWidget(self.window_combo)
        bar.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(bar)
        layout.addWidget(self.canvas, 1)

    def _add_menu_actions(self) -> None:
        menu = self.canvas.getPlotItem().getViewBox().menu
        menu.addSeparator()
        self.pause_action = QAction("Pause memory plot", self, checkable=True)
        self.pause_action.toggled.connect(self.pause_button.setChecked)
        self.clear_action = QAction("Clear memory plot", self)
        self.clear_action.triggered.connect(self.clear)
        menu.addAction(self.pause_action)
        menu.addAction(self.clear_action)

    # ----- data in

    @Slot(object)
    def add_readings(self, readings: Iterable[MemoryReading]) -> None:
        """Store readings (a tuple of ``MemoryReading``, as the sampler emits); repaint soon."""
        self.timeline.add(readings)
        self._schedule()

    @Slot()
    @Slot(object)
    def schedule_redraw(self, _readings: object = None) -> None:
        """Repaint soon, without storing: for readings already in a shared ``timeline``
        (the window's MemorySampler adds to the timeline itself before it emits them)."""
        self._schedule()

    def mark(self, label: str, t: float | None = None) -> float:
        """A labelled vertical line at ``t`` (a ``time.time()`` stamp; None = now). Returns ``t``."""
        t = time.time() if t is None else float(t)
        self._add_marker(Marker(label, t))
        return t

    def mark_span(self, label: str, start: float, end: float | None = None) -> None:
        """A shaded span from ``start`` to ``end`` (``time.time()`` stamps; end None = now)."""
        end = time.time() if end is None else float(end)
        self._add_marker(Marker(label, float(start), max(end, float(start))))

    def end_mark(self, start: float, label: str | None = None, end: float | None = None) -> None:
        """Turn the line ``mark`` drew at ``start`` into a span up to ``end`` (None = now),
        relabelled with ``label`` if given: a task shows a line while it runs, a span after.
        Without such a line (e.g. after a clear) the span is simply added."""
        for index in range(len(self.markers) - 1, -1, -1):
            marker = self.markers[index]
            if marker.end is None and marker.start == start:
                del self.markers[index]
                self.canvas.remove_marker(index)
                label = marker.label if label is None else label
                break
        self.mark_span(label if label is not None else "", start, end)

    def _add_marker(self, marker: Marker) -> None:
        self.markers.append(marker)
        self.canvas.add_marker(marker, self.timeline.t0, len(self.markers) - 1)

    def show_report(self, report: Mapping[str, Any]) -> None:
        """Show a report's ``memory`` section (``{device: [{t, allocated, ...}]}``) instead.

        The plot switches to a timeline of its own, so a timeline it shared with the window
        (the session's record) is left as it was; show reports in a second MemoryPlot.
        """
        self.timeline = MemoryTimeline(capacity=max(self.timeline.capacity, MEMORY_CAPACITY))
        self.markers.clear()
        self.canvas.clear_all()
        t0 = self.timeline.t0
        for device, points in (report.get("memory") or {}).items():
            self.timeline.add(
                MemoryReading(str(device), t0 + float(p.get("t", 0.0)), p.get("allocated"),
                              p.get("reserved"), p.get("used"), p.get("total"))  # fmt: skip
                for p in points
            )
        self.redraw()

    # ----- controls

    @property
    def paused(self) -> bool:
        return self._paused

    @Slot(bool)
    def set_paused(self, paused: bool) -> None:
        self._paused = bool(paused)
        for control in (self.pause_button, self.pause_action):
            if control.isChecked() != self._paused:
                control.setChecked(self._paused)
        self._update_pause_text()
        if not self._paused:
            self.redraw()  # catch up with what was recorded meanwhile
        elif self._window is not None:
            # Following draws only the tail; a paused picture gets it all, to pan back through.
            self.canvas.draw(self.timeline)

    def pause(self) -> None:
        self.set_paused(True)

    def resume(self) -> None:
        self.set_paused(False)

    def _update_pause_text(self) -> None:
        self.pause_button.setText("Resume" if self._paused else "Pause")

    @Slot()
    def clear(self) -> None:
        """Forget every reading and marker; the clock starts again at 0 s.

        A timeline shared with the window is cleared too, so the report's memory section
        starts afresh as well: what the user cleared is gone.
        """
        self.timeline.clear()
        self.markers.clear()
        self.canvas.clear_all()
        self._dirty = False

    def _window_changed(self, index: int) -> None:
        self._window = self.window_combo.itemData(index)
        if self._window is None:
            self.canvas.getPlotItem().enableAutoRange()
        self.redraw()

    def set_window(self, seconds: float | None) -> None:
        """Follow the last ``seconds`` of the timeline (None: show all of it)."""
        index = self.window_combo.findData(seconds)
        if index < 0:
            self.window_combo.addItem(f"Last {seconds:g} s", seconds)
            index = self.window_combo.count() - 1
        self.window_combo.setCurrentIndex(index)

    # ----- drawing

    @property
    def unit(self) -> str:
        """The unit the y axis shows (``MiB``, ``GiB``, ...), picked from the largest value."""
        return self.canvas.unit[0]

    def _schedule(self) -> None:
        self._dirty = True
        if not self._paused and not self._timer.isActive():
            self._timer.start()

    @Slot()
    def redraw(self) -> None:
        """Repaint from the timeline now (the timer calls this; tests may too)."""
        if self._paused:
            return
        self._dirty = False
        latest = self.canvas.draw(self.timeline, self._window)
        if self._window is not None:
            view = self.canvas.getPlotItem().getViewBox()
            view.setXRange(max(0.0, latest - self._window), max(latest, self._window), padding=0)
            view.setAutoVisible(y=True)
            view.enableAutoRange(axis="y")

    def render_png(self, width: int = 960, height: int = 480) -> bytes:
        """The whole timeline and its markers as a PNG of exactly ``width`` x ``height``."""
        twin = _MemoryCanvas(None, name="memoryPlotExport")
        try:
            twin.draw(self.timeline)
            for number, marker in enumerate(self.markers):
                twin.add_marker(marker, self.timeline.t0, number)
            return _png_bytes(twin.getPlotItem(), width, height)
        finally:
            twin.deleteLater()


# --------------------------------------------------------------------------- latency plot


class RunningMedian:
    """The median of everything pushed so far, updated in O(log n) per value.

    numpy has no cumulative median (and recomputing ``np.median`` of each prefix is
    quadratic), so this is the textbook two-heap method.
    """

    def __init__(self) -> None:
        self._low: list[float] = []  # max-heap (negated): the smaller half
        self._high: list[float] = []  # min-heap: the larger half

    def push(self, value: float) -> float:
        if self._low and value > -self._low[0]:
            heapq.heappush(self._high, value)
        else:
            heapq.heappush(self._low, -value)
        if len(self._low) > len(self._high) + 1:
            heapq.heappush(self._high, -heapq.heappop(self._low))
        elif len(self._high) > len(self._low):
            heapq.heappush(self._low, -heapq.heappop(self._high))
        if len(self._low) > len(self._high):
            return -self._low[0]
        return (-self._low[0] + self._high[0]) / 2


class _Growing:
    """A float64 array that grows by doubling: O(1) appends, and a view without copying
    (a run under a minimum time keeps up to 100,000 samples, redrawn several times a second)."""

    def __init__(self, values: Sequence[float] = ()) -> None:
        self._data = np.empty(max(256, len(values)))
        self.size = len(values)
        self._data[: self.size] = values

    def append(self, value: float) -> None:
        if self.size == len(self._data):
            self._data = np.concatenate([self._data, np.empty(len(self._data))])
        self._data[self.size] = value
        self.size += 1

    def values(self) -> np.ndarray:
        return self._data[: self.size]

    def __len__(self) -> int:
        return self.size


@dataclass
class _Series:
    device: str
    dtype: str
    mode: str
    warmup_ms: list[float] = field(default_factory=list)
    samples: _Growing = field(default_factory=_Growing)
    medians: _Growing = field(default_factory=_Growing)
    running: RunningMedian = field(default_factory=RunningMedian)
    stats: dict | None = None  # the finished result's statistics (exact, from the core)
    status: str = ""  # "", "cancelled", "failed", ...

    @property
    def samples_ms(self) -> np.ndarray:
        return self.samples.values()

    def add(self, ms: float) -> None:
        self.samples.append(ms)
        self.medians.append(self.running.push(ms))

    def pad_to(self, index: int) -> None:
        """Leave a gap (NaN, which draws as nothing) up to ``index``."""
        while len(self.samples) < index:
            self.samples.append(math.nan)
            self.medians.append(math.nan)

    def replace_samples(self, samples: Sequence[float]) -> None:
        self.samples, self.medians, self.running = _Growing(), _Growing(), RunningMedian()
        for ms in samples:
            self.add(float(ms))

    def summary(self) -> dict | None:
        if self.stats is not None:
            return self.stats
        values = self.samples.values()
        if not values.size or np.isnan(values).all():
            return None
        p5, median, p95 = np.nanpercentile(values, (5, 50, 95))
        return {"median_ms": float(median), "p5_ms": float(p5), "p95_ms": float(p95)}


@dataclass
class _SeriesItems:
    samples: pg.PlotDataItem
    warmup: pg.PlotDataItem
    median: pg.PlotDataItem


SeriesKey = tuple[str, str, str]  # (device, dtype, mode)


def series_label(key: SeriesKey) -> str:
    device, dtype, mode = key
    return f"{device} · {dtype}" + ("" if mode == BenchMode.FORWARD else f" · {mode}")


def _pick_series_color(key: SeriesKey, taken: Mapping[SeriesKey, QColor]) -> QColor:
    """The device's own colour for its first run; another free palette colour for the
    next dtype/mode on the same device, so every run on screen has a hue of its own."""
    in_use = {c.name() for c in taken.values()}
    own = device_color(key[0])
    if own.name() not in in_use:
        return own
    free = [c for c in _PALETTE if QColor(c).name() not in in_use]
    return QColor(free[0] if free else _PALETTE[len(taken) % len(_PALETTE)])


def _field(result: Any, name: str, default: Any = None) -> Any:
    return result.get(name, default) if isinstance(result, Mapping) else getattr(result, name, default)


class _LatencyCanvas(QWidget):
    """The two views of LatencyPlot: samples against their index, and the summary bars."""

    def __init__(self, parent: QWidget | None = None, prefix: str = "latency") -> None:
        super().__init__(parent)
        self.samples_plot = pg.PlotWidget(self)
        self.samples_plot.setObjectName(f"{prefix}SamplesPlot")
        self.summary_plot = pg.PlotWidget(self)
        self.summary_plot.setObjectName(f"{prefix}SummaryPlot")
        _restyle(self.samples_plot, legend_columns=4)
        _restyle(self.summary_plot)  # no legend: the bars are labelled on the axis
        samples = self.samples_plot.getPlotItem()
        samples.setLabel("bottom", "sample (warm-up calls at negative indices)")
        samples.setLabel("left", "latency (ms)")
        # Under a minimum time a run keeps up to 100,000 samples: draw what is in view, reduced.
        samples.setClipToView(True)
        samples.setDownsampling(auto=True, mode="peak")
        # The y range spans the middle 99 % of the samples: on a tiny model one scheduler
        # hiccup is 100x the median and would flatten every other sample against the floor.
        # (pyqtgraph's "A" button and the menu's "View All" still show everything.)
        samples.getViewBox().enableAutoRange(axis="y", enable=LATENCY_VISIBLE_FRACTION)
        summary = self.summary_plot.getPlotItem()
        summary.setLabel("left", "median (ms), p5–p95")
        self.summary_plot.setToolTip("Bars: each run's median latency; whiskers: its 5th to 95th percentile")
        summary.getViewBox().setMouseEnabled(x=False, y=True)
        self.items: dict[SeriesKey, _SeriesItems] = {}
        self._warmup_counts: dict[SeriesKey, int] = {}
        self._warmup_region: pg.LinearRegionItem | None = None
        self._summary_items: list[pg.GraphicsObject] = []
        self._summary_rows: list[dict] = []
        self._legend_keys_added = False

    # ----- samples view

    def draw_series(self, key: SeriesKey, series: _Series, color: QColor) -> None:
        items = self.items.get(key) or self._add_series_items(key, color)
        x = np.arange(len(series.samples), dtype=float)
        items.samples.setData(x, series.samples.values())
        items.median.setData(x, series.medians.values())
        k = self._warmup_counts[key] = len(series.warmup_ms)
        items.warmup.setData(np.arange(-k, 0, dtype=float), np.asarray(series.warmup_ms, dtype=float))
        name = series_label(key) + (f" ({series.status})" if series.status else "")
        legend = self.samples_plot.getPlotItem().legend
        if legend is not None:
            for sample, label in legend.items:
                if sample.item is items.samples and label.text != name:
                    label.setText(name)
        self._update_warmup_region()

    def _add_series_items(self, key: SeriesKey, color: QColor) -> _SeriesItems:
        plot = self.samples_plot.getPlotItem()
        symbol = _DTYPE_SYMBOLS.get(key[1], "o")
        self._ensure_legend_keys()
        # One min/max pair per pixel column (see _MemoryCanvas._add_curve): outliers stay.
        samples = plot.plot(name=series_label(key), pen=None, symbol=symbol, symbolSize=5, symbolPen=None,
                            symbolBrush=_translucent(color, 170), autoDownsampleFactor=1.0)  # fmt: skip
        median = pg.PlotDataItem(pen=pg.mkPen(color, width=1), autoDownsampleFactor=1.0)
        # Warm-up calls include the first call (lazy init, allocations) and can be 100x the
        # rest: drawn, but left out of the auto-range so the timed samples fill the plot.
        warmup = pg.PlotDataItem(pen=None, symbol="x", symbolSize=8, symbolPen=pg.mkPen(color, width=1),
                                 symbolBrush=None)  # fmt: skip
        plot.addItem(median)
        plot.addItem(warmup, ignoreBounds=True)
        self.items[key] = _SeriesItems(samples, warmup, median)
        return self.items[key]

    def _ensure_legend_keys(self) -> None:
        """Two neutral legend entries that explain the symbols: the median line and warm-up."""
        if self._legend_keys_added:
            return
        legend = self.samples_plot.getPlotItem().legend
        neutral = _theme_colors(self)[1]
        legend.addItem(pg.PlotDataItem(pen=pg.mkPen(neutral, width=1)), "running median")
        legend.addItem(pg.PlotDataItem(pen=None, symbol="x", symbolPen=pg.mkPen(neutral), symbolBrush=None),
                       "warm-up call (not timed)")  # fmt: skip
        self._legend_keys_added = True

    def _update_warmup_region(self) -> None:
        longest = max(self._warmup_counts.values(), default=0)
        if not longest:
            if self._warmup_region is not None:
                self._warmup_region.setVisible(False)
            return
        span = (-longest - 0.5, -0.5)
        if self._warmup_region is None:
            foreground = _theme_colors(self)[1]
            self._warmup_region = pg.LinearRegionItem(span, movable=False, brush=_translucent(foreground, 22),
                                                      pen=pg.mkPen(None))  # fmt: skip
            self._warmup_region.setToolTip("Warm-up calls: not timed; the first one's cost is reported apart")
            pg.InfLineLabel(self._warmup_region.lines[1], text="◀ warm-up", position=0.98,
                            anchors=[(0, 0), (0, 0)], color=foreground)  # fmt: skip
            self.samples_plot.addItem(self._warmup_region, ignoreBounds=False)
        self._warmup_region.setRegion(span)
        self._warmup_region.setVisible(True)

    # ----- summary view

    def draw_summary(self, rows: list[dict]) -> None:
        plot = self.summary_plot.getPlotItem()
        for item in self._summary_items:
            plot.removeItem(item)
        self._summary_items.clear()
        self._summary_rows = rows
        axis = plot.getAxis("bottom")
        axis.setTicks([[(i, row["label"]) for i, row in enumerate(rows)]])
        if not rows:
            return
        x = np.arange(len(rows), dtype=float)
        median = np.array([r["median_ms"] for r in rows], dtype=float)
        p5 = np.array([r["p5_ms"] for r in rows], dtype=float)
        p95 = np.array([r["p95_ms"] for r in rows], dtype=float)
        bars = pg.BarGraphItem(x=x, height=median, width=0.6,
                               brushes=[_translucent(r["color"], 200) for r in rows],
                               pens=[pg.mkPen(r["color"], width=1) for r in rows])  # fmt: skip
        foreground = _theme_colors(self)[1]
        whiskers = pg.ErrorBarItem(x=x, y=median, top=np.maximum(p95 - median, 0),
                                   bottom=np.maximum(median - p5, 0), beam=0.2,
                                   pen=pg.mkPen(foreground, width=1))  # fmt: skip
        self._summary_items += [bars, whiskers]
        for item in (bars, whiskers):
            plot.addItem(item)
        fastest = float(np.min(median)) if median.size else 0.0
        for i, row in enumerate(rows):
            ratio = ""
            if fastest > 0 and len(rows) > 1:
                times = row["median_ms"] / fastest
                ratio = " (fastest)" if times == 1 else f" ({times:.2f}× slower)"
            text = pg.TextItem(f"{_format_ms(row['median_ms'])}{ratio}", color=foreground, anchor=(0.5, 1.0))
            text.setPos(float(i), float(p95[i]))
            plot.addItem(text, ignoreBounds=True)
            self._summary_items.append(text)
        plot.setXRange(-0.6, len(rows) - 0.4, padding=0)
        # Room above the tallest whisker for its label; bars start at zero.
        plot.setYRange(0, float(np.max(p95)) * 1.18 or 1.0, padding=0)

    @property
    def summary_rows(self) -> list[dict]:
        return list(self._summary_rows)


def _format_ms(ms: float) -> str:
    if ms >= 100:
        return f"{ms:.0f} ms"
    if ms >= 1:
        return f"{ms:.2f} ms"
    if ms >= 0.001:
        return f"{ms * 1000:.1f} µs"
    return f"{ms * 1e6:.0f} ns"


class LatencyPlot(QWidget):
    """Benchmark latency: every sample against its index with the running median ("Samples"
    tab), and one bar per device/dtype with p5–p95 whiskers ("Summary" tab).

    Samples stream in through ``add_sample`` (cheap: appended, repainted by a timer);
    ``finish_series`` then replaces them with the exact figures of the ``LatencyResult``
    and adds the warm-up calls at negative indices.
    """

    def __init__(self, parent: QWidget | None = None, *, redraw_fps: float = DEFAULT_REDRAW_FPS) -> None:
        super().__init__(parent)
        self.setObjectName("latencyPlot")
        self.series: dict[SeriesKey, _Series] = {}
        self._colors: dict[SeriesKey, QColor] = {}
        self._current: SeriesKey | None = None
        self._replaced: _Series | None = None
        self._dirty: set[SeriesKey] = set()
        self.canvas = _LatencyCanvas(self)
        self.tabs = QTabWidget(self, objectName="latencyTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.canvas.samples_plot, "Samples")
        self.tabs.addTab(self.canvas.summary_plot, "Summary")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)
        self._timer = QTimer(self, singleShot=True, interval=max(1, round(1000 / redraw_fps)))
        self._timer.timeout.connect(self._timer_fired)
        self._summary_stale = False
        self.tabs.currentChanged.connect(self._tab_changed)

    def _timer_fired(self) -> None:
        # Only what is on screen is drawn; the rest when it is shown (showEvent, tab change).
        if self.isVisible():
            self.redraw(summary=self.tabs.currentWidget() is self.summary_plot)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self._timer_fired()

    def _tab_changed(self, _index: int) -> None:
        self._timer_fired()

    @property
    def samples_plot(self) -> pg.PlotWidget:
        return self.canvas.samples_plot

    @property
    def summary_plot(self) -> pg.PlotWidget:
        return self.canvas.summary_plot

    # ----- data in

    def begin_series(self, device: str, dtype: str, mode: str = BenchMode.FORWARD.value) -> SeriesKey:
        """Start a run: following samples belong to it. A re-run of the same key replaces it."""
        key = (str(device), str(dtype), str(mode))
        # Kept until the new run measures something: a run that fails before its first
        # sample (a wrong input shape) then leaves the earlier result on screen.
        self._replaced = self.series.get(key)
        self.series[key] = _Series(*key)
        self._current = key
        self._schedule(key)
        return key

    @Slot(int, float)
    def add_sample(self, index: int, ms: float, warmup: bool = False) -> None:
        """One sample of the current run (``measure_latency``'s ``on_sample(index, ms)``)."""
        series = self._current_series()
        if warmup:
            series.warmup_ms.append(float(ms))
        else:
            # A gap (a dropped signal) is padded with NaN so later samples keep their index.
            series.pad_to(index)
            series.add(float(ms))
        self._schedule(self._current)

    @Slot(object)
    def add_sample_pairs(self, pairs: Iterable[tuple[int, float]]) -> None:
        """A batch of ``(index, ms)`` samples (the ModelWorker's throttled ``latencySamples``)."""
        for index, ms in pairs:
            self.add_sample(index, ms)

    def add_samples(self, first_index: int, values_ms: Sequence[float]) -> None:
        """A batch of consecutive samples (for a worker that throttles its signals)."""
        for offset, ms in enumerate(values_ms):
            self.add_sample(first_index + offset, ms)

    def finish_series(self, result: Any) -> SeriesKey:
        """The run's ``LatencyResult`` (or its dict): exact samples, warm-ups and statistics.

        It adopts the run begun last (renamed to the result's device/dtype/mode if they
        differ, e.g. when the window could not know the dtype in advance).
        """
        key = (str(_field(result, "device")), str(_field(result, "dtype")), str(_field(result, "mode", BenchMode.FORWARD.value)))
        series = self.series.pop(self._current) if self._current in self.series else _Series(*key)
        if self._current is not None and self._current != key:
            self._drop_items(self._current)
        series.device, series.dtype, series.mode = key
        series.replace_samples(_field(result, "samples_ms", ()) or ())
        series.warmup_ms = [float(v) for v in (_field(result, "warmup_samples_ms", ()) or ())]
        if not series.warmup_ms and _field(result, "warmup_ms") is not None:
            series.warmup_ms = [float(_field(result, "warmup_ms"))]
        series.stats = {name: float(_field(result, name)) for name in ("median_ms", "p5_ms", "p95_ms")
                        if _field(result, name) is not None} or None  # fmt: skip
        if series.stats is not None and len(series.stats) < 3:
            series.stats = None  # an old/partial entry: recompute from the samples
        series.status = ""
        self.series[key] = series
        self._current, self._replaced = None, None
        self._schedule(key)
        return key

    def abort_series(self, reason: str = "cancelled") -> None:
        """The current run stopped early: keep what was measured, labelled with ``reason``.

        A run that measured nothing leaves no empty legend entry: the run it replaced (if
        any) comes back instead.
        """
        key, replaced = self._current, self._replaced
        self._current, self._replaced = None, None
        series = self.series.get(key)
        if series is None:
            return
        if len(series.samples) or series.warmup_ms:
            series.status = reason
        elif replaced is not None:
            self.series[key] = replaced
        else:
            del self.series[key]
            self._drop_items(key)
            return
        self._schedule(key)

    def show_report(self, report: Mapping[str, Any]) -> None:
        """Show a report's ``latency`` entries (each as ``finish_series`` would)."""
        self.clear()
        for entry in report.get("latency") or ():
            self.finish_series(entry)
        self.redraw()

    @Slot()
    def clear(self) -> None:
        for key in list(self.series):
            self._drop_items(key)
        self.series.clear()
        self._current, self._replaced = None, None
        self._dirty.clear()
        self.canvas.draw_summary([])

    def _drop_items(self, key: SeriesKey) -> None:
        items = self.canvas.items.pop(key, None)
        self.canvas._warmup_counts.pop(key, None)
        self._colors.pop(key, None)
        if items is None:
            return
        plot = self.canvas.samples_plot.getPlotItem()
        for item in (items.samples, items.warmup, items.median):
            plot.removeItem(item)
        self.canvas._update_warmup_region()

    def _current_series(self) -> _Series:
        if self._current not in self.series:
            # Samples without begin_series: collect them; finish_series names the run.
            self.begin_series("?", "?", BenchMode.FORWARD.value)
        return self.series[self._current]

    # ----- drawing

    def _schedule(self, key: SeriesKey | None) -> None:
        if key is not None:
            self._dirty.add(key)
        if not self._timer.isActive():
            self._timer.start()

    @Slot()
    def redraw(self, summary: bool = True) -> None:
        """Repaint the runs that changed, and the summary unless ``summary`` is False
        (the timer calls this for what is on screen; tests may call it too)."""
        if self._dirty:
            for key in self._dirty:
                if key in self.series:
                    self.canvas.draw_series(key, self.series[key], self._color(key))
            self._dirty.clear()
            self._summary_stale = True
        if summary and self._summary_stale:
            self._summary_stale = False
            self.canvas.draw_summary(self._summary_rows())

    def _color(self, key: SeriesKey) -> QColor:
        if key not in self._colors:
            self._colors[key] = _pick_series_color(key, self._colors)
        return self._colors[key]

    def _summary_rows(self) -> list[dict]:
        rows = []
        for key, s in self.series.items():
            stats = s.summary()
            if stats is None:
                continue
            label = series_label(key) + (f" ({s.status})" if s.status else "")
            rows.append({"key": key, "label": label, "color": self._color(key), **stats})
        return rows

    def summary_rows(self) -> list[dict]:
        """What the summary view shows: per run ``label``, ``median_ms``, ``p5_ms``, ``p95_ms``."""
        return self.canvas.summary_rows

    def drawn(self, key: SeriesKey) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """The points on screen for one run: ``samples``, ``warmup`` and ``median`` as (x, y)."""
        items = self.canvas.items[key]
        out = {}
        for name in ("samples", "warmup", "median"):
            x, y = getattr(items, name).getData()
            out[name] = (np.asarray(x if x is not None else []), np.asarray(y if y is not None else []))
        return out

    def render_png(self, width: int = 960, height: int = 480, view: str = "samples") -> bytes:
        """One view (``"samples"`` or ``"summary"``) as a PNG of exactly ``width`` x ``height``."""
        if view not in ("samples", "summary"):
            raise ValueError(f"view must be 'samples' or 'summary', not {view!r}")
        twin = _LatencyCanvas(None, prefix="latencyExport")
        try:
            for key, series in self.series.items():
                twin.draw_series(key, series, self._color(key))
            twin.draw_summary(self._summary_rows())
            plot = twin.samples_plot if view == "samples" else twin.summary_plot
            return _png_bytes(plot.getPlotItem(), width, height)
        finally:
            twin.deleteLater()
