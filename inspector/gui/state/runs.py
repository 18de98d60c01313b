"""A benchmark about to run, as the feature that starts it announces it on the session state
(``SessionState.benchmarkPlanned``, ``benchmarkSent``, ``benchmarkRefused``): the launch starts
it (``features.latency.launch``), the plot's follower readies the plot for it, and any other
feature may follow a run without knowing either.

``opens`` is the one thing a subscriber may add while the run is planned: the page it will
bring forward for the run (the latency plot, when it is not shown yet). The request then
leaves once that page has been drawn and settled (``Dispatcher.send(drawn_first=...)``): its
first frames are the longest the window paints, and under the benchmark they held it two to
three times as long.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QWidget


@dataclass(eq=False)
class BenchmarkRun:
    """One benchmark run, from its announcement to its start (compared by identity)."""

    device: str
    dtype: str
    mode: str
    #: The samples it will take (runs x repeats); None when unknown (a --min-time run).
    expected: int | None
    #: The page a subscriber brings forward for it, drawn before the request leaves (see above).
    opens: QWidget | None = None
