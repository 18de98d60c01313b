"""The latency plot's Summary view: one bar per run (its median) with p5–p95 whiskers, each
labelled with its median, its verdict and its throughput (``throughput_text``, which the
hover readout says too), and ranges worked out in pixels
so every label stays in view (``fit_range``).

Its texts are said through a ``Words`` (``plot_words.py``), in the context ``"LatencyCanvas"``
they always had: the live view in the window's language, a report's twin in English."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from inspector.gui.common.i18n import fill
from inspector.gui.common.plot_words import ENGLISH, LIVE, Words
from inspector.gui.common.theme import restyle, theme_colors, translucent
from inspector.gui.features.latency.readable import format_in_unit, time_unit

#: A summary whisker reaching higher than this many times the largest median is clipped at
#: that height (its p95 written beside it), so a noisy run's bars keep most of the plot.
SUMMARY_WHISKER_CAP = 3.0


class SummaryBars:
    """Draws the runs' summary rows on ``plot`` (a ``summary_plot_widget``); ``host`` is the
    widget whose palette gives the bars' labels and whiskers their colour (the canvas)."""

    def __init__(self, plot: pg.PlotWidget, host: QWidget, words: Words = LIVE) -> None:
        self.plot, self.host, self.words = plot, host, words
        restyle(plot)  # no legend: the bars are labelled on the axis
        #: The unit the left axis reads in.
        self.unit: tuple[str, float] = ("ms", 1.0)
        plot.getPlotItem().getViewBox().setMouseEnabled(x=False, y=True)
        plot.getPlotItem().getViewBox().sigResized.connect(self.fit_range)
        #: What is drawn: the bars, the whiskers, each bar's label.
        self.items: list[pg.GraphicsObject] = []
        #: Each bar's label and the height (in the axis's unit) it sits on; the bars' top.
        self._labels: list[tuple[pg.TextItem, float]] = []
        self._top = 0.0
        self._rows: list[dict[str, Any]] = []
        self.retranslate()

    def retranslate(self) -> None:
        """The axes' texts again in ``words``' language (the bars' labels: ``draw`` again)."""
        words, item = self.words, self.plot.getPlotItem()
        # The left axis says the unit only: "median (µs), p5–p95" stood vertical taller than the
        # plot at 1024x700 and was cut; what bars and whiskers are is said under the bars.
        item.setLabel("left", fill(words.translate("LatencyCanvas", "latency (%1)"), self.unit[0]))
        item.setLabel("bottom", words.translate("LatencyCanvas", "bar: median · whiskers: p5–p95"))
        self.plot.setToolTip(words.translate("LatencyCanvas", "Bars: each run's median latency; whiskers: its 5th to 95th percentile"))

    def draw(self, rows: list[dict[str, Any]]) -> None:
        plot = self.plot.getPlotItem()
        for item in self.items:
            plot.removeItem(item)
        self.items.clear()
        self._labels.clear()
        self._rows = rows
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
        unit = self.unit = time_unit(top_ms)
        scale = unit[1]
        words = self.words
        plot.setLabel("left", fill(words.translate("LatencyCanvas", "latency (%1)"), unit[0]))
        bars = pg.BarGraphItem(x=x, height=median / scale, width=0.6,
                               brushes=[translucent(r["color"], 200) for r in rows],
                               pens=[pg.mkPen(r["color"], width=1) for r in rows])  # fmt: skip
        foreground = theme_colors(self.host)[1]
        whiskers = pg.ErrorBarItem(x=x, y=median / scale, top=np.maximum(shown_top - median, 0) / scale,
                                   bottom=np.maximum(median - p5, 0) / scale, beam=0.2,
                                   pen=pg.mkPen(foreground, width=1))  # fmt: skip
        self.items += [bars, whiskers]
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
            self.items.append(text)
            self._labels.append((text, float(shown_top[i]) / scale))
        self._top = top_ms / scale
        self.fit_range()

    def fit_range(self, *_: object) -> None:
        """The summary's ranges, worked out in pixels so every bar's label stays in view: room
        above each whisker for its label's lines, and beside the outer bars for the halves of
        their labels that reach past them (a label is often wider than its bar). Again on
        each resize: the room a label needs in the axis's units follows the plot's size."""
        plot = self.plot.getPlotItem()
        view = plot.getViewBox()
        count, width, height = len(self._labels), view.width(), view.height()
        if not count:
            return
        left = right = 0.6
        top = self._top * 1.35 or 1.0  # the fallback: room for about three lines
        if width > 0 and height > 0:
            first = self._labels[0][0].textItem.boundingRect().width() / 2 / width
            last = self._labels[-1][0].textItem.boundingRect().width() / 2 / width
            if first + last < 0.9:
                for _step in range(8):  # the span depends on the margins it holds: a fixed point
                    span = count - 1 + left + right
                    left, right = max(0.6, first * span), max(0.6, last * span)
            needs = [on / (1 - label.textItem.boundingRect().height() / height)
                     for label, on in self._labels if label.textItem.boundingRect().height() < 0.8 * height]  # fmt: skip
            if len(needs) == count:
                top = max([self._top * 1.02, *needs]) or 1.0
        plot.setXRange(-left, count - 1 + right, padding=0)
        plot.setYRange(0, top, padding=0)

    @property
    def rows(self) -> list[dict[str, Any]]:
        """The rows last drawn (a copy)."""
        return list(self._rows)


def format_rate(per_second: float) -> str:
    """``27_700.0 -> '27.7k'``: a rate with three significant figures and an SI prefix."""
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_second >= scale:
            value = per_second / scale
            break
    else:
        value, prefix = per_second, ""
    text = f"{value:.0f}" if value >= 100 else f"{value:.1f}" if value >= 10 else f"{value:.2f}"
    return text + prefix


def throughput_text(median_ms: float, mode: str = "forward", batch: int | None = None, words: Words = ENGLISH) -> str:
    """What a median means per second: ``'27.7k calls/s · 1.77M items/s (batch 64)'``, in
    ``words``' language (the figures and units as they are).

    Calls (a forward pass) or steps (a train step) per second is 1 / median; items per
    second multiplies by the batch as the model says it (the result's ``batch``, from
    ``core.measure.batch_dim``); without one (unknown), calls/s alone.
    """
    if not median_ms > 0:
        return ""
    per_second = 1e3 / median_ms
    rate = format_rate(per_second)
    if mode == "train-step":
        text = fill(words.translate("Throughput", "%1 steps/s"), rate)
    else:
        text = fill(words.translate("Throughput", "%1 calls/s"), rate)
    if batch is not None and batch > 1:
        text = fill(words.translate("Throughput", "%1 · %2 items/s (batch %3)"), text, format_rate(per_second * batch), batch)
    return text
