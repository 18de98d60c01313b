"""Tab pages built ahead of need while the window is idle (``LazyTabs.build_when_idle``).

The Latency plot used to be built at the start of the first benchmark, in the same turn of
the event loop as the switch to its tab: the longest stall of a cast-and-benchmark run.
"""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel, QTabWidget

from inspector.gui.common import lazy_tabs
from inspector.gui.common.lazy_tabs import LazyTabs, TabKey
from inspector.gui.common.pages import COMPARISON, LATENCY
from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS

#: The page these tests build (a label stands in for a plot).
PLOT: TabKey[QLabel] = TabKey("plot", "Latency")


class _Work(QObject):
    """Stands in for the window's task state: ``busyChanged`` and whether it is idle."""

    changed = Signal(object)

    def __init__(self, idle: bool) -> None:
        super().__init__()
        self.idle = idle

    def set_idle(self, idle: bool) -> None:
        self.idle = idle
        self.changed.emit(None if idle else "move")


@pytest.fixture
def tabs(qtbot, monkeypatch):
    monkeypatch.setattr(lazy_tabs, "IDLE_BUILD_DELAY_MS", 20)
    widget = QTabWidget()
    qtbot.addWidget(widget)
    widget.addTab(QLabel("history"), "History")
    return widget


def _lazy(tabs: QTabWidget, calls: list[str]) -> LazyTabs:
    lazy = LazyTabs(tabs)

    def build() -> QLabel:
        calls.append("build")
        return QLabel("plot", objectName="plot")

    lazy.add(PLOT, build)
    return lazy


def test_a_page_is_built_after_its_imports_once_the_window_is_idle(qtbot, tabs):
    calls: list[str] = []
    lazy, work = _lazy(tabs, calls), _Work(idle=False)
    lazy.build_when_idle(PLOT, lambda: work.idle, work.changed,
                         prepare=[lambda: calls.append("import a"), lambda: calls.append("import b")])  # fmt: skip
    qtbot.wait(150)
    assert calls == [] and not lazy.is_built(PLOT)  # busy: nothing is built under the work

    work.set_idle(True)
    qtbot.waitUntil(lambda: lazy.is_built(PLOT), timeout=GENEROUS_MS)
    assert calls == ["import a", "import b", "build"]
    # Built where its tab is, behind the tab on screen, which stays on screen.
    assert tabs.currentIndex() == 0 and tabs.tabText(1) == "Latency"
    assert tabs.widget(1) is lazy.page(PLOT) and not lazy.page(PLOT).isVisible()


def test_a_pages_own_import_runs_off_the_gui_thread_after_the_builders(qtbot, tabs):
    # The window registers the Latency page with its module's import (``shell.layout``); the
    # latency feature, which builds it at idle, names only the imports it needs itself.
    calls: list[tuple[str, bool]] = []

    def on_thread(name: str) -> None:
        calls.append((name, threading.current_thread() is threading.main_thread()))

    lazy, work = LazyTabs(tabs), _Work(idle=True)
    lazy.add(PLOT, lambda: QLabel("plot"), prepare=lambda: on_thread("page's module"))
    lazy.build_when_idle(PLOT, lambda: work.idle, work.changed, prepare=[lambda: on_thread("core")])
    qtbot.waitUntil(lambda: lazy.is_built(PLOT), timeout=GENEROUS_MS)
    assert calls == [("core", False), ("page's module", False)]


def test_work_that_starts_between_the_steps_postpones_the_rest(qtbot, tabs):
    calls: list[str] = []
    lazy, work = _lazy(tabs, calls), _Work(idle=True)
    go_on = threading.Event()

    def first_import() -> None:
        calls.append("import")
        go_on.wait(10)  # (still importing while the user starts a move, on the GUI thread)

    lazy.build_when_idle(PLOT, lambda: work.idle, work.changed, prepare=[first_import])
    qtbot.waitUntil(lambda: calls == ["import"], timeout=GENEROUS_MS)
    work.set_idle(False)  # the user starts a move right after this idle moment
    go_on.set()
    qtbot.wait(150)
    assert calls == ["import"] and not lazy.is_built(PLOT)

    work.set_idle(True)
    qtbot.waitUntil(lambda: lazy.is_built(PLOT), timeout=GENEROUS_MS)
    assert calls == ["import", "build"]


