"""The report's per-module and fit sections as table rows (Markdown and HTML share them).

A report can come from a file someone else wrote: every value is checked for its type here
and shown as "—" when it is not what a report of ours would hold. Words are said in the
report's language (``say``, as in ``view_rows``); headers stay English here, translated where shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspector.core.measure.peak_reading import measured_text
from inspector.core.measure.planned_device import device_label, input_text
from inspector.core.messages.catalogue import ENGLISH_CATALOGUE, Catalogue, word
from inspector.core.report.view_rows import mode_text
from inspector.core.units import format_bytes, format_ms

if TYPE_CHECKING:
    # (only for the hints: the window's tensor tree imports this module for ``format_flops``
    # while its frame paints, and the schema costs ~8 ms to import)
    from inspector.core.report.schema import TimingReport

#: How many modules the Markdown and HTML reports list (the JSON keeps them all).
TOP_MODULES = 10

MODULE_HEADERS = (word("Module"), word("Type"), word("Device"), word("Output shape"), word("Self"), word("Inclusive"),
                  word("% of forward"), "FLOPs", "FLOP/s", word("Activations"), word("Parameters"))  # fmt: skip
FIT_HEADERS = (word("Device"), "dtype", word("Optimizer"), word("Mode"), word("Input"), word("Parameters"), word("Gradients"),
               word("Optimizer state"), word("Activations"), word("Estimated peak"), word("Measured peak"),
               word("Measured / estimated"), word("Free"), word("Fits"))  # fmt: skip
#: A distributed plan's rows: each CPU rank measured, or one row for every rank when not proven.
RANK_HEADERS = (word("Rank"), word("Planned peak"), word("Measured peak"), word("Measured / planned"))
#: More ranks than any proof runs (16 at most); a file's longer list is cut, the JSON keeps it.
MOST_RANK_ROWS = 64
NUMERIC = frozenset({
    "Self", "Inclusive", "% of forward", "FLOPs", "FLOP/s", "Activations", "Parameters",
    "Gradients", "Optimizer state", "Estimated peak", "Measured peak", "Measured / estimated", "Free",
    "Planned peak", "Measured / planned",
})  # fmt: skip


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def format_flops(value: Any, suffix: str = "") -> str:
    """``1.3e9 -> '1.30 GFLOP'``; FLOP/s with ``suffix='/s'``."""
    n = _number(value)
    if n is None:
        return "—"
    for unit, scale in (("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(n) >= scale:
            return f"{n / scale:.2f} {unit}FLOP{suffix}"
    return f"{n:.0f} FLOP{suffix}"


def _bytes(value: Any) -> str:
    n = _number(value)
    return format_bytes(int(n)) if n is not None else "—"


def _ms(value: Any) -> str:
    n = _number(value)
    return format_ms(n)


def shapes_text(shapes: Any, say: Catalogue = ENGLISH_CATALOGUE) -> str:
    """``[[64, 10]] -> '64x10'``; several outputs joined with ', '."""
    if not isinstance(shapes, list):
        return "—"
    parts = []
    for shape in shapes:
        if isinstance(shape, list) and all(isinstance(d, int) for d in shape):
            parts.append("x".join(str(d) for d in shape) or say.word("scalar"))
    return ", ".join(parts) or "—"


def top_modules(report: TimingReport, n: int = TOP_MODULES) -> list[dict[str, Any]]:
    """The modules with the most self time (self times never overlap: no double counting)."""
    modules = report.section("modules")  # a section nobody types yet: the file's own entries
    return sorted(modules, key=lambda m: _number(m.get("self_ms")) or 0.0, reverse=True)[:n]


def module_cells(entry: dict[str, Any], say: Catalogue = ENGLISH_CATALOGUE) -> tuple[str, ...]:
    share = _number(entry.get("share"))
    return (
        str(entry.get("name") or say.word("(model)")),
        str(entry.get("type", "")),
        str(entry.get("device", "")),
        shapes_text(entry.get("output_shapes"), say),
        _ms(entry.get("self_ms")),
        _ms(entry.get("median_ms")),
        f"{100 * share:.1f} %" if share is not None else "—",
        format_flops(entry.get("flops")),
        format_flops(entry.get("flops_per_s"), "/s"),
        _bytes(entry.get("activation_bytes")),
        _bytes(entry.get("parameters_bytes")),
    )


def attribution_lines(report: TimingReport, say: Catalogue = ENGLISH_CATALOGUE) -> list[str]:
    """One sentence per device: what the hooks cost, what was taken out, and how the modules'
    self times add up against the forward."""
    lines = []
    for entry in report.section("attribution"):  # a section nobody types yet: the file's own entries
        with_ms, without_ms = _number(entry.get("forward_with_hooks_ms")), _number(entry.get("forward_without_hooks_ms"))
        text = say.word("{device}: forward {time} with per-module hooks", device=entry.get("device", "?"), time=_ms(with_ms))
        if with_ms is not None and without_ms:
            text += say.word(", {time} without ({ratio}×: the hooks' overhead)", time=_ms(without_ms),
                             ratio=f"{with_ms / without_ms:.2f}")  # fmt: skip
        text += say.word("; {flops} per forward (FlopCounterMode)", flops=format_flops(entry.get("total_flops")))
        inner, outer = _number(entry.get("hook_inner_ms")), _number(entry.get("hook_outer_ms"))
        if inner is not None and outer is not None:
            text += say.word("; the hooks' own cost, {time} a module call (measured on empty modules), is taken out of the times",
                             time=_ms(inner + outer))  # fmt: skip
        total, ratio = _number(entry.get("self_sum_ms")), _number(entry.get("sum_ratio"))
        if total is not None and ratio is not None:
            text += say.word("; the modules' self times add up to {time}, {ratio}× the forward without hooks",
                             time=_ms(total), ratio=f"{ratio:.2f}")  # fmt: skip
        lines.append(text)
    return lines


def attribution_warnings(report: TimingReport, say: Catalogue = ENGLISH_CATALOGUE) -> list[str]:
    """Why a device's per-module figures are rough, one line each ("cpu: the hooks add ..."),
    to be shown next to them; [] when every run's figures hold."""
    return [
        f"{entry.get('device', '?')}: {say.text(warning)}"
        for entry in report.section("attribution")
        if isinstance(entry.get("warnings"), list)
        for warning in entry["warnings"]
        if isinstance(warning, str)
    ]


