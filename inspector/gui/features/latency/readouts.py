"""The latency plot's hover readouts, in words: the sample nearest the pointer ("sample 37 ·
cpu · float32: 41.2 µs") and a summary bar's figures with its throughput.

Without widgets: they read the runs (``Series``), the unit the axis shows and which runs are
on screen, so ``LatencyPlot`` (``latency.py``) only maps the pointer to view coordinates.
Their texts are said in the window's language and keep the plot's context,
``translate("LatencyPlot", ...)``, where the catalogue has them."""

from __future__ import annotations

from typing import Any, Collection, Mapping, Sequence

import numpy as np

from inspector.gui.common.i18n import fill, translate
from inspector.gui.features.latency.readable import format_in_unit
from inspector.gui.features.latency.series import Series, SeriesKey, series_label
from inspector.gui.features.latency.summary_bars import throughput_text
from inspector.gui.common.plot_words import LIVE
from inspector.gui.common.vocabulary_words import mode_text


def sample_readout(series: Mapping[SeriesKey, Series], shown: Collection[SeriesKey], x: float, y: float,
                   unit: tuple[str, float], *, log_scale: bool) -> str:  # fmt: skip
    """The sample nearest view coordinates (x, y) at index ``round(x)`` among the ``shown``
    runs, as "sample 37 · cpu · float32: 41.2 µs" (a warm-up call at a negative index); ""
    when none is there. ``y`` is in ``unit``, or its log10 on a log axis."""
    index = int(round(x))
    if log_scale:
        y_ms = 10.0 ** y * unit[1] if y < 300 else float("inf")
    else:
        y_ms = y * unit[1]
    best: tuple[float, str] | None = None
    for key, run in series.items():
        if key not in shown:
            continue
        if index >= 0:
            values = run.samples.values()
            value = float(values[index]) if index < len(values) else float("nan")
        else:
            k = len(run.warmup_ms)
            value = float(run.warmup_ms[index + k]) if -index <= k else float("nan")
        if not np.isfinite(value):
            continue
        distance = abs(np.log(value / y_ms)) if value > 0 and y_ms > 0 else abs(value - y_ms)
        said = format_in_unit(value, unit)
        if index >= 0:
            text = fill(translate("LatencyPlot", "sample %1 · %2: %3"), index, series_label(key, mode_text), said)
        else:
            text = fill(translate("LatencyPlot", "warm-up call %1 of %2 · %3: %4"), index + k + 1, k,
                        series_label(key, mode_text), said)  # fmt: skip
        if best is None or distance < best[0]:
            best = (distance, text)
    return best[1] if best is not None else ""


def bar_readout(rows: Sequence[Mapping[str, Any]], unit: tuple[str, float], x: float) -> str:
    """The summary bar at ``x`` (``rows`` as the summary drew them, in ``unit``): its figures
    and throughput; "" between bars."""
    index = int(round(x))
    if not 0 <= index < len(rows) or abs(x - index) > 0.4:
        return ""
    row = rows[index]
    median, p5, p95 = (format_in_unit(row[f"{name}_ms"], unit) for name in ("median", "p5", "p95"))
    text = fill(translate("LatencyPlot", "%1: median %2, p5 %3, p95 %4"), row["label"], median, p5, p95)
    rate = throughput_text(row["median_ms"], str(row.get("mode", "")), row.get("batch"), LIVE)
    return text + (f" · {rate}" if rate else "")
