"""What makes a latency plot readable, without widgets: the y range that fits the bulk of
the samples (outliers are drawn clipped at its edge and counted), the time unit an axis and
its labels share. It imports no module of the window.

A 36 µs median with one 2.5 ms scheduler hiccup would otherwise put every sample on the
zero line; the outliers are still there (counted, and the log scale shows them all).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# np.percentile imports numpy.ma on its first call (np.unique asks np.ma.is_masked). That was
# ~30 ms on the GUI thread at the first draw of the first benchmark; here it comes with the
# Latency plot, which the window builds while idle (gui.lazy_tabs.build_when_idle).
import numpy.ma  # noqa: F401

#: (name, milliseconds per unit), largest first: an axis shows the largest that is >= 1.
TIME_UNITS = (("s", 1e3), ("ms", 1.0), ("µs", 1e-3))
#: Room above the bulk's largest sample, as a share of the range.
TOP_MARGIN = 0.06
#: Samples more than this many IQRs above the third quartile are outliers (Tukey's "far out"
#: fence is 3; 5 keeps a long but real tail in view).
FENCE_IQRS = 5.0
#: ...and never closer than this share of the median above it (timings quantised to a tick
#: can have an IQR of zero).
FENCE_MEDIAN_SHARE = 0.5


@dataclass(frozen=True)
class BulkRange:
    """The y range (ms) that shows the bulk of some samples, and what lies above it."""

    top_ms: float  # the axis top: every sample at or below it is drawn where it is
    outliers: int  # samples above it, drawn clipped at the top edge
    largest_ms: float  # the largest sample (the largest outlier when there are some)


def bulk_range(values_ms: np.ndarray) -> BulkRange | None:
    """The top of the y axis for ``values_ms`` (NaN ignored), or None without a sample.

    The fence sits ``FENCE_IQRS`` interquartile ranges above the third quartile; the axis
    ends just above the largest sample under it, so nothing but a real outlier is clipped.
    """
    values = np.asarray(values_ms, dtype=float)
    values = values[np.isfinite(values)]
    if not values.size:
        return None
    largest = float(values.max())
    if values.size < 4:
        return BulkRange(_with_margin(largest), 0, largest)
    q1, median, q3 = np.percentile(values, (25, 50, 75))
    fence = q3 + max(FENCE_IQRS * (q3 - q1), FENCE_MEDIAN_SHARE * abs(median))
    inside = values[values <= fence]
    top = float(inside.max()) if inside.size else largest
    return BulkRange(_with_margin(top), int(np.count_nonzero(values > top)), largest)


def _with_margin(top: float) -> float:
    return top * (1 + TOP_MARGIN) if top > 0 else 1.0


def time_unit(ms: float) -> tuple[str, float]:
    """The unit an axis whose largest value is ``ms`` reads best in: (name, ms per unit)."""
    for name, scale in TIME_UNITS:
        if abs(ms) >= scale:
            return name, scale
    return TIME_UNITS[-1]


def format_in_unit(ms: float, unit: tuple[str, float]) -> str:
    """``ms`` in ``unit`` with three significant figures: the labels speak the axis's unit."""
    value = ms / unit[1]
    text = f"{value:.0f}" if abs(value) >= 100 else f"{value:.1f}" if abs(value) >= 10 else f"{value:.2f}"
    return f"{text} {unit[0]}"

