"""The latency plot's follower hears a benchmark through the session state alone (``state.runs``):
built with the state, its tabs and a code view, nothing of what starts the run, it readies its
plot when a run is planned, begins the run's series and brings its tab forward once the run is
sent, and drops what it made for a run that never started. The launch, driven through its
door (the action bar's Benchmark button), says those events."""

from __future__ import annotations

import threading

from PySide6.QtWidgets import QLabel, QTabWidget

from inspector.gui.common.code_panel import CodePanel
from inspector.gui.common.lazy_tabs import LazyTabs
from inspector.gui.common.pages import LATENCY
from inspector.gui.features.latency.follows import LatencyFollows
from inspector.gui.features.latency.plot import LatencyPlot
from inspector.gui.state.runs import BenchmarkRun
from inspector.gui.state.session_state import SessionState
from inspector.gui.state.tasks import TaskController
from tests.gui.conftest import wait_idle
from tests.gui import doors

KEY = ("cpu", "float32", "forward")


def _latency_feature(qtbot):
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    tabs.addTab(QLabel("history"), "History")
    pages = LazyTabs(tabs)
    pages.add(LATENCY, lambda *plots: LatencyPlot(tabs, plots=plots))
    state = SessionState()
    code = CodePanel(tabs)
    LatencyFollows(state=state, tasks=TaskController(threading.Event(), tabs), pages=pages, code=code, parent=tabs)
    return state, pages, tabs


def test_a_planned_then_sent_run_begins_its_series_on_the_tab_brought_forward(qtbot):
    state, pages, tabs = _latency_feature(qtbot)
    run = BenchmarkRun(*KEY, expected=100)

    state.benchmarkPlanned.emit(run)
    plot = pages.page(LATENCY)
    assert KEY in plot.canvas.items and KEY not in plot.series  # ready, nothing measured yet
    assert run.opens is plot  # not shown: the request waits for it to be drawn

    state.benchmarkSent.emit(run)
    assert KEY in plot.series and tabs.currentWidget() is plot


def test_a_refused_run_leaves_no_items_on_the_plot(qtbot):
    state, pages, tabs = _latency_feature(qtbot)
    run = BenchmarkRun(*KEY, expected=100)

    state.benchmarkPlanned.emit(run)
    state.benchmarkRefused.emit(run)

    plot = pages.page(LATENCY)
    assert KEY not in plot.canvas.items and KEY not in plot.series
    assert tabs.currentIndex() == 0  # the History tab stays in front


def test_the_benchmark_button_announces_its_run_on_the_state(make_window, qtbot):
    window = make_window()
    heard: list[tuple[str, BenchmarkRun]] = []
    state = window.session_state
    for name in ("benchmarkPlanned", "benchmarkSent", "benchmarkRefused"):
        getattr(state, name).connect(lambda run, name=name: heard.append((name, run)))
    doors.bar(window).runsSpin.setValue(20)

    doors.bar(window).benchmarkButton.click()

    assert [name for name, _run in heard] == ["benchmarkPlanned", "benchmarkSent"]
    run = heard[0][1]
    assert heard[1][1] is run and (run.device, run.mode, run.expected) == ("cpu", "forward", 20)
    wait_idle(qtbot, window, timeout=60_000)
