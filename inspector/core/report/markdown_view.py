"""The Markdown view of a timing report: a block to paste into a bug report or an issue.

Every text from the report is escaped for Markdown, as the HTML view escapes it for HTML: a
report file is read as an attacker might have written it, and a class named ``<script>`` or
``[x](javascript:…)`` must reach the page as those characters, never as an element or a link.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from inspector.core.report import modules as report_modules
from inspector.core.report import view_rows

#: Characters that start Markdown (or its HTML) anywhere in a line: code spans, emphasis,
#: links and images, raw HTML and entities, strikethrough, table cells. Escaped with a
#: backslash, which CommonMark allows before any ASCII punctuation.
_INLINE = re.compile(r"([\\`*_\[\]<>&|~])")
#: What starts a block only at the start of a line (a note's list item): a heading, a
#: nested list or an ordered list's "1." or "1)".
_LEADING = re.compile(r"^(?:(#)|([+-])(?=\s|$)|(\d{1,9})([.)])(?=\s|$))")


def _md_cell(text: Any) -> str:
    """``text`` as literal characters in a Markdown line or table cell: one line (control
    characters escaped, capped at ``view_rows.CELL_LIMIT``), every Markdown character
    backslash-escaped."""
    escaped = _INLINE.sub(r"\\\1", view_rows.cell_text(text))
    return _LEADING.sub(_escape_leading, escaped)


def _escape_leading(match: re.Match[str]) -> str:
    mark = match.group(1) or match.group(2)
    return f"\\{mark}" if mark else f"{match.group(3)}\\{match.group(4)}"


def _md_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return lines


def render_markdown(report: dict[str, Any]) -> str:
    """A block to paste into a bug report or an issue."""
    lines = [
        "### torch-device-inspector timing report",
        "",
        f"Created {_md_cell(report.get('created', '—'))}",
        "",
        "**Environment**",
        "",
    ]
    environment = view_rows.environment_rows(report.get("environment", {}))
    lines += [f"- {name}: {_md_cell(value)}" for name, value in environment]
    lines += ["", "**Model**", ""]
    lines += [f"- {name}: {_md_cell(value)}" for name, value in view_rows.model_rows(report.get("model", {}))]
    lines += ["", "**Moves**", ""]
    moves = report.get("moves") or []
    lines += _md_table(view_rows.MOVE_HEADERS, map(view_rows.move_cells, moves)) if moves else ["No moves."]
    lines += ["", "**Latency**", ""]
    latency = report.get("latency") or []
    if latency:
        lines += _md_table(view_rows.LATENCY_HEADERS, map(view_rows.latency_cells, latency))
    else:
        lines += ["No latency measured."]
    notes = view_rows.latency_notes(latency)
    if notes:
        lines += [""] + [f"- {_md_cell(n)}" for n in notes]
    if report.get("ranks"):
        lines += ["", "**Ranks** (torchrun; the tables above are rank 0's)", ""]
        lines += _md_table(view_rows.RANK_HEADERS, map(view_rows.rank_cells, report["ranks"]))
    lines += _markdown_extras(report)
    return "\n".join(lines) + "\n"


def _markdown_extras(report: dict[str, Any]) -> list[str]:
    """The per-module and fit sections, when the report has them."""
    lines: list[str] = []
    top = report_modules.top_modules(report)
    if top:
        lines += ["", f"**Top modules** (by self time; {len(report.get('modules') or ())} in the JSON)", ""]
        warnings = report_modules.attribution_warnings(report)  # said next to the figures they are about
        lines += [f"> ⚠ per-module figures not reliable: {_md_cell(t)}" for t in warnings] + ([""] if warnings else [])
        lines += _md_table(report_modules.MODULE_HEADERS, map(report_modules.module_cells, top))
        lines += [""] + [f"- {_md_cell(t)}" for t in report_modules.attribution_lines(report)]
    fits = [f for f in report.get("fit") or () if isinstance(f, dict)]
    if fits:
        lines += ["", "**Will it fit?**", ""]
        lines += _md_table(report_modules.FIT_HEADERS, map(report_modules.fit_cells, fits))
    return lines
