"""The window's layout: its panels, boxes, splitters, tabs and status bar.

``build_panels(window)`` creates every panel as an attribute of the window (the object
names DESIGN.md lists are set by the panels themselves) and lays them out; the window wires
them afterwards. First-start proportions live here; a saved layout replaces them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGroupBox, QLabel, QSplitter, QTabWidget, QVBoxLayout, QWidget

from inspector.gui.lazy_tabs import LazyTabs
from inspector.gui.panels.actions import ActionBar
from inspector.gui.panels.code import CodePanel
from inspector.gui.panels.devices import DevicesPanel
from inspector.gui.panels.error_banner import ErrorBanner
from inspector.gui.panels.history import HistoryView
from inspector.gui.panels.parameters import ParametersPanel
from inspector.gui.plain_text import plain_label

if TYPE_CHECKING:
    from inspector.gui.main_window import MainWindow


def build_panels(window: MainWindow) -> None:
    window.errorBanner = ErrorBanner(window)
    window.action_bar = ActionBar(window)
    window.devices = DevicesPanel(window)
    window.parameters = ParametersPanel(window)
    window.historyView = HistoryView(window)
    window.code = CodePanel(window)
    devices_box = _boxed("Devices", window.devices)
    model_box = _boxed("Model", window.parameters)
    window.model_box = model_box
    window.tabs = QTabWidget(window)
    window.tabs.setObjectName("bottomTabs")
    window.tabs.addTab(window.historyView, "History")
    # Behind tabs nobody sees at start: built when first shown or asked for (window.latencyPlot).
    window.lazy_tabs = LazyTabs(window.tabs)
    window.lazy_tabs.add("memoryPlot", "Memory", lambda: _memory_plot(window))
    window.lazy_tabs.add("latencyPlot", "Latency", lambda: _latency_plot(window))
    window.lazy_tabs.add("comparisonView", "Compare", lambda: _comparison_view(window))
    window.tabs.currentChanged.connect(lambda _i: window.reports.maybe_refresh_session())
    code_box = _boxed("Code", window.code)

    window.top_splitter = _splitter("topSplitter", Qt.Orientation.Horizontal, devices_box, model_box, (5, 7))
    window.bottom_splitter = _splitter("bottomSplitter", Qt.Orientation.Horizontal, window.tabs, code_box, (7, 5))
    window.main_splitter = _splitter(
        "mainSplitter", Qt.Orientation.Vertical, window.top_splitter, window.bottom_splitter, (4, 5)
    )
    # First-start proportions (a saved layout replaces them): the plots get a bit more
    # than half the height (at 1280x800 the memory plot's markers and the comparison's
    # rows stay legible, and the device table still lists eight GPUs), the code view
    # enough width for a snippet's longest line.
    window.main_splitter.setSizes([450, 550])
    window.top_splitter.setSizes([520, 760])
    window.bottom_splitter.setSizes([800, 480])

    central = QWidget(window)
    layout = QVBoxLayout(central)
    layout.setContentsMargins(6, 6, 6, 6)
    layout.addWidget(window.action_bar)
    layout.addWidget(window.main_splitter, 1)
    window.setCentralWidget(central)
    # The banner floats over the panels' top edge: no layout jump when it shows.
    window.errorBanner.setParent(central)
    window.errorBanner.setVisible(False)
    window.errorBanner.overlay(window.main_splitter)
    window.resize(1240, 760)


def _memory_plot(window: MainWindow) -> QWidget:
    from inspector.gui.plots.memory import MemoryPlot

    # The window's timeline is the plot's store: the sampler fills it, the report reads it,
    # so the plot shows everything since the start, and the task marks made before it.
    plot = MemoryPlot(window, timeline=window.timeline)
    for label, start, end in window.unplotted_marks:
        if end is None:
            plot.mark(label, start)
        else:
            plot.end_mark(start, label, end)
    window.unplotted_marks.clear()
    plot.schedule_redraw()
    return plot


def _latency_plot(window: MainWindow) -> QWidget:
    from inspector.gui.plots.latency import LatencyPlot

    return LatencyPlot(window)


def build_latency_plot_when_idle(window: MainWindow) -> None:
    """The plot a benchmark opens, built while the window waits for the user, in three idle
    moments (its two slowest imports, then the plot: ~15-50 ms each). Built at a benchmark's
    start, all three in one go was its longest stall."""
    window.lazy_tabs.build_when_idle(
        "latencyPlot",
        lambda: window.busy_task is None and not window.tasks.closed,
        window.tasks.busyChanged,
        prepare=[
            lambda: importlib.import_module("inspector.core.report.run_verdicts"),
            lambda: importlib.import_module("inspector.gui.plots.latency"),
        ],
    )


def _comparison_view(window: MainWindow) -> QWidget:
    from inspector.gui.compare import ComparisonView

    view = ComparisonView(window)
    # Its "Open report…" puts a report next to this session even before side A is built.
    view.follows_session = True
    window.reports.comparison_view_built(view)
    return view


def build_status_bar(window: MainWindow) -> None:
    window.statusModel = plain_label(QLabel("Model: none yet", window))
    window.statusModel.setObjectName("statusModel")
    window.statusDevice = plain_label(QLabel("", window))
    window.statusDevice.setObjectName("statusDevice")
    window.statusBusy = plain_label(QLabel("Starting…", window))
    window.statusBusy.setObjectName("statusBusy")
    bar = window.statusBar()
    for label in (window.statusModel, window.statusDevice, window.statusBusy):
        label.setFrameShape(QFrame.Shape.StyledPanel)
        label.setContentsMargins(6, 0, 6, 0)
        bar.addPermanentWidget(label)


def _boxed(title: str, widget: QWidget) -> QGroupBox:
    box = QGroupBox(title)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(6, 6, 6, 6)
    layout.addWidget(widget)
    return box


def _splitter(name: str, orientation: Qt.Orientation, first: QWidget, second: QWidget, stretch: tuple[int, int]) -> QSplitter:
    splitter = QSplitter(orientation)
    splitter.setObjectName(name)
    splitter.addWidget(first)
    splitter.addWidget(second)
    splitter.setStretchFactor(0, stretch[0])
    splitter.setStretchFactor(1, stretch[1])
    splitter.setChildrenCollapsible(False)
    return splitter
