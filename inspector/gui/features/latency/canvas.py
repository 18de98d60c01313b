"""The drawing half of the latency plot: the samples view (each sample against its index,
warm-up calls at negative indices, a running median; ``samples_view.py``) and the summary
bars of the runs side by side (``summary_bars.py``), over the two plot widgets of
``plot_widgets.py``. ``LatencyPlot`` (``plot.py``) streams samples into ``Series`` and asks
this canvas to draw them; an offscreen twin renders it for reports.

Its texts are said through a ``Words`` (``plot_words.py``): the live canvas in the window's
language, set again by ``retranslate``; a report's twin in English.

The window makes the plot widgets ahead at idle moments (``plot_widgets``, through
``follows.build_latency_plot_when_idle``) and hands them in; a run's name is said by the
``label`` ``LatencyPlot`` hands in (``labels.run_label``)."""

from __future__ import annotations

from typing import Any

from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from inspector.gui.common.plot_words import LIVE, Words
from inspector.gui.features.latency.plot_widgets import samples_plot_widget, summary_plot_widget
from inspector.gui.features.latency.readable import BulkRange
from inspector.gui.features.latency.samples_view import RunLabel, SamplesView, SeriesItems
from inspector.gui.features.latency.series import Series, SeriesKey
from inspector.gui.features.latency.summary_bars import SummaryBars


#: A plot widget's least height: 150 px of drawing area (its ViewBox) over its axis, at the
#: window's minimum size (at 872x513 the Samples plot had none at all).
MIN_PLOT_HEIGHT = 195


class LatencyCanvas(QWidget):
    """The two views of LatencyPlot: samples against their index (``samples``), and the
    summary bars (``summary``). What the plot and tests ask of it is passed on to them."""

    def __init__(
        self, parent: QWidget | None = None, prefix: str = "latency", words: Words = LIVE,
        plots: Sequence[pg.PlotWidget] = (), menus: bool = True, *, label: RunLabel,
    ) -> None:  # fmt: skip
        """``plots``: the samples and summary plot widgets, where they were made ahead
        (``samples_plot_widget``, ``summary_plot_widget``: ~30 ms each, so a window makes them
        at idle moments of their own); otherwise made here, with right-click menus unless
        ``menus`` is False (a report's image). ``label``: a run's name in the legend."""
        super().__init__(parent)
        self.words = words
        if not plots:
            plots = (samples_plot_widget(self, menu=menus), summary_plot_widget(self, menu=menus))
        self.samples_plot, self.summary_plot = plots
        for plot in plots:  # (the window's minimum height grows to give it: issue 45)
            plot.setMinimumHeight(MIN_PLOT_HEIGHT)
        self.samples_plot.setObjectName(f"{prefix}SamplesPlot")
        self.summary_plot.setObjectName(f"{prefix}SummaryPlot")
        self.samples = SamplesView(self.samples_plot, self, label, words)
        self.summary = SummaryBars(self.summary_plot, self, words)

    def retranslate(self) -> None:
        """Every text again in ``words``' language (the summary's bars: ``draw_summary`` again)."""
        self.samples.retranslate()
        self.summary.retranslate()

    # ----- samples view

    def prepare_shared_items(self) -> None:
        self.samples.prepare_shared_items()

    def prepare_series(self, key: SeriesKey, color: QColor) -> None:
        self.samples.prepare_series(key, color)

    def draw_series(self, key: SeriesKey, series: Series, color: QColor) -> None:
        self.samples.draw_series(key, series, color)

    def drop(self, key: SeriesKey) -> None:
        self.samples.drop(key)

    def stream(self, expected: int | None = None) -> None:
        self.samples.stream(expected)

    def stream_ended(self) -> None:
        self.samples.stream_ended()

    def set_log_scale(self, on: bool) -> None:
        self.samples.set_log_scale(on)

    def refresh_range(self) -> None:
        self.samples.refresh_range()

    @property
    def items(self) -> dict[SeriesKey, SeriesItems]:
        return self.samples.items

    @property
    def unit(self) -> tuple[str, float]:
        return self.samples.unit

    @property
    def bulk(self) -> BulkRange | None:
        return self.samples.bulk

    @property
    def outlier_text(self) -> pg.TextItem:
        return self.samples.outlier_text

    @property
    def streaming(self) -> bool:
        return self.samples.streaming

    @property
    def expected_samples(self) -> int | None:
        return self.samples.expected_samples

    @property
    def log_scale(self) -> bool:
        return self.samples.log_scale

    @log_scale.setter
    def log_scale(self, on: bool) -> None:
        self.samples.log_scale = on

    @property
    def follow_bulk(self) -> bool:
        return self.samples.follow_bulk

    @follow_bulk.setter
    def follow_bulk(self, on: bool) -> None:
        self.samples.follow_bulk = on

    # ----- summary view

    def draw_summary(self, rows: list[dict[str, Any]]) -> None:
        self.summary.draw(rows)

    @property
    def summary_rows(self) -> list[dict[str, Any]]:
        return self.summary.rows

    @property
    def summary_unit(self) -> tuple[str, float]:
        return self.summary.unit
