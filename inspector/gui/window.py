"""The window, wiring only: it builds the panels, builds the parts and connects them to each
other and to the two background workers, which its kind provides (``_make_workers``): the
``MainWindow`` of ``main_window`` runs the session in this process, the ``RemoteWindow`` of
``remote_window`` runs it in an agent on another machine.

The window never touches the model: it sends requests to the ModelWorker through queued
signals and shows the frozen results that come back. Each part is given the widgets, state
and signals it uses, never the window: ``layout`` lays the panels out, the menus are data
(``menus``), ``commands`` sends requests one at a time (the ``TaskController`` of ``tasks``
is the rule), ``opener`` loads models, ``results`` and ``sampler_results`` show what the
workers send back, ``availability`` enables the commands, ``report_flow`` exports, opens and
compares reports, ``fit_flow`` runs the "will it fit?" dialog, ``help`` the Help menu, and
``window_settings`` is what is remembered between runs. The window keeps the public names
the tests and the remote window use (its widgets, a few commands), each a line of delegation.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent, QKeySequence, QPaintEvent, QShowEvent
from PySide6.QtWidgets import QMainWindow

from inspector.gui import i18n, screen_fit, torch_loader, window_settings
from inspector.gui.help import HelpPages, note_missing_cjk_font_once
from inspector.gui.i18n import fill, is_language_change, translate
from inspector.gui.layout import add_pages, build_frame
from inspector.gui.language_menu import LanguageMenu
from inspector.gui.menus import build_menus, retranslate_menus
from inspector.gui.panels.actions import ActionBar
from inspector.gui.panels.code import CodePanel
from inspector.gui.panels.devices import DevicesPanel
from inspector.gui.panels.error_banner import ErrorBanner
from inspector.gui.panels.history import HistoryView
from inspector.gui.panels.parameters import ParametersPanel
from inspector.gui.snapshots import Snapshots
from inspector.gui.status_line import StatusLine
from inspector.gui.task_marks import TaskMarks
from inspector.gui.tasks import TaskController
from inspector.gui.threads import start_in_thread, stop_threads

if TYPE_CHECKING:
    from inspector.core.measure.memory_log import MemoryTimeline
    from inspector.core.moves.request import MoveRequest
    from inspector.core.session import ModelState
    from inspector.gui import dialogs
    from inspector.gui.workers import LoadOutcome

#: What the window can do before its session exists (torch still being imported): quit, and
#: read the help. The rest of the menus wait for ``_start_session``.
#: A window not painted by then (not shown yet) starts importing torch anyway (ms).
FRAME_PAINT_GRACE_MS = 300
_USABLE_WHILE_LOADING = frozenset({"quitAction", "gettingStartedAction", "shortcutsAction", "reportFormatAction"})

#: After a close's 2 s bound, how much longer the hidden window waits for work that cannot
#: be interrupted to reach its next cancel check.
LINGER_S = 20.0


class InspectorWindow(QMainWindow):
    # Requests to the workers: queued, because the workers live on their own threads.
    requestLoad = Signal(object)  # LoadRequest
    requestMove = Signal(object)  # MoveRequest
    requestBenchmark = Signal(object)  # BenchmarkRequest
    requestReport = Signal(object)  # ReportRequest
    requestFit = Signal(object)  # tuple[FitRequest, ...]
    requestTrainStep = Signal(object)  # input shape, or None for the model's own input
    requestSampleRate = Signal(float)
    requestRediscover = Signal()
    requestStopSampler = Signal()
    requestLesson = Signal(object)  # LessonRequest
    #: File › Connect to server…: ``gui.remote_window`` answers it (app.create_window wires it;
    #: the window cannot import the remote window, which is a kind of window itself).
    connectServerRequested = Signal()

    def __init__(self, model_spec: str = "example", trust: bool = False, settings: QSettings | None = None) -> None:
        """The window's frame now; its session (the parts, the workers, the model's load) as soon
        as torch is imported: at once when it already is, else when ``torch_loader`` has
        imported it off the GUI thread, so the frame paints first (issue 25)."""
        super().__init__()
        self.setObjectName("mainWindow")
        self.settings = settings if settings is not None else QSettings()
        self.cancel_event = threading.Event()
        self.tasks = TaskController(self.cancel_event, self)
        self.snapshots = Snapshots()
        self.threads_stopped: bool | None = None
        self._placed = False  # brought onto the screen after its first show (showEvent)
        #: The parts and workers exist (``_start_session`` ran).
        self.session_started = False
        self._first_load = (model_spec, trust)

        # ----- the frame: torch-free (tests/gui/test_first_paint.py builds it without torch)
        self.errorBanner = ErrorBanner(self)
        self.action_bar = ActionBar(self)
        self.devices = DevicesPanel(self)
        self.parameters = ParametersPanel(self)
        self.historyView = HistoryView(self)
        self.code = CodePanel(self)
        frame = self.frame = build_frame(
            self, banner=self.errorBanner, action_bar=self.action_bar, devices=self.devices,
            parameters=self.parameters, history=self.historyView, code=self.code,
        )  # fmt: skip
        self.tabs, self.lazy_tabs, self.model_box = frame.tabs, frame.pages, frame.model_box
        self.main_splitter, self.top_splitter, self.bottom_splitter = frame.splitters()
        self.status = StatusLine(self.statusBar())
        self.statusModel, self.statusDevice, self.statusBusy = self.status.model, self.status.device, self.status.busy
        self.marks = TaskMarks()
        add_pages(self.lazy_tabs, self, lambda: self.timeline, self.marks, lambda view: self.reports.comparison_view_built(view))
        self.help = HelpPages(self, self.snapshots)
        self._help_dialogs = self.help.dialogs  # (the pages shown, for the tests)
        self._actions = build_menus(self)  # each action also becomes self.<objectName>; and self.recentMenu
        self.language = LanguageMenu(self.languageParentMenu, self.settings, self)
        self.language.changed.connect(lambda _language: self._note_missing_font())
        self.language.unavailable.connect(self.say_language_unavailable)
        self.recent = window_settings.RecentModels(self.recentMenu, self.settings, self)
        self.recent.chosen.connect(self.open_model)
        window_settings.restore_layout(self.settings, self, frame.splitters())
        self._note_missing_font()

        if torch_loader.imported():
            self._start_session()
        else:  # the frame paints while torch is imported off the GUI thread
            self._wait_for_torch()

    def _wait_for_torch(self) -> None:
        """The frame's "Loading PyTorch…" state, until ``torch_loader`` says torch is there."""
        self.devices.show_loading()
        self.action_bar.setEnabled(False)
        for name, action in self._actions.items():
            action.setEnabled(name in _USABLE_WHILE_LOADING)
        self.lazy_tabs.hold(translate("InspectorWindow", "Loading PyTorch…"))
        # The import starts once the frame is painted: started sooner, it takes the GIL from
        # the very paint it waits behind. (A window never shown starts it after a moment.)
        self._first_paint_seen = False
        QTimer.singleShot(FRAME_PAINT_GRACE_MS, self._import_torch)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self.session_started and not getattr(self, "_first_paint_seen", True):
            self._first_paint_seen = True
            QTimer.singleShot(0, self._import_torch)  # after this paint reaches the screen

    def _import_torch(self) -> None:
        if getattr(self, "torch_loading", None) is not None or self.session_started or self.tasks.closed:
            return
        self.torch_loading = torch_loader.start(self)
        self.torch_loading.loaded.connect(self._start_session)
        self.torch_loading.failed.connect(self._torch_failed)

    def _torch_failed(self, message: str) -> None:
        """torch could not be imported: the window says why and stays open (it can still quit)."""
        from inspector.core.errors import Failure

        self.errorBanner.show_failure(Failure("load", message), "import torch")
        self.status.show_task(None)

    def _start_session(self) -> None:
        """The parts that measure and the workers that own the model; then the first load.

        Their modules import torch, so they are imported here (already imported by
        ``torch_loader`` off the GUI thread when the frame came first)."""
        from inspector.core.measure.memory_log import MemoryTimeline
        from inspector.gui.availability import CommandAvailability
        from inspector.gui.commands import Dispatcher, ModelCommands
        from inspector.gui.fit_flow import FitFlow
        from inspector.gui.lessons import LessonsPanel
        from inspector.gui.opener import ModelOpener
        from inspector.gui.report_flow import ReportFlow
        from inspector.gui.results import WorkerResults
        from inspector.gui.sampler_results import SamplerResults

        if self.session_started or self.tasks.closed:
            return
        self.timeline: MemoryTimeline = MemoryTimeline()
        self.dispatcher = Dispatcher(self.tasks, self.marks, self.action_bar, self.status)
        self.reports = ReportFlow(
            self, dispatcher=self.dispatcher, request=self.requestReport, tasks=self.tasks, pages=self.lazy_tabs,
            progress=self.action_bar, banner=self.errorBanner, history=self.historyView, status=self.status,
            settings=self.settings, snapshots=self.snapshots,
        )  # fmt: skip
        self.tabs.currentChanged.connect(lambda _i: self.reports.maybe_refresh_session())
        self.opener = ModelOpener(
            self, dispatcher=self.dispatcher, request=self.requestLoad, action_bar=self.action_bar, code=self.code,
            settings=self.settings, snapshots=self.snapshots,
        )  # fmt: skip
        self.commands = ModelCommands(
            self, dispatcher=self.dispatcher, move=self.requestMove, benchmark=self.requestBenchmark,
            train_step=self.requestTrainStep, action_bar=self.action_bar, banner=self.errorBanner, code=self.code,
            pages=self.lazy_tabs, settings=self.settings, snapshots=self.snapshots,
        )  # fmt: skip
        self.fit = FitFlow(
            self, dispatcher=self.dispatcher, request=self.requestFit, action_bar=self.action_bar,
            snapshots=self.snapshots,
        )  # fmt: skip
        self.lessons = LessonsPanel(
            self, send=self.dispatcher.send, request=self.requestLesson, open_example=lambda: self.opener.open("example"),
            snapshots=self.snapshots,
        )  # fmt: skip
        self.availability = CommandAvailability(
            action_bar=self.action_bar, devices=self.devices, actions=self._actions, recent_menu=self.recentMenu,
            tasks=self.tasks, snapshots=self.snapshots, comparison=self.reports, parent=self,
        )  # fmt: skip
        self.results = WorkerResults(
            tasks=self.tasks, snapshots=self.snapshots, marks=self.marks, status=self.status,
            action_bar=self.action_bar, banner=self.errorBanner, history=self.historyView, code=self.code,
            parameters=self.parameters, model_box=self.model_box, pages=self.lazy_tabs, reports=self.reports,
            parent=self,
        )  # fmt: skip
        self.sampler_results = SamplerResults(
            devices=self.devices, action_bar=self.action_bar, status_bar=self.statusBar(), pages=self.lazy_tabs,
            settings=self.settings, snapshots=self.snapshots, parent=self,
        )  # fmt: skip
        self._connect_parts()
        self._start_workers()
        self.session_started = True
        self.action_bar.setEnabled(True)
        for action in self._actions.values():
            action.setEnabled(True)
        self.availability.refresh()
        self.lazy_tabs.release()
        spec, trust = self._first_load
        self.open_model(spec, trust=trust)

    # ------------------------------------------------------------------ wiring

    def _connect_parts(self) -> None:
        a = self.action_bar
        a.toDeviceButton.clicked.connect(self.commands.move_to_target)
        a.cudaButton.clicked.connect(self.commands.move_cuda)
        a.cpuButton.clicked.connect(self.commands.move_cpu)
        a.benchmarkButton.clicked.connect(self.commands.run_benchmark)
        a.inputShapeEdit.returnPressed.connect(self.commands.run_benchmark)
        self.parameters.move_target = lambda: (a.target_device(), a.dtype())
        a.cancelButton.clicked.connect(self.cancel)
        a.cancelButton.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.devices.deviceSelected.connect(a.set_target_device)

        self.tasks.busyChanged.connect(self.status.show_task)
        self.tasks.busyChanged.connect(lambda _task: self.availability.refresh())
        self.availability.fitAvailable.connect(self.fit.set_available)
        self.reports.actionsChanged.connect(self.availability.refresh)
        self.results.stateShown.connect(self.availability.refresh)
        self.results.taskFailed.connect(self.opener.on_task_failed)
        self.results.taskFailed.connect(self.fit.on_task_failed)
        self.results.trustNeeded.connect(self.ask_trust)
        # (queued: the task that just ended is still being wound up when busyChanged says so)
        self.tasks.busyChanged.connect(
            lambda task: task is None and QTimer.singleShot(0, self.lessons.on_idle)
        )  # fmt: skip
        self.fit.cancelRequested.connect(self.cancel)

    def _start_workers(self) -> None:
        hz = window_settings.sample_hz(self.settings)
        self.worker, self.sampler = self._make_workers(hz)

        self.requestLoad.connect(self.worker.load)
        self.requestMove.connect(self.worker.move)
        self.requestBenchmark.connect(self.worker.benchmark)
        self.requestReport.connect(self.worker.build_report)
        self.requestFit.connect(self.worker.fit)
        self.requestTrainStep.connect(self.worker.train_step)
        self.requestLesson.connect(self.worker.run_lesson)
        self.requestSampleRate.connect(self.sampler.set_rate)
        self.requestRediscover.connect(self.sampler.rediscover)
        self.requestStopSampler.connect(self.sampler.stop)

        results, worker = self.results, self.worker
        worker.taskStarted.connect(results.on_task_started)
        worker.taskFinished.connect(results.on_task_finished)
        # The input field follows the new model before its state is shown (its placeholder).
        worker.modelLoaded.connect(self.opener.on_model_loaded)
        worker.modelLoaded.connect(results.on_model_loaded)
        worker.modelLoaded.connect(self._on_model_loaded)
        worker.placementChanged.connect(results.on_placement_changed)
        worker.moveFinished.connect(self.commands.on_move_finished)
        worker.moveFinished.connect(results.on_move_finished)
        worker.benchmarkFinished.connect(results.on_benchmark_finished)
        worker.progress.connect(results.on_progress)
        worker.reportBuilt.connect(self.reports.on_report_built)
        worker.fitFinished.connect(results.on_fit_finished)
        worker.fitFinished.connect(self.fit.on_finished)
        worker.trainStepFinished.connect(results.on_train_step_finished)
        worker.lessonFinished.connect(results.on_lesson_finished)
        worker.lessonFinished.connect(self.lessons.on_lesson_finished)  # a slot: queued to the GUI thread
        worker.failed.connect(results.on_failed)
        worker.latencySamples.connect(results.on_latency_samples)
        self.sampler.inventoryReady.connect(self.sampler_results.on_inventory)
        # The sampler stores its readings in self.timeline before it emits them: the plot
        # only repaints (add_readings would store them twice).
        self.sampler.samples.connect(self.sampler_results.on_samples)
        self.sampler.samples.connect(self.sampler_results.on_memory_samples)

        self.model_thread = start_in_thread(self.worker, "model-worker")
        self.sampler_thread = start_in_thread(self.sampler, "memory-sampler", on_started=self.sampler.start)

    def _note_missing_font(self) -> None:
        """The window speaks Chinese and no font draws it: said once (``help``)."""
        #: The notice shown now, if any (for the tests).
        self.cjk_font_notice = note_missing_cjk_font_once(self, self.settings)

    def say_language_unavailable(self, language: str) -> None:
        """``language``'s catalogue could not be read (at start, or from View › Language)."""
        name = i18n.LANGUAGES.get(language, language)
        text = translate("InspectorWindow", "The %1 translation could not be read: the window stays in English.")
        self.status.flash(fill(text, name), 15_000)

    def _make_workers(self, hz: float) -> tuple[Any, Any]:
        """The model worker and the memory sampler (their signals as ``ModelWorker``'s and
        ``MemorySampler``'s): each kind of window brings its own."""
        raise NotImplementedError

    @Slot(object)
    def _on_model_loaded(self, outcome: LoadOutcome) -> None:
        info = outcome.state.info
        self.add_recent_model(info.spec)
        self.setWindowTitle(f"{info.class_name} — {info.spec}")

    # ------------------------------------------------------------------ what the parts hold

    @property
    def busy_task(self) -> str | None:
        """The task the window waits for (a ``Task``, which is its name); None when idle."""
        return self.tasks.task

    @property
    def closed(self) -> bool:
        return self.tasks.closed

    @property
    def model_state(self) -> ModelState | None:
        return self.snapshots.model

    @property
    def inventory(self) -> Any:
        return self.snapshots.inventory

    @property
    def last_readings(self) -> tuple[Any, ...]:
        return self.snapshots.readings

    @property
    def memoryPlot(self) -> Any:  # noqa: N802 (DESIGN.md's object name)
        """The Memory tab's plot (``gui.plots.memory.MemoryPlot``), built on first use."""
        return self.lazy_tabs.page("memoryPlot")

    @property
    def latencyPlot(self) -> Any:  # noqa: N802 (DESIGN.md's object name)
        """The Latency tab's plot (``gui.plots.latency.LatencyPlot``), built on first use."""
        return self.lazy_tabs.page("latencyPlot")

    @property
    def comparisonView(self) -> Any:  # noqa: N802 (DESIGN.md's object name)
        """The Compare tab (``gui.compare.ComparisonView``), built on first use."""
        return self.lazy_tabs.page("comparisonView")

    @property
    def fit_dialog(self) -> Any:
        return self.fit.dialog

    @property
    def last_export(self) -> dict[str, Any] | None:
        return self.reports.last_export

    @property
    def _exporting(self) -> str | None:
        return self.reports.exporting

    # ------------------------------------------------------------------ commands (delegated)

    def open_model(
        self, spec: str, *, trust: bool = False, architecture: str | None = None, inputs: str | None = None
    ) -> bool:
        if not self.session_started:  # a recent model picked while torch loads: it loads first
            self._first_load = (spec, trust)
            return True
        return self.opener.open(spec, trust=trust, architecture=architecture, inputs=inputs)

    def request_move(self, request: MoveRequest) -> bool:
        return self.commands.request_move(request)

    def move_to_target(self) -> bool:
        return self.commands.move_to_target()

    def move_cuda(self) -> bool:
        return self.commands.move_cuda()

    def run_benchmark(self) -> bool:
        return self.commands.run_benchmark()

    def show_fit_dialog(self) -> Any:
        return self.fit.show()

    def export_report(self, path: str | Path) -> bool:
        return self.reports.export_report(path)

    def open_report(self, path: str | Path) -> None:
        self.reports.open_report(path)

    def cancel(self) -> None:
        """Ask the running move or benchmark to stop at its next safe point."""
        self.dispatcher.cancel()

    def about_text(self) -> str:
        return self.help.about_text()

    def _on_placement_changed(self, state: ModelState) -> None:
        self.results.on_placement_changed(state)

    # ------------------------------------------------------------------ what a remote window does its own way

    def open_model_dialog(self) -> None:
        self.opener.open_dialog(self.recent_models())

    def make_open_model_dialog(self) -> dialogs.OpenModelDialog:
        return self.opener.make_dialog(self.recent_models())

    def ask_trust(self, path: str, wanted: tuple[str, ...]) -> None:
        self.opener.ask_trust(path, wanted)

    def recent_models(self) -> list[str]:
        return self.recent.specs()

    def add_recent_model(self, spec: str) -> None:
        self.recent.add(spec)

    # ------------------------------------------------------------------ settings

    def preferences_dialog(self) -> None:
        from inspector.gui import dialogs

        dialog = dialogs.PreferencesDialog(window_settings.sample_hz(self.settings), self)
        if dialog.exec() == dialogs.PreferencesDialog.DialogCode.Accepted:
            self.set_sample_rate(dialog.sample_hz())

    def set_sample_rate(self, hz: float) -> None:
        self.requestSampleRate.emit(window_settings.set_sample_hz(self.settings, hz))

    # ------------------------------------------------------------------ shutdown

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._placed:
            # Once the window manager has framed it, the frame (title bar included) is known:
            # the window is brought wholly onto the screen if the frame made it stick out.
            self._placed = True
            QTimer.singleShot(0, lambda: screen_fit.keep_on_screen(self))

    def changeEvent(self, event: QEvent) -> None:
        # A new language: the menus and the parts that are not widgets set their texts again
        # (widgets get the same event from Qt and do it themselves).
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        retranslate_menus(self)
        for part in self.retranslatable_parts():
            part.retranslate()

    def retranslatable_parts(self) -> list[Any]:
        """The parts that are no widgets but show texts (each has ``retranslate()``)."""
        parts = [self.language, self.status, self.frame, self.recent]
        if self.session_started:
            parts += [self.availability, self.reports, self.results]
        return parts

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.tasks.closed:
            window_settings.save_layout(self.settings, self, self.frame.splitters())
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self, timeout_s: float = 2.0) -> bool:
        """Cancel running work, quit both threads and wait for them and for a report being
        written or read (``timeout_s`` in all).

        Returns True when everything ended. Safe to call more than once.
        """
        if self.tasks.closed:
            return bool(self.threads_stopped)
        self.tasks.close()  # sets the cancel event: a running move or benchmark stops
        if not self.session_started:  # closed while torch was being imported: no thread of its own
            self.threads_stopped = True
            return True
        deadline = time.monotonic() + timeout_s
        self.requestStopSampler.emit()  # the sampler stops its timer and quits its own thread
        self.model_thread.quit()  # ends once the running move/benchmark sees the cancel
        stopped = stop_threads([self.model_thread, self.sampler_thread], timeout_s, quit=False)
        if not stopped:
            # The cancel is set; what still runs cannot be interrupted (a first import of
            # torch._dynamo takes ~2 s under load). A QThread destroyed while it runs aborts
            # the process, so the window goes out of sight and waits for it a while longer.
            self.hide()
            stopped = stop_threads([self.model_thread, self.sampler_thread], LINGER_S, quit=False)
            deadline = time.monotonic() + timeout_s
        # A file being written is finished rather than abandoned (it is written atomically,
        # so even an interrupted one would leave the old file), within what is left of the bound.
        pools = [self.reports] + ([self.comparisonView] if self.lazy_tabs.is_built("comparisonView") else [])
        for pool in pools:
            stopped = pool.wait(max(0, int((deadline - time.monotonic()) * 1000))) and stopped
        self.threads_stopped = stopped
        return stopped

    def threads(self) -> list[Any]:
        return [self.model_thread, self.sampler_thread] if self.session_started else []
