"""``compare``: two timing reports side by side (latency ratios with 95 % intervals, move
speeds, where the two were made)."""

from __future__ import annotations

import json
import os

from inspector.cli.printing import _plain, _print, _table
from inspector.core.units import format_ms


def _same_file(first: str, second: str) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:  # (load_report has already said what is wrong with the first)
        return False


_COMPARE_HEADERS = ["DEVICE", "DTYPE", "MODE", "INPUT", "A MEDIAN ms", "B MEDIAN ms", "B/A", "95% CI", "VERDICT"]


def cmd_compare(args) -> int:
    """Two reports side by side. Ratios of latency medians get a 95 % interval from how runs
    differ (a hierarchical bootstrap over each side's runs; a side of one or two runs borrows
    this machine's run-to-run noise, said in a note) and "no clear difference" when it holds 1; entries that differ in dtype, mode or input
    shape are named, never given a ratio; the same measurement on both sides (the same file,
    or a copy) is said to be that. A file that is no report: exit 2."""
    from inspector.core.report.compare import compare_reports
    from inspector.core.report.timing_report import load_report

    a = load_report(args.report_a)
    b = a if _same_file(args.report_a, args.report_b) else load_report(args.report_b)
    reports = [a, b]
    comparison = compare_reports(*reports, label_a="A", label_b="B")
    if args.json:
        out = comparison.to_dict()
        out["files"] = {"a": args.report_a, "b": args.report_b}
        _print(json.dumps(out, indent=2))
        return 0
    _print(f"A = {_plain(args.report_a)}\nB = {_plain(args.report_b)}")
    if comparison.same_measurement:  # `compare r.json r.json`: said first, not found in the table
        _print(comparison.same_measurement_text())
    rows = [
        [r.device, r.dtype, r.mode, "x".join(map(str, r.input_shape)) or "—",
         format_ms(r.median_a, unit=False), format_ms(r.median_b, unit=False),
         "—" if r.ratio is None else f"{r.ratio:.2f}", r.interval_text, r.verdict or "—"]
        for r in comparison.latency
    ]  # fmt: skip
    _print()
    _print(_table(_COMPARE_HEADERS, rows, right={4, 5, 6}) if rows else "No latency in either report.")
    notes = [f"{side} {r.device} {r.dtype} {r.mode}: {noise}"
             for r in comparison.latency for side, noise in (("A", r.noise_a), ("B", r.noise_b)) if noise]  # fmt: skip
    for note in dict.fromkeys(notes):
        _print(f"note: {_plain(note)}")
    # How far a rerun lands, when a side's runs cannot show it: said once, under the table.
    for note in dict.fromkeys(r.run_noise_note for r in comparison.latency if r.run_noise_note):
        _print(f"note: {_plain(note)}")
    moves = [m for m in comparison.moves if m.count_a and m.count_b]
    if moves:
        from inspector.core.units import format_gbps

        _print()
        _print(_table(["ROUTE", "METHOD", "A GB/s", "B GB/s", "VERDICT"],
                      [[m.route, m.method, format_gbps(m.gbps_a), format_gbps(m.gbps_b), m.verdict or "—"] for m in moves],
                      right={2, 3}))  # fmt: skip
    differs = [e for e in comparison.environment if e.differs and e.section != "report"]
    if differs:
        _print()
        _print("Differences between where A and B were made:")
        for e in differs:
            _print(f"  {_plain(e.name)}: A {_plain(e.a)}; B {_plain(e.b)}")
    return 0
