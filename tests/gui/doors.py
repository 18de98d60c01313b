"""The window through its features' doors, as issue 44 asks tests to reach it: the session state
(its values, and the task machine it asks), an action by its ``ActionSpec``, a tab page by its
typed key (``common.pages``), and a feature's part or widget by its class, found in the window's
object tree. None of these names an attribute of the window beyond the state, the actions and
the pages, so a feature can move without its tests following the window's attributes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

if TYPE_CHECKING:
    from inspector.core.session import ModelState
    from inspector.gui.common.actions import ActionSpec
    from inspector.gui.common.error_banner import ErrorBanner
    from inspector.gui.common.lazy_tabs import TabKey
    from inspector.gui.features.history.panel import HistoryView
    from inspector.gui.features.moves.action_bar import ActionBar
    from inspector.gui.state.session_state import SessionState
    from inspector.gui.state.tasks import Task

T = TypeVar("T")
Q = TypeVar("Q", bound=QObject)


def state(window: Any) -> SessionState:
    """The evented session state every feature hears."""
    return window.session_state


def busy(window: Any) -> Task | None:
    """The task the window waits for (the task machine's); None when idle."""
    return state(window).tasks.task  # type: ignore[union-attr]


def model(window: Any) -> ModelState | None:
    """The model as the workers last sent it."""
    return state(window).model


def part(window: QObject, kind: type[Q]) -> Q:
    """The one part or widget of class ``kind`` in the window (a feature's, made with the window as its parent)."""
    found = window.findChildren(kind)
    assert len(found) == 1, f"{len(found)} {kind.__name__} in the window"
    return found[0]


def bar(window: QObject) -> ActionBar:
    """The moves feature's action bar."""
    from inspector.gui.features.moves.action_bar import ActionBar

    return part(window, ActionBar)


def action(window: QObject, spec: ActionSpec) -> QAction:
    """The menu action ``spec`` declares."""
    found = window.findChild(QAction, spec.name)
    assert found is not None, f"no action {spec.name!r}"
    return found


def page(window: Any, key: TabKey[T]) -> T:
    """The tab page under ``key``, built if it was not yet."""
    return window.lazy_tabs.page(key)


def banner(window: QObject) -> ErrorBanner:
    """The error banner (``common.error_banner``: object name ``errorBanner``)."""
    from inspector.gui.common.error_banner import ErrorBanner

    return part(window, ErrorBanner)


def history_view(window: QObject) -> HistoryView:
    """The History tab's table (the history feature's: object name ``historyView``)."""
    from inspector.gui.features.history.panel import HistoryView

    return part(window, HistoryView)
