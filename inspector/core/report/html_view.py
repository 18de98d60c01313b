"""The HTML view of a timing report: one self-contained page (no external files or network),
its tables and the plot images the Qt side made (``inspector.gui.report_images``) embedded.

Every text from the report is escaped (``_text``): a report file is read as an attacker might
have written it, so markup stays characters, and control characters and bidi overrides are
shown as escapes (``\\u202e``), each text capped (``view_rows.cell_text``).
"""

from __future__ import annotations

import base64
import html
import importlib.util
from typing import Any, Iterable, Mapping, Sequence

from inspector.core.measure.memory_log import REPORT_FIELDS, report_point
from inspector.core.report import modules as report_modules
from inspector.core.report import view_rows
from inspector.core.units import format_bytes

# The CPU's RSS has a column of its own: it is the process's resident memory, not allocated bytes.
_MEMORY_HEADERS = ("Device", "Readings", "Peak allocated", "Peak reserved", "Peak process RSS", "Peak used", "Total",
                   "Peak other processes")
#: Columns of figures: right-aligned in the HTML page so digits line up; text stays left.
_NUMERIC_COLUMNS = frozenset({
    "Time", "Bytes", "GB/s",
    "First call", "Median", "Median 95 % CI", "IQR", "Mean", "p5", "p95", "Min", "Max", "Std", "Samples",
    "Readings", "Peak allocated", "Peak reserved", "Peak process RSS", "Peak used", "Total", "Peak other processes",
}) | report_modules.NUMERIC  # fmt: skip

_HTML_STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1100px;
       padding: 0 1em; color: #1d2330; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #d8dce4; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #d8dce4; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f1f3f7; } .num { text-align: right; font-variant-numeric: tabular-nums; }
img { max-width: 100%; border: 1px solid #d8dce4; margin: .5em 0; }
.muted { color: #5c6475; }
"""


def _text(value: Any) -> str:
    """A text from the report as HTML: one capped line (``view_rows.cell_text``), escaped."""
    return html.escape(view_rows.cell_text(value))


def _html_kv(rows: Iterable[tuple[str, str]]) -> str:
    body = "".join(f"<tr><th>{_text(k)}</th><td>{_text(v)}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def _html_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A table whose figure columns (``_NUMERIC_COLUMNS``, header and cells) are right-aligned."""
    numeric = [h in _NUMERIC_COLUMNS for h in headers]
    head = "".join(f'<th{" class=num" if n else ""}>{html.escape(h)}</th>' for h, n in zip(headers, numeric))
    body = "".join(
        "<tr>"
        + "".join(f'<td{" class=num" if n else ""}>{_text(c)}</td>' for c, n in zip(row, numeric))
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _memory_summary_rows(memory: dict[str, Any]) -> list[tuple[str, ...]]:
    rows = []
    for device, points in memory.items():
        labelled = [report_point(str(device), p) for p in points]

        def peak(field: str) -> str:
            values = [float(v) for p in labelled if isinstance(v := p.get(field), (int, float))]
            return format_bytes(max(values)) if values else "—"

        rows.append((str(device), str(len(points)), *(peak(f) for f in REPORT_FIELDS)))
    return rows


def _pyside6_installed() -> bool:
    try:  # looks for the package without importing it: core never imports Qt
        return importlib.util.find_spec("PySide6") is not None
    except (ImportError, ValueError):
        return False


def _plots_html(images: Mapping[str, bytes] | None) -> str:
    if not images:
        if not _pyside6_installed():
            why = "The plots were left out because PySide6 is not installed."
        else:
            why = "The plots were left out of this report."
        return f'<p class="muted">{html.escape(why)}</p>'
    parts = []
    for title, png in images.items():
        data = base64.b64encode(bytes(png)).decode("ascii")
        parts.append(
            f"<h3>{html.escape(str(title))}</h3>"
            f'<img alt="{html.escape(str(title), quote=True)}" src="data:image/png;base64,{data}">'
        )
    return "".join(parts)


def _html_extras(report: dict[str, Any]) -> list[str]:
    parts: list[str] = []
    top = report_modules.top_modules(report)
    if top:
        parts += [
            "<h2>Top modules</h2>",
            f"<p class=muted>By self time; all {len(report.get('modules') or ())} modules are in the JSON report.</p>",
            "".join(f"<p><b>⚠ Per-module figures not reliable:</b> {_text(t)}</p>"
                    for t in report_modules.attribution_warnings(report)),  # fmt: skip
            _html_table(report_modules.MODULE_HEADERS, map(report_modules.module_cells, top)),
            "".join(f"<p class=muted>{_text(t)}</p>" for t in report_modules.attribution_lines(report)),
        ]
    fits = [f for f in report.get("fit") or () if isinstance(f, dict)]
    if fits:
        parts += ["<h2>Will it fit?</h2>", _html_table(report_modules.FIT_HEADERS, map(report_modules.fit_cells, fits))]
    return parts


def render_html(report: dict[str, Any], images: Mapping[str, bytes] | None = None) -> str:
    """One self-contained page (no external files or network): tables and embedded PNG plots."""
    model = report.get("model", {})
    moves = report.get("moves") or []
    latency = report.get("latency") or []
    memory = report.get("memory") or {}
    title = f"Timing report — {view_rows.cell_text(model.get('spec', 'model'))}"
    notes = view_rows.latency_notes(latency)
    ranks = report.get("ranks")
    sections = [
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="muted">Created {_text(report.get("created", "—"))} by torch-device-inspector '
        f'{_text(report.get("tool", {}).get("version", ""))}, report schema '
        f'{_text(report.get("schema_version"))}.</p>',
        "<h2>Environment</h2>",
        _html_kv(view_rows.environment_rows(report.get("environment", {}))),
        "<h2>Model</h2>",
        _html_kv(view_rows.model_rows(model)),
        "<h2>Moves</h2>",
        _html_table(view_rows.MOVE_HEADERS, map(view_rows.move_cells, moves)) if moves else "<p>No moves.</p>",
        "<h2>Latency</h2>",
        (_html_table(view_rows.LATENCY_HEADERS, map(view_rows.latency_cells, latency)) if latency
         else "<p>No latency measured.</p>"),
        "".join(f"<p class=muted>{_text(n)}</p>" for n in notes),
        *_html_extras(report),
        *(["<h2>Ranks</h2>", "<p class=muted>torchrun; the tables above are rank 0's.</p>",
            _html_table(view_rows.RANK_HEADERS, map(view_rows.rank_cells, ranks))] if ranks else []),
        "<h2>Memory</h2>",
        _html_table(_MEMORY_HEADERS, _memory_summary_rows(memory)) if memory else "<p>No memory readings.</p>",
        "<h2>Plots</h2>",
        _plots_html(images),
    ]
    return (
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{_HTML_STYLE}</style></head><body>\n"
        + "\n".join(sections)
        + "\n</body></html>\n"
    )
