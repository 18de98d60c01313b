"""The drawing half of the latency plot: the samples view (each sample against its index,
warm-up calls at negative indices, a running median) and the summary bars of the runs side by
side. ``LatencyPlot`` (``latency.py``) streams samples into ``Series`` and asks this canvas to
draw them; an offscreen twin renders it for reports."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from inspector.core.units import format_ms
from inspector.core.vocabulary import DType
from inspector.gui.plots.series import Series, SeriesKey, series_label
from inspector.gui.plots.theme import restyle, theme_colors, translucent

#: Share of the latency samples the y axis fits by default (the rest are outliers).
LATENCY_VISIBLE_FRACTION = 0.99

_DTYPE_SYMBOLS = {DType.FLOAT32: "o", DType.FLOAT16: "t", DType.BFLOAT16: "s", DType.FLOAT64: "d"}




@dataclass
class _SeriesItems:
    samples: pg.PlotDataItem
    warmup: pg.PlotDataItem
    median: pg.PlotDataItem


class LatencyCanvas(QWidget):
    """The two views of LatencyPlot: samples against their index, and the summary bars."""

    def __init__(self, parent: QWidget | None = None, prefix: str = "latency") -> None:
        super().__init__(parent)
        self.samples_plot = pg.PlotWidget(self)
        self.samples_plot.setObjectName(f"{prefix}SamplesPlot")
        self.summary_plot = pg.PlotWidget(self)
        self.summary_plot.setObjectName(f"{prefix}SummaryPlot")
        restyle(self.samples_plot, legend_columns=4)
        restyle(self.summary_plot)  # no legend: the bars are labelled on the axis
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

    def draw_series(self, key: SeriesKey, series: Series, color: QColor) -> None:
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
                            symbolBrush=translucent(color, 170), autoDownsampleFactor=1.0)  # fmt: skip
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
        neutral = theme_colors(self)[1]
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
            foreground = theme_colors(self)[1]
            self._warmup_region = pg.LinearRegionItem(span, movable=False, brush=translucent(foreground, 22),
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
                               brushes=[translucent(r["color"], 200) for r in rows],
                               pens=[pg.mkPen(r["color"], width=1) for r in rows])  # fmt: skip
        foreground = theme_colors(self)[1]
        whiskers = pg.ErrorBarItem(x=x, y=median, top=np.maximum(p95 - median, 0),
                                   bottom=np.maximum(median - p5, 0), beam=0.2,
                                   pen=pg.mkPen(foreground, width=1))  # fmt: skip
        self._summary_items += [bars, whiskers]
        for item in (bars, whiskers):
            plot.addItem(item)
        for i, row in enumerate(rows):
            # Like with like only (core.compare.run_verdicts): "fastest", "2.10× slower",
            # "no clear difference", "not compared"; never a ratio of a train step to a forward.
            verdict = f" ({row['verdict']})" if row.get("verdict") else ""
            text = pg.TextItem(f"{format_ms(row['median_ms'], compact=True)}{verdict}", color=foreground, anchor=(0.5, 1.0))
            text.setPos(float(i), float(p95[i]))
            plot.addItem(text, ignoreBounds=True)
            self._summary_items.append(text)
        plot.setXRange(-0.6, len(rows) - 0.4, padding=0)
        # Room above the tallest whisker for its label; bars start at zero.
        plot.setYRange(0, float(np.max(p95)) * 1.18 or 1.0, padding=0)

    @property
    def summary_rows(self) -> list[dict]:
        return list(self._summary_rows)
