"""Time to the first painted window and to a useful one, against the floors every Qt app of
this kind pays.

Each measurement runs in a fresh Python process (so nothing is imported yet) and reports the
seconds from the start of its code to its end point:

  Qt floor    import PySide6.QtWidgets, pyqtgraph; QApplication; an empty QMainWindow shown
              and painted once. What any PySide6 + pyqtgraph window pays before it paints.
  full floor  the same with ``import torch`` first: what a window that needs torch pays.
  paint       the app as it starts: ``ensure_application()``, ``create_window()``, ``show()``,
              the window's first paint. On Linux torch is imported after this paint, off the
              GUI thread (``gui/shell/torch_loader.py``).
  ready       the example's tensors listed in the parameter tree (torch imported, the session
              built, the model loaded in the worker).

The three processes alternate, ``--runs`` times (10 by default); medians are printed, and the
median of the differences between each app run and the floor runs just before it ("paired").
Targets (issue 25): paint <= Qt floor + 0.3 s, ready <= full floor + 0.5 s. The app's runs
also print the longest event-loop stall between its first paint and ready (a 2 ms timer), the
import of torch happening meanwhile. Share the machine with nothing heavy while measuring.

Python's compiled bytecode changes the figures by a third of a second: ``--bytecode``
picks the case, and the output names it.

  compiled  the app's modules compiled first (``compileall``), as a pip-installed app has
            them; the processes may write bytecode.
  source    no bytecode of the app's own modules (``inspector/**/__pycache__`` removed before
            each run, PYTHONDONTWRITEBYTECODE=1): every run compiles them, as a checkout run
            on a machine that sets PYTHONDONTWRITEBYTECODE does. torch, PySide6 and
            pyqtgraph keep their installed bytecode in both cases (the floors pay for it).
  both      one after the other (default: compiled).

    python benchmarks/startup.py [--runs 10] [--bytecode compiled|source|both]
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

def _floor(imports: str) -> str:
    return textwrap.dedent(
        f"""
        import time
        t0 = time.perf_counter()
        import {imports}
        app = PySide6.QtWidgets.QApplication([])
        times = {{}}
        """
    ) + _FIRST_PAINT + textwrap.dedent(
        """
        window = PySide6.QtWidgets.QMainWindow()
        window.resize(1240, 760)
        probe = FirstPaint("floor")
        window.installEventFilter(probe)
        window.show()
        while "floor" not in times:
            app.processEvents()
        print(times["floor"])
        """
    )


QT_FLOOR = _floor("PySide6.QtWidgets, pyqtgraph")
FULL_FLOOR = _floor("torch, PySide6.QtWidgets, pyqtgraph")

APP = textwrap.dedent(
    """
    import time
    t0 = time.perf_counter()
    from inspector.gui.shell.app import create_window, ensure_application

    app = ensure_application()
    times = {}
    """
) + _FIRST_PAINT + textwrap.dedent(
    """
    from PySide6.QtCore import Qt, QTimer
    window = create_window()
    probe = FirstPaint("shown")
    window.installEventFilter(probe)
    window.show()
    while "shown" not in times:
        app.processEvents()
    stamps = []
    tick = QTimer(); tick.setTimerType(Qt.TimerType.PreciseTimer); tick.setInterval(2)
    tick.timeout.connect(lambda: stamps.append(time.perf_counter())); tick.start()
    tree = window.parameters.model
    while tree.tensor_count() == 0:
        app.processEvents()
        time.sleep(0.001)
    window.parameters.view.viewport().repaint()
    times["ready"] = time.perf_counter() - t0
    tick.stop()
    stall = max((b - a for a, b in zip(stamps, stamps[1:])), default=0.0)
    while window.busy_task is not None:  # (the load's end; its optimizer may still be made)
        app.processEvents()
        time.sleep(0.001)
    window.close()
    print(times["shown"], times["ready"], stall)
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
    """Alternate ``runs`` of each process in one bytecode case; print the medians."""
    if bytecode == "compiled":
        compileall.compile_dir(REPO / "inspector", quiet=1)
    run(FULL_FLOOR, bytecode)  # warm the disk cache once, so no side pays it alone
    qt, full, shown, ready, stalls = [], [], [], [], []
    for _ in range(runs):
        qt += run(QT_FLOOR, bytecode)
        full += run(FULL_FLOOR, bytecode)
        paint, done, stall = run(APP, bytecode)
        shown.append(paint)
        ready.append(done)
        stalls.append(stall)
    q, f, s, r = (statistics.median(x) for x in (qt, full, shown, ready))
    where = {
        "compiled": "the app's modules compiled beforehand, as installed",
        "source": "no bytecode of the app's modules: each run compiles them",
    }[bytecode]
    print(f"bytecode: {bytecode} ({where}); runs: {runs} of each, alternating, "
          f"platform {os.environ.get('QT_QPA_PLATFORM', 'offscreen')}")
    # Each app run is paired with the floor runs just before it (the same load on a shared
    # machine): the median of those differences moves less than a difference of medians.
    paired_shown = statistics.median(b - a for a, b in zip(qt, shown))
    paired_ready = statistics.median(b - a for a, b in zip(full, ready))
    print(f"  Qt floor (PySide6 + pyqtgraph, QApplication, empty window painted):  median {q:.3f} s  (min {min(qt):.3f})")
    print(f"  full floor (the same with torch imported first):                    median {f:.3f} s  (min {min(full):.3f})")
    print(f"  first paint of the app's window:  median {s:.3f} s  (min {min(shown):.3f})  "
          f"{s - q:+.3f} s over the Qt floor; paired {paired_shown:+.3f} s (target <= +0.3 s)")
    print(f"  ready (example's tensors listed): median {r:.3f} s  (min {min(ready):.3f})  "
          f"{r - f:+.3f} s over the full floor; paired {paired_ready:+.3f} s (target <= +0.5 s)")
    print(f"  longest event-loop stall from first paint to ready: median {statistics.median(stalls) * 1e3:.0f} ms, "
          f"max {max(stalls) * 1e3:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--bytecode", choices=("compiled", "source", "both"), default="compiled",
                        help="whether the app's modules are compiled to bytecode beforehand (see above)")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from inspector.gui.shell.app import qt_binding_problem

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
