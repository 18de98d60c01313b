"""The window's session: the features that measure, built once torch is imported, each handed
the session state (``state.session_state``), the one door to the worker
(``state.dispatcher``) and the shared widgets it shows things in; then the workers,
connected to the state in one place (``SessionState.connect_worker``/``connect_sampler``).

Every feature subscribes itself to the events it shows when it is built, so what is here is
what the window alone knows: the frame's buttons and fields that trigger a feature's command,
which of the window's own callbacks a feature is handed (``cancel``, ``ask_trust``: a remote
window has its own), and the few hooks between a feature and the frame. The order the
features are built in is the order they hear an event in.

``build`` makes the features (their modules import torch: ``torch_loader`` imports this one
off the GUI thread, so building them constructs objects only); ``connect_workers`` connects
the window's requests to the workers and the workers to the state. Both are given the
frame's widgets, the window's state and its request signals (``Requests``), never the
window: its kind brings the workers (``window_kind.WindowKind.make_workers``), and it keeps the
parts under its own names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer, SignalInstance
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QGroupBox, QStatusBar, QTabWidget, QWidget

from inspector.core.measure import MemoryTimeline
from inspector.gui.common.code_panel import CodePanel
from inspector.gui.common.error_banner import ErrorBanner
from inspector.gui.common.lazy_tabs import LazyTabs
from inspector.gui.common.status_line import StatusLine
from inspector.gui.features.devices.follows import DevicesFollow
from inspector.gui.features.devices.panel import DevicesPanel
from inspector.gui.features.fit.flow import FitFlow
from inspector.gui.features.help.pages import note_cpu_only_once
from inspector.gui.features.history.panel import HistoryView
from inspector.gui.features.history.rows import HistoryRows
from inspector.gui.features.latency.follows import LatencyFollows, build_latency_plot_when_idle
from inspector.gui.features.lessons.follows import LessonOutcomes
from inspector.gui.features.lessons.panel import LessonsPanel
from inspector.gui.features.memory.follows import MemoryFollows
from inspector.gui.features.memory.task_marks import TaskMarks
from inspector.gui.features.model.opener import ModelOpener
from inspector.gui.features.model.shown import ModelShown, TensorTree
from inspector.gui.features.moves.action_bar import ActionBar
from inspector.gui.features.moves.availability import CommandAvailability
from inspector.gui.features.moves.commands import ModelCommands
from inspector.gui.features.moves.outcome import TaskOutcomes
from inspector.gui.features.report.flow import ReportFlow
from inspector.gui.state.dispatcher import Dispatcher
from inspector.gui.state.session_state import SessionState
from inspector.gui.state.tasks import TaskController


@dataclass(frozen=True)
class Requests:
    """The window's requests to the workers (queued signals: the workers live on their own threads)."""

    load: SignalInstance  # LoadRequest
    move: SignalInstance  # MoveRequest
    benchmark: SignalInstance  # BenchmarkRequest
    report: SignalInstance  # ReportRequest
    fit: SignalInstance  # tuple[FitRequest, ...]
    train_step: SignalInstance  # input shape, or None for the model's own input
    sample_rate: SignalInstance
    rediscover: SignalInstance
    stop_sampler: SignalInstance
    lesson: SignalInstance  # LessonRequest


@dataclass(frozen=True)
class SessionParts:
    """What ``build`` made; the window keeps the commands' parts under the same names."""

    timeline: MemoryTimeline
    dispatcher: Dispatcher
    reports: ReportFlow
    opener: ModelOpener
    commands: ModelCommands
    fit: FitFlow
    lessons: LessonsPanel
    availability: CommandAvailability
    #: The parts that are no widgets but show texts (each has ``retranslate()``).
    retranslatable: tuple[Any, ...]
    #: The features' subscribers to the state that the window does not call (kept here).
    followers: tuple[Any, ...]


def _show_ranks(tabs: QTabWidget, report: Any) -> None:
    """The ranks feature's table for a torchrun report (imported when first used)."""
    from inspector.gui.features.ranks.table import show_ranks

    show_ranks(tabs, report)


