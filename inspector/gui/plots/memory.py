"""The memory plot: every device's memory over time, one curve per device and figure, with
markers for the moves and benchmarks that ran.

``MemoryPlot`` reads a ``MemoryTimeline`` (the window's: the sampler fills it, the report
reads it) and repaints from a single-shot QTimer on the GUI thread at a few frames per
second, never once per reading.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from inspector.core.devices import MemoryReading
from inspector.core.memory_log import MemoryTimeline
from inspector.gui.plain_text import plain_tooltip
from inspector.gui.plots.render import png_bytes
from inspector.gui.plots.theme import device_color, restyle, theme_colors, translucent

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


class _MemoryCanvas(pg.PlotWidget):
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
            return png_bytes(twin.getPlotItem(), width, height)
        finally:
            twin.deleteLater()
