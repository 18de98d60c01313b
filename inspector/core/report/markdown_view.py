"""The Markdown view of a timing report: a block to paste into a bug report or an issue.

Every text from the report is escaped for Markdown, as the HTML view escapes it for HTML: a
report file is read as an attacker might have written it, and a class named ``<script>`` or
``[x](javascript:…)`` must reach the page as those characters, never as an element or a link.

It is written in the report's language (``language``: ``"en"``, the default, or one of
``messages.catalogue.available_languages()``): headings, row names, headers and sentences
through the catalogue; numbers, units, code, device ids, dtypes and the report's own data as
they are.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from inspector.core.messages.catalogue import ENGLISH, Catalogue, catalogue
from inspector.core.report import modules as report_modules
from inspector.core.report import view_rows
from inspector.core.report.schema import TimingReport

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


def _md_table(headers: Sequence[str], rows: Iterable[Sequence[str]], say: Catalogue) -> list[str]:
    shown = [_md_cell(h) for h in view_rows.headers(headers, say)]
    lines = ["| " + " | ".join(shown) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return lines


def render_markdown(report: TimingReport, language: str = ENGLISH) -> str:
    """A block to paste into a bug report or an issue, in ``language``."""
    say = catalogue(language)
    typed = report
    lines = [
        f"### {say.word('torch-device-inspector timing report')}",
        "",
        _md_cell(say.word("Created {created}", created=view_rows.cell_text(report.data.get("created", "—")))),
        "",
        f"**{say.word('Environment')}**",
        "",
    ]
    environment = view_rows.environment_rows(typed.environment, say)
    lines += [f"- {_md_cell(name)}: {_md_cell(value)}" for name, value in environment]
    lines += ["", f"**{say.word('Model')}**", ""]
    lines += [f"- {_md_cell(name)}: {_md_cell(value)}" for name, value in view_rows.model_rows(typed.model, say)]
    lines += ["", f"**{say.word('Moves')}**", ""]
    if typed.moves:
        lines += _md_table(view_rows.MOVE_HEADERS, (view_rows.move_cells(m, say) for m in typed.moves), say)
    else:
        lines += [_md_cell(say.word("No moves."))]
    lines += ["", f"**{say.word('Latency')}**", ""]
    if typed.latency:
        lines += _md_table(view_rows.LATENCY_HEADERS, (view_rows.latency_cells(e, say) for e in typed.latency), say)
    else:
        lines += [_md_cell(say.word("No latency measured."))]
    notes = view_rows.latency_notes(typed.latency, say)
    if notes:
        lines += [""] + [f"- {_md_cell(n)}" for n in notes]
    if typed.ranks:
        whose = say.word("torchrun; the tables above are rank 0's")
        lines += ["", f"**{say.word('Ranks')}** ({_md_cell(whose)})", ""]
        lines += _md_table(view_rows.RANK_HEADERS, (view_rows.rank_cells(r, say) for r in typed.ranks), say)
    lines += _markdown_extras(report, say)
    return "\n".join(lines) + "\n"


def _markdown_extras(report: TimingReport, say: Catalogue) -> list[str]:
    """The per-module and fit sections, when the report has them."""
    lines: list[str] = []
    top = report_modules.top_modules(report)
    if top:
        count = len(report.section("modules"))
        lines += ["", f"**{say.word('Top modules')}** ({_md_cell(say.word('by self time; {count} in the JSON', count=count))})", ""]
        warnings = report_modules.attribution_warnings(report, say)  # said next to the figures they are about
        lines += [f"> ⚠ {_md_cell(say.word('per-module figures not reliable: {reason}', reason=t))}" for t in warnings]
        lines += [""] if warnings else []
        lines += _md_table(report_modules.MODULE_HEADERS, (report_modules.module_cells(m, say) for m in top), say)
        lines += [""] + [f"- {_md_cell(t)}" for t in report_modules.attribution_lines(report, say)]
    fits = report.section("fit")
    if fits:
        lines += ["", f"**{say.word('Will it fit?')}**", ""]
        lines += _md_table(report_modules.FIT_HEADERS, (report_modules.fit_cells(f, say) for f in fits), say)
        for plan in (f for f in fits if report_modules.cluster_of(f)):  # a distributed plan: its ranks
            lines += ["", _md_cell(report_modules.cluster_heading(plan, say)), ""]
            lines += _md_table(report_modules.RANK_HEADERS, report_modules.rank_cells(plan, say), say)
    return lines
