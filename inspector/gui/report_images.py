"""PNG plots of a timing report for the CLI's HTML report: the same plots, drawn by the same
widgets and renderer, as the window's own export.

Lives on the Qt side because it draws with pyqtgraph; ``inspector.core.report.timing_report`` takes the
bytes it returns. Works in a headless CLI process too: it starts an offscreen QApplication
when none exists. Widgets may only be made on the thread that owns the QApplication, so in
the GUI call it from the GUI thread (rendering takes tens of milliseconds, not seconds).

The images are English, as the report file is, whatever language the window speaks: they are
drawn by ``export.plot_images``, whose ``render_png`` twins say their texts through
``plots.words.ENGLISH`` (each text's English source) rather than through Qt's translators.
"""

from __future__ import annotations

import os
import sys
from typing import Any

_app: Any = None  # keeps an application we created alive for the life of the process


def render_report_images(report: dict[str, Any], size: tuple[int, int] = (960, 480)) -> dict[str, bytes]:
    """The plots the window's own export embeds (``export.plot_images``: latency samples,
    latency summary, memory), drawn from ``report`` by offscreen twins of the window's plots,
    each exactly ``size`` (width, height) pixels. A plot with nothing to show is left out."""
    width, height = int(size[0]), int(size[1])
    if width <= 0 or height <= 0:
        raise ValueError(f"image size must be positive, not {size!r}")
    _ensure_application()
    from inspector.gui.export import plot_images
    from inspector.gui.plots import LatencyPlot, MemoryPlot

    latency, memory = LatencyPlot(), MemoryPlot()
    try:
        latency.show_report(report)
        memory.show_report(report)
        return plot_images(memory, latency, (width, height))
    finally:
        latency.deleteLater()
        memory.deleteLater()


def _ensure_application() -> None:
    global _app
    no_display = not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if sys.platform.startswith("linux") and no_display:
        # Only Linux needs a display server; Windows and macOS always have a native platform.
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    existing = QApplication.instance()
    if existing is None:
        _app = QApplication(sys.argv[:1] or ["torch-device-inspector"])
    elif not isinstance(existing, QApplication):
        raise RuntimeError("report plots need a QApplication (widgets), not a bare Qt core/gui application")