def test_steps_make_parts_at_idle_moments_of_their_own_and_the_page_is_made_from_them(qtbot, tabs):
    calls: list[str] = []
    lazy, work = LazyTabs(tabs), _Work(idle=True)
    lazy.add(PLOT, lambda *parts: calls.append(f"build from {parts}") or QLabel("plot"))
    turns: list[int] = []  # how many event-loop turns had passed when each step ran
    ticks = [0]
    ticker = QTimer(interval=0)
    ticker.timeout.connect(lambda: ticks.__setitem__(0, ticks[0] + 1))
    ticker.start()

    def step(part: str):
        def make() -> str:
            turns.append(ticks[0])
            calls.append(f"make {part}")
            if part == "a":
                work.set_idle(False)  # work starts between two steps: the rest waits for it
            return part

        return make

    lazy.build_when_idle(PLOT, lambda: work.idle, work.changed, steps=[step("a"), step("b")])
    qtbot.waitUntil(lambda: calls == ["make a"], timeout=GENEROUS_MS)
    qtbot.wait(150)
    assert calls == ["make a"] and not lazy.is_built(PLOT)
    work.set_idle(True)
    qtbot.waitUntil(lambda: lazy.is_built(PLOT), timeout=GENEROUS_MS)
    ticker.stop()
    assert calls == ["make a", "make b", "build from ('a', 'b')"]
    assert turns[1] > turns[0]  # not in the same turn of the event loop


def test_parts_made_ahead_are_dropped_when_the_tab_is_shown_first(qtbot, tabs, monkeypatch):
    monkeypatch.setattr(lazy_tabs, "STEP_GAP_MS", 60_000)  # the second step never comes in this test
    lazy, work = LazyTabs(tabs), _Work(idle=True)
    built: list[tuple] = []
    lazy.add(PLOT, lambda *parts: built.append(parts) or QLabel("plot"))
    made: list[QLabel] = []
    lazy.build_when_idle(PLOT, lambda: work.idle, work.changed,
                         steps=[lambda: made.append(QLabel("part", tabs)) or made[-1], lambda: QLabel("never")])  # fmt: skip
    qtbot.waitUntil(lambda: len(made) == 1, timeout=GENEROUS_MS)
    destroyed: list[bool] = []
    made[0].destroyed.connect(lambda: destroyed.append(True))
    tabs.setCurrentIndex(1)  # the user opens the tab before the last step
    assert built == [()]  # the page made its own parts
    work.set_idle(False)  # the next change of state lets the part made ahead go
    qtbot.waitUntil(lambda: destroyed == [True], timeout=GENEROUS_MS)


def test_a_page_shown_before_its_idle_moment_is_built_once(qtbot, tabs):
    calls: list[str] = []
    lazy, work = _lazy(tabs, calls), _Work(idle=False)
    lazy.build_when_idle(PLOT, lambda: work.idle, work.changed)
    tabs.setCurrentIndex(1)  # the user opens the tab first
    assert calls == ["build"] and tabs.currentWidget() is lazy.page(PLOT)

    work.set_idle(True)
    work.set_idle(False)
    work.set_idle(True)
    qtbot.wait(150)
    assert calls == ["build"]


