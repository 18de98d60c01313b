"""The latency plot's pyqtgraph widgets and the words on them: the two plot widgets (made
ahead at idle moments of their own, ``samples_plot_widget``/``summary_plot_widget``, their
right-click menus later, ``enable_menu``), the samples axis of whole numbers, each dtype's
marker, and a run's name as the legend and the bars say it (``run_label``).

``SamplesView`` (``samples_view.py``) and ``SummaryBars`` (``summary_bars.py``) draw on these
widgets; ``LatencyCanvas`` (``canvas.py``) holds the two views. Texts keep the context
``"LatencyCanvas"`` they always had, so the catalogue keeps their translations."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QWidget

from inspector.core.vocabulary import DType
from inspector.gui.common.i18n import fill
from inspector.gui.common.plot_words import LIVE, Words
from inspector.gui.common.vocabulary_words import mode_text
from inspector.gui.features.latency.series import SeriesKey, series_label

#: Each dtype's marker in the samples view (another dtype: a circle).
DTYPE_SYMBOLS = {DType.FLOAT32: "o", DType.FLOAT16: "t", DType.BFLOAT16: "s", DType.FLOAT64: "d"}
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
    """The Samples view's plot widget, before ``SamplesView`` styles it (sample indices as
    whole numbers). ``menu`` False: without its right-click menu (``enable_menu`` makes it)."""
    return pg.PlotWidget(parent, enableMenu=menu, axisItems={"bottom": IntegerAxis("bottom")})


def summary_plot_widget(parent: QWidget | None = None, *, menu: bool = True) -> pg.PlotWidget:
    """The Summary view's plot widget, before ``SummaryBars`` styles it."""
    return pg.PlotWidget(parent, enableMenu=menu)


def enable_menu(plot: pg.PlotWidget) -> None:
    """Give a plot widget made without its right-click menu the menu (pyqtgraph's View All,
    axes and Export...). Its forms are half of a first plot widget's ~60-110 ms, so a window
    makes them at an idle moment of their own."""
    item = plot.getPlotItem()
    if not item.menuEnabled() or item.getViewBox().menu is None:
        item.setMenuEnabled(True)


def set_range(view: pg.ViewBox, axis: int, span: tuple[float, float]) -> None:
    """Set one axis' range (and stop its automatic range) unless it is there already: set
    again, pyqtgraph solves the view anew and signals a change of its state."""
    if view.state["autoRange"][axis] is not False or [float(v) for v in view.state["targetRange"][axis]] != list(span):
        view.setRange(**{("xRange", "yRange")[axis]: span}, padding=0)
