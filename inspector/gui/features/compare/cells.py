"""The comparison's cells: how a median, a band, a ratio, a noise flag and a move's figures
read in one ``Cell`` of ``ComparisonView``'s tables (``compare.py``), coloured where the
verdict is clear.

A side's cells come keyed by their column's English header, after the side's prefix
(``"A median (ms)"``); the view picks the columns it shows. Columns keep those English keys
(``cell_text(table, row, "Verdict")``) and only their titles are translated (``header_text``,
here since a tooltip holding a folded column names it). Texts keep the view's context,
``translate("ComparisonView", ...)``, so the catalogue has them where it always had."""

from __future__ import annotations

from PySide6.QtGui import QColor

from inspector.core.messages import Text
from inspector.core.units import format_bytes, format_ms, format_ratio
from inspector.gui.features.compare.cell import Cell
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

#: The column titles that are words (``B ÷ A``, ``p5–p95``, ``GB/s`` are the same in every
#: language); a side's column is its title after "A " or "B ".
_HEADER_WORDS = frozenset((
    QT_TRANSLATE_NOOP("ComparisonView", "Device"),
    QT_TRANSLATE_NOOP("ComparisonView", "Dtype"),
    QT_TRANSLATE_NOOP("ComparisonView", "Mode"),
    QT_TRANSLATE_NOOP("ComparisonView", "Input"),
    QT_TRANSLATE_NOOP("ComparisonView", "median (ms)"),
    QT_TRANSLATE_NOOP("ComparisonView", "vs CPU"),
    QT_TRANSLATE_NOOP("ComparisonView", "95 % CI"),
    QT_TRANSLATE_NOOP("ComparisonView", "Verdict"),
    QT_TRANSLATE_NOOP("ComparisonView", "Noise"),
    QT_TRANSLATE_NOOP("ComparisonView", "Route"),
    QT_TRANSLATE_NOOP("ComparisonView", "Method"),
    QT_TRANSLATE_NOOP("ComparisonView", "Pinned"),
    QT_TRANSLATE_NOOP("ComparisonView", "moves"),
    QT_TRANSLATE_NOOP("ComparisonView", "size"),
    QT_TRANSLATE_NOOP("ComparisonView", "time (s)"),
    QT_TRANSLATE_NOOP("ComparisonView", "Section"),
    QT_TRANSLATE_NOOP("ComparisonView", "What"),
    QT_TRANSLATE_NOOP("ComparisonView", "Value"),
))  # fmt: skip


#: Columns whose cells say their own unit (``36.2 µs``, as the rest of the window does): their
#: title names none. The key stays (the view and its callers pick columns by it).
_SHOWN_AS = {"median (ms)": QT_TRANSLATE_NOOP("ComparisonView", "median")}


def header_text(key: str) -> str:
    """A column's title in the window's language: ``"A median (ms)"`` -> ``"A 中位数"``."""
    if key in _HEADER_WORDS:
        return translate("ComparisonView", _SHOWN_AS.get(key, key))
    side, _, rest = key.partition(" ")
    if side in ("A", "B") and rest in _HEADER_WORDS:
        return side + " " + translate("ComparisonView", _SHOWN_AS.get(rest, rest))
    return key


_FASTER = QColor("#2e7d32")
_SLOWER = QColor("#c62828")


def _ms(value: float | None) -> str:
    # The window's duration formatting (the plots' labels, the history): "36.2 µs", never "0.03621".
    return "0" if value == 0 else format_ms(value, compact=True)


def _times(value: float | None) -> str:
    return "—" if value is None else f"{format_ratio(value)}×"


def _band(p5: float | None, p95: float | None) -> str:
    return "—" if p5 is None or p95 is None else f"{_ms(p5)} – {_ms(p95)}"


#: The verdicts that say B is clearly slower or faster; every other one (no clear difference,
#: within run-to-run noise, about the same, too few samples, not compared) leaves a ratio uncoloured.
_CLEAR = frozenset(("verdict.slower", "verdict.faster"))
_WRAPPERS = frozenset(("verdict.noisy_one", "verdict.noisy_both"))  # "{verdict} (A noisy: may not repeat)"