def test_the_window_builds_its_latency_plot_while_idle(qtbot, make_window, monkeypatch):
    monkeypatch.setattr(lazy_tabs, "IDLE_BUILD_DELAY_MS", 10)
    window = make_window()
    qtbot.waitUntil(lambda: window.lazy_tabs.is_built(LATENCY), timeout=GENEROUS_MS)
    assert window.tabs.tabText(window.tabs.currentIndex()) == "History"
    assert window.tabs.indexOf(doors.page(window, LATENCY)) == 2
    assert not window.lazy_tabs.is_built(COMPARISON)  # only the page a benchmark opens
    # then the legend's keys every run shares, hidden until there is a run to explain
    legend = doors.page(window, LATENCY).samples_plot.getPlotItem().legend
    qtbot.waitUntil(lambda: len(legend.items) == 2, timeout=GENEROUS_MS)
    assert not legend.isVisible()
    # and the plots' right-click menus, made at moments of their own after the build
    views = [p.getPlotItem().getViewBox() for p in (doors.page(window, LATENCY).samples_plot, doors.page(window, LATENCY).summary_plot)]
    qtbot.waitUntil(lambda: all(v.menu is not None for v in views), timeout=GENEROUS_MS)
    for view in views:
        assert view.menuEnabled() and "View All" in [a.text() for a in view.menu.actions()]
    doors.page(window, LATENCY).begin_series("cpu", "float32", expected=5)
    doors.page(window, LATENCY).add_sample(0, 1.0)
    doors.page(window, LATENCY).redraw()
    assert legend.isVisible() and len(legend.items) == 3


def test_a_latency_plot_built_at_idle_shows_the_benchmarks_that_follow(qtbot, make_window, monkeypatch):
    # The plot made from the parts its steps made ahead, then two benchmarks and a change of
    # state in between: nothing the plot took from the steps is let go.
    from tests.gui.features.report.test_window_plots import RUN, benchmark

    monkeypatch.setattr(lazy_tabs, "IDLE_BUILD_DELAY_MS", 10)
    window = make_window()
    window.show()
    qtbot.waitUntil(lambda: window.lazy_tabs.is_built(LATENCY), timeout=GENEROUS_MS)
    plot = doors.page(window, LATENCY)
    for runs in (12, 20):
        benchmark(qtbot, window, runs=runs)
        qtbot.waitUntil(lambda n=runs: RUN in plot.canvas.items and len(plot.drawn(RUN)["samples"][0]) == n,
                        timeout=GENEROUS_MS)  # fmt: skip
    assert window.tabs.currentWidget() is plot and plot.samples_plot.isVisible()
    assert [name for name, _ in plot.samples_plot.getPlotItem().legend.items][:1]  # its legend is alive


def test_work_on_the_built_page_follows_at_idle_moments_of_its_own(qtbot, tabs):
    calls: list[str] = []
    lazy, work = _lazy(tabs, calls), _Work(idle=True)

    def then(name: str):
        def run(page) -> None:
            calls.append(f"{name} on {page.objectName()}")
            if name == "first":
                work.set_idle(False)  # work starts between the two: the second waits for it

        return run

    lazy.build_when_idle(PLOT, lambda: work.idle, work.changed, then=[then("first"), then("second")])
    qtbot.waitUntil(lambda: calls == ["build", "first on plot"], timeout=GENEROUS_MS)
    qtbot.wait(150)
    assert calls == ["build", "first on plot"]
    assert lazy.is_built(PLOT) and not lazy.done_ahead(PLOT)
    work.set_idle(True)
    qtbot.waitUntil(lambda: len(calls) == 3, timeout=GENEROUS_MS)
    assert calls[-1] == "second on plot"
    qtbot.waitUntil(lambda: lazy.done_ahead(PLOT), timeout=GENEROUS_MS)


def test_work_on_the_page_runs_on_a_page_its_first_use_built(qtbot, tabs):
    calls: list[str] = []
    lazy, work = _lazy(tabs, calls), _Work(idle=False)
    lazy.build_when_idle(PLOT, lambda: work.idle, work.changed, then=[lambda page: calls.append(f"then on {page.text()}")])
    tabs.setCurrentIndex(1)  # the user opens the tab before the window was ever idle
    assert calls == ["build"]
    work.set_idle(True)
    qtbot.waitUntil(lambda: calls == ["build", "then on plot"], timeout=GENEROUS_MS)
    work.set_idle(False)
    work.set_idle(True)
    qtbot.wait(150)
    assert calls == ["build", "then on plot"]  # once
