"""The window's actions, with ids and typed callbacks (as napari's ``app_model`` actions).

A feature declares its actions as ``ActionSpec``s in its own ``actions.py``: an id that names
the feature and what it does (``"report.export"``), the Qt object name DESIGN.md lists (the
test handle, ``"exportReportAction"``), its text, shortcut, tooltip and platform menu role.
The shell's menu table (``shell.menus``) places them; the ``ActionRegistry`` owns one ``QAction``
per id and calls the callback bound to it.

The menus exist with the window's frame, before torch is imported and the features that
implement most actions are built; a feature binds its callbacks when it is built
(``ActionRegistry.bind``). An action triggered before its callback is bound does nothing
(the frame keeps those disabled meanwhile: ``shell.deferred_start``).

A feature that needs nothing from the window but the host's few things (``FeatureHost``:
its parent widget, the model now loaded, a passing status message) builds its own callback
(``ActionSpec.build``): it is added by its package and one line of the menu table.

Texts and tooltips are marked for translation in context "Menus" where they are declared
(``QT_TRANSLATE_NOOP("Menus", ...)``) and translated when the action is made and again on
every language change (``ActionRegistry.retranslate``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget


if TYPE_CHECKING:
    from inspector.core.session import ModelState

Shortcut = Union[QKeySequence.StandardKey, str, None]
#: What an action calls: nothing in, its result ignored.
Callback = Callable[[], object]


@dataclass(frozen=True)
class FeatureHost:
    """What the shell hands a feature that builds its own callback (``ActionSpec.build``)."""

    #: Dialogs and messages open over it.
    parent: QWidget
    #: The model the window shows now (its state as the workers last sent it); None before one loads.
    model: Callable[[], ModelState | None]
    #: A passing message in the status bar.
    say: Callable[[str], None]


@dataclass(frozen=True)
class ActionSpec:
    """One action of the window, as data."""

    #: ``"<feature>.<verb>"``: unique; what the code names the action by.
    id: str
    #: The QAction's object name (DESIGN.md): what tests and users' scripts find it by.
    name: str
    #: Marked with ``QT_TRANSLATE_NOOP("Menus", ...)``; translated where shown.
    text: str
    shortcut: Shortcut = None
    tooltip: str = ""
    role: QAction.MenuRole | None = None
    #: For a feature that is built from the host alone: makes its callback, once the
    #: session is up (``ActionRegistry.build_features``). None: the feature that implements
    #: the action binds it when it is built (``ActionRegistry.bind``).
    build: Callable[[FeatureHost], Callback] | None = None


class ActionRegistry(QObject):
    """One ``QAction`` per declared id (a child of ``parent``), and the callback bound to each."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._parent = parent
        self._specs: dict[str, ActionSpec] = {}
        self._actions: dict[str, QAction] = {}
        self._callbacks: dict[str, Callback] = {}

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

    def bind(self, spec: ActionSpec | str, callback: Callback) -> None:
        """What the action calls from now on (the feature that implements it, once built)."""
        self._callbacks[self._id(spec)] = callback

    def build_features(self, host: FeatureHost) -> None:
        """Bind the callbacks of the actions whose features build them from the host alone."""
        for spec in self._specs.values():
            if spec.build is not None and spec.id not in self._callbacks:
                self.bind(spec, spec.build(host))

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

    def by_name(self) -> dict[str, QAction]:
        """The actions by object name (the parts that enable them know them so)."""
        return {spec.name: self._actions[id] for id, spec in self._specs.items()}

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
    if spec.tooltip:
        action.setToolTip(QCoreApplication.translate("Menus", spec.tooltip))
