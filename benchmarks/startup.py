"""Time to the first painted window, against ``import torch, PySide6.QtWidgets`` + QApplication.

Each measurement runs in a fresh Python process (so nothing is imported yet) and reports the
seconds from the start of its code to its end point:

  baseline  import torch, PySide6.QtWidgets; QApplication([])
  window    the same imports, then ``create_window()`` (pyqtgraph, the panels, both worker
            threads), ``show()``, and the window's first paint event.

The two alternate, several times; medians are printed. Target (DESIGN.md): the window
within 0.5 s of the baseline. The example model loads in the worker after the window is
shown, so it is not part of this figure (its load is printed separately for reference).

    python benchmarks/startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

BASELINE = textwrap.dedent(
    """
    import time
    t0 = time.perf_counter()
    import torch, PySide6.QtWidgets
    app = PySide6.QtWidgets.QApplication([])
    print(time.perf_counter() - t0)
    """
)

WINDOW = textwrap.dedent(
    """
    import time
    t0 = time.perf_counter()
    import torch, PySide6.QtWidgets
    from PySide6.QtCore import QEvent, QObject
    from inspector.gui.app import create_window, ensure_application

    app = ensure_application()
    window = create_window()
    times = {}

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and "shown" not in times:
                times["shown"] = time.perf_counter() - t0
            return False

    probe = FirstPaint()
    window.installEventFilter(probe)
    window.show()
    while "shown" not in times:
        app.processEvents()
    while window.model_state is None:
        app.processEvents()
        time.sleep(0.001)
    times["model"] = time.perf_counter() - t0
    window.close()
    print(times["shown"], times["model"])
    """
)


def run(code: str) -> list[float]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"a measurement failed:\n{done.stderr}")
    return [float(x) for x in done.stdout.split()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from inspector.gui.app import qt_binding_problem

    problem = qt_binding_problem()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1

    run(BASELINE)  # warm the disk cache once, so neither side pays it alone
    baseline, shown, model = [], [], []
    for _ in range(args.runs):
        baseline += run(BASELINE)
        window_times = run(WINDOW)
        shown.append(window_times[0])
        model.append(window_times[1])
    b, s, m = (statistics.median(x) for x in (baseline, shown, model))
    print(f"runs: {args.runs} of each, alternating, platform {os.environ.get('QT_QPA_PLATFORM', 'offscreen')}")
    print(f"baseline (import torch, PySide6.QtWidgets + QApplication): median {b:.3f} s  (min {min(baseline):.3f})")
    print(f"window shown (first paint):                               median {s:.3f} s  (min {min(shown):.3f})")
    print(f"window over baseline:                                     {s - b:+.3f} s  (target <= 0.5 s)")
    print(f"example model loaded and shown (for reference):           median {m:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
