"""The timing report and what is read from it: build, save, load, validate, compare.

Owns: ``timing_report`` (build the report from results, save it as .json/.csv/.md/.html/.zip,
load it again), its views ``markdown_view``, ``csv_view`` (over ``csv_tables``, the report as
tidy tables) and ``html_view`` with the rows they share (``view_rows``), ``schema`` (the checks a loaded report passes, section by
section) over ``field_checks`` (typed, bounded reads of one field), ``modules`` (per-module
rows of a report), ``compare`` (two reports side by side: latency ratios with intervals,
moves) with ``compare_environment`` (where each was made) and ``lenient_read`` (reads of an
unchecked report that never raise), ``run_verdicts`` (a session's runs compared like with
like), ``snippets`` (the PyTorch code equivalent to each action).

May import: ``inspector.core.measure``, ``inspector.core.moves`` and everything below them.
Never the session or ``remote``.
"""
