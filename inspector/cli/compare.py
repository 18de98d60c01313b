"""``compare``: two timing reports side by side (latency ratios with 95 % intervals, move
speeds, where the two were made)."""

from __future__ import annotations

import json
import os

from inspector.cli.compare_table import print_comparison
from inspector.cli.printing import _print


def _same_file(first: str, second: str) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:  # (load_report has already said what is wrong with the first)
        return False


def cmd_compare(args) -> int:
    """Two reports side by side. Ratios of latency medians get a 95 % interval from how runs
    differ (the rounds' ratios of a pair ``bench --against`` made; else a hierarchical
    bootstrap over each side's runs, a side of one or two runs given the stated run-to-run
    noise, the same on every machine, said in a note; such a side flagged noisy gets no verdict) and "no clear difference" when it holds 1; entries that differ in dtype, mode or input
    shape are named, never given a ratio; the same measurement on both sides (the same file,
    or a copy) is said to be that. A file that is no report: exit 2."""
    from inspector.core.report import compare_reports, load_report

    a = load_report(args.report_a)
    b = a if _same_file(args.report_a, args.report_b) else load_report(args.report_b)
    reports = [a, b]
    comparison = compare_reports(*reports, label_a="A", label_b="B")
    if args.json:
        out = comparison.to_dict()
        out["files"] = {"a": args.report_a, "b": args.report_b}
        _print(json.dumps(out, indent=2))
        return 0
    print_comparison(comparison, args.report_a, args.report_b)
    return 0

