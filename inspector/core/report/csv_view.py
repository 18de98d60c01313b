"""The CSV view of a timing report: tidy rows for a spreadsheet (one per latency sample, per
move, per memory reading), each cell safe from spreadsheet formulas."""

from __future__ import annotations

import csv
import io
from typing import Any, Iterable

from inspector.core.measure.memory_log import report_point
from inspector.core.report.view_rows import cell_text, error_kind, error_message, latency_spread, shape_text

_CSV_COLUMNS = (
    "section", "phase", "device", "dtype", "mode", "input_shape", "index", "ms",
    "call", "method", "source", "target", "seconds", "bytes", "gbps", "ok", "error", "error_kind",
    "t", "allocated", "reserved", "process_rss", "used", "total", "other_processes",
    "median_ms", "iqr_ms", "median_ci_low_ms", "median_ci_high_ms", "noise",
)


def _csv_rows(report: dict[str, Any]) -> Iterable[dict[str, Any]]:
    for entry in report.get("latency") or []:
        common = {
            "section": "latency",
            "device": entry.get("device"),
            "dtype": entry.get("dtype"),
            "mode": entry.get("mode", "forward"),
            "input_shape": shape_text(entry.get("input_shape")),
        }
        for phase, key in (("warmup", "warmup_samples_ms"), ("timed", "samples_ms")):
            for i, ms in enumerate(entry.get(key) or ()):
                yield {**common, "phase": phase, "index": i, "ms": ms}
        # One row with the run's median and how far to trust it.
        iqr, interval, noise = latency_spread(entry)
        yield {**common, "phase": "summary", "median_ms": entry.get("median_ms"), "iqr_ms": iqr,
               "median_ci_low_ms": interval[0] if interval else None,
               "median_ci_high_ms": interval[1] if interval else None, "noise": noise}  # fmt: skip
    for entry in report.get("attribution") or []:
        # Why a device's per-module figures are rough, in words (the JSON has the figures).
        warnings = entry.get("warnings") if isinstance(entry, dict) else None
        if isinstance(warnings, list) and warnings:
            yield {"section": "attribution", "phase": "summary", "device": entry.get("device"), "dtype": entry.get("dtype"),
                   "noise": "; ".join(str(w) for w in warnings)}  # fmt: skip
    for move in report.get("moves") or []:
        row = {"section": "move", **{k: move.get(k) for k in _CSV_COLUMNS if k in move}}
        error = move.get("error")
        if error:
            row["error"], row["error_kind"] = error_message(error), error_kind(error) or None
        yield row
    for device, points in (report.get("memory") or {}).items():
        for i, point in enumerate(points):
            values = report_point(str(device), point)
            yield {"section": "memory", "device": device, "index": i, **values}


def _csv_cell(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    # One line, control characters escaped and capped, as in every text view.
    value = cell_text(value)
    # A text cell starting with = + - @ is run as a formula by spreadsheets: quote it.
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value


def render_csv(report: dict[str, Any]) -> str:
    """Tidy rows: one per latency sample, per move, per memory point; ``section`` tells which."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=_CSV_COLUMNS, restval="", extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in _csv_rows(report):
        writer.writerow({k: _csv_cell(v) for k, v in row.items() if v is not None})
    return out.getvalue()
