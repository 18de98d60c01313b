"""The window's actions, with ids and typed callbacks (as napari's ``app_model`` actions).

A feature declares its actions as ``ActionSpec``s in its own ``actions.py``: an id that names
the feature and what it does (``"report.export"``), the Qt object name docs/architecture.md lists (the
test handle, ``"exportReportAction"``), its text, shortcut, tooltip and platform menu role.
The shell's menu table (``shell.menus``) places them; the ``ActionRegistry`` owns one ``QAction``
per id and calls the callback bound to it.

The menus exist with the window's frame, before torch is imported and the features that
implement most actions are built; a feature binds its callbacks when it is built
(``ActionRegistry.bind``). An action triggered before its callback is bound does nothing
(the frame keeps those disabled meanwhile: ``shell.deferred_start``).

A feature binds its actions when it is installed (``state.feature``); one that needs nothing
of the window but a few things (``FeatureHost``: its parent widget, the model now loaded, a
passing status message) is handed them as one value.

Each action declares when it is enabled, over the session's state (as app-model's
``enablement``): ``ActionSpec.enabled`` is a predicate of a ``Situation`` (the session up or not,
idle or not, the model loaded, what the session can do), and ``while_loading`` says it works
before the session exists (Quit, the Help pages); a feature whose action depends on its own
state gives its predicate when it binds (``bind(..., enabled=...)``). The shell hands the
registry the situation and the signals that change it (``follow``); nothing enables an action
by its object name.

Texts and tooltips are marked for translation in context "Menus" where they are declared
(``QT_TRANSLATE_NOOP("Menus", ...)``; another context where ``tip_context`` says so) and
translated when the action is made and again on every language change
(``ActionRegistry.retranslate``); a disabled action with a ``disabled_tip`` says why instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Union

from PySide6.QtCore import QCoreApplication, QObject, SignalInstance
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget


if TYPE_CHECKING:
    from inspector.core.session import ModelState

Shortcut = Union[QKeySequence.StandardKey, str, None]
#: What an action calls: nothing in, its result ignored.
Callback = Callable[[], object]


@dataclass(frozen=True)
class FeatureHost:
    """The few things an action that needs nothing else of the window asks for."""

    #: Dialogs and messages open over it.
    parent: QWidget
    #: The model the window shows now (its state as the workers last sent it); None before one loads.
    model: Callable[[], ModelState | None]
    #: A passing message in the status bar.
    say: Callable[[str], None]


class Menu(Enum):
    """The window's menus, by the object name of each (``shell.menus``), for a feature that adds
    an action of its own when it is installed (``state.feature.FeatureContext.add_action``)."""

    FILE = "fileMenu"
    EDIT = "editMenu"
    VIEW = "viewMenu"
    TOOLS = "toolsMenu"
    HELP = "helpMenu"


@dataclass(frozen=True)
class Situation:
    """What an action's enablement is decided from (``ActionSpec.enabled``)."""

    #: The session exists (torch imported, its workers started).
    started: bool = False
    #: No task runs and the window is not closing.
    idle: bool = False
    #: The model loaded now (its state as the workers last sent it); None before one loads.
    model: ModelState | None = None
    #: The session can run the tutorial's lessons (an agent's protocol has none).
    lessons: bool = False


#: An action's enablement: whether it is enabled in a situation.
Enablement = Callable[[Situation], bool]


def when_idle(situation: Situation) -> bool:
    return situation.idle


def when_idle_with_model(situation: Situation) -> bool:
    return situation.idle and situation.model is not None


@dataclass(frozen=True)
class ActionSpec:
    """One action of the window, as data."""

    #: ``"<feature>.<verb>"``: unique; what the code names the action by.
    id: str
    #: The QAction's object name (docs/architecture.md): what tests and users' scripts find it by.
    name: str
    #: Marked with ``QT_TRANSLATE_NOOP("Menus", ...)``; translated where shown.
    text: str
    shortcut: Shortcut = None
    tooltip: str = ""
    role: QAction.MenuRole | None = None
    #: When it is enabled once the session is up (None: always); before that, only if ``while_loading``.
    enabled: Enablement | None = None
    #: Usable before the session exists (while torch is imported): needs nothing of it.
    while_loading: bool = False
    #: The tooltip while it is disabled (why), if it says one.
    disabled_tip: str = ""
    #: The translation context of ``tooltip`` and ``disabled_tip``.
    tip_context: str = "Menus"


