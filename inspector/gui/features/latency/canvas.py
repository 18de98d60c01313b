"""The drawing half of the latency plot: the samples view (each sample against its index,
warm-up calls at negative indices, a running median) and the summary bars of the runs side by
side. ``LatencyPlot`` (``latency.py``) streams samples into ``Series`` and asks this canvas to
draw them; an offscreen twin renders it for reports.

Its texts are said through a ``Words`` (``words.py``): the live canvas in the window's
language, set again by ``retranslate``; a report's twin in English."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QColor, QFontMetrics
from PySide6.QtWidgets import QWidget

from inspector.core.vocabulary import DType
from inspector.gui.common.i18n import fill
from inspector.gui.features.latency.live_range import streaming_span, streaming_top
from inspector.gui.features.latency.readable import (
    BulkRange,
    bulk_range,
    format_in_unit,
    throughput_text,
    time_unit,
)
from inspector.gui.features.latency.series import Series, SeriesKey, series_label
from inspector.gui.common.theme import restyle, theme_colors, translucent
from inspector.gui.common.plot_words import LIVE, Words
from inspector.gui.common.vocabulary_words import mode_text

_DTYPE_SYMBOLS = {DType.FLOAT32: "o", DType.FLOAT16: "t", DType.BFLOAT16: "s", DType.FLOAT64: "d"}
#: A summary whisker reaching higher than this many times the largest median is clipped at
#: that height (its p95 written beside it), so a noisy run's bars keep most of the plot.
SUMMARY_WHISKER_CAP = 3.0
#: Why a run stopped early (``LatencyPlot.abort_series``), as its label says it; another
#: reason is shown as it is.
STATUS_WORDS = {
    "cancelled": QT_TRANSLATE_NOOP("LatencyCanvas", "cancelled"),
    "failed": QT_TRANSLATE_NOOP("LatencyCanvas", "failed"),
}


def run_label(key: SeriesKey, status: str = "", words: Words = LIVE) -> str:
    """A run's name in the legend and under its bar: ``"cpu · float32"``, with why it
    stopped early when it did (``"cpu · float32 (cancelled)"``)."""
    label = series_label(key, str if words.english else mode_text)
    if not status:
        return label
    said = words.translate("LatencyCanvas", STATUS_WORDS[status]) if status in STATUS_WORDS else status
    return fill(words.translate("LatencyCanvas", "%1 (%2)"), label, said)


class IntegerAxis(pg.AxisItem):
    """An axis of sample indices: ticks only at whole numbers, written without decimals."""

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802,N803 (pyqtgraph's names)
        levels = [(max(1.0, float(round(spacing))), offset)
                  for spacing, offset in super().tickSpacing(minVal, maxVal, size) if spacing >= 0.5]  # fmt: skip
        return levels or [(1.0, 0.0)]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph's name)
        return [f"{round(v):d}" for v in values]



def samples_plot_widget(parent: QWidget | None = None, *, menu: bool = True) -> pg.PlotWidget:
    """The Samples view's plot widget, before ``LatencyCanvas`` styles it (sample indices as
    whole numbers). ``menu`` False: without its right-click menu (``enable_menu`` makes it)."""
    return pg.PlotWidget(parent, enableMenu=menu, axisItems={"bottom": IntegerAxis("bottom")})


def summary_plot_widget(parent: QWidget | None = None, *, menu: bool = True) -> pg.PlotWidget:
    """The Summary view's plot widget, before ``LatencyCanvas`` styles it."""
    return pg.PlotWidget(parent, enableMenu=menu)


def enable_menu(plot: pg.PlotWidget) -> None:
    """Give a plot widget made without its right-click menu the menu (pyqtgraph's View All,
    axes and Export...). Its forms are half of a first plot widget's ~60-110 ms, so a window
    makes them at an idle moment of their own."""
    item = plot.getPlotItem()
    if not item.menuEnabled() or item.getViewBox().menu is None:
        item.setMenuEnabled(True)


def _set_range(view: pg.ViewBox, axis: int, span: tuple[float, float]) -> None:
    """Set one axis' range (and stop its automatic range) unless it is there already: set
    again, pyqtgraph solves the view anew and signals a change of its state."""
    if view.state["autoRange"][axis] is not False or [float(v) for v in view.state["targetRange"][axis]] != list(span):
        view.setRange(**{("xRange", "yRange")[axis]: span}, padding=0)


