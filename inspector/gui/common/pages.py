"""The window's lazy tab pages, by typed key (``lazy_tabs.TabKey``): ``pages.page(LATENCY)``
is a ``LatencyPage``, never a string looked up into a bare ``QWidget``.

The feature that owns a page adds it under its key (its install: ``state.feature``); a
feature that uses another's page knows it only by its Protocol (``common.faces``), which names what it
asks of it (the report feature draws both plots into an HTML report and feeds the Compare
view; the shell asks how long a benchmark has measured before a close).
"""

from __future__ import annotations

from inspector.gui.common.faces import ComparisonPage, LatencyPage, MemoryPage
from inspector.gui.common.lazy_tabs import TabKey
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

MEMORY: TabKey[MemoryPage] = TabKey("memoryPlot", QT_TRANSLATE_NOOP("Layout", "Memory"))
LATENCY: TabKey[LatencyPage] = TabKey("latencyPlot", QT_TRANSLATE_NOOP("Layout", "Latency"))
COMPARISON: TabKey[ComparisonPage] = TabKey("comparisonView", QT_TRANSLATE_NOOP("Layout", "Compare"))
