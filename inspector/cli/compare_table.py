"""The comparison of two reports as the terminal shows it (``compare``, ``bench --against``)."""

from __future__ import annotations

from inspector.cli.printing import _plain, _print, _table
from inspector.core.units import format_ms, format_ratio

_COMPARE_HEADERS = ["DEVICE", "DTYPE", "MODE", "INPUT", "A MEDIAN ms", "B MEDIAN ms", "B/A", "95% CI", "VERDICT"]


def print_comparison(comparison, name_a: str, name_b: str) -> None:
    """The comparison as ``compare`` prints it: what A and B are, the latency table with its
    notes, the moves and where the two were made (``bench --against`` prints it too)."""
    _print(f"A = {_plain(name_a)}\nB = {_plain(name_b)}")
    if comparison.same_measurement:  # `compare r.json r.json`: said first, not found in the table
        _print(comparison.same_measurement_text())
    rows = [
        [r.device, r.dtype, r.mode, "x".join(map(str, r.input_shape)) or "—",
         format_ms(r.median_a, unit=False), format_ms(r.median_b, unit=False),
         "—" if r.ratio is None else format_ratio(r.ratio), r.interval_text, r.verdict or "—"]
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
    # Two halves of different bench --against runs: their pairing is not used, and that is said.
    for note in dict.fromkeys(r.pairing_note for r in comparison.latency if r.pairing_note):
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
