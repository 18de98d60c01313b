"""Words for a per-module run: the top modules by self time, and what the hooks cost.

Plain strings from an ``Attribution`` (no widgets), for the history entry and the progress
line the window shows after a benchmark with "per module" on.
"""

from __future__ import annotations

from typing import Any

from inspector.core.report.modules import format_flops
from inspector.core.units import format_ms


def top_line(attribution: Any, n: int = 5) -> str:
    """``"top: 2 Linear 61 %, 0 Linear 29 %, …"`` — modules by self time, share of the forward."""
    total = attribution.forward_with_hooks_ms or 1.0
    parts = [f"{m.name or '(model)'} {m.type} {100 * m.self_ms / total:.0f} %" for m in attribution.top(n)]
    return "top: " + ", ".join(parts) if parts else "no module ran"


def summary_tab_text(attribution: Any, n: int = 5) -> str:
    """The Summary tab's line: the top ``n`` modules by self time, with time and share."""
    total = attribution.forward_with_hooks_ms or 1.0
    parts = [
        f"{i}. {m.name or '(model)'} ({m.type}) {format_ms(m.self_ms)}, {100 * m.self_ms / total:.0f} %"
        for i, m in enumerate(attribution.top(n), 1)
    ]
    if not parts:
        return ""
    where = f" on {attribution.device} {attribution.dtype}" if getattr(attribution, "device", None) else ""
    return f"Top {len(parts)} modules by self time{where} (share of the hooked forward): " + "   ".join(parts)


def summary_lines(attribution: Any) -> list[str]:
    """The history entry's detail: the top 5 modules with their figures, then the overhead."""
    lines = ["Top 5 modules by self time (the model tree's Time column has every module):"]
    for m in attribution.top(5):
        shapes = ", ".join("x".join(map(str, s)) for s in m.output_shapes) or "—"
        lines.append(
            f"  {m.name or '(model)'} ({m.type}): self {format_ms(m.self_ms)}, "
            f"{100 * m.share:.1f} % of the forward with its children, output {shapes}, {format_flops(m.flops)}"
        )
    with_ms = attribution.forward_with_hooks_ms
    line = f"forward with per-module hooks {format_ms(with_ms)}"
    if attribution.overhead_ratio is not None:
        line += (
            f", without {format_ms(attribution.forward_without_hooks_ms)} "
            f"({attribution.overhead_ratio:.2f}× — the hooks' own cost)"
        )
    lines.append(line + f"; {format_flops(attribution.total_flops)} per forward (FlopCounterMode)")
    lines += list(attribution.notes)
    return lines
