"""What one feature asks of another feature's widget, named by a small ``Protocol`` so that
neither imports the other (features are independent: what they share is here, in state/, or
handed to them by the shell). Each names only what is asked.

- ``InputShapeField``: the action bar's input-shape field (the moves feature's ``ActionBar``),
  which the model's opener fills, the model feature hints at, the fit dialog starts from;
- ``ActionBarFace``: the action bar as every feature sees it (its field, its target and dtype,
  its progress words), the frame's part the features share (``state.feature.FrameParts``);
- ``History``: the History tab (the history feature's ``HistoryView``), where a feature writes
  an outcome as a row;
- ``ComparisonPage``: the Compare tab (the compare feature's ``ComparisonView``), which the
  report feature feeds with this session's report and opens reports into.

mypy checks each feature's widget against its Protocol where the shell hands it over, and
every use of it against the Protocol: a name not here is an error.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol, Union

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QLineEdit, QProgressBar, QWidget

    from inspector.core.measure import MemoryTimeline
    from inspector.core.report import TimingReport

#: A text as it is, or the function that says it (said again on a change of language).
Said = Union[str, Callable[[], str]]


class ProgressShown(Protocol):
    """What is asked of the bar (the moves feature's ``ActionBar``): any feature may say
    something there without importing it."""

    @property
    def progressBar(self) -> QProgressBar: ...  # (read-only here: the bar may be a subclass)

    def show_idle(self, text: Callable[[], str] | str | None = None) -> None: ...

    def show_progress(self, fraction: float | None, text: Callable[[], str] | str) -> None: ...


class InputShapeField(Protocol):
    """The input-shape field of the action bar."""

    inputShapeEdit: QLineEdit

    def input_shape_text(self) -> str: ...


class ActionBarFace(InputShapeField, ProgressShown, Protocol):
    """The action bar (the moves feature's ``ActionBar``) as the other features use it."""

    def target_device(self) -> str: ...

    def dtype(self) -> str | None: ...  # None: the model's own dtypes kept

    def window(self) -> QWidget: ...


class History(Protocol):
    """What a feature writes its outcomes to (the History tab is one)."""

    def record(
        self, call: Said, seconds: float | None, gbps: float | None, result: Said, *, ok: bool = True, detail: Said = ""
    ) -> None: ...


class ComparisonPage(Protocol):
    """The Compare tab, as the report feature uses it."""

    reports: dict[str, TimingReport | None]  # by side, "a" and "b"
    labels: dict[str, str]
    follows_session: bool
    failed: SignalInstance  # (Failure)
    reportOpened: SignalInstance  # (side, path)

    def set_reports(self, a: TimingReport | None, b: TimingReport | None = None, *,
                    label_a: str | None = None, label_b: str | None = None) -> None: ...  # fmt: skip

    def set_session_report(self, report: TimingReport | None) -> None: ...

    def open_report(self, path: str | Path, side: str = "b") -> None: ...

    def wait(self, msecs: int) -> bool:
        """Block until a report being read is done (a close waits for it); False on timeout."""


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
