"""Words for a per-module run: the top modules by self time, and what the hooks cost.

Plain strings from an ``Attribution`` (no widgets), in the window's language when they are
made, for the history entry and the progress line the window shows after a benchmark with
"per module" on (the Summary tab asks again when the language changes).
"""

from __future__ import annotations

from typing import Any

from inspector.core.report.modules import format_flops
from inspector.core.units import format_ms
from inspector.gui.i18n import core_text, fill, translate


def _name(m: Any) -> str:
    return m.name or translate("ModuleSummary", "(model)")


def top_line(attribution: Any, n: int = 5) -> str:
    """``"top: 2 Linear 61 %, 0 Linear 29 %, …"`` — modules by self time, share of the forward."""
    total = attribution.forward_with_hooks_ms or 1.0
    parts = [f"{_name(m)} {m.type} {100 * m.self_ms / total:.0f} %" for m in attribution.top(n)]
    if not parts:
        return translate("ModuleSummary", "no module ran")
    return fill(translate("ModuleSummary", "top: %1"), ", ".join(parts))


def summary_tab_text(attribution: Any, n: int = 5) -> str:
    """The Summary tab's line: the top ``n`` modules by self time, with time and share."""
    total = attribution.forward_with_hooks_ms or 1.0
    parts = [
        f"{i}. {_name(m)} ({m.type}) {format_ms(m.self_ms)}, {100 * m.self_ms / total:.0f} %"
        for i, m in enumerate(attribution.top(n), 1)
    ]
    if not parts:
        return ""
    count, listed = len(parts), "   ".join(parts)
    if getattr(attribution, "device", None):
        return fill(translate("ModuleSummary", "Top %1 modules by self time on %2 %3 (share of the hooked forward): %4"),
                    count, attribution.device, attribution.dtype, listed)  # fmt: skip
    return fill(translate("ModuleSummary", "Top %1 modules by self time (share of the hooked forward): %2"), count, listed)


def summary_lines(attribution: Any) -> list[str]:
    """The history entry's detail: the top 5 modules with their figures, then the overhead."""
    lines = [translate("ModuleSummary", "Top 5 modules by self time (the model tree's Time column has every module):")]
    for m in attribution.top(5):
        shapes = ", ".join("x".join(map(str, s)) for s in m.output_shapes) or "—"
        lines.append("  " + fill(
            translate("ModuleSummary", "%1 (%2): self %3, %4 of the forward with its children, output %5, %6"),
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
    lines += [core_text(note) for note in attribution.notes]
    return lines
