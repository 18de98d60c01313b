"""The window's lazy tab pages, by typed key (``lazy_tabs.TabKey``): ``pages.page(LATENCY)``
is a ``LatencyPage``, never a string looked up into a bare ``QWidget``.

The feature that owns a page adds it under its key (its install: ``state.feature``); a
feature that uses another's page knows it only by the Protocol here, which names what it
asks of it (the report feature draws both plots into an HTML report and feeds the Compare
view; the shell asks how long a benchmark has measured before a close).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Protocol


from inspector.gui.common.faces import ComparisonPage
from inspector.gui.common.lazy_tabs import TabKey
from inspector.gui.common.marks import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from inspector.core.measure import MemoryTimeline


class MemoryPage(Protocol):
    """The Memory tab's plot (``features.memory.plot.MemoryPlot``), as others use it."""

    timeline: MemoryTimeline
    markers: list[Any]  # the memory feature's ``Marker``s (a report redraws them in its language)

    def schedule_redraw(self, _readings: object = None) -> None: ...

    def render_png(self, width: int = 960, height: int = 480, *, english: bool = True) -> bytes: ...


class LatencyPage(Protocol):
    """The Latency tab's plot (``features.latency.plot.LatencyPlot``), as others use it."""

    @property
    def series(self) -> Collection[object]:
        """The runs drawn (none: nothing to draw into a report)."""

    def measuring_seconds(self) -> float: ...

    def render_png(self, width: int = 960, height: int = 480, view: str = "samples", *, english: bool = True) -> bytes: ...


MEMORY: TabKey[MemoryPage] = TabKey("memoryPlot", QT_TRANSLATE_NOOP("Layout", "Memory"))
LATENCY: TabKey[LatencyPage] = TabKey("latencyPlot", QT_TRANSLATE_NOOP("Layout", "Latency"))
COMPARISON: TabKey[ComparisonPage] = TabKey("comparisonView", QT_TRANSLATE_NOOP("Layout", "Compare"))
