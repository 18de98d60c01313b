"""Longest GUI event-loop stall while the worker casts a 1 GiB model and benchmarks it.

A 1 ms QTimer on the GUI thread records when it fires; the gaps between firings are how
long the event loop could not run (the window could not repaint or react to a click). The
window is shown (offscreen by default) with its memory sampler running at 10 Hz, and the
worker does, one after the other, through the window's own buttons:

  1. ``model.to('cpu', dtype=torch.bfloat16)`` of a 1 GiB float32 model (4 x Linear(8192, 8192)),
  2. ``model.to('cpu', dtype=torch.float32)`` back,
  3. a forward benchmark (batch 8) of the float32 model.

Targets (DESIGN.md): longest stall <= 50 ms, p99 <= 16 ms. Prints max and p99 per phase.
Huge pages for CPU tensors are asked for as the app asks for them (``THP_MEM_ALLOC_ENABLE=0``
measures without: freeing a 256 MiB original in 4 KiB pages holds the kernel's memory-map
lock for tens of ms, and the GUI thread's own page faults wait for it).

    python benchmarks/ui_stall.py [--layers 4] [--width 8192] [--runs 20]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from inspector.core.devices.huge_pages import prefer_huge_pages  # noqa: E402

prefer_huge_pages()  # as the app's entry point does, before torch allocates

import numpy as np  # noqa: E402
import torch  # noqa: E402  (before Qt, as the app does)
from torch import nn  # noqa: E402


def make_model() -> tuple[nn.Module, torch.Tensor]:
    """The factory the window loads (``benchmarks/ui_stall.py:make_model``)."""
    layers = int(os.environ.get("UI_STALL_LAYERS", "4"))
    width = int(os.environ.get("UI_STALL_WIDTH", "8192"))
    with torch.no_grad():  # skip autograd bookkeeping of the initialisation
        model = nn.Sequential(*[nn.Linear(width, width) for _ in range(layers)])
    return model, torch.randn(8, width)


class StallProbe:
    """Fires every millisecond on the GUI thread and keeps the time of each firing."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.stamps: list[float] = []
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(1)
        self.timer.timeout.connect(lambda: self.stamps.append(time.perf_counter()))

    def start(self) -> None:
        self.stamps.clear()
        self.timer.start()

    def stop(self) -> np.ndarray:
        """Gaps between firings, in ms."""
        self.timer.stop()
        return np.diff(np.asarray(self.stamps)) * 1e3


def run_phase(app, window, probe: StallProbe, start) -> tuple[np.ndarray, float]:
    """Run one window action to its end; return the probe's gaps and the phase's seconds."""
    probe.start()
    began = time.perf_counter()
    assert start(), "the window refused the action (busy?)"
    while window.busy_task is not None:
        app.processEvents()
        time.sleep(0)  # hand the GIL over; processEvents itself returns at once when idle
    seconds = time.perf_counter() - began
    return probe.stop(), seconds


def idle_phase(app, probe: StallProbe, seconds: float) -> np.ndarray:
    probe.start()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0)
    return probe.stop()


def dtype_of(window) -> str:
    return ", ".join(window.model_state.placement.totals.by_dtype)


def describe(name: str, gaps: np.ndarray, seconds: float) -> str:
    if gaps.size == 0:
        return f"{name:<34} no timer firings"
    return (
        f"{name:<34} {seconds:7.2f} s  firings {gaps.size + 1:6d}  "
        f"max {gaps.max():7.1f} ms  p99 {np.percentile(gaps, 99):6.1f} ms  median {np.median(gaps):5.2f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--width", type=int, default=8192)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    os.environ["UI_STALL_LAYERS"], os.environ["UI_STALL_WIDTH"] = str(args.layers), str(args.width)

    from inspector.gui.app import create_window, ensure_application, qt_binding_problem

    problem = qt_binding_problem()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    app = ensure_application()
    window = create_window(model_spec=f"{os.path.abspath(__file__)}:make_model")
    window.resize(1280, 800)
    window.show()
    while window.model_state is None or window.busy_task is not None:
        app.processEvents()
        time.sleep(0.001)
        if not window.isVisible():
            return 1
    size = window.model_state.placement.totals.bytes
    print(f"model: {args.layers} x Linear({args.width}, {args.width}) = {size / 2**30:.2f} GiB float32; "
          f"torch threads {torch.get_num_threads()}, CPUs {os.cpu_count()}, platform {os.environ['QT_QPA_PLATFORM']}")

    probe = StallProbe()
    actions = window.action_bar
    results = [("idle (sampler only)", idle_phase(app, probe, 2.0), 2.0)]

    def cast(dtype: str):
        def start() -> bool:
            actions.set_target_device("cpu")
            actions.set_dtype(dtype)
            return window.move_to_target()

        return start

    for name, start in (
        ("cast to bfloat16", cast("bfloat16")),
        ("cast back to float32", cast("float32")),
    ):
        gaps, seconds = run_phase(app, window, probe, start)
        results.append((name, gaps, seconds))
        last = window.historyView.history.entries()[-1]
        assert last.ok and dtype_of(window) == name.split()[-1], (last.call, last.result)
    actions.runsSpin.setValue(args.runs)
    gaps, seconds = run_phase(app, window, probe, window.run_benchmark)
    results.append((f"benchmark forward x{args.runs}", gaps, seconds))
    last = window.historyView.history.entries()[-1]
    assert last.ok, last.result

    print()
    for name, gaps, seconds in results:
        print(describe(name, gaps, seconds))
    busy = np.concatenate([g for _, g, _ in results[1:]])
    print()
    print(f"while working: longest stall {busy.max():.1f} ms (target <= 50), p99 {np.percentile(busy, 99):.1f} ms (target <= 16)")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
