"""The HTML view of a timing report: one self-contained page (no external files or network),
its tables and the plot images the Qt side made (``inspector.gui.shell.report_images``) embedded.

Every text from the report is escaped (``_text``): a report file is read as an attacker might
have written it, so markup stays characters, and control characters and bidi overrides are
shown as escapes (``\\u202e``), each text capped (``view_rows.cell_text``).

It is written in the report's language (``language``: ``"en"``, the default, or one of
``messages.catalogue.available_languages()``; ``<html lang=…>`` says which): headings, row
names, headers and sentences through the catalogue; numbers, units, code, device ids, dtypes
and the report's own data as they are. The images are drawn in a language of their own
(``images_language``); when that is not the page's, the page says so next to them.
"""

from __future__ import annotations

import base64
import html
import importlib.util
from typing import Any, Iterable, Mapping, Sequence

from inspector.core.measure.memory_log import REPORT_FIELDS, report_point
from inspector.core.messages.catalogue import ENGLISH, Catalogue, catalogue, word
from inspector.core.report import modules as report_modules
from inspector.core.report import view_rows
from inspector.core.report.schema import TimingReport
from inspector.core.units import format_bytes

# The CPU's RSS has a column of its own: it is the process's resident memory, not allocated bytes.
_MEMORY_HEADERS = (word("Device"), word("Readings"), word("Peak allocated"), word("Peak reserved"),
                   word("Peak process RSS"), word("Peak used"), word("Total"), word("Peak other processes"))
#: The headings of the images the Qt side draws (``gui.export.plot_images`` keys them so).
IMAGE_TITLES = (word("Latency samples"), word("Latency summary"), word("Memory"))
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


def _html_table(headers: Sequence[str], rows: Iterable[Sequence[str]], say: Catalogue) -> str:
    """A table whose figure columns (``_NUMERIC_COLUMNS``, header and cells) are right-aligned;
    ``headers`` in English (the columns are known by them), shown in ``say``'s language."""
    numeric = [h in _NUMERIC_COLUMNS for h in headers]
    shown = view_rows.headers(headers, say)
    head = "".join(f'<th{" class=num" if n else ""}>{html.escape(h)}</th>' for h, n in zip(shown, numeric))
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


def _plots_html(images: Mapping[str, bytes] | None, say: Catalogue, images_language: str | None) -> str:
    if not images:
        if not _pyside6_installed():
            why = say.word("The plots were left out because PySide6 is not installed.")
        else:
            why = say.word("The plots were left out of this report.")
        return f'<p class="muted">{html.escape(why)}</p>'
    parts = []
    if images_language is not None and images_language != say.language:
        # (the one way they differ: a machine with no font for the report's language draws English)
        parts.append(f'<p class="muted">{html.escape(say.word("The plots are labelled in English."))}</p>')
    for title, png in images.items():
        data = base64.b64encode(bytes(png)).decode("ascii")
        shown = say.word(str(title)) if str(title) in IMAGE_TITLES else str(title)
        parts.append(
            f"<h3>{html.escape(shown)}</h3>"
            f'<img alt="{html.escape(shown, quote=True)}" src="data:image/png;base64,{data}">'
        )
    return "".join(parts)


def _html_extras(report: TimingReport, say: Catalogue) -> list[str]:
    parts: list[str] = []
    top = report_modules.top_modules(report)
    if top:
        count = len(report.section("modules"))
        unreliable = say.word("Per-module figures not reliable:")
        parts += [
            f"<h2>{html.escape(say.word('Top modules'))}</h2>",
            f"<p class=muted>{_text(say.word('By self time; all {count} modules are in the JSON report.', count=count))}</p>",
            "".join(f"<p><b>⚠ {html.escape(unreliable)}</b> {_text(t)}</p>"
                    for t in report_modules.attribution_warnings(report, say)),  # fmt: skip
            _html_table(report_modules.MODULE_HEADERS, (report_modules.module_cells(m, say) for m in top), say),
            "".join(f"<p class=muted>{_text(t)}</p>" for t in report_modules.attribution_lines(report, say)),
        ]
    fits = report.section("fit")
    if fits:
        parts += [f"<h2>{html.escape(say.word('Will it fit?'))}</h2>",
                  _html_table(report_modules.FIT_HEADERS, (report_modules.fit_cells(f, say) for f in fits), say)]  # fmt: skip
        for plan in (f for f in fits if report_modules.cluster_of(f)):  # a distributed plan: its ranks
            parts += [f"<p>{_text(report_modules.cluster_heading(plan, say))}</p>",
                      _html_table(report_modules.RANK_HEADERS, report_modules.rank_cells(plan, say), say)]  # fmt: skip
    return parts


def render_html(report: TimingReport, images: Mapping[str, bytes] | None = None, language: str = ENGLISH,
                images_language: str | None = None) -> str:  # fmt: skip
    """One self-contained page (no external files or network): tables and embedded PNG plots,
    in ``language``. ``images_language``: the language the images were drawn in, when known."""
    say = catalogue(language)
    typed, data = report, report.data  # the stated header fields shown as the file has them
    moves, latency, ranks = typed.moves, typed.latency, typed.ranks
    memory = data.get("memory") or {}
    title = say.word("Timing report — {spec}", spec=view_rows.cell_text(typed.model.spec or "model"))
    notes = view_rows.latency_notes(latency, say)

    def heading(text: str) -> str:
        return f"<h2>{html.escape(text)}</h2>"

    def line(text: str) -> str:
        return f"<p>{html.escape(text)}</p>"

    created = say.word(
        "Created {created} by torch-device-inspector {version}, report schema {schema}.",
        created=view_rows.cell_text(data.get("created", "—")),
        version=view_rows.cell_text(data.get("tool", {}).get("version", "")),
        schema=view_rows.cell_text(data.get("schema_version")),
    )
    ranks_note = say.word("torchrun; the tables above are rank 0's")
    sections = [
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="muted">{html.escape(created)}</p>',
        heading(say.word("Environment")),
        _html_kv(view_rows.environment_rows(typed.environment, say)),
        heading(say.word("Model")),
        _html_kv(view_rows.model_rows(typed.model, say)),
        heading(say.word("Moves")),
        (_html_table(view_rows.MOVE_HEADERS, (view_rows.move_cells(m, say) for m in moves), say) if moves
         else line(say.word("No moves."))),
        heading(say.word("Latency")),
        (_html_table(view_rows.LATENCY_HEADERS, (view_rows.latency_cells(e, say) for e in latency), say) if latency
         else line(say.word("No latency measured."))),
        "".join(f"<p class=muted>{_text(n)}</p>" for n in notes),
        *_html_extras(report, say),
        *([heading(say.word("Ranks")),
           f"<p class=muted>{html.escape(ranks_note)}</p>",
           _html_table(view_rows.RANK_HEADERS, (view_rows.rank_cells(r, say) for r in ranks), say)] if ranks else []),
        heading(say.word("Memory")),
        (_html_table(_MEMORY_HEADERS, _memory_summary_rows(memory), say) if memory
         else line(say.word("No memory readings."))),
        heading(say.word("Plots")),
        _plots_html(images, say, images_language),
    ]  # fmt: skip
    return (
        f"<!DOCTYPE html>\n<html lang={say.html_lang}><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{_HTML_STYLE}</style></head><body>\n"
        + "\n".join(sections)
        + "\n</body></html>\n"
    )
