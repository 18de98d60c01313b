"""No figure the window shows holds the window's own work: while a chunk of samples is timed,
no slot of the GUI thread and no memory reading runs (``gui.sample_gate``).

Asserted by the order of events, never by durations: every event takes a number from one
counter (``next`` on an ``itertools.count`` is atomic under the GIL), and a GUI slot that
busy-waits on every signal of the worker, a GUI timer that keeps the event loop busy and the
memory sampler's readings must all fall outside every chunk's numbers.
"""

from __future__ import annotations

import functools
import itertools
import threading

import pytest

from inspector.core.measure import attribution, sampling
from inspector.gui.state.workers import ModelWorker
from tests.gui.helpers import widget, GENEROUS_MS
from tests.gui import doors
from inspector.gui.features.latency.launch import BenchmarkLaunch

#: A busy GUI slot: this many Python loop turns (work by count, not by time).
BUSY_TURNS = 20_000

WORKER_SIGNALS = (
    "taskStarted", "taskEnded", "latencySamples", "progress",
)  # fmt: skip


class EventLog:
    def __init__(self) -> None:
        self.counter = itertools.count()
        self.events: list[tuple[int, str, str]] = []  # (number, who, "start" | "end")
        self.recording = True

    def mark(self, who: str, edge: str) -> None:
        if self.recording:
            self.events.append((next(self.counter), who, edge))

    def spans(self, who: str) -> list[tuple[int, int]]:
        starts = [n for n, w, e in self.events if w == who and e == "start"]
        ends = [n for n, w, e in self.events if w == who and e == "end"]
        return list(zip(starts, ends))

    def inside(self, spans: list[tuple[int, int]], kinds: tuple[str, ...]) -> list[tuple[int, str, str]]:
        return [ev for ev in self.events if ev[1] in kinds and any(s < ev[0] < e for s, e in spans)]


@pytest.fixture
def log(monkeypatch, window):
    """Chunks of the plain benchmark and the per-module forwards, GUI slots and memory readings, numbered."""
    log = EventLog()
    host_chunk = sampling._host_chunk

    def chunk(*args, **kwargs):
        log.mark("chunk", "start")
        try:
            return host_chunk(*args, **kwargs)
        finally:
            log.mark("chunk", "end")

    monkeypatch.setattr(sampling, "_host_chunk", chunk)
    # A per-module forward, from inside the timed call (hooks on the model's root module).
    timed = threading.local()
    timed_forward = attribution._timed_forward

    def forward(module, *args, **kwargs):
        timed.on = True
        try:
            return timed_forward(module, *args, **kwargs)
        finally:
            timed.on = False

    monkeypatch.setattr(attribution, "_timed_forward", forward)
    model = window.worker.session.loaded.module

    def hook(edge: str):
        def mark(*_args) -> None:  # (returns None: a pre-hook's value would replace the input)
            if getattr(timed, "on", False):
                log.mark("forward", edge)

        return mark

    pre = model.register_forward_pre_hook(hook("start"))
    post = model.register_forward_hook(hook("end"))

    def busy(*_args) -> None:
        log.mark("gui", "start")
        for _ in range(BUSY_TURNS):
            pass
        log.mark("gui", "end")

    worker: ModelWorker = window.worker
    for name in WORKER_SIGNALS:
        getattr(worker, name).connect(busy)
    read = window.sampler._read

    def reading():
        log.mark("sampler", "start")
        try:
            return read()
        finally:
            log.mark("sampler", "end")

    monkeypatch.setattr(window.sampler, "_read", reading)
    yield log
    log.recording = False
    pre.remove()
    post.remove()


def _busy_gui_timer(window, log):
    """A zero-interval timer on the GUI thread: the event loop always has Python to run."""
    from PySide6.QtCore import QTimer

    timer = QTimer(window)
    timer.setInterval(0)
    timer.timeout.connect(functools.partial(_busy_tick, log))
    timer.start()
    return timer


def _busy_tick(log) -> None:
    log.mark("gui", "start")
    for _ in range(BUSY_TURNS // 10):
        pass
    log.mark("gui", "end")


def _benchmark(qtbot, window, *, runs: int, per_module: bool) -> None:
    from PySide6.QtWidgets import QCheckBox, QSpinBox

    widget(window, QSpinBox, "runsSpin").setValue(runs)
    widget(window, QCheckBox, "perModuleCheck").setChecked(per_module)
    assert doors.part(window, BenchmarkLaunch).run_benchmark()
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=60_000)
    assert doors.history_view(window).history.entries()[-1].ok


def test_no_slot_of_the_window_runs_while_a_chunk_of_samples_is_timed(qtbot, window, log):
    timer = _busy_gui_timer(window, log)
    window.set_sample_rate(20)  # the sampler as often as it goes
    try:
        _benchmark(qtbot, window, runs=5000, per_module=True)
    finally:
        timer.stop()
    chunks, forwards = log.spans("chunk"), log.spans("forward")
    # The window was busy all along: its slots ran between chunks, many times.
    gui = log.spans("gui")
    assert len(chunks) >= 2 and len(forwards) >= 20 and len(gui) > len(chunks)
    assert all(s < e for s, e in chunks + forwards)
    assert log.inside(chunks, ("gui", "sampler")) == []
    assert log.inside(forwards, ("gui", "sampler")) == []


def test_a_window_closed_while_the_gui_thread_would_park_does_not_hang(qtbot, make_window):
    """The worker waits for the GUI thread to park; a window closing never parks it, and
    its worker still ends (the gate gives up on the cancel and on close)."""
    window = make_window()
    doors.bar(window).runsSpin.setValue(100_000)
    assert doors.part(window, BenchmarkLaunch).run_benchmark()
    qtbot.waitUntil(lambda: window.worker.session.loaded is not None, timeout=GENEROUS_MS)
    window.close()
    assert window.threads_stopped
