"""The timing report and what is read from it: build, save, load, validate, compare.

Owns: ``timing_report`` (build the report from results as a ``TimingReport``, kept one until
it is saved as .json/.csv/.md/.html/.zip; load it again), its views ``markdown_view``, ``csv_view`` (over ``csv_tables``, the report as
tidy tables) and ``html_view`` with the rows they share (``view_rows``), ``schema`` (the report's type, ``TimingReport``:
``read_report`` checks every field a reader uses, or reads an unchecked dict without raising;
``to_dict`` gives back the file's JSON) with its sections' types (``sections``) and its latency
entries read as measurements (``latency_reader``), over ``entry_reader`` (the one reader of file
and wire: a dataclass read by its fields, strict or lenient) and ``field_checks`` (typed,
bounded reads of one field, in both modes), ``modules`` (per-module
rows of a report), ``compare`` (two reports side by side: latency ratios with intervals,
moves) with ``compare_environment`` (where each was made) and ``lenient_read`` (reads of an
unchecked report that never raise), ``run_verdicts`` (a session's runs compared like with
like), ``snippets`` (the PyTorch code equivalent to each action).

May import: ``inspector.core.measure``, ``inspector.core.moves`` and everything below them.
Never the session or ``remote``.

Face (``__all__``): the names the window and the CLI use, each imported from its module
when first read (``inspector.core.lazy_face``), so importing the package imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.core.lazy_face import lazy_names

if TYPE_CHECKING:
    from inspector.core.report.timing_report import (
        SUPPORTED_SUFFIXES,
        build_report,
        build_timing_report,
        json_ready,
        load_report,
        save_report,
    )
    from inspector.core.report.markdown_view import render_markdown
    from inspector.core.report.modules import format_flops
    from inspector.core.report.compare import Comparison, compare_reports, machine_verdict_text
    from inspector.core.report.lenient_read import shape_words
    from inspector.core.report.run_verdicts import Run, RunVerdict, run_verdicts as verdicts_of_runs
    from inspector.core.report.snippets import measurement_snippet, module_move_line, move_snippet
    from inspector.core.report.schema import RankEntry, TimingReport

__all__ = [
    "SUPPORTED_SUFFIXES",
    "Comparison",
    "RankEntry",
    "Run",
    "RunVerdict",
    "TimingReport",
    "build_report",
    "build_timing_report",
    "compare_reports",
    "machine_verdict_text",
    "format_flops",
    "json_ready",
    "load_report",
    "measurement_snippet",
    "module_move_line",
    "move_snippet",
    "render_markdown",
    "save_report",
    "shape_words",
    "verdicts_of_runs",
]

#: name -> the module that defines it ("module:name" where the face renames it).
_HOMES = {
    "SUPPORTED_SUFFIXES": "timing_report",
    "Comparison": "compare",
    "RankEntry": "schema",
    "TimingReport": "schema",
    "Run": "run_verdicts",
    "RunVerdict": "run_verdicts",
    "build_report": "timing_report",
    "build_timing_report": "timing_report",
    "compare_reports": "compare",
    "machine_verdict_text": "compare",
    "format_flops": "modules",
    "json_ready": "timing_report",
    "load_report": "timing_report",
    "measurement_snippet": "snippets",
    "module_move_line": "snippets",
    "move_snippet": "snippets",
    "render_markdown": "markdown_view",
    "save_report": "timing_report",
    "shape_words": "lenient_read",
    "verdicts_of_runs": "run_verdicts:run_verdicts",
}
__getattr__, __dir__ = lazy_names(globals(), _HOMES)
