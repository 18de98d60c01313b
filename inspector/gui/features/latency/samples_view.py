"""The latency plot's Samples view: each run's samples against their index, warm-up calls
at negative indices (a band behind them), a running median, and the y range that follows
the bulk of the samples, with the outliers above it drawn at the top edge and counted in
the corner (``refresh_range``; the log scale shows them all). While a run streams in, its
ranges move in steps (``live_range``).

Its texts are said through a ``Words`` (``plot_words.py``), in the context ``"LatencyCanvas"``
they always had: the live view in the window's language (again on ``retranslate``), a
report's twin in English."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor, QFontMetrics
from PySide6.QtWidgets import QWidget

from inspector.core.vocabulary import DType
from inspector.gui.common.i18n import fill
from inspector.gui.common.plot_words import LIVE, Words
from inspector.gui.common.theme import restyle, theme_colors, translucent
from inspector.gui.features.latency.live_range import streaming_span, streaming_top
from inspector.gui.features.latency.readable import BulkRange, bulk_range, format_in_unit, time_unit
from inspector.gui.features.latency.series import Series, SeriesKey


#: Each dtype's marker in the samples view (another dtype: a circle).
DTYPE_SYMBOLS: dict[str, str] = {DType.FLOAT32: "o", DType.FLOAT16: "t", DType.BFLOAT16: "s", DType.FLOAT64: "d"}
#: A run's name in the legend (``labels.run_label``): the key, why the run stopped early ("" if
#: it did not), the words to say it in.
RunLabel = Callable[[SeriesKey, str, Words], str]


@dataclass
class SeriesItems:
    """The plot items drawing one run."""

    samples: pg.PlotDataItem
    warmup: pg.PlotDataItem
    median: pg.PlotDataItem
    clipped: pg.ScatterPlotItem  # outliers, drawn at the top edge of the view


class SamplesView:
    """Draws the runs' samples on ``plot`` (a ``samples_plot_widget``); ``host`` is the widget
    whose palette gives the view its colours (the canvas holding it)."""

    def __init__(self, plot: pg.PlotWidget, host: QWidget, label: RunLabel, words: Words = LIVE) -> None:
        self.plot, self.host, self.label, self.words = plot, host, label, words
        restyle(plot, legend_columns=4)
        samples = plot.getPlotItem()
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
        self._bulk_for: tuple[tuple[object, ...], int] = ((), 0)  # the runs and sample count it was found for
        self._outliers_shown: tuple[bool, int, int] = (False, 0, 0)  # the corner text's (clipping, outliers, warm-ups)
        self._outlier_lines: list[str] = []  # what the corner says, a line each (``_place_outlier_text``)
        self._stacked: tuple[str, float] = ("", 0.0)  # those lines one under another, and their height (px)
        #: A run streams in (``stream``): its ranges stay steady (``live_range``); the samples it was asked for.
        self.streaming = False
        self.expected_samples: int | None = None
        self._streaming_top: float | None = None  # the y axis' top while it streams (ms)
        self.outlier_text = pg.TextItem("", color=theme_colors(host)[1], anchor=(1, 1),
                                        fill=translucent(theme_colors(host)[0], 210))  # fmt: skip
        # In the view's pixels, bottom right: the axis starts at zero, so the floor is where
        # samples are least likely to be (the bulk sits at its median, outliers at the top).
        self.outlier_text.setParentItem(view)
        view.sigResized.connect(self._place_outlier_text)
        self.items: dict[SeriesKey, SeriesItems] = {}
        self._series: dict[SeriesKey, Series] = {}
        self._warmup_counts: dict[SeriesKey, int] = {}
        self._warmup_region: pg.LinearRegionItem | None = None
        self._warmup_label: pg.InfLineLabel | None = None
        self._legend_keys: tuple[pg.PlotDataItem, pg.PlotDataItem] | None = None  # median line, warm-up
        self.retranslate()

    def retranslate(self) -> None:
        """Every text of the view again in ``words``' language."""
        words = self.words
        samples = self.plot.getPlotItem()
        samples.setLabel("bottom", words.translate("LatencyCanvas", "sample (warm-up calls at negative indices)"))
        samples.setLabel("left", fill(words.translate("LatencyCanvas", "latency (%1)"), self.unit[0]))
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
        legend = self.plot.getPlotItem().legend
        for sample, label in legend.items if legend is not None else ():
            if sample.item is item and label.text != text:
                label.setText(text)

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
        self._set_legend_text(self.items[key].samples, self.label(key, self._series[key].status, self.words))

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
            plot = self.plot.getPlotItem()
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
        self.plot.getPlotItem().setLogMode(y=self.log_scale)
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
            self.plot.getPlotItem().setLabel("left", fill(self.words.translate("LatencyCanvas", "latency (%1)"), unit[0]))
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
        view = self.plot.getPlotItem().getViewBox()
        if self.streaming:
            count = max((len(s.samples) for s in self._series.values()), default=0)
            span = streaming_span(count, self.expected_samples, max(self._warmup_counts.values(), default=0))
            set_range(view, 0, span)
        else:
            view.enableAutoRange(axis="x", enable=True)
        if self.log_scale or self.bulk is None:
            view.enableAutoRange(axis="y", enable=True)
        else:
            set_range(view, 1, (0.0, top / self.unit[1]))

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
        self._outlier_lines = parts + ([words.translate("LatencyCanvas", "log scale shows all")] if parts else [])
        self._place_outlier_text()
        self.outlier_text.setVisible(bool(parts))

    def _place_outlier_text(self, *_: object) -> None:
        """The corner's lines, one under another where the view has the height for them; on one
        line where it does not (a short plot: at 1024x700 the three lines ran over the view's
        top, cut off there, issue 37's screens)."""
        view = self.plot.getPlotItem().getViewBox()
        lines = self._outlier_lines
        stacked = "\n".join(lines)
        if stacked != self._stacked[0]:
            # Measured as laid out (a Chinese line is taller than the font's own line spacing:
            # its glyphs come from a fallback font), once per new text, not on every resize.
            self.outlier_text.setText(stacked)
            self._stacked = (stacked, self.outlier_text.boundingRect().height())
        text = stacked if self._stacked[1] <= view.height() else " · ".join(lines)
        if text != self.outlier_text.textItem.toPlainText():  # laying text out costs a frame
            self.outlier_text.setText(text)
        self.outlier_text.setPos(view.width() - 4, view.height() - 2)

    def _add_series_items(self, key: SeriesKey, color: QColor) -> SeriesItems:
        plot = self.plot.getPlotItem()
        symbol = DTYPE_SYMBOLS.get(key[1], "o")
        self._ensure_legend_keys()
        # One min/max pair per pixel column (see _MemoryCanvas._add_curve): outliers stay.
        samples = plot.plot(name=self.label(key, "", self.words), pen=None, symbol=symbol, symbolSize=5, symbolPen=None,
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
        self.items[key] = SeriesItems(samples, warmup, median, clipped)
        self._show_legend()
        return self.items[key]

    def _show_legend(self) -> None:
        """The legend while there are runs: its keys made ahead explain nothing on an empty plot."""
        legend = self.plot.getPlotItem().legend
        if legend is not None:
            legend.setVisible(bool(self.items))

    def _ensure_legend_keys(self) -> None:
        """Two neutral legend entries that explain the symbols: the median line and warm-up
        (the outliers' triangles are explained by the count in the plot's corner)."""
        if self._legend_keys is not None:
            return
        legend = self.plot.getPlotItem().legend
        neutral = theme_colors(self.host)[1]
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
            foreground = theme_colors(self.host)[1]
            self._warmup_region = pg.LinearRegionItem((-1.5, -0.5), movable=False, brush=translucent(foreground, 22),
                                                      pen=pg.mkPen(None))  # fmt: skip
            words = self.words
            self._warmup_region.setToolTip(words.translate("LatencyCanvas", "Warm-up calls: not timed; the first one's cost is reported apart"))
            self._warmup_label = pg.InfLineLabel(self._warmup_region.lines[1], text=words.translate("LatencyCanvas", "◀ warm-up"),
                                                 position=0.98, anchors=[(0, 0), (0, 0)], color=foreground)  # fmt: skip
            self._warmup_region.setVisible(False)
            self.plot.addItem(self._warmup_region, ignoreBounds=False)
        return self._warmup_region


def set_range(view: pg.ViewBox, axis: int, span: tuple[float, float]) -> None:
    """Set one axis' range (and stop its automatic range) unless it is there already: set
    again, pyqtgraph solves the view anew and signals a change of its state."""
    if view.state["autoRange"][axis] is not False or [float(v) for v in view.state["targetRange"][axis]] != list(span):
        view.setRange(**{("xRange", "yRange")[axis]: span}, padding=0)