def build(
    parent: QWidget, *, requests: Requests, state: SessionState, tasks: TaskController, marks: TaskMarks,
    settings: QSettings, action_bar: ActionBar, banner: ErrorBanner, history: HistoryView, code: CodePanel,
    parameters: TensorTree, devices: DevicesPanel, status: StatusLine, status_bar: QStatusBar,
    tabs: QTabWidget, pages: LazyTabs, model_box: QGroupBox, cancel: Callable[[], None], ask_trust: Callable[[str, tuple[str, ...]], None],
) -> SessionParts:  # fmt: skip
    """The features, each subscribed to ``state`` (``parent``: their dialogs open over it).

    ``cancel`` and ``ask_trust`` are the window's own (a remote window asks its own way)."""
    timeline = MemoryTimeline()
    dispatcher = Dispatcher(tasks, action_bar, status)
    # What each task did, where it is seen: the tree, the devices, the bar and banner, the
    # History rows, the plots' series and marks (each subscribes to the events it shows).
    model = ModelShown(state=state, parameters=parameters, model_box=model_box, input_field=action_bar, status=status,
                       parent=parent)  # fmt: skip
    outcomes = TaskOutcomes(state=state, tasks=tasks, bar=action_bar, banner=banner, status=status, parent=parent)
    followers = (
        DevicesFollow(state=state, devices=devices, parent=parent),
        HistoryRows(state=state, tasks=tasks, history=history, parent=parent),
        LatencyFollows(state=state, tasks=tasks, pages=pages, code=code, parent=parent),
        MemoryFollows(state=state, tasks=tasks, marks=marks, pages=pages, parent=parent),
        LessonOutcomes(state=state, history=history, code=code, parent=parent),
    )
    reports = ReportFlow(
        parent, dispatcher=dispatcher, request=requests.report, tasks=tasks, pages=pages, progress=action_bar,
        banner=banner, history=history, status=status, settings=settings, state=state, show_ranks=_show_ranks,
    )  # fmt: skip
    tabs.currentChanged.connect(lambda _i: reports.maybe_refresh_session())
    opener = ModelOpener(
        parent, dispatcher=dispatcher, request=requests.load, action_bar=action_bar, code=code, settings=settings,
        state=state, ask_trust=ask_trust,
    )  # fmt: skip
    commands = ModelCommands(
        parent, dispatcher=dispatcher, move=requests.move, benchmark=requests.benchmark,
        train_step=requests.train_step, action_bar=action_bar, banner=banner, code=code, settings=settings,
        state=state,
    )  # fmt: skip
    fit = FitFlow(parent, dispatcher=dispatcher, request=requests.fit, action_bar=action_bar, state=state)
    lessons = LessonsPanel(
        parent, send=dispatcher.send, request=requests.lesson, open_example=lambda: opener.open("example"), state=state,
    )  # fmt: skip
    availability = CommandAvailability(action_bar=action_bar, tasks=tasks, state=state, parent=parent)

    # The tree's "move this module" asks the action bar's target and dtype.
    parameters.move_target = lambda: (action_bar.target_device(), action_bar.dtype())
    action_bar.cancelButton.clicked.connect(cancel)
    action_bar.cancelButton.setShortcut(QKeySequence(Qt.Key.Key_Escape))
    fit.cancelRequested.connect(cancel)
    state.inventoryChanged.connect(
        lambda inventory: note_cpu_only_once(status_bar, settings, [i for i in inventory.ids() if i != "cpu"])
    )
    _when_first_model(state, pages, tasks)

    # (queued: the task that just ended is still being wound up when busyChanged says so)
    tasks.busyChanged.connect(lambda task: task is None and QTimer.singleShot(0, lessons.on_idle))
    return SessionParts(
        timeline=timeline, dispatcher=dispatcher, reports=reports, opener=opener, commands=commands, fit=fit,
        lessons=lessons, availability=availability, retranslatable=(model, outcomes), followers=followers,
    )  # fmt: skip


def _when_first_model(state: SessionState, pages: LazyTabs, tasks: TaskController) -> None:
    """Once the first model's tensors are listed: the plots' SVG export, and the latency plot
    built while the window waits for the user (off the first second)."""

    def first(_model: Any) -> None:
        state.modelChanged.disconnect(first)
        from inspector.gui.common.svg_export import register_if_needed

        QTimer.singleShot(0, register_if_needed)
        build_latency_plot_when_idle(pages, tasks)

    state.modelChanged.connect(first)


def connect_workers(
    state: SessionState, requests: Requests, worker: Any, sampler: Any, *, model_loaded: Callable[[Any], None]
) -> None:
    """The requests to ``worker`` and ``sampler`` (with ``ModelWorker``'s and ``MemorySampler``'s
    slots and signals), and their answers to ``state``; ``model_loaded`` is the window's own."""
    requests.load.connect(worker.load)
    requests.move.connect(worker.move)
    requests.benchmark.connect(worker.benchmark)
    requests.report.connect(worker.build_report)
    requests.fit.connect(worker.fit)
    requests.train_step.connect(worker.train_step)
    requests.lesson.connect(worker.run_lesson)
    requests.sample_rate.connect(sampler.set_rate)
    requests.rediscover.connect(sampler.rediscover)
    requests.stop_sampler.connect(sampler.stop)
    state.connect_worker(worker)
    state.connect_sampler(sampler)
    state.modelLoaded.connect(model_loaded)

