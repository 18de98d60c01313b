"""Live plots: device memory over time (``MemoryPlot``) and benchmark latency (``LatencyPlot``).

glue's split: Qt-free state (``series``: the latency runs; the memory plot's store is core's
``MemoryTimeline``), the artists that draw it (``memory_canvas``, ``latency_canvas``), the
viewers around both (``memory``, ``latency``, with the latter's ``summary_notes`` and hover
texts, ``latency_readout``), one look for all (``theme``, shared with the device panel), one
PNG renderer (``render``), and the SVG exporter pyqtgraph 0.14.0 needs (``svg_export``,
registered only for such releases).

How the window uses them (``layout`` builds them; ``task_marks``, ``commands``, ``results``,
``sampler_results`` and ``report_flow`` draw on them)::

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

from __future__ import annotations

import importlib
from typing import Any

# Names are imported on first use (PEP 562): the window builds the memory plot at start and
# the latency plot when its tab first shows, and its first second should not pay for the
# other (issue 12). ``QtSvgExporter`` registers itself in pyqtgraph's "Export..." when first
# asked for; the window asks once its model is listed (``register_svg_exporter``).
_HOMES = {
    "LatencyPlot": "latency",
    "MemoryPlot": "memory",
    "Marker": "memory_canvas",
    "figure_label": "memory_canvas",
    "pick_unit": "memory_canvas",
    "RunningMedian": "series",
    "series_label": "series",
    "QtSvgExporter": "svg_export",
    "device_color": "theme",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name == "QtSvgExporter":
        register_svg_exporter()
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def register_svg_exporter() -> None:
    """Offer the Qt-drawn SVG exporter in every plot's "Export..." where pyqtgraph's fails."""
    from inspector.gui.plots.svg_export import register_if_needed

    register_if_needed()