def clear_verdict(verdict: str) -> bool:
    """The verdict says a clear difference (by its text id, whatever language it is shown in)."""
    if not isinstance(verdict, Text):
        return False
    if verdict.key in _WRAPPERS:
        return clear_verdict(verdict.args.get("verdict", ""))
    return verdict.key in _CLEAR


def number_cell(text: str, value: float | None, tooltip: str = "") -> Cell:
    """A figure that sorts as a number (a missing one last)."""
    return Cell(text, value, numeric=True, tooltip=tooltip)


def ratio_cell(ratio: float | None, verdict: str, *, higher_is_better: bool) -> Cell:
    """``B ÷ A`` as ``"1.23×"``, green when B is clearly better, red when clearly worse."""
    cell = number_cell(_times(ratio), ratio, core_text(verdict))
    # The colour follows the verdict: only one that says "slower" or "faster" colours the ratio
    # (a red "1.04×" stood beside "no clear difference: within run-to-run noise").
    if ratio is not None and clear_verdict(verdict):
        better = ratio > 1 if higher_is_better else ratio < 1
        cell.foreground = _FASTER if better else _SLOWER
    return cell


def noise_cell(noise_a: str | None, noise_b: str | None, two: bool) -> Cell:
    """Which side is noisy ("A noisy", "B noisy", "A, B noisy"); the reasons in the tooltip."""
    sides = [(name, core_text(noise)) for name, noise in (("A", noise_a), ("B", noise_b)) if noise and (two or name == "A")]
    if not sides:
        return Cell("—")
    if two:
        text = fill(translate("ComparisonView", "%1 noisy"), ", ".join(n for n, _ in sides))
    else:
        text = translate("ComparisonView", "noisy")
    tips = [fill(translate("ComparisonView", "%1: %2"), n, why) if two else why for n, why in sides]
    cell = Cell(text, tooltip="\n".join(tips))
    cell.foreground = _SLOWER
    return cell


def latency_side(prefix: str, median: float | None, p5: float | None, p95: float | None, samples: int,
                 speedup: float | None) -> dict[str, Cell]:  # fmt: skip
    """One side's latency columns: its median, its p5–p95 band, its speed-up over its CPU. The
    median's tooltip has the other two (side by side, their columns are folded)."""
    count = samples
    details = [translate("ComparisonView", "%n samples", None, count), said("p5–p95", _band(p5, p95)),
               said("vs CPU", _times(speedup))]  # fmt: skip
    return {
        f"{prefix}median (ms)": number_cell(_ms(median), median, "\n".join(details)),
        f"{prefix}p5–p95": number_cell(_band(p5, p95), p5),
        f"{prefix}vs CPU": number_cell(_times(speedup), speedup, translate("ComparisonView", "speed-up over this report's CPU")),
    }


def said(header: str, value: str) -> str:
    """ "title: value", the title as its column's (in a tooltip that holds a folded column)."""
    return fill(translate("ComparisonView", "%1: %2"), header_text(header), value)


def move_side(prefix: str, count: int, failed: int, size: int | None, seconds: float | None,
              gbps: float | None) -> dict[str, Cell]:  # fmt: skip
    """One side's move columns: how many (and how many failed), their size, time and GB/s. The
    GB/s's tooltip has the other three (side by side, their columns are folded)."""
    shown = "—" if not count else (fill(translate("ComparisonView", "%1 (%2 failed)"), count, failed) if failed else str(count))
    size_text = format_bytes(size) if size is not None else "—"
    time_text = "—" if seconds is None else f"{seconds:.4g}"
    details = "\n".join((said("moves", shown), said("size", size_text), said("time (s)", time_text)))
    return {
        f"{prefix}moves": number_cell(shown, count),
        f"{prefix}size": number_cell(size_text, size),
        f"{prefix}time (s)": number_cell(time_text, seconds),
        f"{prefix}GB/s": number_cell("—" if gbps is None else f"{gbps:.2f}", gbps, details),
    }
