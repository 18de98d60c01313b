"""The latency feature, installed (``state.feature``): the benchmark, launched from the action
bar (``launch.BenchmarkLaunch``), and the Latency tab's plot (built when first shown or asked
for, or ahead of need once the first model is listed), kept with the session and with each
run the launch announces (``follows.LatencyFollows``)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from inspector.gui.common.pages import LATENCY
from inspector.gui.features.latency.follows import LatencyFollows, build_latency_plot_when_idle
from inspector.gui.features.latency.launch import BenchmarkFields, BenchmarkLaunch

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    parent, pages, state, tasks = context.parent, context.pages, context.state, context.tasks

    def plot(*plot_widgets: QWidget) -> QWidget:
        from inspector.gui.features.latency.plot import LatencyPlot

        return LatencyPlot(parent, plots=plot_widgets)

    # (the plot's module, and pyqtgraph, ~50-70 ms: imported on a thread of its own when the plot
    # is built ahead of need: ``build_latency_plot_when_idle``)
    pages.provide(LATENCY, plot, prepare=lambda: importlib.import_module("inspector.gui.features.latency.plot"))
    LatencyFollows(state=state, tasks=tasks, pages=pages, code=context.frame.code, parent=parent)
    launch = BenchmarkLaunch(
        parent, dispatcher=context.dispatcher, request=context.requests.benchmark,
        bar=cast(BenchmarkFields, context.frame.action_bar), banner=context.frame.banner, settings=context.settings,
        state=state,
    )  # fmt: skip
    context.publish(run_benchmark=launch.run_benchmark)

    def first_model(_model: Any) -> None:
        """Once the first model's tensors are listed: the plots' SVG export, and the latency plot
        built while the window waits for the user (off the first second)."""
        state.modelChanged.disconnect(first_model)
        from inspector.gui.common.svg_export import register_if_needed

        QTimer.singleShot(0, register_if_needed)
        build_latency_plot_when_idle(pages, tasks)

    state.modelChanged.connect(first_model)
