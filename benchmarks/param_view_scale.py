"""Time to show a model of 1k, 10k and 100k tensors in the parameter view (offscreen).

The placements are synthetic (``TensorRow`` values shaped like a transformer's: 10 tensors
per block, blocks nested two deep) so the figure is the view's alone, not the snapshot's
(that runs on the worker thread). Measured on the GUI thread, from handing the placement
to the panel to the view painted (``viewport().repaint()`` paints synchronously):

  show     a new model: build the node tree, reset the item model, expand, paint;
  update   the same tensors after a move (new devices/dtypes): rows swapped in place, paint;
  filter   typing "down bias" in the filter field (every row tested, matches expanded), paint;
  sort     a click on the Size header (largest first), paint;
  expanded the same update with every module expanded (the worst case: the view lays out
           every row again, as it must, since every row changed).

Target (docs/performance.md): 10,000 tensors <= 200 ms, linear in tensors.

    python benchmarks/param_view_scale.py [--sizes 1000,10000,100000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import torch  # noqa: E402,F401  (before Qt, as the app does)

from inspector.core.placement.tensor_rows import Placement, TensorRow, Totals  # noqa: E402

_BLOCK = (
    ("attn.q.weight", (512, 512)), ("attn.k.weight", (512, 512)), ("attn.v.weight", (512, 512)),
    ("attn.o.weight", (512, 512)), ("mlp.up.weight", (2048, 512)), ("mlp.up.bias", (2048,)),
    ("mlp.down.weight", (512, 2048)), ("mlp.down.bias", (512,)), ("norm.weight", (512,)), ("norm.bias", (512,)),
)  # fmt: skip


def synthetic_placement(count: int, device: str = "cpu", dtype: str = "float32") -> Placement:
    rows = []
    for i in range(count):
        block, (leaf, shape) = i // len(_BLOCK), _BLOCK[i % len(_BLOCK)]
        name = f"stages.{block // 100}.blocks.{block % 100}.{leaf}"
        elements = 1
        for n in shape:
            elements *= n
        rows.append(
            TensorRow(
                name=name, kind="parameter", module=name.rpartition(".")[0], shape=shape, dtype=dtype,
                device=device, bytes=elements * 4, elements=elements, requires_grad=True,
            )
        )  # fmt: skip
    total = sum(r.bytes for r in rows)
    totals = Totals(count, sum(r.elements for r in rows), total, {device: total}, {dtype: total})
    return Placement(tuple(rows), totals, ())


def shown_ms(app, panel, placement: Placement) -> float:
    start = time.perf_counter()
    panel.set_placement(placement)
    panel.view.viewport().repaint()
    elapsed = time.perf_counter() - start
    app.processEvents()
    return elapsed * 1e3


def _timed(app, panel, action) -> float:
    start = time.perf_counter()
    action()
    panel.view.viewport().repaint()
    elapsed = time.perf_counter() - start
    app.processEvents()
    return elapsed * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from inspector.gui.shell.app import ensure_application, qt_binding_problem

    problem = qt_binding_problem()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    app = ensure_application()
    from PySide6.QtCore import Qt

    from inspector.gui.features.model.panel import ParametersPanel

    print(f"{'tensors':>8}  {'show ms':>9}  {'µs/tensor':>9}  {'update ms':>9}  {'µs/tensor':>9}  {'filter ms':>9}"
          f"  {'sort ms':>9}  {'expanded ms':>11}")
    for count in (int(s) for s in args.sizes.split(",")):
        first = synthetic_placement(count)
        moved = synthetic_placement(count, device="cuda:0", dtype="bfloat16")
        show, update, filtered, sorted_, expanded = [], [], [], [], []
        for _ in range(args.repeat):
            panel = ParametersPanel()
            panel.resize(900, 600)
            panel.show()
            app.processEvents()
            show.append(shown_ms(app, panel, first))
            update.append(shown_ms(app, panel, moved))
            filtered.append(_timed(app, panel, lambda: panel.filterEdit.setText("down bias")))
            panel.filterEdit.clear()
            sorted_.append(_timed(app, panel, lambda: panel.view.sortByColumn(5, Qt.SortOrder.DescendingOrder)))
            panel.view.expandAll()
            app.processEvents()
            expanded.append(shown_ms(app, panel, first))
            panel.close()
            panel.deleteLater()
            app.processEvents()
        s, u = statistics.median(show), statistics.median(update)
        f, o, x = statistics.median(filtered), statistics.median(sorted_), statistics.median(expanded)
        print(f"{count:>8}  {s:9.1f}  {s * 1e3 / count:9.2f}  {u:9.1f}  {u * 1e3 / count:9.2f}  {f:9.1f}  {o:9.1f}"
              f"  {x:11.1f}")
    print("target: 10,000 tensors <= 200 ms, linear in tensors (µs/tensor flat)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
