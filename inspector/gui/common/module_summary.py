"""Words for a per-module run: the top modules by self time, and what the hooks cost.

Plain strings from an ``Attribution`` (no widgets), in the window's language when they are
made, for the history entry and the progress line the window shows after a benchmark with
"per module" on (the Summary tab asks again when the language changes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.core.report import format_flops
from inspector.core.units import format_ms
from inspector.gui.common.i18n import core_text, fill, translate

if TYPE_CHECKING:
    from inspector.core.measure import Attribution, ModuleStats


def _name(m: ModuleStats) -> str:
    return m.name or translate("ModuleSummary", "(model)")


def _forward_ms(attribution: Attribution) -> float:
    """What the self-time shares are of: every module's self time together (self times never
    overlap), so the shares add up to 100 % at most; over the plain forward they added up to
    125 % where the hooks' cost was not all taken out (issue 45 item 3)."""
    return attribution.self_sum_ms or attribution.forward_without_hooks_ms or attribution.forward_with_hooks_ms or 1.0


def warning_lines(attribution: Attribution) -> list[str]:
    """Why the per-module figures are rough (``Attribution.warnings``), in the window's language."""
    return [fill(translate("ModuleSummary", "⚠ per-module figures not reliable: %1"), core_text(w))
            for w in getattr(attribution, "warnings", ())]  # fmt: skip


def top_line(attribution: Attribution, n: int = 5) -> str:
    """``"top: 2 Linear 61 %, 0 Linear 29 %, …"`` — modules by self time, share of the forward,
    and a flag when the figures are rough (the entry's detail says why)."""
    total = _forward_ms(attribution)
    parts = [f"{_name(m)} {m.type} {100 * m.self_ms / total:.0f} %" for m in attribution.top(n)]
    if not parts:
        return translate("ModuleSummary", "no module ran")
    line = fill(translate("ModuleSummary", "top: %1"), ", ".join(parts))
    if getattr(attribution, "warnings", ()):
        line += " " + translate("ModuleSummary", "(⚠ per-module figures not reliable)")
    return line


def summary_tab_text(attribution: Attribution, n: int = 5) -> str:
    """The Summary tab's line: the top ``n`` modules by self time, with time and share, then
    why the figures are rough, if they are."""
    total = _forward_ms(attribution)
    parts = [
        f"{i}. {_name(m)} ({m.type}) {format_ms(m.self_ms)}, {100 * m.self_ms / total:.0f} %"
        for i, m in enumerate(attribution.top(n), 1)
    ]
    if not parts:
        return ""
    count, listed = len(parts), "   ".join(parts)
    if getattr(attribution, "device", None):
        text = fill(translate("ModuleSummary", "Top %1 modules by self time on %2 %3 (share of all modules' self time): %4"),
                    count, attribution.device, attribution.dtype, listed)  # fmt: skip
    else:
        text = fill(translate("ModuleSummary", "Top %1 modules by self time (share of all modules' self time): %2"),
                    count, listed)  # fmt: skip
    return "\n".join([text, *warning_lines(attribution)])


def summary_lines(attribution: Attribution) -> list[str]:
    """The history entry's detail: why the figures are rough (first, when they are), the top 5
    modules with their figures, then the overhead and what was taken out."""
    lines = warning_lines(attribution)
    lines.append(translate("ModuleSummary", "Top 5 modules by self time (the model tree's Time column has every module):"))
    for m in attribution.top(5):
        shapes = ", ".join("x".join(map(str, s)) for s in m.output_shapes) or "—"
        lines.append("  " + fill(
            translate("ModuleSummary", "%1 (%2): self %3, %4 of the model's time with its children, output %5, %6"),
            _name(m), m.type, format_ms(m.self_ms), f"{100 * m.share:.1f} %", shapes, format_flops(m.flops),
        ))  # fmt: skip
    with_ms = format_ms(attribution.forward_with_hooks_ms)
    flops = format_flops(attribution.total_flops)
    if attribution.overhead_ratio is not None:
        lines.append(fill(
            translate("ModuleSummary", "forward with per-module hooks %1, without %2 (%3 — the hooks' own cost); "
                                       "%4 per forward (FlopCounterMode)"),
            with_ms, format_ms(attribution.forward_without_hooks_ms), f"{attribution.overhead_ratio:.2f}×", flops,
        ))  # fmt: skip
    else:
        lines.append(fill(translate("ModuleSummary", "forward with per-module hooks %1; %2 per forward (FlopCounterMode)"),
                          with_ms, flops))  # fmt: skip
    if getattr(attribution, "module_calls", 0):
        lines.append(fill(
            translate("ModuleSummary", "the hooks' own cost, %1 a module call (measured on empty modules), is taken out "
                                       "of every module's time; the modules' self times add up to %2, %3 the forward without hooks"),
            format_ms(attribution.hook_inner_ms + attribution.hook_outer_ms), format_ms(attribution.self_sum_ms),
            f"{attribution.sum_ratio:.2f}×" if attribution.sum_ratio is not None else "—",
        ))  # fmt: skip
    lines += [core_text(note) for note in attribution.notes]
    return lines