class ActionRegistry(QObject):
    """One ``QAction`` per declared id (a child of ``parent``), and the callback bound to each."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._parent = parent
        self._specs: dict[str, ActionSpec] = {}
        self._actions: dict[str, QAction] = {}
        self._callbacks: dict[str, Callback] = {}
        #: Enablements given at ``bind`` (a feature's own state), in place of the spec's.
        self._enabled: dict[str, Enablement] = {}
        #: What ``refresh`` reads (``follow``); before that, the frame's: no session yet.
        self._situation: Callable[[], Situation] = Situation

    def add(self, spec: ActionSpec) -> QAction:
        """The action for ``spec`` (made once; a second spec with the same id or object name is an error)."""
        known = self._specs.get(spec.id)
        if known is not None:
            if known != spec:
                raise ValueError(f"two actions declared with the id {spec.id!r}")
            return self._actions[spec.id]
        if any(s.name == spec.name for s in self._specs.values()):
            raise ValueError(f"two actions declared with the object name {spec.name!r}")
        action = QAction(self._parent)
        action.setObjectName(spec.name)
        if spec.shortcut is not None:
            action.setShortcut(QKeySequence(spec.shortcut))
        if spec.role is not None:
            action.setMenuRole(spec.role)
        action.triggered.connect(lambda _checked=False, id=spec.id: self.trigger(id))
        self._specs[spec.id] = spec
        self._actions[spec.id] = action
        _set_texts(action, spec)
        return action

    def bind(self, spec: ActionSpec | str, callback: Callback, *, enabled: Enablement | None = None) -> None:
        """What the action calls from now on (the feature that implements it, once built);
        ``enabled``: its enablement, where it reads the feature's own state (else the spec's)."""
        self._callbacks[self._id(spec)] = callback
        if enabled is not None:
            self._enabled[self._id(spec)] = enabled

    def follow(self, situation: Callable[[], Situation], *changed: SignalInstance) -> None:
        """Enable the actions by ``situation()`` now and whenever one of ``changed`` is emitted."""
        self._situation = situation
        for signal in changed:
            signal.connect(lambda *_args: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        """Enable each action as its enablement says in the situation now."""
        situation = self._situation()
        for id, spec in self._specs.items():
            action = self._actions[id]
            enabled = self._enabled.get(id, spec.enabled)
            if not situation.started:
                action.setEnabled(spec.while_loading)
            else:
                action.setEnabled(enabled is None or enabled(situation))
            if spec.disabled_tip:  # (others keep their tip: a remote window says its own for Lessons)
                _set_tip(action, spec)

    def trigger(self, spec: ActionSpec | str) -> None:
        """Call the action's callback; nothing while none is bound."""
        callback = self._callbacks.get(self._id(spec))
        if callback is not None:
            callback()

    def is_bound(self, spec: ActionSpec | str) -> bool:
        return self._id(spec) in self._callbacks

    def action(self, spec: ActionSpec | str) -> QAction:
        return self._actions[self._id(spec)]

    def spec(self, id: str) -> ActionSpec:
        return self._specs[id]

    def specs(self) -> tuple[ActionSpec, ...]:
        return tuple(self._specs.values())

    def retranslate(self) -> None:
        """Every action's text and tooltip again, in the language now installed."""
        for id, spec in self._specs.items():
            _set_texts(self._actions[id], spec)

    def _id(self, spec: ActionSpec | str) -> str:
        id = spec.id if isinstance(spec, ActionSpec) else spec
        if id not in self._specs:
            raise KeyError(f"no action declared with the id {id!r}")
        return id


def _set_texts(action: QAction, spec: ActionSpec) -> None:
    action.setText(QCoreApplication.translate("Menus", spec.text))
    _set_tip(action, spec)


def _set_tip(action: QAction, spec: ActionSpec) -> None:
    tip = spec.disabled_tip if spec.disabled_tip and not action.isEnabled() else spec.tooltip
    if tip:
        action.setToolTip(QCoreApplication.translate(spec.tip_context, tip))
