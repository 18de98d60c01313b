"""The Compare view's three tables as rows of cells, made from a ``Comparison`` off the GUI thread.

Thousands of rows take a while to word and colour (a verdict is translated per row), so the
view's pool thread makes them right after comparing (``ComparisonView``), and the GUI thread
only hands them to the tables. Nothing here touches a widget; ``translate`` is thread-safe.
The rows remember the language they were said in: a view shown in another one says them again.

Side by side, the figures that answer "which is faster" come first (medians or GB/s, ratio,
verdict); the rest (each side's band, speed-up over its CPU, noise flag, count, size and
time) is folded into those cells' tooltips, its columns hidden until asked for
(``folded_columns``): at 1024x700 the view is about 580 px wide, and the verdict has to show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from inspector.core.report import Comparison
from inspector.gui.features.compare.cells import (
    latency_side,
    move_side,
    noise_cell,
    number_cell,
    ratio_cell,
    said,
)
from inspector.gui.features.compare.cell import Cell
from inspector.gui.features.compare.words import environment_text
from inspector.gui.common.i18n import core_text, current_language, translate
from inspector.gui.common.vocabulary_words import EXAMPLE_SPEC, method_call, mode_text, spec_text

Table = tuple[list[str], list[list[Cell]]]  # its header keys, its rows of cells


@dataclass(frozen=True)
class Tables:
    """The latency, moves and environment tables of one comparison, said in ``language``."""

    latency: Table
    moves: Table
    environment: Table
    language: str


def folded_columns(headers: Sequence[str]) -> frozenset[str]:
    """The columns of a side-by-side table (one with a verdict) that are hidden until the user
    shows them: their figures are in the tooltips of the medians (band, speed-up), the ratio
    and the verdict (interval, noise) and the GB/s (count, size, time)."""
    if "Verdict" not in headers:
        return frozenset()
    sides = ("p5–p95", "vs CPU", "moves", "size", "time (s)")
    return frozenset({"95 % CI", "Noise"} | {f"{side} {name}" for side in ("A", "B") for name in sides}) & set(headers)


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
            "Mode": Cell(mode_text(row.mode)),
            "Input": Cell("×".join(map(str, row.input_shape)) or "—"),
            **latency_side(a, row.median_a, row.p5_a, row.p95_a, row.samples_a, row.speedup_vs_cpu_a),
        }
        if b is not None:
            cells |= latency_side(b, row.median_b, row.p5_b, row.p95_b, row.samples_b, row.speedup_vs_cpu_b)
            interval = said("95 % CI", core_text(row.interval_text))
            cells["B ÷ A"] = ratio_cell(row.ratio, row.verdict, higher_is_better=False)
            cells["B ÷ A"].tooltip = f"{interval}\n{cells['B ÷ A'].tooltip}"
            cells["95 % CI"] = number_cell(core_text(row.interval_text), row.ratio_low, interval_tip)
        cells["Noise"] = noise_cell(row.noise_a, row.noise_b, b is not None)
        if b is not None:
            # A side of few runs is given the stated run-to-run noise: what it is, on
            # hover; then the interval the verdict rests on, and which side was noisy and why
            # (the folded columns').
            notes = [core_text(row.run_noise_note) if row.run_noise_note else "",
                     core_text(row.pairing_note) if row.pairing_note else "", interval, cells["Noise"].tooltip]
            cells["Verdict"] = Cell(core_text(row.verdict), tooltip="\n".join(note for note in notes if note))
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
            "Method": Cell(method_call(row.method)),  # code: .to(), .cuda(), .cpu()
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
        value = _spec_value if getattr(row.name, "key", "") == "environment.model" else core_text
        cells = [Cell(environment_text(row.section)), Cell(environment_text(row.name)), Cell(value(row.a))]
        if two:
            cells.append(Cell(value(row.b)))
        if row.differs:
            for cell in cells:
                cell.bold = True
                cell.tooltip = translate("ComparisonView", "differs between the two reports")
        rows.append(cells)
    return headers, rows


def _spec_value(spec: str) -> str:
    """A report's model spec in the Environment table: the built-in example in words (示例)."""
    return spec_text(spec) if spec == EXAMPLE_SPEC else core_text(spec)