def fit_cells(entry: dict[str, Any], say: Catalogue = ENGLISH_CATALOGUE) -> tuple[str, ...]:
    """One answer's row: a planned device named as planned (never the ``cuda:0`` its plan was
    laid out on), its input and largest batch, and a peak below what RSS resolves said so."""
    ratio = _number(entry.get("ratio"))
    fits = entry.get("fits")
    optimizer = str(entry.get("optimizer", ""))
    device = entry.get("device")
    under = measured_text(device, entry.get("measured_peak_bytes"))
    shown = say.text(device_label(device, entry.get("named_device"), entry.get("device_present")))
    plan = cluster_of(entry)
    if plan:  # a distributed plan: its figures are one rank's
        shown = say.word("{device}, each of {gpus} ranks ({strategy})", device=shown, gpus=_whole(plan.get("gpus")),
                         strategy=_name(plan.get("strategy")))  # fmt: skip
    return (
        shown,
        str(entry.get("dtype", "")),
        say.word("none") if optimizer == "none" else optimizer,
        mode_text(entry.get("mode", ""), say),
        say.text(input_text(entry)),
        _bytes(entry.get("parameters_bytes")),
        _bytes(entry.get("gradients_bytes")),
        _bytes(entry.get("optimizer_state_bytes")),
        _bytes(entry.get("activations_bytes")),
        _bytes(entry.get("estimated_peak_bytes")),
        say.text(under) if under else _bytes(entry.get("measured_peak_bytes")),
        f"{ratio:.3f}" if ratio is not None and not under else "—",
        _bytes(entry.get("free_bytes")),
        (say.word("yes") if fits else say.word("no")) if isinstance(fits, bool) else "—",
    )


def cluster_of(entry: dict[str, Any]) -> dict[str, Any]:
    """A fit answer's distributed plan (``fit[].cluster``); {} for one device or a file's non-mapping."""
    plan = entry.get("cluster")
    return plan if isinstance(plan, dict) else {}


def cluster_heading(entry: dict[str, Any], say: Catalogue = ENGLISH_CATALOGUE) -> str:
    """What a distributed plan's rank rows are about: the world, the strategy, how they were measured."""
    plan = cluster_of(entry)
    reason = plan.get("measured_reason")
    return say.word("{gpus} ranks, {strategy}: each rank's peak; measured: {reason}", gpus=_whole(plan.get("gpus")),
                    strategy=_name(plan.get("strategy")), reason=say.text(reason) if isinstance(reason, str) else "—")  # fmt: skip


def rank_cells(entry: dict[str, Any], say: Catalogue = ENGLISH_CATALOGUE) -> list[tuple[str, ...]]:
    """A distributed plan's rows: each rank measured beside the plan, at most ``MOST_RANK_ROWS``;
    not proven, one row for every rank (all are planned the same)."""
    ranks = cluster_of(entry).get("ranks")
    measured = [r for r in ranks if isinstance(r, dict)][:MOST_RANK_ROWS] if isinstance(ranks, list) else []
    if not measured:
        return [(say.word("each"), _bytes(entry.get("estimated_peak_bytes")), "—", "—")]
    rows: list[tuple[str, ...]] = []
    for rank in measured:
        ratio = _number(rank.get("ratio"))
        rows.append((_whole(rank.get("rank")), _bytes(rank.get("planned_peak_bytes")),
                     _bytes(rank.get("measured_peak_bytes")), f"{ratio:.3f}" if ratio is not None else "—"))  # fmt: skip
    return rows


def _whole(value: Any) -> str:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else "?"


def _name(value: Any) -> str:
    """A strategy's name as the file has it, bounded (it is shown as plain text)."""
    return value[:40] if isinstance(value, str) else "?"
