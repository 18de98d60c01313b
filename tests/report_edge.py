"""A report as a test hands it in: as a script would, a dict read once, at the edge, into the
typed report the writer, the views and the comparison take (``TimingReport``, issue 44)."""

from __future__ import annotations

from typing import Any

from inspector.core.report.schema import TimingReport


def typed(report: Any) -> TimingReport:
    """``report`` itself when it is a ``TimingReport``, else the dict read by ``TimingReport.lenient``
    (never raising: a field of the wrong type reads as absent)."""
    return report if isinstance(report, TimingReport) else TimingReport.lenient(report)
