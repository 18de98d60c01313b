"""``fit --output FILE``: the answer kept as a timing report (its ``fit`` section; a distributed
plan with its layout and each rank's measured peak in ``fit[].cluster``), as the window's
export keeps its answers. The path and language are checked before the model is loaded, so a
bad one costs nothing; the file is written once the answer is complete (never half a proof)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.cli.bench_files import report_language
from inspector.cli.printing import _plain, _say


def check_report_args(args: Any) -> Path | None:
    """``--output``'s path and ``--lang``, checked (one line, exit 2), before any work."""
    from inspector.core.files import check_output_path

    args.lang = report_language(getattr(args, "lang", None))
    output = getattr(args, "output", None)
    return check_output_path(output) if output is not None else None


def write_fit_report(loaded: Any, answer: Any, output: Path | None, language: str) -> None:
    """Write ``answer`` (a ``FitResult``, or a ``ClusterResult`` as its rank's answer with the
    plan in it) as the report at ``output``; nothing without one."""
    if output is None:
        return
    from inspector.core.report import build_timing_report, save_report

    entry = answer.as_fit() if hasattr(answer, "as_fit") else answer
    path = save_report(build_timing_report(loaded, fit=[entry]), output, language=language)
    _say(f"report written: {_plain(path)}")
