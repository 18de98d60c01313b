"""The drawing half of the memory plot: one curve per device and figure, the legend, the
markers of moves and benchmarks, and the y unit. ``MemoryPlot`` (``memory.py``) adds the
controls and the redraw timer around it; an offscreen twin renders it for reports.

Its own texts (axes, legend) are said through a ``Words`` (``words.py``): the live canvas in
the window's language (``retranslate``), a report's twin in English. A marker's label is
drawn as it was given: it records what ran, in the language of the moment (as the history's
rows do)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QWidget

from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.core.measure import MemoryTimeline
from inspector.gui.common.i18n import fill
from inspector.gui.common.plain_text import plain_tooltip
from inspector.gui.common.theme import device_color, restyle, theme_colors, translucent
from inspector.gui.common.plot_words import LIVE, Words
from inspector.gui.features.memory.units import pick_unit
from inspector.gui.features.memory.lanes import (
    LABEL_HEIGHT_SHARE, LABEL_MAX_PX, LABEL_WIDTH_SHARE, RIGHT, place_label,
)  # fmt: skip

#: The curves of one device, in legend order. ``model``: the model's own bytes there (from the
#: placement ledger, steps at each move). Accelerators: the allocator's ``allocated`` and
#: ``reserved`` bytes and the driver's ``used`` (whole device). The CPU: this process's
#: resident set (``process_rss``) and the machine's used memory (``machine_used``): neither is
#: the model's, so they are secondary curves (``SECONDARY_FIGURES``). Not ``total``: a
#: device's size would flatten every other curve against the floor.
MEMORY_FIGURES = ("model", "allocated", "reserved", "used", "other_processes", "process_rss", "machine_used")
#: Curves shown only on request ("Process & machine" box, or their legend entry) on a
#: machine without an accelerator, where they would dwarf the model.
SECONDARY_FIGURES = frozenset({"process_rss", "machine_used"})
#: Which column of a reading each CPU figure is drawn from (``MemoryReading`` keeps the RSS
#: in ``allocated`` for the CPU).
_CPU_COLUMNS = {"process_rss": "allocated", "machine_used": "used"}
#: Up to this many curves the memory legend names each one; beyond (several GPUs) it names the
#: devices (colour) and the figures (line style) apart, so it stays two rows high.
LEGEND_CURVES_MAX = 8
#: The line-style key of that compact legend (translated where shown).
FIGURE_KEYS = {
    "model": QT_TRANSLATE_NOOP("MemoryCanvas", "model (params, buffers, grads, optimizer state)"),
    "allocated": QT_TRANSLATE_NOOP("MemoryCanvas", "allocated"),
    "reserved": QT_TRANSLATE_NOOP("MemoryCanvas", "reserved (cache)"),
    "used": QT_TRANSLATE_NOOP("MemoryCanvas", "used (driver, whole device)"),
    "other_processes": QT_TRANSLATE_NOOP("MemoryCanvas", "other processes (NVML)"),
    "process_rss": QT_TRANSLATE_NOOP("MemoryCanvas", "process RSS"),
    "machine_used": QT_TRANSLATE_NOOP("MemoryCanvas", "machine used"),
}
# Lines tell a device's figures apart by style; the device is the colour.
_FIGURE_STYLES = {
    "model": Qt.PenStyle.SolidLine,
    "allocated": Qt.PenStyle.SolidLine,
    "reserved": Qt.PenStyle.DashLine,
    "used": Qt.PenStyle.DotLine,
    "other_processes": Qt.PenStyle.DashDotDotLine,
    "process_rss": Qt.PenStyle.DashDotLine,
    "machine_used": Qt.PenStyle.DotLine,
}
#: The model's curve is the one to read first: drawn thicker, above the others.
_FIGURE_WIDTHS = {"model": 3}
# The thinnest curve of a report's picture, in pixels: a picture is looked at scaled down (a
# browser fits the 960-pixel image to its page), where a 1-pixel dotted grey line fades out.
REPORT_LINE_WIDTH = 2
def _label_text(text: str) -> str:
    """A marker's label as the plot shows it (the tooltip has the call as it was)."""
    return text.replace("dtype=torch.", "dtype=")


def _format(text: str) -> str:
    # InfLineLabel formats its text with str.format({value}); braces in a label are literal.
    return text.replace("{", "{{").replace("}", "}}")


