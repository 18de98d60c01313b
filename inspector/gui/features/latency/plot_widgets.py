"""The latency plot's pyqtgraph widgets: the two plot widgets (made ahead at idle moments of
their own, ``samples_plot_widget``/``summary_plot_widget``, their right-click menus later,
``enable_menu``: ``follows.build_latency_plot_when_idle``) and the samples axis of whole
numbers. It imports no module of the window.

``SamplesView`` (``samples_view.py``) and ``SummaryBars`` (``summary_bars.py``) draw on these
widgets; ``LatencyCanvas`` (``canvas.py``) makes them where they were not made ahead."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QWidget


class IntegerAxis(pg.AxisItem):  # type: ignore[misc]  # (pyqtgraph has no stubs)
    """An axis of sample indices: ticks only at whole numbers, written without decimals."""

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:  # noqa: N802,N803
        levels = [(max(1.0, float(round(spacing))), offset)
                  for spacing, offset in super().tickSpacing(minVal, maxVal, size) if spacing >= 0.5]  # fmt: skip
        return levels or [(1.0, 0.0)]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
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
