"""PNG plots of a timing report (latency samples, memory over time) for the HTML report.

Lives on the Qt side because it draws with pyqtgraph; ``inspector.core.report`` takes the
bytes it returns. Works in a headless CLI process too: it starts an offscreen QApplication
when none exists. Widgets may only be made on the thread that owns the QApplication, so in
the GUI call it from the GUI thread (rendering takes tens of milliseconds, not seconds).
"""

from __future__ import annotations

import os
import sys
from typing import Any, Sequence

import numpy as np

#: Above this many points per curve, symbols cost more than they show: draw lines only.
_MAX_SYMBOL_POINTS = 2_000
_app: Any = None  # keeps an application we created alive for the life of the process


def render_report_images(report: dict, size: tuple[int, int] = (960, 480)) -> dict[str, bytes]:
    """``{"Latency": png, "Memory": png}``, each exactly ``size`` (width, height) pixels."""
    _ensure_application()
    return {
        "Latency": _render(_latency_plot(report.get("latency") or []), size),
        "Memory": _render(_memory_plot(report.get("memory") or {}), size),
    }


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


def _new_plot(title: str, left: str, left_units: str | None, bottom: str, bottom_units: str | None) -> Any:
    import pyqtgraph as pg

    # Per widget, not pg.setConfigOptions: a global white theme would repaint the app's own plots.
    widget = pg.PlotWidget(background="w")
    item = widget.getPlotItem()
    item.setTitle(title, color="#1d2330")
    for name in ("left", "bottom"):
        axis = item.getAxis(name)
        axis.setPen(pg.mkPen("#5c6475", width=1))
        axis.setTextPen(pg.mkPen("#1d2330"))
    # A fixed width: the axis widens itself for long tick labels only on a later repaint, which
    # an offscreen export never gets, so labels like "301.25" would be hidden.
    item.getAxis("left").setWidth(72)
    item.setLabel("left", left, units=left_units)
    item.setLabel("bottom", bottom, units=bottom_units)
    item.showGrid(x=True, y=True, alpha=0.25)
    item.addLegend(offset=(-10, 10), labelTextColor="#1d2330", brush=(255, 255, 255, 200))
    return widget


def _curve(widget: Any, x: np.ndarray, y: np.ndarray, colour: str, name: str, *, dashed: bool = False) -> None:
    import pyqtgraph as pg
    from PySide6.QtCore import Qt

    pen = pg.mkPen(colour, width=1, style=Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
    symbols = {} if dashed or len(x) > _MAX_SYMBOL_POINTS else {
        "symbol": "o", "symbolSize": 4, "symbolPen": None, "symbolBrush": colour,
    }
    # connect="finite": an unknown reading (None -> NaN) leaves a gap instead of breaking the curve.
    widget.getPlotItem().plot(x, y, pen=pen, name=name, connect="finite", **symbols)


def _latency_plot(entries: Sequence[dict]) -> Any:
    title = "Latency per sample" if entries else "Latency — no samples in this report"
    widget = _new_plot(title, "time", "s", "sample", None)
    for entry in entries:
        colour = _colour(str(entry.get("device", "")))
        # Seconds, so pyqtgraph picks µs / ms / s for the axis by itself.
        y = np.asarray(entry.get("samples_ms") or [], dtype=float) / 1e3
        if y.size == 0:
            continue
        x = np.arange(y.size, dtype=float)
        label = f"{entry.get('device', '?')} {entry.get('dtype', '')} {entry.get('mode', 'forward')}".strip()
        _curve(widget, x, y, colour, label)
        median = entry.get("median_ms")
        if isinstance(median, (int, float)):
            _curve(widget, np.array([0.0, x[-1]]), np.full(2, median / 1e3), colour, f"median {label}", dashed=True)
    return widget


def _memory_plot(memory: dict) -> Any:
    title = "Memory allocated by this process" if memory else "Memory — no readings in this report"
    widget = _new_plot(title, "allocated (MiB)", None, "time since start", "s")
    for device, points in memory.items():
        t = np.array([_number(p.get("t")) for p in points], dtype=float)
        mib = np.array([_number(p.get("allocated")) for p in points], dtype=float) / 2**20
        if t.size:
            _curve(widget, t, mib, _colour(str(device)), str(device))
    return widget


def _colour(device: str) -> str:
    """The device's colour in the window (table swatch, live plots), so reports match it."""
    from inspector.gui.plots.theme import device_colour

    return device_colour(device).name()


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) else np.nan


def _render(widget: Any, size: tuple[int, int]) -> bytes:
    from PySide6.QtCore import QRectF

    width, height = int(size[0]), int(size[1])
    if width <= 0 or height <= 0:
        raise ValueError(f"image size must be positive, not {size!r}")
    try:
        # The widget is never shown (no window flashes up), so lay the plot out by hand.
        widget.resize(width, height)
        widget.setSceneRect(QRectF(0, 0, width, height))
        from inspector.gui.plots.render import plot_png

        return plot_png(widget.getPlotItem(), width, height)
    finally:
        widget.close()
        widget.deleteLater()
