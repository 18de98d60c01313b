"""Live plots: device memory over time (``MemoryPlot``) and benchmark latency (``LatencyPlot``).

glue's split: Qt-free state (``series``: the latency runs; the memory plot's store is core's
``MemoryTimeline``), the widgets that draw it (``memory``, ``latency``), one look for all
(``theme``, shared with the device panel), one PNG renderer (``render``), and the SVG
exporter pyqtgraph 0.14.0 needs (``svg_export``, registered only for such releases).

How the window uses them (``inspector.gui.main_window`` and ``layout``)::

    window.memoryPlot = MemoryPlot(window, timeline=window.timeline)  # objectName "memoryPlot"
    window.latencyPlot = LatencyPlot(window)                          # objectName "latencyPlot"
    sampler.samples.connect(window.memoryPlot.schedule_redraw)  # the sampler stored them already
    worker.latencySamples.connect(window.latencyPlot.add_sample_pairs)  # ((index, ms), ...)

    started = window.memoryPlot.mark("model.to('cuda:0')")  # a labelled line while a task runs
    window.memoryPlot.end_mark(started, result.call)        # ...which becomes a span when it ends
    window.latencyPlot.begin_series(device, dtype, mode)    # a benchmark starts ("?" if unknown)
    window.latencyPlot.finish_series(outcome.result)        # LatencyResult or its dict
    window.latencyPlot.abort_series("cancelled")            # or it stopped early

    images = inspector.gui.export.plot_images(window.memoryPlot, window.latencyPlot)  # HTML report
    window.latencyPlot.show_report(report); window.memoryPlot.show_report(report)    # a saved report
"""

from inspector.gui.plots.latency import LatencyPlot
from inspector.gui.plots.memory import MemoryPlot
from inspector.gui.plots.memory_canvas import Marker, figure_label, pick_unit
from inspector.gui.plots.series import RunningMedian, series_label
from inspector.gui.plots.svg_export import QtSvgExporter, register_if_needed
from inspector.gui.plots.theme import device_color

register_if_needed()

__all__ = [
    "LatencyPlot",
    "Marker",
    "MemoryPlot",
    "QtSvgExporter",
    "RunningMedian",
    "device_color",
    "figure_label",
    "pick_unit",
    "series_label",
]
