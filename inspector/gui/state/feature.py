"""How a feature installs itself in the window: ``Feature.install(context)``.

The shell keeps one table of features (``shell.features.FEATURES``) and, once torch is
imported, hands each the same ``FeatureContext``, in the table's order (the order they hear
an event in). A feature builds its parts from the context alone: the session state it
subscribes to and the task machine, the one door to the worker and the requests it may send,
the settings, the parent its dialogs open over, the tab pages (it fills the page laid out
under its typed key: ``pages.provide``), the menus' actions (it binds the ones it declares,
with their enablement), and the frame's shared widgets, typed by what is asked of them
(``FrameParts``). Features never reach another feature: what they share is a value or an
event on the state (``session_state``, ``runs``), or a Protocol of ``common.faces``.

What the shell does with what a feature leaves in the context: ``retranslatable`` (parts that
are no widgets but say texts: told of a new language), ``waits`` (work a close waits for: a
file being written), ``started`` (called once the session runs), and ``handles`` (the parts the tests and the window's kinds name, such as
``window.reports``: published by the feature, read by the window without knowing it; new
tests drive a feature through its actions and the state instead).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QGroupBox, QStatusBar, QTabWidget, QWidget

    from inspector.core.measure import MemoryTimeline
    from PySide6.QtGui import QAction

    from inspector.gui.common.actions import ActionRegistry, ActionSpec, Callback, Enablement, Menu
    from inspector.gui.common.code_panel import CodePanel
    from inspector.gui.common.error_banner import ErrorBanner
    from inspector.gui.common.faces import ActionBarFace, History
    from inspector.gui.common.lazy_tabs import LazyTabs
    from inspector.gui.common.status_line import StatusLine
    from inspector.gui.state.dispatcher import Dispatcher
    from inspector.gui.state.requests import Requests
    from inspector.gui.state.session_state import SessionState
    from inspector.gui.state.tasks import TaskController


class Feature(Protocol):
    """One thing a user does, installed in the window (a feature package's ``feature`` module is one)."""

    def install(self, context: FeatureContext) -> None: ...


class Retranslatable(Protocol):
    """A part that says its texts again in the language now installed."""

    def retranslate(self) -> None: ...


@dataclass(frozen=True)
class FrameParts:
    """The frame's widgets that features share (made with the window, before torch): each
    feature that owns one knows its class; the others only what a Protocol says of it."""

    action_bar: ActionBarFace  # the moves feature's bar: target, dtype, input field, progress
    banner: ErrorBanner
    history: History  # the History tab (the history feature's view)
    code: CodePanel
    status: StatusLine
    status_bar: QStatusBar
    tabs: QTabWidget  # "bottomTabs": History, the lazy pages, the tabs a feature adds
    model_box: QGroupBox  # the box around the tensor tree (the model feature titles it)
    parameters: QWidget  # the tensor tree (the model feature's ``ParametersPanel``)
    devices: QWidget  # the devices table (the devices feature's ``DevicesPanel``)


@dataclass
class FeatureContext:
    """What a feature is installed with (see the module docstring)."""

    parent: QWidget
    state: SessionState
    tasks: TaskController
    settings: QSettings
    dispatcher: Dispatcher
    requests: Requests
    pages: LazyTabs
    actions: ActionRegistry
    frame: FrameParts
    #: The memory readings since the start (the sampler fills it; the plot and the report read it).
    timeline: MemoryTimeline
    #: Ask the running task to stop at its next safe point.
    cancel: Callable[[], None]
    #: Open a model (as File › Open model… does, through the window's kind).
    open_model: Callable[[str], bool]
    #: Ask whether to trust a file that needs to run code to load (a remote window asks its own way).
    ask_trust: Callable[[str, tuple[str, ...]], None]
    #: Put an action into one of the window's menus (``shell.menus.place``: its first group).
    place: Callable[[Menu, QAction], None]
    #: Parts whose texts are said again on a change of language (each has ``retranslate()``).
    retranslatable: list[Retranslatable] = field(default_factory=list)
    waits: list[Callable[[int], bool]] = field(default_factory=list)
    #: Called once the session has started (its workers run, the menus enabled).
    started: list[Callable[[], object]] = field(default_factory=list)
    handles: dict[str, object] = field(default_factory=dict)

    def add_action(
        self, spec: ActionSpec, callback: Callback, *, menu: Menu, enabled: Enablement | None = None
    ) -> QAction:
        """A feature's own action, declared and bound in one go, and put into ``menu`` (no line
        in the menu table: the feature is its package and its line in the table of features)."""
        action = self.actions.add(spec)
        self.actions.bind(spec, callback, enabled=enabled)
        self.place(menu, action)
        self.actions.refresh()
        return action

    def publish(self, **parts: object) -> None:
        """Name parts for the tests and the window's kinds (``window.<name>``); each name once."""
        for name, part in parts.items():
            if name in self.handles:
                raise ValueError(f"two features publish {name!r}")
            self.handles[name] = part


class Live:
    """A published handle read anew each time (``window.last_export``: the report exported last)."""

    def __init__(self, read: Callable[[], object]) -> None:
        self.read = read
