"""Tab pages built when first needed: when their tab is first shown, or first asked for.

The window's first second goes to listing the model's tensors (issue 12: "ready" within
0.5 s of the floor); the Latency plot and the Compare view sit behind tabs nobody sees at
start and cost a tenth of a second to build (pyqtgraph plots, the comparison tables and the
report modules they import). Each waits behind an empty page until its tab is selected (it
is built before that paint, so the window never shows the empty page) or code asks for it
(``page(key)``: a benchmark streaming samples, a report opened).

Pages are named by typed keys (``TabKey[T]``, the window's in ``common.pages``), never by
strings: ``page(key)`` returns the ``T`` the key promises, so a misspelt page is an unknown
name at import and a type checker sees what the caller does with the page.

A page the window will need at the start of work can be built ahead of need, once the window
has been idle a moment (``build_when_idle``): built at the start of the first benchmark, the
Latency plot held the event loop ~90 ms (its import and construction), the longest stall of a
cast-and-benchmark run (the target, docs/performance.md: <= 50 ms while working).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, SignalInstance
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from inspector.gui.common.i18n import translate

#: What a key's page is (a widget, or the Protocol that names what its users ask of it).
T = TypeVar("T")
#: The same, for the key itself: a key holds no page, only names its type, so a
#: ``TabKey[LatencyPage]`` is a ``TabKey[object]`` (what code that takes any key names).
T_co = TypeVar("T_co", covariant=True)


@dataclass(frozen=True)
class TabKey(Generic[T_co]):
    """A lazy tab page, by a name that is not a string at the call: ``page(key)`` is a ``T``."""

    #: The page's name: its placeholder is ``<name>Pending`` until it is built.
    name: str
    #: Its tab's title, marked with ``QT_TRANSLATE_NOOP("Layout", ...)``; translated where shown.
    title: str


@dataclass
class _Pending:
    title: str
    placeholder: QWidget
    factory: Callable[..., QWidget] | None = None
    prepare: Callable[[], object] | None = None


#: How long no task must have run before a page is built ahead of need (ms): the window's
#: own paints after a load go first, and a task started right after it is not delayed by a
#: build it does not need. (Idle means no task: a user scrolling then still meets the build.)
IDLE_BUILD_DELAY_MS = 400
#: Between two steps of a build ahead of need (ms): the event loop runs, and paints, between.
STEP_GAP_MS = 30


class LazyTabs:
    """Pages of ``tabs`` made by a factory on first use (see the module docstring)."""

    def __init__(self, tabs: QTabWidget) -> None:
        self.tabs = tabs
        self._pending: dict[TabKey[object], _Pending] = {}
        self._built: dict[TabKey[object], QWidget] = {}
        #: Every key added, in order (their titles are said again on a change of language).
        self._keys: list[TabKey[object]] = []
        #: Pages whose work at idle (``build_when_idle``) is not all done yet.
        self._ahead: set[TabKey[object]] = set()
        #: Says each page once it is built (by its tab shown, by ``page``, or ahead of need).
        self.built: list[Callable[[TabKey[object], QWidget], object]] = []
        #: Pages cannot be built yet (the window's first second, torch still being imported):
        #: a tab shown now keeps its placeholder until ``release``.
        self.held = False
        # Connected before anyone else's slot, so theirs sees the real page.
        tabs.currentChanged.connect(self._on_current_changed)

    def add(
        self, key: TabKey[T], factory: Callable[..., QWidget] | None = None, prepare: Callable[[], object] | None = None,
    ) -> None:  # fmt: skip
        """A tab titled ``key.title`` whose page ``factory()`` makes when first needed (given the
        parts ``build_when_idle``'s steps made ahead, where they did: ``factory(*parts)``).
        ``prepare``: the factory's own work that may run off the GUI thread (its module's
        import), which ``build_when_idle`` runs after its own ``prepare``. No factory yet: the
        tab is laid out now, and its feature ``provide``s the factory later."""
        if key in self._pending or key in self._built:
            raise ValueError(f"two tab pages added with the name {key.name!r}")
        title = translate("Layout", key.title)
        placeholder = QWidget()
        placeholder.setObjectName(f"{key.name}Pending")
        self._pending[key] = _Pending(title, placeholder, factory, prepare)
        self._keys.append(key)
        self.tabs.addTab(placeholder, title)

    def provide(
        self, key: TabKey[T], factory: Callable[..., QWidget], prepare: Callable[[], object] | None = None,
    ) -> None:  # fmt: skip
        """The factory (and ``prepare``, as ``add`` takes them) of ``key``'s page, laid out
        already (``add`` without one) or added now, at the end."""
        pending = self._pending.get(key)
        if pending is None:
            self.add(key, factory, prepare)
            return
        if pending.factory is not None:
            raise ValueError(f"two factories provided for the tab page {key.name!r}")
        pending.factory, pending.prepare = factory, prepare

    def retranslate(self) -> None:
        """Retitle every page's tab, built or not, in the language now installed."""
        for key in self._keys:
            title = translate("Layout", key.title)
            pending = self._pending.get(key)
            if pending is not None:
                pending.title = title
            page = pending.placeholder if pending is not None else self._built.get(key)
            index = self.tabs.indexOf(page) if page is not None else -1
            if index >= 0:
                self.tabs.setTabText(index, title)

    def is_built(self, key: TabKey[object]) -> bool:
        return key in self._built

    def done_ahead(self, key: TabKey[object]) -> bool:
        """``key``'s page is built and the work ``build_when_idle`` does on it ahead of need is done."""
        return key in self._built and key not in self._ahead

    def page(self, key: TabKey[T], parts: Sequence[object] = ()) -> T:
        """The page of ``key``, built now if it was not yet (from ``parts`` made ahead, if any)."""
        built = self._built.get(key)
        if built is not None:
            return cast(T, built)
        pending = self._pending[key]
        if pending.factory is None:
            raise LookupError(f"no feature provided the tab page {key.name!r}")
        del self._pending[key]
        widget = pending.factory(*parts)
        self._built[key] = widget
        index = self.tabs.indexOf(pending.placeholder)
        current = self.tabs.currentIndex()
        # Swapping the page is not a change of tab: nobody hears about it.
        with QSignalBlocker(self.tabs):
            self.tabs.insertTab(index, widget, pending.title)
            self.tabs.removeTab(index + 1)
            self.tabs.setCurrentIndex(current)
        pending.placeholder.deleteLater()
        for heard in self.built:
            heard(key, widget)
        return cast(T, widget)

    def show(self, key: TabKey[object]) -> None:
        """Bring ``key``'s page forward (built now if it was not yet)."""
        self.page(key)
        self.tabs.setCurrentWidget(self._built[key])

    def is_shown(self, key: TabKey[object]) -> bool:
        """Whether ``key``'s page is built and its tab is the one shown."""
        built = self._built.get(key)
        return built is not None and self.tabs.currentWidget() is built

    def build_when_idle(
        self,
        key: TabKey[object],
        idle: Callable[[], bool],
        idle_changed: SignalInstance,
        prepare: Sequence[Callable[[], object]] = (),
        steps: Sequence[Callable[[], object]] = (),
        then: Sequence[Callable[[QWidget], object]] = (),
    ) -> None:
        """Build ``key``'s page once ``idle()`` has held for ``IDLE_BUILD_DELAY_MS``.

        ``idle_changed`` is emitted whenever ``idle()`` may have changed. ``prepare`` (imports,
        say; then the page's own, given to ``add``) runs at the first idle moment, on a thread of its own: an import holds the GIL
        only in 5 ms turns, where on the GUI thread it held the event loop for all of its
        ~50-70 ms (and not under work: it would take its share from a benchmark). Then
        ``steps``, on the GUI thread, each at an idle moment of its own (``STEP_GAP_MS`` apart):
        the parts of a page too slow to make in one turn of the event loop (a pyqtgraph plot
        widget is ~30 ms); what they return is handed to the page's factory. Then the build.
        ``then``: work on the page once built (by this or by a first use), each at an idle
        moment of its own likewise: what its first use would otherwise do in one go.
        Work that starts in between postpones the rest to the next idle moment; a page already
        built by then (its tab shown, or asked for) is left as it is, and makes its own parts.
        """
        pending = self._pending.get(key)
        if pending is not None and pending.prepare is not None:
            prepare = [*prepare, pending.prepare]
        prepared = threading.Event()
        started: list[threading.Thread] = []

        def run_prepare() -> None:
            try:
                for step in prepare:
                    step()
            finally:
                prepared.set()

        made: list[object] = []
        after = list(then)  # the steps on the built page still to run
        self._ahead.add(key)
        timer = QTimer(self.tabs, singleShot=True, interval=IDLE_BUILD_DELAY_MS)

        def discard_made() -> None:  # the page was built without them (its tab shown first)
            for part in made:
                getattr(part, "deleteLater", lambda: None)()
            made.clear()

        def rearm(*_args: object) -> None:
            if key not in self._pending:
                discard_made()
            if key not in self._pending and not after:
                idle_changed.disconnect(rearm)
            elif idle():
                timer.start(IDLE_BUILD_DELAY_MS)  # (re)starts the countdown
            else:
                timer.stop()

        def build() -> None:
            if not idle():
                return
            if key not in self._pending:
                discard_made()
                if after:
                    after.pop(0)(self._built[key])
                    timer.start(STEP_GAP_MS)  # the next one at another turn
                else:
                    self._ahead.discard(key)
                return
            if prepare and not started:
                started.append(threading.Thread(target=run_prepare, name=f"prepare-{key.name}", daemon=True))
                started[0].start()
            if prepare and not prepared.is_set():  # still importing: look again after another moment
                timer.start(IDLE_BUILD_DELAY_MS)
                return
            if len(made) < len(steps):
                made.append(steps[len(made)]())
                timer.start(STEP_GAP_MS)  # the next step (or the build) at another turn
                return
            parts = tuple(made)
            made.clear()  # the page's own now
            self.page(key, parts)
            if after:
                timer.start(STEP_GAP_MS)
            else:
                self._ahead.discard(key)

        timer.timeout.connect(build)
        idle_changed.connect(rearm)
        rearm()

    def hold(self, waiting: str) -> None:
        """Pages wait: a tab shown until ``release`` shows ``waiting`` on its placeholder."""
        self.held = True
        for pending in self._pending.values():
            label = QLabel(waiting, pending.placeholder)
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            QVBoxLayout(pending.placeholder).addWidget(label)

    def release(self) -> None:
        """Pages can be built: the tab shown now, if it waited, is built at once."""
        self.held = False
        for pending in self._pending.values():
            for label in pending.placeholder.findChildren(QLabel):
                label.hide()
        self._on_current_changed(self.tabs.currentIndex())

    def _on_current_changed(self, index: int) -> None:
        if self.held:
            return
        shown = self.tabs.widget(index)
        for key, pending in list(self._pending.items()):
            if pending.placeholder is shown:
                self.page(key)
                return
