"""Names from a model file in the Markdown, HTML and CSV views: characters, never markup.

A model's class and module names, and a report file someone else wrote, reach the text
views. Rendered by a real Markdown engine (markdown-it-py, what a docs site or a chat app
would use, raw HTML enabled as CommonMark allows), no ``<script>``, ``<img onerror>`` or
``javascript:`` link survives as an element or attribute; bidi overrides and carriage
returns are shown as escapes; a table cannot be broken by ``|`` or a newline; and a
100,000-character name is shown as its start and its length, not 100 KB per cell.
"""

from __future__ import annotations

import csv
import io
import textwrap
from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

from inspector.core.files.models import load_model
from inspector.core.measure.attribution import measure_attribution
from inspector.core.measure.timing import measure_latency
from inspector.core.report import modules as report_modules
from inspector.core.report import view_rows
from inspector.core.report.csv_tables import TABLE_BY_NAME
from inspector.core.report.csv_view import table_csv
from inspector.core.report.html_view import render_html
from inspector.core.report.markdown_view import render_markdown
from inspector.core.report.timing_report import build_report
from tests.report_edge import typed

#: Names a hostile model file gives its modules (no dots: PyTorch refuses them in names).
HOSTILE_NAMES = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "[click](javascript:alert(3))",
    "![pic](javascript:alert(4))<https://evil>",
    "pipe|cell\nnew row\rreturn",
    "head\u202egnp_exe",
    "&lt;b&gt;**bold**_under_`code`~~gone~~",
)
LONG = "k" * 100_000
CLASS_NAME = "<img src=y onerror=alert(5)>\u202eNet"


def _factory(tmp_path) -> str:
    path = tmp_path / "hostile_model.py"
    path.write_text(textwrap.dedent(f"""
        from torch import nn

        def make():
            cls = type({CLASS_NAME!r}, (nn.Sequential,), {{}})
            model = cls()
            for name in {HOSTILE_NAMES + (LONG,)!r}:
                model.add_module(name, nn.Linear(3, 3))
            return model
    """))
    return f"{path}:make"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    loaded = load_model(_factory(tmp_path_factory.mktemp("hostile")))
    latency = measure_latency(loaded, runs=3, warmup=1, input_shape=(2, 3))
    attribution = measure_attribution(loaded, runs=2, warmup=1, input_shape=(2, 3))
    built = build_report(loaded, latency=[latency], attribution=[attribution],
                         moves=[{"call": "model.to('cpu')", "ok": False, "source": "cpu", "target": "cpu",
                                 "error": {"kind": "device", "message": HOSTILE_NAMES[1] + LONG}}])  # fmt: skip
    # A report file as someone else wrote it: the spec is text from the file too.
    built["model"]["spec"] = "[spec](javascript:alert(6))<script>x</script>\u202e"
    built["latency"][0]["notes"] = ["# heading?", "- nested?", "1. ordered?", HOSTILE_NAMES[0]]
    return built


class _Elements(HTMLParser):
    """Every element and attribute a browser would build from the HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += attrs


def _elements(page: str) -> _Elements:
    parser = _Elements()
    parser.feed(page)
    return parser


def _markdown_as_html(text: str) -> str:
    # CommonMark with raw HTML on (its default) and GFM tables: what a docs site renders.
    return MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough").render(text)


def test_markdown_rendered_by_markdown_it_has_no_element_or_link_from_a_name(report):
    text = render_markdown(typed(report))
    page = _markdown_as_html(text)
    found = _elements(page)
    assert {"script", "img", "a"}.isdisjoint(found.tags)
    assert not [value for _, value in found.attributes if value and "javascript" in value]
    assert not [name for name, _ in found.attributes if name.startswith("on")]
    assert {"h1", "h2", "ol", "del", "em", "code"}.isdisjoint(found.tags)  # no heading/list/emphasis from a note or a name
    # The names are there, as characters the reader sees.
    for name in ("<script>alert(1)</script>", "<img src=x onerror=alert(2)>", "[click](javascript:alert(3))",
                 "![pic](javascript:alert(4))<https://evil>", "&lt;b&gt;**bold**_under_`code`~~gone~~"):
        assert _html_text(name) in page
    assert _html_text("# heading?") in page and _html_text("1. ordered?") in page


def _html_text(text: str) -> str:
    import html

    return html.escape(text, quote=False)


def test_markdown_bidi_and_carriage_returns_are_shown_as_escapes(report):
    text = render_markdown(typed(report))
    assert "\u202e" not in text and "\r" not in text
    assert "head\\\\u202egnp\\_exe" in text  # shown as \u202e (its backslash escaped for Markdown)
    assert "head\\u202egnp_exe" in _markdown_as_html(text)


def test_markdown_tables_keep_their_rows_and_columns(report):
    text = render_markdown(typed(report))
    page = _markdown_as_html(text)
    assert "pipe\\|cell\\\\nnew row\\\\rreturn" in text
    table = page[page.index("<th>Module</th>"):]
    table = table[: table.index("</table>")]
    rows = table.split("<tr>")[1:]
    assert len(rows) == len(HOSTILE_NAMES) + 2  # each module (and the model itself), one row each
    assert all(row.count("<td") == len(report_modules.MODULE_HEADERS) for row in rows)
    assert any("pipe|cell\\nnew row\\rreturn" in row for row in rows)


def test_a_huge_name_is_its_start_and_its_length_in_every_view(report):
    markdown, page, sheet = render_markdown(typed(report)), render_html(typed(report)), table_csv(TABLE_BY_NAME["moves.csv"], report)
    for text in (markdown, page):
        assert "(100,000 characters)" in text or "(100,028 characters)" in text
        assert LONG not in text
        assert max(map(len, text.splitlines())) < 8_000  # a line holds a table row: 500 per cell at most
    assert len(markdown) < 40_000 and len(page) < 60_000
    errors = [row["error"] for row in csv.DictReader(io.StringIO(sheet))]
    assert errors and all(len(e) <= view_rows.CELL_LIMIT + 40 for e in errors)
    assert errors[0].startswith("<img src=x onerror=alert(2)>kkk") and errors[0].endswith(" characters)")
    # The modules' names too: each one cell of one line, capped; the table a row per module.
    modules = list(csv.DictReader(io.StringIO(table_csv(TABLE_BY_NAME["modules.csv"], report))))
    assert len(modules) == len(HOSTILE_NAMES) + 2  # each module and the model itself
    names = [row["name"] for row in modules]
    assert all(len(n) <= view_rows.CELL_LIMIT + 40 and "\n" not in n and "\u202e" not in n for n in names)
    assert "pipe|cell\\nnew row\\rreturn" in names and any(n.endswith(" characters)") for n in names)


def test_html_view_shows_bidi_and_newlines_as_escapes(report):
    page = render_html(typed(report))
    assert "\u202e" not in page and "\r" not in page
    assert "head\\u202egnp_exe" in page
    found = _elements(page)
    assert {"script", "a"}.isdisjoint(found.tags)
    assert not [name for name, _ in found.attributes if name.startswith("on")]