@dataclass
class _SeriesItems:
    samples: pg.PlotDataItem
    warmup: pg.PlotDataItem
    median: pg.PlotDataItem
    clipped: pg.ScatterPlotItem  # outliers, drawn at the top edge of the view


class LatencyCanvas(QWidget):
    """The two views of LatencyPlot: samples against their index, and the summary bars."""

    def __init__(
        self, parent: QWidget | None = None, prefix: str = "latency", words: Words = LIVE,
        plots: Sequence[pg.PlotWidget] = (), menus: bool = True,
    ) -> None:  # fmt: skip
        """``plots``: the samples and summary plot widgets, where they were made ahead
        (``samples_plot_widget``, ``summary_plot_widget``: ~30 ms each, so a window makes them
        at idle moments of their own); otherwise made here, with right-click menus unless
        ``menus`` is False (a report's image)."""
        super().__init__(parent)
        self.words = words
        if not plots:
            plots = (samples_plot_widget(self, menu=menus), summary_plot_widget(self, menu=menus))
        self.samples_plot, self.summary_plot = plots
        self.samples_plot.setObjectName(f"{prefix}SamplesPlot")
        self.summary_plot.setObjectName(f"{prefix}SummaryPlot")
        restyle(self.samples_plot, legend_columns=4)
        restyle(self.summary_plot)  # no legend: the bars are labelled on the axis
        samples = self.samples_plot.getPlotItem()
        # The left axis keeps room for its widest tick text ("1000", "0.25", "1e+04" on the log
        # scale) rather than resizing to the texts of its last paint: that resize laid the plot
        # out and painted it again, twice more in a run's first frame, and at each step of y.
        left = samples.getAxis("left")
        left.setStyle(autoExpandTextSpace=False, tickTextWidth=QFontMetrics(left.font()).horizontalAdvance("0000.0"))
        # Under a minimum time a run keeps up to 100,000 samples: draw what is in view, reduced.
        samples.setClipToView(True)
        samples.setDownsampling(auto=True, mode="peak")
        # The y range follows the bulk of the samples (``refresh_range``): on a tiny model one
        # scheduler hiccup is 100x the median and would flatten every other sample against the
        # floor. Outliers are drawn clipped at the top edge and counted; the log scale, the
        # "A" button and the menu's "View All" still show everything.
        view = samples.getViewBox()
        view.enableAutoRange(axis="y", enable=False)
        view.sigRangeChangedManually.connect(self._user_moved_view)
        self.follow_bulk = True  # until the user pans or zooms
        self.log_scale = False
        self.unit: tuple[str, float] = ("ms", 1.0)
        self.bulk: BulkRange | None = None
        self._bulk_for: tuple[tuple, int] = ((), 0)  # the runs and sample count it was found for
        self._outliers_shown: tuple[bool, int, int] = (False, 0, 0)  # the corner text's (clipping, outliers, warm-ups)
        #: A run streams in (``stream``): its ranges stay steady (``live_range``); the samples it was asked for.
        self.streaming = False
        self.expected_samples: int | None = None
        self._streaming_top: float | None = None  # the y axis' top while it streams (ms)
        self.outlier_text = pg.TextItem("", color=theme_colors(self)[1], anchor=(1, 1),
                                        fill=translucent(theme_colors(self)[0], 210))  # fmt: skip
        # In the view's pixels, bottom right: the axis starts at zero, so the floor is where
        # samples are least likely to be (the bulk sits at its median, outliers at the top).
        self.outlier_text.setParentItem(view)
        view.sigResized.connect(self._place_outlier_text)
        summary = self.summary_plot.getPlotItem()
        self.summary_unit: tuple[str, float] = ("ms", 1.0)
        summary.getViewBox().setMouseEnabled(x=False, y=True)
        summary.getViewBox().sigResized.connect(self._fit_summary_range)
        self.items: dict[SeriesKey, _SeriesItems] = {}
        self._series: dict[SeriesKey, Series] = {}
        self._warmup_counts: dict[SeriesKey, int] = {}
        self._warmup_region: pg.LinearRegionItem | None = None
        self._warmup_label: pg.InfLineLabel | None = None
        self._summary_items: list[pg.GraphicsObject] = []
        #: Each bar's label and the height (in the axis's unit) it sits on; the bars' top.
        self._summary_labels: list[tuple[pg.TextItem, float]] = []
        self._summary_top = 0.0
        self._summary_rows: list[dict] = []
        self._legend_keys: tuple[pg.PlotDataItem, pg.PlotDataItem] | None = None  # median line, warm-up
        self.retranslate()

    def retranslate(self) -> None:
        """Every text again in ``words``' language (the summary's bars: ``draw_summary`` again)."""
        words = self.words
        samples = self.samples_plot.getPlotItem()
        samples.setLabel("bottom", words.translate("LatencyCanvas", "sample (warm-up calls at negative indices)"))
        samples.setLabel("left", fill(words.translate("LatencyCanvas", "latency (%1)"), self.unit[0]))
        # The left axis says the unit only: "median (µs), p5–p95" stood vertical taller than the
        # plot at 1024x700 and was cut; what bars and whiskers are is said under the bars.
        self.summary_plot.getPlotItem().setLabel("left", fill(words.translate("LatencyCanvas", "latency (%1)"), self.summary_unit[0]))
        self.summary_plot.getPlotItem().setLabel("bottom", words.translate("LatencyCanvas", "bar: median · whiskers: p5–p95"))
        self.summary_plot.setToolTip(words.translate("LatencyCanvas", "Bars: each run's median latency; whiskers: its 5th to 95th percentile"))
        if self._legend_keys is not None:
            median, warmup = self._legend_keys
            self._set_legend_text(median, words.translate("LatencyCanvas", "running median"))
            self._set_legend_text(warmup, words.translate("LatencyCanvas", "warm-up call (not timed)"))
        for key in self._series:
            self._name_series(key)
        if self._warmup_region is not None and self._warmup_label is not None:
            self._warmup_region.setToolTip(words.translate("LatencyCanvas", "Warm-up calls: not timed; the first one's cost is reported apart"))
            self._warmup_label.setFormat(words.translate("LatencyCanvas", "◀ warm-up"))
        self._write_outlier_text(*self._outliers_shown)

    def _set_legend_text(self, item: pg.PlotDataItem, text: str) -> None:
        legend = self.samples_plot.getPlotItem().legend
        for sample, label in legend.items if legend is not None else ():
            if sample.item is item and label.text != text:
                label.setText(text)

    # ----- samples view

    def prepare_shared_items(self) -> None:
        """Make the items every run shares (the legend's two keys, the warm-up band: ~15 ms),
        ahead of the first run (a window does it at an idle moment)."""
        self._ensure_legend_keys()
        self._make_warmup_region()

    def prepare_series(self, key: SeriesKey, color: QColor) -> None:
        """Make every item drawing ``key`` needs (the shared ones if not yet made, the run's
        own) ahead of its first draw: 10-25 ms of pyqtgraph each, which held the window 60-75
        ms each when made in the first draw, under a benchmark taking both cores."""
        self.prepare_shared_items()
        if key not in self.items:
            self._add_series_items(key, color)

    def draw_series(self, key: SeriesKey, series: Series, color: QColor) -> None:
        if key not in self.items:
            self._add_series_items(key, color)
        self._series[key] = series
        self._set_series_data(key)
        self._name_series(key)
        self._update_warmup_region()

    def _name_series(self, key: SeriesKey) -> None:
        """The run's legend entry, with why it stopped early when it did."""
        self._set_legend_text(self.items[key].samples, run_label(key, self._series[key].status, self.words))

    def _set_series_data(self, key: SeriesKey) -> None:
        """Hand one run's points to its items, in the axis's unit."""
        items, series, scale = self.items[key], self._series[key], self.unit[1]
        x = np.arange(len(series.samples), dtype=float)
        items.samples.setData(x, series.samples.values() / scale)
        items.median.setData(x, series.medians.values() / scale)
        k = self._warmup_counts[key] = len(series.warmup_ms)
        items.warmup.setData(np.arange(-k, 0, dtype=float), np.asarray(series.warmup_ms, dtype=float) / scale)

    def drop(self, key: SeriesKey) -> None:
        """Forget one run and take its items off the plot."""
        self._series.pop(key, None)
        self._warmup_counts.pop(key, None)
        items = self.items.pop(key, None)
        if items is not None:
            plot = self.samples_plot.getPlotItem()
            for item in (items.samples, items.warmup, items.median, items.clipped):
                plot.removeItem(item)
        self._show_legend()
        self._update_warmup_region()

    def stream(self, expected: int | None = None) -> None:
        """A run streams in from now, ``expected`` samples (None: unknown), until ``stream_ended``."""
        self.streaming, self.expected_samples, self._streaming_top = True, expected, None

    def stream_ended(self) -> None:
        """The run ended: the view fits its samples exactly again."""
        self.streaming, self.expected_samples, self._streaming_top = False, None, None
        self._bulk_for = ((), 0)  # the bulk of every sample now, not of those a hundredth ago
        self.refresh_range()

    def set_log_scale(self, on: bool) -> None:
        """A log y axis shows every sample, outliers included; linear follows the bulk."""
        self.log_scale = bool(on)
        self.follow_bulk = True
        self.samples_plot.getPlotItem().setLogMode(y=self.log_scale)
        self.refresh_range()

    def _user_moved_view(self, *_: object) -> None:
        self.follow_bulk = False  # a user's zoom or pan is theirs until the next run

    def refresh_range(self) -> None:
        """Fit the y axis to the bulk of every run's samples, pick the unit it reads in,
        and draw the samples above it as markers at its top edge, counted in its corner."""
        # The quartiles of 100,000 samples cost ~3 ms: worked out again only when the runs
        # change or their samples grow by a hundredth (the bulk cannot move much meanwhile).
        runs = tuple((key, id(s.samples)) for key, s in self._series.items())
        count = sum(len(s.samples) for s in self._series.values())
        last_runs, last_count = self._bulk_for
        if runs != last_runs or not last_count <= count < last_count * 1.01 + 1:
            values = [s.samples.values() for s in self._series.values()]
            self.bulk = bulk_range(np.concatenate(values)) if values else None
            self._bulk_for = (runs, count)
        unit = time_unit(self.bulk.top_ms) if self.bulk is not None else ("ms", 1.0)
        if unit != self.unit:
            self.unit = unit
            self.samples_plot.getPlotItem().setLabel("left", fill(self.words.translate("LatencyCanvas", "latency (%1)"), unit[0]))
            for key in self._series:
                self._set_series_data(key)
        clipping = self.bulk is not None and not self.log_scale
        top = self.bulk.top_ms if clipping and self.bulk is not None else np.inf
        if clipping and self.streaming:  # a top that moves in steps (live_range)
            top = self._streaming_top = streaming_top(top, self._streaming_top)
        outliers = warmups_above = 0
        for key, items in self.items.items():
            series = self._series.get(key)
            if series is None or not clipping:
                items.clipped.setData([], [])
                continue
            samples = series.samples.values()
            warmup = np.asarray(series.warmup_ms, dtype=float)
            over = np.flatnonzero(samples > top).astype(float)
            warm_over = np.flatnonzero(warmup > top) - len(warmup)
            outliers, warmups_above = outliers + len(over), warmups_above + len(warm_over)
            x = np.concatenate([over, warm_over.astype(float)])
            items.clipped.setData(x, np.full(x.shape, top / self.unit[1]))
        self._write_outlier_text(clipping, outliers, warmups_above)
        if not self.follow_bulk:
            return
        view = self.samples_plot.getPlotItem().getViewBox()
        if self.streaming:
            count = max((len(s.samples) for s in self._series.values()), default=0)
            span = streaming_span(count, self.expected_samples, max(self._warmup_counts.values(), default=0))
            _set_range(view, 0, span)
        else:
            view.enableAutoRange(axis="x", enable=True)
        if self.log_scale or self.bulk is None:
            view.enableAutoRange(axis="y", enable=True)
        else:
            _set_range(view, 1, (0.0, top / self.unit[1]))

    def _write_outlier_text(self, clipping: bool, outliers: int, warmups_above: int) -> None:
        """The corner's count of the samples (and warm-ups) above the view, clipped at its top."""
        self._outliers_shown = (clipping, outliers, warmups_above)
        bulk, words = self.bulk, self.words
        parts = []
        # Singular and plural are two texts, not one "%n outlier(s)": the window's English has
        # no catalogue of its own to give Qt's plural forms, and "1 outliers" would read wrong.
        if clipping and bulk is not None and outliers:
            count = outliers
            largest = format_in_unit(bulk.largest_ms, time_unit(bulk.largest_ms))
            if count == 1:
                parts.append(fill(words.translate("LatencyCanvas", "▲ %n outlier above (largest %1)", None, count), largest))
            else:
                parts.append(fill(words.translate("LatencyCanvas", "▲ %n outliers above (largest %1)", None, count), largest))
        if clipping and warmups_above:
            count = warmups_above
            if count == 1:
                parts.append(words.translate("LatencyCanvas", "▲ %n warm-up call above", None, count))
            else:
                parts.append(words.translate("LatencyCanvas", "▲ %n warm-up calls above", None, count))
        text = "\n".join(parts + ([words.translate("LatencyCanvas", "log scale shows all")] if parts else []))
        if text != self.outlier_text.textItem.toPlainText():  # laying text out costs a frame
            self.outlier_text.setText(text)
            self._place_outlier_text()
        self.outlier_text.setVisible(bool(parts))

    def _place_outlier_text(self, *_: object) -> None:
        view = self.samples_plot.getPlotItem().getViewBox()
        self.outlier_text.setPos(view.width() - 4, view.height() - 2)

    def _add_series_items(self, key: SeriesKey, color: QColor) -> _SeriesItems:
        plot = self.samples_plot.getPlotItem()
        symbol = _DTYPE_SYMBOLS.get(key[1], "o")
        self._ensure_legend_keys()
        # One min/max pair per pixel column (see _MemoryCanvas._add_curve): outliers stay.
        samples = plot.plot(name=run_label(key, words=self.words), pen=None, symbol=symbol, symbolSize=5, symbolPen=None,
                            symbolBrush=translucent(color, 170), autoDownsampleFactor=1.0)  # fmt: skip
        median = pg.PlotDataItem(pen=pg.mkPen(color, width=1), autoDownsampleFactor=1.0)
        # Warm-up calls include the first call (lazy init, allocations) and can be 100x the
        # rest: drawn, but left out of the auto-range so the timed samples fill the plot.
        warmup = pg.PlotDataItem(pen=None, symbol="x", symbolSize=8, symbolPen=pg.mkPen(color, width=1),
                                 symbolBrush=None)  # fmt: skip
        # Outliers: a triangle pointing up at the top edge, where the sample left the view.
        clipped = pg.ScatterPlotItem(symbol="t1", size=9, pen=pg.mkPen(color, width=1), brush=color)
        plot.addItem(median)
        plot.addItem(warmup, ignoreBounds=True)
        plot.addItem(clipped, ignoreBounds=True)
        self.items[key] = _SeriesItems(samples, warmup, median, clipped)
        self._show_legend()
        return self.items[key]

    def _show_legend(self) -> None:
        """The legend while there are runs: its keys made ahead explain nothing on an empty plot."""
        legend = self.samples_plot.getPlotItem().legend
        if legend is not None:
            legend.setVisible(bool(self.items))

    def _ensure_legend_keys(self) -> None:
        """Two neutral legend entries that explain the symbols: the median line and warm-up
        (the outliers' triangles are explained by the count in the plot's corner)."""
        if self._legend_keys is not None:
            return
        legend = self.samples_plot.getPlotItem().legend
        neutral = theme_colors(self)[1]
        median = pg.PlotDataItem(pen=pg.mkPen(neutral, width=1))
        warmup = pg.PlotDataItem(pen=None, symbol="x", symbolPen=pg.mkPen(neutral), symbolBrush=None)
        legend.addItem(median, self.words.translate("LatencyCanvas", "running median"))
        legend.addItem(warmup, self.words.translate("LatencyCanvas", "warm-up call (not timed)"))
        self._legend_keys = (median, warmup)
        self._show_legend()

    def _update_warmup_region(self) -> None:
        longest = max(self._warmup_counts.values(), default=0)
        if not longest:
            if self._warmup_region is not None:
                self._warmup_region.setVisible(False)
            return
        span = (-longest - 0.5, -0.5)
        region = self._make_warmup_region()
        region.setRegion(span)
        region.setVisible(True)

    def _make_warmup_region(self) -> pg.LinearRegionItem:
        """The band behind the warm-up calls, made once (hidden until there are some)."""
        if self._warmup_region is None:
            foreground = theme_colors(self)[1]
            self._warmup_region = pg.LinearRegionItem((-1.5, -0.5), movable=False, brush=translucent(foreground, 22),
                                                      pen=pg.mkPen(None))  # fmt: skip
            words = self.words
            self._warmup_region.setToolTip(words.translate("LatencyCanvas", "Warm-up calls: not timed; the first one's cost is reported apart"))
            self._warmup_label = pg.InfLineLabel(self._warmup_region.lines[1], text=words.translate("LatencyCanvas", "◀ warm-up"),
                                                 position=0.98, anchors=[(0, 0), (0, 0)], color=foreground)  # fmt: skip
            self._warmup_region.setVisible(False)
            self.samples_plot.addItem(self._warmup_region, ignoreBounds=False)
        return self._warmup_region

    # ----- summary view

    def draw_summary(self, rows: list[dict]) -> None:
        plot = self.summary_plot.getPlotItem()
        for item in self._summary_items:
            plot.removeItem(item)
        self._summary_items.clear()
        self._summary_labels.clear()
        self._summary_rows = rows
        axis = plot.getAxis("bottom")
        axis.setTicks([[(i, row["label"]) for i, row in enumerate(rows)]])
        if not rows:
            return
        x = np.arange(len(rows), dtype=float)
        median = np.array([r["median_ms"] for r in rows], dtype=float)
        p5 = np.array([r["p5_ms"] for r in rows], dtype=float)
        p95 = np.array([r["p95_ms"] for r in rows], dtype=float)
        # A whisker far above every bar (a noisy train step: p95 84x the median) is cut at
        # SUMMARY_WHISKER_CAP x the largest median and its p95 written out, so the bars keep
        # the plot's height instead of a sliver at its floor.
        cap = SUMMARY_WHISKER_CAP * float(np.max(median))
        shown_top = np.minimum(p95, cap) if cap > 0 else p95
        top_ms = float(max(np.max(shown_top), np.max(median)))
        unit = self.summary_unit = time_unit(top_ms)
        scale = unit[1]
        words = self.words
        plot.setLabel("left", fill(words.translate("LatencyCanvas", "latency (%1)"), unit[0]))
        bars = pg.BarGraphItem(x=x, height=median / scale, width=0.6,
                               brushes=[translucent(r["color"], 200) for r in rows],
                               pens=[pg.mkPen(r["color"], width=1) for r in rows])  # fmt: skip
        foreground = theme_colors(self)[1]
        whiskers = pg.ErrorBarItem(x=x, y=median / scale, top=np.maximum(shown_top - median, 0) / scale,
                                   bottom=np.maximum(median - p5, 0) / scale, beam=0.2,
                                   pen=pg.mkPen(foreground, width=1))  # fmt: skip
        self._summary_items += [bars, whiskers]
        for item in (bars, whiskers):
            plot.addItem(item)
        for i, row in enumerate(rows):
            # Like with like only (core.report.run_verdicts): "fastest", "2.10× slower",
            # "no clear difference", "not compared"; never a ratio of a train step to a forward.
            median_text = format_in_unit(row["median_ms"], unit)
            if row.get("verdict"):
                lines = [fill(words.translate("LatencyCanvas", "%1 (%2)"), median_text, row["verdict"])]
            else:
                lines = [median_text]
            if p95[i] > shown_top[i]:
                lines.append(fill(words.translate("LatencyCanvas", "p95 %1 ↑ (clipped)"), format_in_unit(float(p95[i]), unit)))
            rate = throughput_text(row["median_ms"], str(row.get("mode", "")), row.get("batch"), self.words)
            if rate:
                lines.append(rate)
            text = pg.TextItem("\n".join(lines), color=foreground, anchor=(0.5, 1.0))
            text.setPos(float(i), float(shown_top[i]) / scale)
            plot.addItem(text, ignoreBounds=True)
            self._summary_items.append(text)
            self._summary_labels.append((text, float(shown_top[i]) / scale))
        self._summary_top = top_ms / scale
        self._fit_summary_range()

    def _fit_summary_range(self, *_: object) -> None:
        """The summary's ranges, worked out in pixels so every bar's label stays in view: room
        above each whisker for its label's lines, and beside the outer bars for the halves of
        their labels that reach past them (a label is often wider than its bar). Again on
        each resize: the room a label needs in the axis's units follows the plot's size."""
        plot = self.summary_plot.getPlotItem()
        view = plot.getViewBox()
        count, width, height = len(self._summary_labels), view.width(), view.height()
        if not count:
            return
        left = right = 0.6
        top = self._summary_top * 1.35 or 1.0  # the fallback: room for about three lines
        if width > 0 and height > 0:
            first = self._summary_labels[0][0].textItem.boundingRect().width() / 2 / width
            last = self._summary_labels[-1][0].textItem.boundingRect().width() / 2 / width
            if first + last < 0.9:
                for _ in range(8):  # the span depends on the margins it holds: a fixed point
                    span = count - 1 + left + right
                    left, right = max(0.6, first * span), max(0.6, last * span)
            needs = [on / (1 - label.textItem.boundingRect().height() / height)
                     for label, on in self._summary_labels if label.textItem.boundingRect().height() < 0.8 * height]  # fmt: skip
            if len(needs) == count:
                top = max([self._summary_top * 1.02, *needs]) or 1.0
        plot.setXRange(-left, count - 1 + right, padding=0)
        plot.setYRange(0, top, padding=0)

    @property
    def summary_rows(self) -> list[dict]:
        return list(self._summary_rows)
