"""Milliseconds per redraw of the live plots with a full store (offscreen, painted each time).

Memory: ``MemoryPlot`` holding an hour at 10 Hz (36,000 readings) for 3 devices x 3 figures
(allocated, reserved, used: 9 curves of 36,000 points). Each frame adds one reading per
device, as the sampler does, then runs the timer's ``redraw()`` (``setData`` on every curve)
and paints the widget (``grab()``, which renders it for real), so the figure is what one
frame costs the GUI thread. Measured with the whole timeline in view and following the
last 30 s.

Latency: ``LatencyPlot`` with the 100,000 samples ``min_time`` may keep, repainted.

    python benchmarks/plot_update.py [--frames 60] [--size 1200x500]

GUI-thread budget: a frame well under 16 ms keeps the window responsive (docs/performance.md: longest
event-loop stall <= 50 ms, p99 <= 16 ms).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pyqtgraph as pg  # noqa: E402
import torch  # noqa: E402,F401  (before Qt, as the app does)
from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from inspector.core.devices.discovery import MemoryReading  # noqa: E402
from inspector.gui.features.latency.plot import LatencyPlot  # noqa: E402
from inspector.gui.features.memory.plot import MemoryPlot  # noqa: E402

HOUR_AT_10_HZ = 36_000
DEVICES = ("cuda:0", "cuda:1", "cuda:2")  # accelerators: all three figures each
GiB = 1 << 30


def _reading(device: str, t: float, i: int, phase: float) -> MemoryReading:
    # A slow wave plus noise: every pixel column holds different values, the worst case for
    # peak downsampling (flat lines would flatter it).
    allocated = int(GiB * (4 + 3 * np.sin(i / 700 + phase)) + (i * 7919 % 1000) * 1e5)
    return MemoryReading(device, t, allocated, allocated + GiB // 2, allocated + GiB, 80 * GiB)


def filled_memory_plot(size: tuple[int, int]) -> MemoryPlot:
    plot = MemoryPlot()
    plot.resize(*size)
    t0 = plot.timeline.t0
    for i in range(HOUR_AT_10_HZ):
        plot.timeline.add(tuple(_reading(d, t0 + i / 10, i, k) for k, d in enumerate(DEVICES)))
    return plot


class Frames:
    """Per-frame milliseconds: the GUI thread's CPU time (``time.thread_time``: what the
    frame costs, unaffected by other processes on a shared machine) and wall time."""

    def __init__(self) -> None:
        self.push_cpu: list[float] = []
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.paints = 0

    def measure(self, redraw, paint) -> None:
        wall0, cpu0 = time.perf_counter(), time.thread_time()
        redraw()
        cpu1 = time.thread_time()
        paint()
        self.push_cpu.append((cpu1 - cpu0) * 1e3)
        self.cpu.append((time.thread_time() - cpu0) * 1e3)
        self.wall.append((time.perf_counter() - wall0) * 1e3)


class _PaintCounter(QObject):
    """Counts the paint events the plots' viewports receive: proof each frame was painted."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def _painter(widget, app: QApplication):
    """The paint a frame gets in the app: back in the event loop after ``redraw()``, Qt
    delivers the scene's pending update and the viewport is rendered (the offscreen
    platform rasterises into a real backing store)."""
    counter = _PaintCounter()
    for view in widget.findChildren(pg.GraphicsView):
        view.viewport().installEventFilter(counter)

    def paint() -> None:
        app.processEvents()

    paint.counter = counter  # type: ignore[attr-defined]
    return paint


def time_memory_frames(plot: MemoryPlot, frames: int, app: QApplication) -> Frames:
    out = Frames()
    t0 = plot.timeline.t0
    start_index = len(plot.timeline.series(DEVICES[0])["t"])
    paint = _painter(plot, app)
    for n in range(frames):
        i = start_index + n
        plot.timeline.add(tuple(_reading(d, t0 + i / 10, i, k) for k, d in enumerate(DEVICES)))
        out.measure(plot.redraw, paint)
    out.paints = paint.counter.count
    return out


def time_latency_frames(size: tuple[int, int], frames: int, app: QApplication) -> Frames:
    plot = LatencyPlot()
    plot.resize(*size)
    plot.show()
    rng = np.random.default_rng(0)
    key = plot.begin_series("cpu", "float32")
    plot.add_samples(0, (0.05 + rng.exponential(0.01, size=100_000)).tolist())
    plot.redraw()
    paint = _painter(plot, app)
    paint()  # the first paint builds pyqtgraph's symbol atlas: a one-off, not a frame
    out = Frames()
    for n in range(frames):
        plot.add_sample(100_000 + n, 0.05)
        # What the redraw timer does while the "Samples" tab is on screen.
        out.measure(lambda: plot.redraw(summary=False), paint)
    out.paints = paint.counter.count
    assert len(plot.series[key].samples_ms) == 100_000 + frames
    plot.close()
    return out


def describe(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(values):6.2f} ms, p95 {p95:6.2f} ms, max {max(values):6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--size", default="1200x500", help="widget size WxH in pixels")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.lower().split("x"))
    app = QApplication.instance() or QApplication(sys.argv[:1])

    plot = filled_memory_plot(size)
    plot.show()
    plot.redraw()
    app.processEvents()
    curves = len(plot.canvas.curves)
    points = len(plot.timeline.series(DEVICES[0])["t"])
    print(f"MemoryPlot: {curves} curves x {points} points, widget {size[0]}x{size[1]}, {args.frames} frames")
    for label, window in (("whole timeline", None), ("last 30 s", 30.0)):
        plot.set_window(window)
        frames = time_memory_frames(plot, args.frames, app)
        print(f"  {label} ({frames.paints / len(frames.cpu):.1f} paints per frame):")
        print(f"    redraw() alone, CPU  {describe(frames.push_cpu)}")
        print(f"    redraw + paint, CPU  {describe(frames.cpu)}")
        print(f"    redraw + paint, wall {describe(frames.wall)}")
    plot.close()

    frames = time_latency_frames(size, max(10, args.frames // 3), app)
    print(f"LatencyPlot, 100,000 samples, one new sample per frame ({frames.paints / len(frames.cpu):.1f} paints per frame):")
    print(f"    redraw + paint, CPU  {describe(frames.cpu)}")
    print(f"    redraw + paint, wall {describe(frames.wall)}")
    print("budget: a frame well under 16 ms (the GUI thread's p99 stall target)")


if __name__ == "__main__":
    main()
