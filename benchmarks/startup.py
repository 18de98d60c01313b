"""Time to the first painted window and to a useful one, against the floor every Qt app of
this kind pays.

Each measurement runs in a fresh Python process (so nothing is imported yet) and reports the
seconds from the start of its code to its end point:

  floor     import torch, PySide6.QtWidgets, pyqtgraph; QApplication; an empty QMainWindow
            shown and painted once.
  shown     the same imports, then ``create_window()`` (the panels, both worker threads),
            ``show()``, and the window's first paint event.
  ready     the example's tensors listed in the parameter tree (the model loads in the
            worker after ``show()``; its optimizer is made after its tensors are listed).

The two processes alternate, several times; medians are printed, and the median of the
differences between each window run and the floor run just before it ("paired"). Targets (DESIGN.md): the
window shown, and ready, each within 0.5 s of the floor. Share the machine with nothing
heavy while measuring: the figures are seconds of one process's wall clock.

Python's compiled bytecode changes the figures by a third of a second: ``--bytecode``
picks the case, and the output names it.

  compiled  the app's modules compiled first (``compileall``), as a pip-installed app has
            them; the processes may write bytecode.
  source    no bytecode of the app's own modules (``inspector/**/__pycache__`` removed before
            each run, PYTHONDONTWRITEBYTECODE=1): every run compiles them, as a checkout run
            on a machine that sets PYTHONDONTWRITEBYTECODE does. torch, PySide6 and
            pyqtgraph keep their installed bytecode in both cases (the floor pays for it).
  both      (default) one after the other.

    python benchmarks/startup.py [--runs 5] [--bytecode compiled|source|both]
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: Counts the first paint of a widget into ``times[key]`` (seconds since ``t0``).
_FIRST_PAINT = """
from PySide6.QtCore import QEvent, QObject

class FirstPaint(QObject):
    def __init__(self, key):
        super().__init__()
        self.key = key

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and self.key not in times:
            times[self.key] = time.perf_counter() - t0
        return False
"""

FLOOR = textwrap.dedent(
    """
    import time
    t0 = time.perf_counter()
    import torch, PySide6.QtWidgets, pyqtgraph
    app = PySide6.QtWidgets.QApplication([])
    times = {}
    """
) + _FIRST_PAINT + textwrap.dedent(
    """
    window = PySide6.QtWidgets.QMainWindow()
    window.resize(1280, 800)
    probe = FirstPaint("floor")
    window.installEventFilter(probe)
    window.show()
    while "floor" not in times:
        app.processEvents()
    print(times["floor"])
    """
)

WINDOW = textwrap.dedent(
    """
    import time
    t0 = time.perf_counter()
    import torch, PySide6.QtWidgets, pyqtgraph
    from inspector.gui.app import create_window, ensure_application

    app = ensure_application()
    times = {}
    """
) + _FIRST_PAINT + textwrap.dedent(
    """
    window = create_window()
    probe = FirstPaint("shown")
    window.installEventFilter(probe)
    window.show()
    while "shown" not in times:
        app.processEvents()
    tree = window.parameters.model
    while tree.tensor_count() == 0:
        app.processEvents()
        time.sleep(0.001)
    window.parameters.view.viewport().repaint()
    times["ready"] = time.perf_counter() - t0
    while window.busy_task is not None:  # (the load's end; its optimizer may still be made)
        app.processEvents()
        time.sleep(0.001)
    window.close()
    print(times["shown"], times["ready"])
    """
)


def run(code: str, bytecode: str) -> list[float]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    if bytecode == "source":
        for cache in (REPO / "inspector").rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"a measurement failed:\n{done.stderr}")
    return [float(x) for x in done.stdout.split()]


def measure(bytecode: str, runs: int) -> None:
    """Alternate ``runs`` floor and window processes in one bytecode case; print the medians."""
    if bytecode == "compiled":
        compileall.compile_dir(REPO / "inspector", quiet=1)
    run(FLOOR, bytecode)  # warm the disk cache once, so neither side pays it alone
    floor, shown, ready = [], [], []
    for _ in range(runs):
        floor += run(FLOOR, bytecode)
        window_times = run(WINDOW, bytecode)
        shown.append(window_times[0])
        ready.append(window_times[1])
    f, s, r = (statistics.median(x) for x in (floor, shown, ready))
    where = {
        "compiled": "the app's modules compiled beforehand, as installed",
        "source": "no bytecode of the app's modules: each run compiles them",
    }[bytecode]
    print(f"bytecode: {bytecode} ({where}); runs: {runs} of each, alternating, "
          f"platform {os.environ.get('QT_QPA_PLATFORM', 'offscreen')}")
    # Each window run is paired with the floor run just before it (the same load on a shared
    # machine): the median of those differences moves less than a difference of medians.
    paired_shown = statistics.median(b - a for a, b in zip(floor, shown))
    paired_ready = statistics.median(b - a for a, b in zip(floor, ready))
    print(f"  floor (imports + QApplication + empty window shown):  median {f:.3f} s  (min {min(floor):.3f})")
    print(f"  window shown (first paint):                           median {s:.3f} s  (min {min(shown):.3f})  "
          f"{s - f:+.3f} s over the floor; paired {paired_shown:+.3f} s (target <= 0.5 s)")
    print(f"  ready (example's tensors listed in the tree):         median {r:.3f} s  (min {min(ready):.3f})  "
          f"{r - f:+.3f} s over the floor; paired {paired_ready:+.3f} s (target <= 0.5 s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bytecode", choices=("compiled", "source", "both"), default="both",
                        help="whether the app's modules are compiled to bytecode beforehand (see above)")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from inspector.gui.app import qt_binding_problem

    problem = qt_binding_problem()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1

    cases = ("compiled", "source") if args.bytecode == "both" else (args.bytecode,)
    for case in cases:
        measure(case, args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
