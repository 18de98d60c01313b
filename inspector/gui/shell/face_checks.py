"""Each feature's widget held to the face the other features know it by (``common.faces``,
``common.pages``): features never import each other, so nothing else would tell mypy that the
action bar, the History tab or a plot still has what those Protocols promise. Nothing here
runs (``TYPE_CHECKING`` only); the Compare view checks itself (``features.compare.view``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.gui.common.faces import ActionBarFace, History
    from inspector.gui.common.faces import LatencyPage, MemoryPage
    from inspector.gui.features.history.panel import HistoryView
    from inspector.gui.features.latency.plot import LatencyPlot
    from inspector.gui.features.memory.plot import MemoryPlot
    from inspector.gui.features.moves.action_bar import ActionBar

    _ACTION_BAR: type[ActionBarFace] = ActionBar
    _HISTORY: type[History] = HistoryView
    _LATENCY: type[LatencyPage] = LatencyPlot
    _MEMORY: type[MemoryPage] = MemoryPlot
