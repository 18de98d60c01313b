"""The Compare view's three tables as rows of cells, made from a ``Comparison`` off the GUI thread.

Thousands of rows take a while to word and colour (a verdict is translated per row), so the
view's pool thread makes them right after comparing (``ComparisonView``), and the GUI thread
only hands them to the tables. Nothing here touches a widget; ``translate`` is thread-safe.
The rows remember the language they were said in: a view shown in another one says them again.

Side by side, the figures that answer "which is faster" come first (medians or GB/s, ratio,
verdict): in the window the view has about 800 px, and the rest scrolls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from inspector.core.report.compare import Comparison
from inspector.gui.compare_cells import latency_side, move_side, noise_cell, number_cell, ratio_cell
from inspector.gui.compare_table import Cell
from inspector.gui.compare_words import environment_text
from inspector.gui.i18n import core_text, current_language, translate

Table = tuple[list[str], list[list[Cell]]]  # its header keys, its rows of cells


@dataclass(frozen=True)
class Tables:
    """The latency, moves and environment tables of one comparison, said in ``language``."""

    latency: Table
    moves: Table
    environment: Table
    language: str


def comparison_tables(comparison: Comparison) -> Tables:
    return Tables(latency_table(comparison), moves_table(comparison), environment_table(comparison), current_language())


def prefixes(comparison: Comparison) -> tuple[str, str | None]:
    """Column prefixes: "A "/"B " side by side; none for a report shown alone."""
    return ("A ", "B ") if comparison.label_b is not None else ("", None)


def _in_order(rows: Sequence[Mapping[str, Cell]], headers: list[str]) -> Table:
    return headers, [[cells[h] for h in headers] for cells in rows]


def latency_table(comparison: Comparison) -> Table:
    a, b = prefixes(comparison)
    interval_tip = translate("ComparisonView", "95 % bootstrap interval of B's median over A's")
    rows = []
    for row in comparison.latency:
        device_tip = " / ".join(n for n in (row.device_name_a, row.device_name_b) if n)
        cells = {
            "Device": Cell(row.device, tooltip=device_tip),
            "Dtype": Cell(row.dtype),
            "Mode": Cell(row.mode),
            "Input": Cell("×".join(map(str, row.input_shape)) or "—"),
            **latency_side(a, row.median_a, row.p5_a, row.p95_a, row.samples_a, row.speedup_vs_cpu_a),
        }
        if b is not None:
            cells |= latency_side(b, row.median_b, row.p5_b, row.p95_b, row.samples_b, row.speedup_vs_cpu_b)
            cells["B ÷ A"] = ratio_cell(row.ratio, row.verdict, higher_is_better=False)
            cells["95 % CI"] = number_cell(core_text(row.interval_text), row.ratio_low, interval_tip)
            # A side of few runs borrows the machine's run-to-run noise: where it came from, on hover.
            cells["Verdict"] = Cell(core_text(row.verdict), tooltip=core_text(row.run_noise_note) if row.run_noise_note else "")
        cells["Noise"] = noise_cell(row.noise_a, row.noise_b, b is not None)
        rows.append(cells)
    headers = ["Device", "Dtype", "Mode", "Input", f"{a}median (ms)"]
    if b is not None:
        headers += [f"{b}median (ms)", "B ÷ A", "95 % CI", "Verdict", "Noise", f"{a}p5–p95", f"{b}p5–p95",
                    f"{a}vs CPU", f"{b}vs CPU"]  # fmt: skip
    else:
        headers += ["p5–p95", "Noise", "vs CPU"]
    return _in_order(rows, headers)


def moves_table(comparison: Comparison) -> Table:
    a, b = prefixes(comparison)
    rows = []
    for row in comparison.moves:
        cells = {
            "Route": Cell(row.route),
            "Method": Cell(row.method),
            "Dtype": Cell(row.dtype or "—"),
            "Pinned": Cell(translate("ComparisonView", "yes") if row.pinned else translate("ComparisonView", "no")),
            **move_side(a, row.count_a, row.failed_a, row.bytes_a, row.seconds_a, row.gbps_a),
        }
        if b is not None:
            cells |= move_side(b, row.count_b, row.failed_b, row.bytes_b, row.seconds_b, row.gbps_b)
            cells["B ÷ A (GB/s)"] = ratio_cell(row.ratio, row.verdict, higher_is_better=True)
            cells["Verdict"] = Cell(core_text(row.verdict))
        rows.append(cells)
    headers = ["Route", "Method", "Dtype", "Pinned", f"{a}GB/s"]
    if b is not None:
        headers += [f"{b}GB/s", "B ÷ A (GB/s)", "Verdict"]
    for name in ("moves", "size", "time (s)"):
        headers += [f"{a}{name}"] + ([f"{b}{name}"] if b is not None else [])
    return _in_order(rows, headers)


def environment_table(comparison: Comparison) -> Table:
    two = comparison.label_b is not None
    headers = ["Section", "What", "A" if two else "Value"] + (["B"] if two else [])
    rows = []
    for row in comparison.environment:
        cells = [Cell(environment_text(row.section)), Cell(environment_text(row.name)), Cell(core_text(row.a))]
        if two:
            cells.append(Cell(core_text(row.b)))
        if row.differs:
            for cell in cells:
                cell.bold = True
                cell.tooltip = translate("ComparisonView", "differs between the two reports")
        rows.append(cells)
    return headers, rows
