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


def format_ms(ms: float | None, *, compact: bool = False, unit: bool = True) -> str:
    """The one duration formatter: a figure in milliseconds as text.

    - default (history, status, reports): three decimals in the unit that fits,
      ``1234.5 -> '1.234 s'``, ``1.5 -> '1.500 ms'``, ``0.0123 -> '12.3 µs'``;
    - ``compact=True`` (plot labels, the benchmark's status line): three significant
      figures, ``123.4 -> '123 ms'``, ``1.234 -> '1.23 ms'``, ``0.0123 -> '12.3 µs'``;
    - ``unit=False`` (a table column headed "ms"): a bare number of milliseconds with four
      significant figures, ``1.23456 -> '1.235'``, ``123.456 -> '123.5'``.

    ``None`` (not measured) -> ``'—'``.
    """
    if ms is None:
        return "—"
    if not unit:
        return f"{ms:.1f}" if ms >= 100 else f"{ms:.4g}"
    for scale, name in ((1e3, "s"), (1.0, "ms"), (1e-3, "µs"), (1e-6, "ns")):
        if ms >= scale or name == "ns":
            value = ms / scale
            break
    if compact:
        return f"{_three_figures(value)} {name}"
    if name == "ns":  # below a microsecond the decimals say nothing: show µs
        return f"{ms * 1e3:.1f} µs"
    return f"{value:.1f} µs" if name == "µs" else f"{value:.3f} {name}"


def _three_figures(value: float) -> str:
    """Three significant figures without scientific notation (values below 1000 here)."""
    if value >= 100:
        return f"{value:.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


#: Ratios from here up (and down from its inverse) are written with an exponent: "3.15e+10"
#: says how big where eleven digits before the point only look precise.
RATIO_EXPONENT_FROM = 1e6


def format_ratio(value: float, decimals: int = 2) -> str:
    """The one ratio formatter: ``2.345 -> '2.35'``; past a million (or under a millionth)
    three significant figures with an exponent, ``3.147e10 -> '3.15e+10'``."""
    if value != 0 and (abs(value) >= RATIO_EXPONENT_FROM or abs(value) < 1 / RATIO_EXPONENT_FROM):
        return f"{value:.3g}"
    return f"{value:.{decimals}f}"


def format_seconds(s: float | None) -> str:
    """A duration in seconds, as :func:`format_ms` writes it (moves are timed in seconds)."""
    return format_ms(None if s is None else s * 1e3)


def format_gbps(gbps: float | None) -> str:
    """A transfer rate in GB/s: ``'1.25'``, ``'< 0.01'`` for a trickle, ``'—'`` when there is
    none (a failed move, or one that copied nothing)."""
    if gbps is None or gbps <= 0:
        return "—"
    return "< 0.01" if gbps < 0.01 else f"{gbps:.2f}"


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
