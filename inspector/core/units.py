"""Human-readable sizes and durations, shared by the CLI, the GUI and reports."""

from __future__ import annotations

_BINARY_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


def format_bytes(n: int | float | None) -> str:
    """``1536 -> '1.5 KiB'``; ``None`` (unknown) -> ``'—'``."""
    if n is None:
        return "—"
    value = float(n)
    for unit in _BINARY_UNITS:
        if abs(value) < 1024 or unit == _BINARY_UNITS[-1]:
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def format_seconds(s: float | None) -> str:
    """Pick ms / µs / s so a figure reads at a glance."""
    if s is None:
        return "—"
    if s >= 1:
        return f"{s:.3f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3f} ms"
    return f"{s * 1e6:.1f} µs"