@dataclass(frozen=True)
class Marker:
    """A labelled instant (``end`` None) or span on the memory plot; times are time.time()."""

    label: str
    start: float
    end: float | None = None


def figure_label(device: str, figure: str, words: Words = LIVE) -> str:
    """Legend text: what each figure is, named as what it measures (in ``words``' language)."""
    if figure == "model":
        return fill(words.translate("MemoryCanvas", "model on %1"), device)
    if figure == "allocated":
        return fill(words.translate("MemoryCanvas", "%1 allocated"), device)
    if figure == "reserved":
        return fill(words.translate("MemoryCanvas", "%1 reserved (cache)"), device)
    if figure == "used":
        return fill(words.translate("MemoryCanvas", "%1 used (driver, whole device)"), device)
    if figure == "other_processes":
        return fill(words.translate("MemoryCanvas", "%1 other processes (NVML)"), device)
    if figure in ("process_rss", "machine_used"):
        return words.translate("MemoryCanvas", FIGURE_KEYS[figure])
    return f"{device} {figure}"


def _columns_of(device: str, col: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A device's readings under the figure names the plot draws them as."""
    if device == "cpu":
        return {figure: col[column] for figure, column in _CPU_COLUMNS.items()}
    return {figure: col[figure] for figure in ("allocated", "reserved", "used", "other_processes")}


class MemoryCanvas(pg.PlotWidget):  # type: ignore[misc]  # (pyqtgraph has no stubs)
    """The drawing half of MemoryPlot: curves per device and figure, plus markers.

    Separate from the toolbar so an offscreen twin can render the same timeline at a
    fixed size for the report without touching the live plot's zoom.
    """

    def __init__(self, parent: QWidget | None = None, name: str = "memoryPlotCanvas", words: Words = LIVE,
                 line_width: int = 1) -> None:  # fmt: skip
        super().__init__(parent)
        self.setObjectName(name)
        self.words = words
        # The thinnest curve's width in pixels (the window's: 1; a report's twin: REPORT_LINE_WIDTH).
        self.line_width = max(1, int(line_width))
        restyle(self, legend_columns=3)
        item = self.getPlotItem()
        # pyqtgraph draws only what is in view, reduced to min/max per pixel column, so an
        # hour of readings repaints as cheaply as a minute.
        item.setClipToView(True)
        item.setDownsampling(auto=True, mode="peak")
        self.curves: dict[tuple[str, str], pg.PlotDataItem] = {}
        self.marker_items: list[pg.GraphicsObject] = []
        self.unit = ("MiB", 1 << 20)
        #: Process RSS and machine used shown? None: not decided yet (shown once an
        #: accelerator appears, hidden on a CPU-only machine); then the user's choice.
        self.show_secondary: bool | None = None
        self._legend_keys: list[pg.PlotDataItem] = []  # the compact legend's samples
        self._legend_for: tuple[tuple[str, str], ...] = ()  # the curves the legend was built for
        # (curve or key, slot): each legend sample repaints when its curve is shown or hidden.
        self._sample_links: list[tuple[pg.PlotDataItem, Any]] = []
        # An unseen point above the highest curve: the y range leaves the marker labels' lanes
        # free of the curves (``layout_marker_labels`` says how tall they are; issue 45).
        self._headroom = pg.PlotDataItem(pen=None, symbol="o", symbolSize=1, symbolPen=None, symbolBrush=(0, 0, 0, 0))
        item.addItem(self._headroom)
        self._label_share = 0.0  # of the view's height, the lanes the labels use
        self._top = (0.0, 0.0)  # (t, value in the unit) of the highest point shown
        view = item.getViewBox()
        view.sigXRangeChanged.connect(self.layout_marker_labels)
        view.sigResized.connect(self.layout_marker_labels)
        self.retranslate()

    def retranslate(self) -> None:
        """The axes and the legend again, in ``words``' language."""
        item = self.getPlotItem()
        item.setLabel("bottom", self.words.translate("MemoryCanvas", "time since start (s)"))
        item.setLabel("left", fill(self.words.translate("MemoryCanvas", "memory (%1)"), self.unit[0]))
        self._relabel_legend()

    def _relabel_legend(self) -> None:
        """Each legend entry's text again, in place: the entries keep what a click on them
        hid or showed."""
        legend = self.getPlotItem().legend
        names = {id(curve): figure_label(device, figure, self.words) for (device, figure), curve in self.curves.items()}
        for sample, label in legend.items:
            figure = getattr(sample.item, "figure", None)  # a compact legend's figure key
            text = names.get(id(sample.item))
            if text is None and figure in FIGURE_KEYS:
                text = self.words.translate("MemoryCanvas", FIGURE_KEYS[figure])
            if text is not None and label.text != text:
                label.setText(text)

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
        if self.show_secondary is None:
            self.show_secondary = any(device != "cpu" for device in devices)
        # Per device, the model's own bytes first, then what the device's readings say.
        figures: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
        for device in dict.fromkeys([*timeline.model_devices(), *devices]):
            model = timeline.model_series(device, until=latest)
            if model["t"].size:
                figures[device, "model"] = (model["t"], model["total"])
            if device in columns:
                col = columns[device]
                for figure, values in _columns_of(device, col).items():
                    figures[device, figure] = (col["t"], values)
        known = {key: float(np.nanmax(values)) for key, (_, values) in figures.items()
                 if values.size and not np.all(np.isnan(values))}  # fmt: skip
        # The unit follows what is on screen (a 44-byte model next to a hidden 470 MiB RSS
        # reads in bytes); with nothing on screen, what could be shown.
        shown = [peak for key, peak in known.items() if self._would_show(key)]
        peak = max(shown or known.values() or [0.0])
        self._set_unit(pick_unit(peak))
        scale = self.unit[1]
        for key, (t, values) in figures.items():
            curve = self.curves.get(key)
            if curve is None:
                if not values.size or np.all(np.isnan(values)):
                    continue  # e.g. the CPU has no allocator cache: no empty legend entry
                curve = self._add_curve(*key)
            curve.setData(t, values / scale)
        self._top = (latest, peak / scale)
        self._raise_headroom()
        if tuple(self.curves) != self._legend_for:
            self._rebuild_legend()
        return latest

    def _would_show(self, key: tuple[str, str]) -> bool:
        curve = self.curves.get(key)
        if curve is not None:
            return bool(curve.isVisible())
        return bool(self.show_secondary) or key[1] not in SECONDARY_FIGURES

    def set_secondary_visible(self, on: bool) -> None:
        """Show or hide the process RSS and machine used curves (and their legend keys)."""
        self.show_secondary = bool(on)
        for (_, figure), curve in self.curves.items():
            if figure in SECONDARY_FIGURES:
                curve.setVisible(self.show_secondary)
        for key in self._legend_keys:
            if getattr(key, "figure", None) in SECONDARY_FIGURES:
                key.setVisible(self.show_secondary)

    def value_at(self, key: tuple[str, str], t: float) -> float | None:
        """A curve's value in bytes at ``t`` seconds (its last point at or before ``t``)."""
        curve = self.curves.get(key)
        if curve is None or curve.xData is None or not len(curve.xData):
            return None
        index = int(np.searchsorted(curve.xData, t, side="right")) - 1
        if index < 0:
            return None
        value = float(curve.yData[index])
        return None if math.isnan(value) else value * self.unit[1]

    def _rebuild_legend(self) -> None:
        """One entry per curve, or (many curves) one per figure and one per device.

        Clicking a compact entry hides or shows every curve it stands for, as clicking a
        curve's own entry does for that curve.
        """
        legend = self.getPlotItem().legend
        self._clear_legend()
        self._legend_for = tuple(self.curves)
        if len(self.curves) <= LEGEND_CURVES_MAX:
            legend.setColumnCount(4)  # e.g. a GPU's model, allocated, reserved, used per row
            for (device, figure), curve in self.curves.items():
                legend.addItem(curve, figure_label(device, figure, self.words))
            self._link_samples()
            return
        legend.setColumnCount(6)
        foreground = theme_colors(self)[1]
        for figure in (f for f in MEMORY_FIGURES if any(f == fig for _, fig in self.curves)):
            pen = pg.mkPen(foreground, width=self._width(figure), style=_FIGURE_STYLES[figure])
            label = self.words.translate("MemoryCanvas", FIGURE_KEYS[figure])
            key = self._add_legend_key(pen, label, [c for (_, f), c in self.curves.items() if f == figure])
            key.figure = figure
            if figure in SECONDARY_FIGURES and not self.show_secondary:
                key.setVisible(False)
        for device in dict.fromkeys(device for device, _ in self.curves):
            pen = pg.mkPen(device_color(device), width=3)
            self._add_legend_key(pen, device, [c for (d, _), c in self.curves.items() if d == device])
        self._link_samples()

    def _link_samples(self) -> None:
        """Each legend entry's sample repaints when its curve (or key) is shown or hidden.

        pyqtgraph's sample draws the crossed-out eye from its item's visibility when painted,
        and only a click on the sample repaints it: after the "Process RSS & machine" box
        showed the curves, their entries kept the eye they were painted with (issue 35)."""
        for sample, _ in self.getPlotItem().legend.items:
            slot = sample.update
            sample.item.visibleChanged.connect(slot)
            self._sample_links.append((sample.item, slot))

    def _clear_legend(self) -> None:
        for item, slot in self._sample_links:
            try:
                item.visibleChanged.disconnect(slot)
            except (RuntimeError, TypeError):  # (the curve is gone already)
                pass
        self._sample_links.clear()
        self.getPlotItem().legend.clear()
        self._legend_keys.clear()

    def _add_legend_key(self, pen: Any, label: str, curves: list[pg.PlotDataItem]) -> pg.PlotDataItem:
        key = pg.PlotDataItem(pen=pen)  # never added to the plot: it only lends its sample
        key.visibleChanged.connect(lambda: [curve.setVisible(key.isVisible()) for curve in curves])
        self._legend_keys.append(key)
        self.getPlotItem().legend.addItem(key, label)
        return key

    def _width(self, figure: str) -> int:
        return max(_FIGURE_WIDTHS.get(figure, 1), self.line_width)

    def _set_unit(self, unit: tuple[str, int]) -> None:
        if unit != self.unit:
            self.unit = unit
            self.getPlotItem().setLabel("left", fill(self.words.translate("MemoryCanvas", "memory (%1)"), unit[0]))

    def _add_curve(self, device: str, figure: str) -> pg.PlotDataItem:
        pen = pg.mkPen(device_color(device), width=self._width(figure), style=_FIGURE_STYLES[figure])
        # Peak downsampling to one min/max pair per pixel column draws the exact envelope;
        # pyqtgraph's default (5 samples per pixel) draws 5x the points for no visible gain.
        # Unnamed: the legend is built by _rebuild_legend, per curve or compact.
        curve = self.getPlotItem().plot(pen=pen, connect="finite", autoDownsampleFactor=1.0)
        if figure == "model":
            curve.setZValue(10)  # above the readings it is compared with
        if figure in SECONDARY_FIGURES and not self.show_secondary:
            curve.setVisible(False)  # its legend entry shows it greyed: a click brings it
        self.curves[(device, figure)] = curve
        return curve

    def add_marker(self, marker: Marker, t0: float, number: int) -> None:
        foreground = theme_colors(self)[1]
        # A label hangs from its marker's line, right of it or (no room there) left of it;
        # lanes keep neighbours apart (layout_marker_labels), and the tooltip has the full text.
        opts = {"position": 0.97, "anchors": [RIGHT, RIGHT],
                "color": foreground, "fill": translucent(self.backgroundBrush().color(), 200)}  # fmt: skip
        text = _label_text(marker.label)
        if marker.end is None:
            tooltip = plain_tooltip(marker.label)
            item: Any = pg.InfiniteLine(marker.start - t0, angle=90, movable=False,
                                        pen=pg.mkPen(foreground, width=1, style=Qt.PenStyle.DashLine),
                                        label=_format(text), labelOpts=opts)  # fmt: skip
        else:
            tooltip = plain_tooltip(f"{marker.label} ({marker.end - marker.start:.3f} s)")
            item = pg.LinearRegionItem(
                (marker.start - t0, marker.end - t0), movable=False,
                brush=translucent(foreground, 28), pen=pg.mkPen(translucent(foreground, 120), width=1),
            )  # fmt: skip
            item.label = pg.InfLineLabel(item.lines[0], text=_format(text), **opts)
        item.setToolTip(tooltip)
        item.label.setToolTip(tooltip)  # a label left of its line is over neither line nor span
        item.label.textItem.document().setDocumentMargin(1)  # (4 by default: lanes a third taller)
        item.label_text = text  # whole; the label may show it shortened
        item.label_shown = text  # what the label shows now
        item.label_width = self._label_px(item.label, text)  # whole, in pixels (laid out often)
        item.setZValue(20)  # its label above the curves, readable
        self.addItem(item, ignoreBounds=True)
        self.marker_items.append(item)
        self.layout_marker_labels()

    def marker_labels(self) -> list[pg.InfLineLabel]:
        """Each marker's label, in the order the markers were added."""
        return [item.label for item in self.marker_items]

    def layout_marker_labels(self, *_: object) -> None:
        """Hang each marker's label from its line in the first lane (from the top) with room
        for it, right of the line, else left of it (``place_label``); where no lane has room
        for the whole label, it is shortened in the middle, and where there is too little for
        that, hidden. The marker's tooltip (and the label's) has the whole text. The newest
        markers are placed first: what just happened is always labelled.

        Lanes are worked out in pixels, so they follow zoom and resizes: labels never overlap
        each other nor reach past the plot's edges.
        """
        view = self.getPlotItem().getViewBox()
        (x_low, x_high), height = view.viewRange()[0], view.height()
        width = view.width()
        if width <= 0 or height <= 0 or x_high <= x_low or not self.marker_items:
            return
        px_per_s = width / (x_high - x_low)
        lane_height = max(item.label.boundingRect().height() + 2 for item in self.marker_items)
        lanes: list[list[tuple[float, float]]] = [[] for _ in range(max(1, int(height * LABEL_HEIGHT_SHARE // lane_height)))]
        widest = min(LABEL_MAX_PX, width * LABEL_WIDTH_SHARE)
        for item in reversed(self.marker_items):
            label = item.label
            start = item.value() if isinstance(item, pg.InfiniteLine) else item.getRegion()[0]
            x = (start - x_low) * px_per_s
            place = None
            if 0 <= x <= width:  # (a line out of view has no label in it)
                place = place_label(lanes, x, min(item.label_width, widest), width)
            if place is None:
                label.setVisible(False)
                continue
            lane, side, room = place
            shown = item.label_text if room >= item.label_width else self._fitted(label, item.label_text, room)
            if not shown:
                label.setVisible(False)
                continue
            if shown != item.label_shown:
                item.label_shown = shown
                label.setFormat(_format(shown))
            label.anchors = [side, side]
            label.setVisible(True)
            label.setPosition(1.0 - (2 + lane * lane_height) / height)
            lanes[lane].append((x, x + room) if side == RIGHT else (x - room, x))
        used = max((lane + 1 for lane, taken in enumerate(lanes) if taken), default=0)
        share = (used * lane_height + 6) / height if used else 0.0
        if abs(share - self._label_share) > 0.01:
            self._label_share = share
            self._raise_headroom()

    def _raise_headroom(self) -> None:
        t, top = self._top
        share = min(0.5, self._label_share)
        self._headroom.setData([t], [top / (1.0 - share)] if top > 0 else [])

    @staticmethod
    def _label_px(label: pg.InfLineLabel, text: str) -> float:
        """How wide ``label`` is when it shows ``text``, in pixels (its margins included)."""
        metrics = QFontMetricsF(label.textItem.font())
        return float(metrics.horizontalAdvance(text) + 2 * label.textItem.document().documentMargin() + 1)

    def _fitted(self, label: pg.InfLineLabel, text: str, room: float) -> str:
        """``text``, shortened in the middle until ``label`` showing it is at most ``room`` wide:
        the head says what ran, the tail how it ended."""
        if self._label_px(label, text) <= room:
            return text
        metrics = QFontMetricsF(label.textItem.font())
        budget = room - (self._label_px(label, "") + 1)
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, budget)
        while shown and self._label_px(label, shown) > room:  # (rounding: a pixel or two over)
            budget -= 2
            shown = metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, budget)
        return shown

    def remove_marker(self, index: int) -> None:
        self.removeItem(self.marker_items.pop(index))
        self.layout_marker_labels()

    def clear_all(self) -> None:
        for item in self.marker_items:
            self.removeItem(item)
        self.marker_items.clear()
        for curve in self.curves.values():
            self.removeItem(curve)
        self.curves.clear()
        self._clear_legend()
        self._legend_for = ()
