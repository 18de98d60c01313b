"""The window's session: the parts that measure, built once torch is imported, and their wiring
to the frame's widgets, to each other and to the two workers.

``build`` makes the parts (their modules import torch: ``torch_loader`` imports this one off
the GUI thread, so building them constructs objects only) and connects them to the frame and
to each other; ``connect_workers`` connects the window's requests to the workers and the
workers' answers to the parts. Both are given the frame's widgets, the window's state and its
request signals (``Requests``), never the window: its kind brings the workers
(``InspectorWindow._make_workers``), and it keeps the parts under its own names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer, SignalInstance
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QGroupBox, QMenu, QStatusBar, QTabWidget, QWidget

from inspector.core.measure import MemoryTimeline
from inspector.gui.features.moves.availability import CommandAvailability
from inspector.gui.features.moves.commands import Dispatcher, ModelCommands
from inspector.gui.features.fit.flow import FitFlow
from inspector.gui.common.lazy_tabs import LazyTabs
from inspector.gui.features.lessons.panel import LessonsPanel
from inspector.gui.features.model.opener import ModelOpener
from inspector.gui.features.moves.action_bar import ActionBar
from inspector.gui.common.code_panel import CodePanel
from inspector.gui.features.devices.panel import DevicesPanel
from inspector.gui.common.error_banner import ErrorBanner
from inspector.gui.features.history.panel import HistoryView
from inspector.gui.features.model.panel import ParametersPanel
from inspector.gui.features.report.flow import ReportFlow
from inspector.gui.shell.worker_results import WorkerResults
from inspector.gui.shell.sampler_results import SamplerResults
from inspector.gui.state.snapshots import Snapshots
from inspector.gui.common.status_line import StatusLine
from inspector.gui.features.memory.task_marks import TaskMarks
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
    """What ``build`` made; the window keeps each under the same name."""

    timeline: MemoryTimeline
    dispatcher: Dispatcher
    reports: ReportFlow
    opener: ModelOpener
    commands: ModelCommands
    fit: FitFlow
    lessons: LessonsPanel
    availability: CommandAvailability
    results: WorkerResults
    sampler_results: SamplerResults


def build(
    parent: QWidget, *, requests: Requests, tasks: TaskController, marks: TaskMarks, snapshots: Snapshots,
    settings: QSettings, action_bar: ActionBar, banner: ErrorBanner, history: HistoryView, code: CodePanel,
    parameters: ParametersPanel, devices: DevicesPanel, status: StatusLine, status_bar: QStatusBar,
    tabs: QTabWidget, pages: LazyTabs, model_box: QGroupBox, actions: Mapping[str, QAction], recent_menu: QMenu,
    cancel: Callable[[], None], ask_trust: Callable[[str, tuple[str, ...]], None],
) -> SessionParts:  # fmt: skip
    """The parts, connected to the frame and to each other (``parent``: their dialogs open over it).

    ``cancel`` and ``ask_trust`` are the window's own (a remote window asks its own way)."""
    timeline = MemoryTimeline()
    dispatcher = Dispatcher(tasks, marks, action_bar, status)
    reports = ReportFlow(
        parent, dispatcher=dispatcher, request=requests.report, tasks=tasks, pages=pages, progress=action_bar,
        banner=banner, history=history, status=status, settings=settings, snapshots=snapshots,
    )  # fmt: skip
    tabs.currentChanged.connect(lambda _i: reports.maybe_refresh_session())
    opener = ModelOpener(
        parent, dispatcher=dispatcher, request=requests.load, action_bar=action_bar, code=code, settings=settings,
        snapshots=snapshots,
    )  # fmt: skip
    commands = ModelCommands(
        parent, dispatcher=dispatcher, move=requests.move, benchmark=requests.benchmark,
        train_step=requests.train_step, action_bar=action_bar, banner=banner, code=code, pages=pages,
        settings=settings, snapshots=snapshots,
    )  # fmt: skip
    fit = FitFlow(parent, dispatcher=dispatcher, request=requests.fit, action_bar=action_bar, snapshots=snapshots)
    lessons = LessonsPanel(
        parent, send=dispatcher.send, request=requests.lesson, open_example=lambda: opener.open("example"),
        snapshots=snapshots,
    )  # fmt: skip
    availability = CommandAvailability(
        action_bar=action_bar, devices=devices, actions=actions, recent_menu=recent_menu, tasks=tasks,
        snapshots=snapshots, comparison=reports, parent=parent,
    )  # fmt: skip
    results = WorkerResults(
        tasks=tasks, snapshots=snapshots, marks=marks, status=status, action_bar=action_bar, banner=banner,
        history=history, code=code, parameters=parameters, model_box=model_box, pages=pages, reports=reports,
        parent=parent,
    )  # fmt: skip
    sampler_results = SamplerResults(
        devices=devices, action_bar=action_bar, status_bar=status_bar, pages=pages, settings=settings,
        snapshots=snapshots, parent=parent,
    )  # fmt: skip

    a = action_bar
    a.toDeviceButton.clicked.connect(commands.move_to_target)
    a.cudaButton.clicked.connect(commands.move_cuda)
    a.cpuButton.clicked.connect(commands.move_cpu)
    a.benchmarkButton.clicked.connect(commands.run_benchmark)
    a.inputShapeEdit.returnPressed.connect(commands.run_benchmark)
    parameters.move_target = lambda: (a.target_device(), a.dtype())
    a.cancelButton.clicked.connect(cancel)
    a.cancelButton.setShortcut(QKeySequence(Qt.Key.Key_Escape))
    devices.deviceSelected.connect(a.set_target_device)

    tasks.busyChanged.connect(status.show_task)
    tasks.busyChanged.connect(lambda _task: availability.refresh())
    availability.fitAvailable.connect(fit.set_available)
    reports.actionsChanged.connect(availability.refresh)
    results.stateShown.connect(availability.refresh)
    results.taskFailed.connect(opener.on_task_failed)
    results.taskFailed.connect(fit.on_task_failed)
    results.trustNeeded.connect(ask_trust)
    # (queued: the task that just ended is still being wound up when busyChanged says so)
    tasks.busyChanged.connect(lambda task: task is None and QTimer.singleShot(0, lessons.on_idle))
    fit.cancelRequested.connect(cancel)
    return SessionParts(
        timeline=timeline, dispatcher=dispatcher, reports=reports, opener=opener, commands=commands, fit=fit,
        lessons=lessons, availability=availability, results=results, sampler_results=sampler_results,
    )  # fmt: skip


