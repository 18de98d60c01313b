"""The Markdown view of a timing report: a block to paste into a bug report or an issue."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from inspector.core.report import modules as report_modules
from inspector.core.report import view_rows


def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _md_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return lines


def render_markdown(report: dict[str, Any]) -> str:
    """A block to paste into a bug report or an issue."""
    lines = [
        "### torch-device-inspector timing report",
        "",
        f"Created {report.get('created', '—')}",
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
        lines += _md_table(report_modules.MODULE_HEADERS, map(report_modules.module_cells, top))
        lines += [""] + [f"- {_md_cell(t)}" for t in report_modules.attribution_lines(report)]
    fits = [f for f in report.get("fit") or () if isinstance(f, dict)]
    if fits:
        lines += ["", "**Will it fit?**", ""]
        lines += _md_table(report_modules.FIT_HEADERS, map(report_modules.fit_cells, fits))
    return lines
