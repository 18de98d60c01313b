"""Human-readable text for values: sizes, durations, dtype names, error lines.

Shared by the core, the CLI, the GUI and reports, so each value reads the same everywhere.
"""

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


def dtype_name(dtype: object) -> str:
    """``torch.bfloat16 -> 'bfloat16'``: the name without the module, as users type it."""
    return str(dtype).removeprefix("torch.")


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type's name when the message is empty).

    PyTorch's messages often run on with C++ frames or hints; a one-line error keeps the
    first line, and the rest goes to the error's detail.
    """
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