def connect_workers(
    parts: SessionParts, requests: Requests, worker: Any, sampler: Any, *, model_loaded: Callable[[Any], None]
) -> None:
    """The requests to ``worker`` and ``sampler`` (with ``ModelWorker``'s and ``MemorySampler``'s
    slots and signals), and their answers to the parts; ``model_loaded`` is the window's own."""
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

    results = parts.results
    worker.taskStarted.connect(results.on_task_started)
    worker.taskFinished.connect(results.on_task_finished)
    # The input field follows the new model before its state is shown (its placeholder).
    worker.modelLoaded.connect(parts.opener.on_model_loaded)
    worker.modelLoaded.connect(results.on_model_loaded)
    worker.modelLoaded.connect(model_loaded)
    worker.placementChanged.connect(results.on_placement_changed)
    worker.moveFinished.connect(parts.commands.on_move_finished)
    worker.moveFinished.connect(results.on_move_finished)
    worker.benchmarkFinished.connect(results.on_benchmark_finished)
    worker.progress.connect(results.on_progress)
    worker.reportBuilt.connect(parts.reports.on_report_built)
    worker.fitFinished.connect(results.on_fit_finished)
    worker.fitFinished.connect(parts.fit.on_finished)
    worker.trainStepFinished.connect(results.on_train_step_finished)
    worker.lessonFinished.connect(results.on_lesson_finished)
    worker.lessonFinished.connect(parts.lessons.on_lesson_finished)  # a slot: queued to the GUI thread
    worker.failed.connect(results.on_failed)
    worker.latencySamples.connect(results.on_latency_samples)
    sampler.inventoryReady.connect(parts.sampler_results.on_inventory)
    # The sampler stores its readings in the timeline before it emits them: the plot only
    # repaints (add_readings would store them twice).
    sampler.samples.connect(parts.sampler_results.on_samples)
    sampler.samples.connect(parts.sampler_results.on_memory_samples)
