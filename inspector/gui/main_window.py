"""The main window: panels, menus and actions, wired to the two background workers.

The window never touches the model: it sends requests to the ModelWorker through queued
signals and shows the frozen results that come back. It keeps only snapshots (the latest
placement, the device inventory, the last memory readings).
"""

from __future__ import annotations

import datetime as _dt
import html
import logging
import threading
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QGroupBox,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.core.errors import Failure, InputError
from inspector.core.memory_log import MemoryTimeline
from inspector.core.units import format_bytes, format_seconds
from inspector.core.vocabulary import BenchMode, FailureKind
from inspector.gui.compare import ComparisonView
from inspector.gui.dialogs import OpenModelDialog, PreferencesDialog
from inspector.gui.export import ReportExporter, copy_markdown, export_filter, path_with_suffix, plot_images
from inspector.gui.panels.actions import ActionBar, ActionState, pinned_blocker
from inspector.gui.panels.code import CodePanel
from inspector.gui.panels.devices import DevicesPanel
from inspector.gui.panels.error_banner import ErrorBanner
from inspector.gui.panels.history import HistoryEntry, HistoryView
from inspector.gui.panels.parameters import ParametersPanel
from inspector.gui.plots import LatencyPlot, MemoryPlot
from inspector.core.session import BenchmarkRequest, LoadRequest, ModelState
from inspector.gui.workers import (
    DEFAULT_SAMPLE_HZ,
    BenchmarkOutcome,
    LoadOutcome,
    MemorySampler,
    ModelWorker,
    Progress,
    ReportBuilt,
    ReportRequest,
    TaskFailure,
    clamp_sample_hz,
    start_in_thread,
    stop_threads,
)

log = logging.getLogger(__name__)

MAX_RECENT = 10
#: The device table repaints from the 10 Hz samples at most this often.
TABLE_REFRESH_S = 1.0
REPORT_OPEN_FILTER = "Timing report (*.json);;All files (*)"
SETTINGS_KEYS = {
    "geometry": "window/geometry",
    "state": "window/state",
    "splitters": "window/splitters",
    "recent": "models/recent",
    "sample_hz": "memory/sampleHz",
}


class MainWindow(QMainWindow):
    # Requests to the workers: queued, because the workers live on their own threads.
    requestLoad = Signal(object)  # LoadRequest
    requestMove = Signal(object)
    requestBenchmark = Signal(object)
    requestReport = Signal(object)
    requestSampleRate = Signal(float)
    requestRediscover = Signal()
    requestStopSampler = Signal()

    def __init__(self, model_spec: str = "example", trust: bool = False, settings: QSettings | None = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.settings = settings if settings is not None else QSettings()
        self.cancel_event = threading.Event()
        self.timeline = MemoryTimeline()
        self.inventory: Any = None
        self.model_state: ModelState | None = None
        self.busy_task: str | None = None
        self.last_readings: tuple = ()
        self._table_refreshed_at = 0.0
        self._pending_move: Any = None
        self._pending_load: LoadRequest | None = None
        #: The memory plot's line for the running task: (time.time() it started, label).
        self._task_mark: tuple[float, str] | None = None
        #: The latest report the worker built for this session (any purpose), and whether a
        #: move, benchmark or load has happened since (the comparison's side A is then old).
        self.session_report: dict | None = None
        self._session_stale = True
        self._session_in_flight = False
        #: The file the ReportExporter is writing, when it was asked for, and its report.
        self._exporting: str | None = None
        self._export_asked_at: float | None = None
        self.last_export: dict | None = None
        self._closed = False
        self.threads_stopped: bool | None = None

        self._build_widgets()
        self._build_menus()
        self._build_status_bar()
        self._restore_settings()
        self._start_workers()
        self._refresh_actions()
        self.open_model(model_spec, trust=trust)

    # ------------------------------------------------------------------ building

    def _build_widgets(self) -> None:
        self.errorBanner = ErrorBanner(self)
        self.action_bar = ActionBar(self)
        self.devices = DevicesPanel(self)
        self.parameters = ParametersPanel(self)
        self.historyView = HistoryView(self)
        self.code = CodePanel(self)
        # The window's timeline is the plot's store: the sampler fills it, the report reads it.
        self.memoryPlot = MemoryPlot(self, timeline=self.timeline)
        self.latencyPlot = LatencyPlot(self)
        self.comparisonView = ComparisonView(self)
        # Its "Open report…" puts a report next to this session even before side A is built.
        self.comparisonView.follows_session = True

        devices_box = _boxed("Devices", self.devices)
        model_box = _boxed("Model", self.parameters)
        self.model_box = model_box
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("bottomTabs")
        self.tabs.addTab(self.historyView, "History")
        self.tabs.addTab(self.memoryPlot, "Memory")
        self.tabs.addTab(self.latencyPlot, "Latency")
        self.tabs.addTab(self.comparisonView, "Compare")
        self.tabs.currentChanged.connect(lambda _i: self._maybe_refresh_session())
        code_box = _boxed("Code", self.code)

        self.top_splitter = _splitter("topSplitter", Qt.Orientation.Horizontal, devices_box, model_box, (5, 7))
        self.bottom_splitter = _splitter("bottomSplitter", Qt.Orientation.Horizontal, self.tabs, code_box, (7, 5))
        self.main_splitter = _splitter(
            "mainSplitter", Qt.Orientation.Vertical, self.top_splitter, self.bottom_splitter, (4, 5)
        )
        # First-start proportions (a saved layout replaces them): the plots get a bit more
        # than half the height (at 1280x800 the memory plot's markers and the comparison's
        # rows stay legible, and the device table still lists eight GPUs), the code view
        # enough width for a snippet's longest line.
        self.main_splitter.setSizes([450, 550])
        self.top_splitter.setSizes([520, 760])
        self.bottom_splitter.setSizes([800, 480])

        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.errorBanner)
        layout.addWidget(self.action_bar)
        layout.addWidget(self.main_splitter, 1)
        self.setCentralWidget(central)
        self.resize(1240, 760)

        a = self.action_bar
        a.toDeviceButton.clicked.connect(self.move_to_target)
        a.cudaButton.clicked.connect(self.move_cuda)
        a.cpuButton.clicked.connect(self.move_cpu)
        a.benchmarkButton.clicked.connect(self.run_benchmark)
        a.cancelButton.clicked.connect(self.cancel)
        a.cancelButton.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        a.inputShapeEdit.textChanged.connect(lambda _text: self._refresh_actions())
        a.targetDeviceCombo.currentIndexChanged.connect(lambda _i: self._target_changed())
        a.dtypeCombo.currentIndexChanged.connect(lambda _i: self._update_move_tip())
        a.pinnedCheck.toggled.connect(lambda _on: self._update_move_tip())
        self.devices.deviceSelected.connect(a.set_target_device)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self.openModelAction = self._action("openModelAction", "&Open model…", QKeySequence.StandardKey.Open, self.open_model_dialog)
        file_menu.addAction(self.openModelAction)
        self.recentMenu = QMenu("Open &recent", self)
        self.recentMenu.setObjectName("recentMenu")
        file_menu.addMenu(self.recentMenu)
        file_menu.addSeparator()
        self.exportReportAction = self._action("exportReportAction", "&Export report…", QKeySequence("Ctrl+E"), self.export_report_dialog)
        file_menu.addAction(self.exportReportAction)
        self.openReportAction = self._action("openReportAction", "Open re&port…", QKeySequence("Ctrl+Shift+O"), self.open_report_dialog)
        self.openReportAction.setToolTip("Open a saved .json timing report and compare it with this session")
        file_menu.addAction(self.openReportAction)
        self.compareWithAction = self._action("compareWithAction", "Compare &with…", None, self.compare_with_dialog)
        self.compareWithAction.setToolTip("Compare the opened report with a second one from disk")
        file_menu.addAction(self.compareWithAction)
        file_menu.addSeparator()
        self.quitAction = self._action("quitAction", "&Quit", QKeySequence.StandardKey.Quit, self.close)
        self.quitAction.setMenuRole(QAction.MenuRole.QuitRole)
        file_menu.addAction(self.quitAction)

        edit_menu = self.menuBar().addMenu("&Edit")
        self.copyMarkdownAction = self._action("copyMarkdownAction", "&Copy report as Markdown", QKeySequence("Ctrl+Shift+C"), self.copy_markdown_report)
        self.copyMarkdownAction.setToolTip("Put this session's report on the clipboard, ready to paste into an issue")
        edit_menu.addAction(self.copyMarkdownAction)
        edit_menu.addSeparator()
        self.preferencesAction = self._action("preferencesAction", "&Preferences…", QKeySequence.StandardKey.Preferences, self.preferences_dialog)
        self.preferencesAction.setMenuRole(QAction.MenuRole.PreferencesRole)
        edit_menu.addAction(self.preferencesAction)

        view_menu = self.menuBar().addMenu("&View")
        self.refreshDevicesAction = self._action("refreshDevicesAction", "&Refresh devices", QKeySequence.StandardKey.Refresh, self.requestRediscover.emit)
        view_menu.addAction(self.refreshDevicesAction)
        self.dismissErrorAction = self._action("dismissErrorAction", "&Hide error message", None, self.errorBanner.dismiss)
        view_menu.addAction(self.dismissErrorAction)

        help_menu = self.menuBar().addMenu("&Help")
        self.aboutAction = self._action("aboutAction", "&About Torch Device Inspector", None, self.about_dialog)
        self.aboutAction.setMenuRole(QAction.MenuRole.AboutRole)
        help_menu.addAction(self.aboutAction)
        self._rebuild_recent_menu()

    def _action(self, name: str, text: str, shortcut: Any, slot: Any) -> QAction:
        action = QAction(text, self)
        action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def _build_status_bar(self) -> None:
        self.statusModel = QLabel("Model: none yet", self)
        self.statusModel.setObjectName("statusModel")
        self.statusDevice = QLabel("", self)
        self.statusDevice.setObjectName("statusDevice")
        self.statusBusy = QLabel("Starting…", self)
        self.statusBusy.setObjectName("statusBusy")
        bar = self.statusBar()
        for label in (self.statusModel, self.statusDevice, self.statusBusy):
            label.setFrameShape(QFrame.Shape.StyledPanel)
            label.setContentsMargins(6, 0, 6, 0)
            bar.addPermanentWidget(label)

    def _start_workers(self) -> None:
        hz = clamp_sample_hz(self.settings.value(SETTINGS_KEYS["sample_hz"], DEFAULT_SAMPLE_HZ))
        self.worker = ModelWorker(self.cancel_event, self.timeline)
        self.sampler = MemorySampler(self.timeline, hz)

        self.requestLoad.connect(self.worker.load)
        self.requestMove.connect(self.worker.move)
        self.requestBenchmark.connect(self.worker.benchmark)
        self.requestReport.connect(self.worker.build_report)
        self.requestSampleRate.connect(self.sampler.set_rate)
        self.requestRediscover.connect(self.sampler.rediscover)
        self.requestStopSampler.connect(self.sampler.stop)

        self.worker.taskStarted.connect(self._on_task_started)
        self.worker.taskFinished.connect(self._on_task_finished)
        self.worker.modelLoaded.connect(self._on_model_loaded)
        self.worker.placementChanged.connect(self._on_placement_changed)
        self.worker.moveFinished.connect(self._on_move_finished)
        self.worker.benchmarkFinished.connect(self._on_benchmark_finished)
        self.worker.progress.connect(self._on_progress)
        self.worker.reportBuilt.connect(self._on_report_built)
        self.worker.failed.connect(self._on_failed)
        # The sampler stores its readings in self.timeline before it emits them: the plot
        # only repaints (add_readings would store them twice).
        self.worker.latencySamples.connect(self.latencyPlot.add_sample_pairs)
        self.sampler.inventoryReady.connect(self._on_inventory)
        self.sampler.samples.connect(self._on_samples)
        self.sampler.samples.connect(self.memoryPlot.schedule_redraw)

        self.exporter = ReportExporter(self)
        self.exporter.progress.connect(self._on_export_progress)
        self.exporter.finished.connect(self._on_export_finished)
        self.exporter.failed.connect(self._on_export_failed)
        self.comparisonView.failed.connect(self._on_comparison_failed)
        self.comparisonView.reportOpened.connect(self._on_comparison_opened)

        self.model_thread = start_in_thread(self.worker, "model-worker")
        self.sampler_thread = start_in_thread(self.sampler, "memory-sampler", on_started=self.sampler.start)

    # ------------------------------------------------------------------ commands

    def open_model(self, spec: str, *, trust: bool = False, architecture: str | None = None) -> bool:
        """Load ``spec`` in the worker (the old model stays until the new one is loaded)."""
        request = LoadRequest(spec, trust, architecture or None)
        self._pending_load = request
        return self._dispatch("load", self.requestLoad, request, mark=f"load {_short_spec(spec)}")

    def request_move(self, request: Any) -> bool:
        from inspector.gui.workers import request_call

        self._pending_move = request
        return self._dispatch("move", self.requestMove, request, mark=request_call(request))

    def move_to_target(self) -> bool:
        from inspector.core.moves import MoveRequest

        a = self.action_bar
        return self.request_move(MoveRequest("to", device=a.target_device(), dtype=a.dtype(), pinned=a.pinned()))

    def move_cuda(self) -> bool:
        from inspector.core.moves import MoveRequest

        target = self.action_bar.target_device()
        device = target if target.startswith("cuda") else None
        return self.request_move(MoveRequest("cuda", device=device, pinned=self.action_bar.pinned()))

    def move_cpu(self) -> bool:
        from inspector.core.moves import MoveRequest

        return self.request_move(MoveRequest("cpu"))

    def run_benchmark(self) -> bool:
        blocker = self._benchmark_blocker()
        if blocker is not None:
            self.errorBanner.show_failure(Failure(FailureKind.INPUT, blocker), "benchmark")
            return False
        request = BenchmarkRequest(
            mode=self.action_bar.mode(), runs=self.action_bar.runsSpin.value(), input_shape=self._input_shape()
        )
        device, dtype = self._model_device_and_dtype()
        label = f"benchmark ×{request.runs:,}" + (" train step" if request.mode == BenchMode.TRAIN_STEP else "")
        label += f" · {device} {dtype}"
        if not self._dispatch("benchmark", self.requestBenchmark, request, mark=label):
            return False
        # Samples stream into this run's series; the result names it exactly when it comes.
        self.latencyPlot.begin_series(device, dtype, request.mode)
        self.tabs.setCurrentWidget(self.latencyPlot)
        return True

    def export_report(self, path: str | Path) -> bool:
        """Write the session's report to ``path`` (its suffix picks the format).

        The worker builds the report, this thread renders the plots for an HTML page, and
        the ReportExporter writes the file on a pool thread; the window stays busy until then.
        """
        self._export_asked_at = time.perf_counter()
        return self._dispatch("export", self.requestReport, ReportRequest("export", str(path)))

    def copy_markdown_report(self) -> bool:
        """Put the session's report as Markdown on the clipboard (once the worker built it)."""
        return self._dispatch("report", self.requestReport, ReportRequest("markdown"))

    def open_report(self, path: str | Path) -> None:
        """Show a saved ``.json`` report in the Compare tab, next to this session."""
        self.comparisonView.follows_session = True
        self.comparisonView.set_session_report(self.session_report)
        self.comparisonView.open_report(path, "b")
        self.tabs.setCurrentWidget(self.comparisonView)
        self._maybe_refresh_session()

    def compare_with(self, path: str | Path) -> None:
        """Compare the report opened from disk (it becomes A) with a second one (B).

        With no report open yet, ``path`` is opened next to the session instead.
        """
        view = self.comparisonView
        # The report from disk: B next to the session, or B (else A) of two reports.
        side = "b" if view.reports["b"] is not None or view.follows_session else "a"
        if view.reports[side] is None:
            self.open_report(path)
            return
        view.follows_session = False
        view.set_reports(view.reports[side], None, label_a=view.labels[side])
        view.open_report(path, "b")
        self.tabs.setCurrentWidget(view)
        self._refresh_actions()

    def cancel(self) -> None:
        """Ask the running move or benchmark to stop at its next safe point."""
        if self.busy_task in ("move", "benchmark"):
            self.cancel_event.set()
            self.statusBusy.setText(f"Cancelling the {self.busy_task}…")

    def _dispatch(self, task: str, signal: Any, *args: Any, mark: str | None = None) -> bool:
        """Send one request to the worker unless another task runs; ``mark`` labels the
        memory plot from now until the task ends."""
        if self._closed:
            return False
        if self.busy_task is not None:
            self.statusBar().showMessage(f"Busy: wait for the {self.busy_task} to finish, or cancel it", 4000)
            return False
        # Cleared here, on the GUI thread, before the request leaves: a Cancel pressed
        # right after can never be wiped out by the worker starting late.
        self.cancel_event.clear()
        self.busy_task = task
        self._refresh_actions()
        self.action_bar.show_progress(0.0 if task in ("move", "benchmark") else None, f"{task}…")
        self.statusBusy.setText(f"Busy: {task}")
        if mark is not None:
            self._task_mark = (self.memoryPlot.mark(mark + " …"), mark)
        signal.emit(*args)
        return True

    def _end_task_mark(self, outcome: str = "") -> None:
        """The running task's line on the memory plot becomes a span, labelled with how it ended."""
        if self._task_mark is None:
            return
        started, label = self._task_mark
        self._task_mark = None
        self.memoryPlot.end_mark(started, f"{label} ({outcome})" if outcome else label)

    # ------------------------------------------------------------------ dialogs

    def open_model_dialog(self) -> None:
        dialog = OpenModelDialog(self.recent_models(), self)
        if dialog.exec() == OpenModelDialog.DialogCode.Accepted and dialog.spec():
            self.open_model(dialog.spec(), architecture=dialog.architecture())

    def export_report_dialog(self) -> None:
        start = str(Path.home() / "timing-report.json")
        path, chosen = QFileDialog.getSaveFileName(self, "Export timing report", start, export_filter())
        if path:
            self.export_report(path_with_suffix(path, chosen))

    def open_report_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a timing report", "", REPORT_OPEN_FILTER)
        if path:
            self.open_report(path)

    def compare_with_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Compare with a second timing report", "", REPORT_OPEN_FILTER)
        if path:
            self.compare_with(path)

    def preferences_dialog(self) -> None:
        current = clamp_sample_hz(self.settings.value(SETTINGS_KEYS["sample_hz"], DEFAULT_SAMPLE_HZ))
        dialog = PreferencesDialog(current, self)
        if dialog.exec() == PreferencesDialog.DialogCode.Accepted:
            self.set_sample_rate(dialog.sample_hz())

    def set_sample_rate(self, hz: float) -> None:
        hz = clamp_sample_hz(hz)
        self.settings.setValue(SETTINGS_KEYS["sample_hz"], hz)
        self.requestSampleRate.emit(hz)

    def about_dialog(self) -> None:
        QMessageBox.about(self, "About Torch Device Inspector", self.about_text())

    def about_text(self) -> str:
        from inspector.core.environment import driver_lines, version_lines
        from inspector.gui.branding import toolkit_line

        lines = version_lines(toolkit_line()) + driver_lines(self.inventory)
        body = "<br>".join(html.escape(line) for line in lines)
        return (
            "<p><b>Torch Device Inspector</b>: where every tensor of a PyTorch model lives, what a "
            "move costs, and how fast the model runs on each device.</p>"
            f"<p style='font-family:monospace'>{body}</p>"
        )

    def _ask_trust(self, failure: TaskFailure) -> None:
        wanted = ", ".join(failure.wanted[:8]) + (" …" if len(failure.wanted) > 8 else "")
        box = QMessageBox(self)
        box.setObjectName("trustDialog")
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Trust this file?")
        box.setText(f"<b>{html.escape(Path(failure.path or '').name)}</b> needs to run code to load.")
        box.setInformativeText(
            f"It asks for: {html.escape(wanted)}.<br><br>Loading it runs that code with your "
            "permissions. Only trust files you made yourself or got from a source you trust.<br><br>"
            "Load this file anyway?"
        )
        box.setDetailedText(failure.path or "")
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.button(QMessageBox.StandardButton.Yes).setText("Trust and load")
        box.button(QMessageBox.StandardButton.No).setText("Don't load")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered() -> None:
            trusted = box.clickedButton() is box.button(QMessageBox.StandardButton.Yes)
            if trusted and not self._closed and failure.path:
                architecture = self._pending_load.architecture if self._pending_load else None
                self.open_model(failure.path, trust=True, architecture=architecture)

        box.finished.connect(lambda _result: answered())
        box.open()  # window-modal and asynchronous: the event loop keeps running

    # ------------------------------------------------------------------ worker results

    @Slot(str)
    def _on_task_started(self, task: str) -> None:
        if task == self.busy_task:  # not the quiet session report
            self.statusBusy.setText(f"Busy: {task}")

    @Slot(str)
    def _on_task_finished(self, task: str) -> None:
        if task == "session":
            self._session_in_flight = False
        if task != self.busy_task:
            return  # a quiet session report, which never made the window busy
        if task == "export" and self._exporting is not None:
            return  # built; the window stays busy until the exporter has written the file
        self._end_task_mark()
        self.busy_task = None
        self.cancel_event.clear()
        self.statusBusy.setText("Ready")
        if self.action_bar.progressBar.maximum() == 0:  # a load or export: no measured progress
            self.action_bar.show_idle()
        self._refresh_actions()
        self._maybe_refresh_session()

    @Slot(object)
    def _on_model_loaded(self, outcome: LoadOutcome) -> None:
        state = outcome.state
        info = state.info
        self._show_state(state)
        self.errorBanner.dismiss()
        self.add_recent_model(info.spec)
        totals = state.placement.totals
        self.add_history(
            f"load_model({info.spec!r})",
            outcome.seconds,
            None,
            f"{info.class_name} ({info.source}): {totals.count} tensors, {format_bytes(totals.bytes)}",
            detail="\n".join(info.notes),
        )
        self.action_bar.show_idle(f"loaded {info.class_name}")
        self.setWindowTitle(f"{info.class_name} — {info.spec}")
        # A new session: the report's moves and latency start afresh, and so does the plot.
        # The memory timeline goes on (it is the devices' record, and shows the load itself).
        self.latencyPlot.clear()
        self._session_stale = True

    @Slot(object)
    def _on_placement_changed(self, state: ModelState) -> None:
        self._show_state(state)

    @Slot(object)
    def _on_move_finished(self, result: Any) -> None:
        if self._pending_move is not None:
            self._show_move_code(self._pending_move, result.call)
        if result.ok:
            outcome = f"{result.source} → {result.target}: {format_bytes(result.bytes)}"
            if result.dtype:
                outcome += f" as {result.dtype}"
            if result.note:
                outcome += f" ({result.note})"
            self.action_bar.show_idle(f"moved in {format_seconds(result.seconds)}")
            self._end_task_mark()
        elif result.error.kind == FailureKind.CANCELLED:
            outcome = "cancelled: rolled back, the model is as before"
            self.action_bar.show_idle("cancelled")
            self._end_task_mark("cancelled")
        else:
            outcome = f"failed: {result.error.message}"
            self.errorBanner.show_failure(result.error, result.call)
            self.action_bar.show_idle("move failed")
            self._end_task_mark("failed")
        self._session_stale = True
        self.add_history(
            result.call, result.seconds, result.gbps, outcome, ok=result.ok,
            detail=_memory_detail(result) + (f"\n\n{result.error.detail}" if result.error and result.error.detail else ""),
        )  # fmt: skip

    @Slot(object)
    def _on_benchmark_finished(self, outcome: BenchmarkOutcome) -> None:
        r = outcome.result
        shape = "x".join(map(str, r.input_shape))
        call = f"{r.mode} ×{len(r.samples_ms)} · {r.device} {r.dtype} · input {shape}"
        result = f"median {r.median_ms:.3g} ms · p95 {r.p95_ms:.3g} ms"
        detail = [
            f"p5 {r.p5_ms:.3g} ms, mean {r.mean_ms:.3g} ms, min {r.min_ms:.3g} ms, max {r.max_ms:.3g} ms; "
            f"first call {r.warmup_ms:.3g} ms"
        ]
        self.add_history(call, outcome.seconds, None, result, detail="\n".join(detail + list(r.notes)))
        self.action_bar.show_idle(f"median {r.median_ms:.3g} ms")
        self.latencyPlot.finish_series(r)
        self._end_task_mark(f"median {r.median_ms:.3g} ms")
        self._session_stale = True
        try:
            from inspector.core.snippets import benchmark_snippet

            code = benchmark_snippet(r.device, r.dtype, tuple(r.input_shape), r.mode)
        except InputError as exc:
            code = f"# no snippet for this measurement: {exc.message}"
        self.code.show_code(code, f"Equivalent PyTorch code: {r.mode} timing on {r.device}")

    @Slot(object)
    def _on_progress(self, progress: Progress) -> None:
        if progress.task == "move":
            text = f"moving {format_bytes(progress.done)} / {format_bytes(progress.total)}"
        else:
            text = f"sample {int(progress.done):,} / {int(progress.total):,}"
        self.action_bar.show_progress(progress.fraction, text)

    @Slot(object)
    def _on_report_built(self, built: ReportBuilt) -> None:
        self.session_report = built.report
        if self.comparisonView.follows_session:
            self.comparisonView.set_session_report(built.report)
        if self._closed:
            return  # closing cancels work: no file is started after that
        if built.request.purpose == "export":
            self._start_export(built)
        elif built.request.purpose == "markdown":
            copy_markdown(built.report)
            self.statusBar().showMessage("Copied the report as Markdown: paste it into an issue or a chat", 8000)

    def _start_export(self, built: ReportBuilt) -> None:
        path = str(built.request.path)
        images: dict[str, bytes] = {}
        if Path(path).suffix.lower() == ".html":
            # Drawn here (widgets live on this thread) at a fixed size; the file is written
            # on the exporter's pool thread.
            try:
                images = plot_images(self.memoryPlot, self.latencyPlot)
            except Exception:  # a report without plots is better than no report
                log.exception("could not render the plots for %s", path)
        self._exporting = path
        self.last_export = built.report
        self.action_bar.show_progress(None, f"writing {Path(path).name}…")
        # No copy: the worker built this dict for this export, and nothing here changes it.
        self.exporter.export(built.report, path, images, copy_report=False)

    @Slot(int, int)
    def _on_export_progress(self, done: int, total: int) -> None:
        if self._exporting is not None:  # total 0: rendering and writing are one call
            fraction = done / total if total else None
            self.action_bar.show_progress(fraction, f"writing {Path(self._exporting).name}…")

    @Slot(str)
    def _on_export_finished(self, path: str) -> None:
        seconds = self._export_done()
        self.add_history(f"save_report(report, {path!r})", seconds, None, "written")
        self.statusBar().showMessage(f"Report written: {path}", 8000)
        self.action_bar.show_idle(f"wrote {Path(path).name}")

    @Slot(object)
    def _on_export_failed(self, failure: Failure) -> None:
        path = self._exporting or "?"
        seconds = self._export_done()
        self.errorBanner.show_failure(failure, "export")
        self.add_history(
            f"save_report(report, {path!r})", seconds, None, f"failed: {failure.message}", ok=False, detail=failure.detail
        )
        self.action_bar.show_idle("export failed")

    def _export_done(self) -> float | None:
        """The exporter is done with the file: the window is free again. Returns the seconds
        since the report was asked for."""
        if self._exporting is None:
            return None
        self._exporting = None
        seconds = time.perf_counter() - self._export_asked_at if self._export_asked_at else None
        if self.busy_task == "export":
            self.busy_task = None
            self.statusBusy.setText("Ready")
            self._refresh_actions()
        return seconds

    @Slot(object)
    def _on_comparison_failed(self, failure: Failure) -> None:
        self.errorBanner.show_failure(failure, "open report")

    @Slot(str, str)
    def _on_comparison_opened(self, _side: str, path: str) -> None:
        self.add_history(f"load_report({path!r})", None, None, "shown in the Compare tab")
        self._refresh_actions()
        self._maybe_refresh_session()

    def _maybe_refresh_session(self) -> None:
        """Rebuild side A of the comparison when it shows this session and is out of date.

        Quiet: the request is not a task of the window's (no busy state, no progress); the
        worker runs it between the user's own tasks.
        """
        view = self.comparisonView
        wanted = view.follows_session and (view.reports["b"] is not None or self.tabs.currentWidget() is view)
        if not wanted or self._closed or self.model_state is None or self._session_in_flight:
            return
        if not self._session_stale and self.session_report is not None:
            return
        self._session_stale = False
        self._session_in_flight = True
        self.requestReport.emit(ReportRequest("session"))

    @Slot(object)
    def _on_failed(self, failure: TaskFailure) -> None:
        if failure.task != self.busy_task:  # the quiet session report: no banner for it
            log.warning("could not build the session report: %s", failure.failure.message)
            self.add_history(failure.call, failure.seconds, None, f"failed: {failure.failure.message}", ok=False,
                             detail=failure.failure.detail)  # fmt: skip
            return
        if failure.task == "benchmark":
            # What was measured stays on the plot, labelled with why the run stopped.
            self.latencyPlot.abort_series("cancelled" if failure.failure.kind == FailureKind.CANCELLED else "failed")
        self._end_task_mark("cancelled" if failure.failure.kind == FailureKind.CANCELLED else "failed")
        if failure.failure.kind == FailureKind.CANCELLED:
            self.add_history(failure.call, failure.seconds, None, "cancelled: stopped between samples", ok=False)
            self.action_bar.show_idle("cancelled")
            return
        self.errorBanner.show_failure(failure.failure, failure.task)
        self.add_history(
            failure.call, failure.seconds, None, f"failed: {failure.failure.message}", ok=False, detail=failure.failure.detail
        )
        self.action_bar.show_idle(f"{failure.task} failed")
        if failure.wanted and failure.path and not self._closed:
            self._ask_trust(failure)

    @Slot(object)
    def _on_inventory(self, inventory: Any) -> None:
        self.inventory = inventory
        self.devices.set_inventory(inventory)
        ids = inventory.ids() or ["cpu"]
        accelerators = [i for i in ids if i != "cpu"]
        self.action_bar.set_devices(ids, preferred=accelerators[0] if accelerators else "cpu")
        self.devices.select_device(self.action_bar.target_device())
        if self.last_readings:
            self.devices.set_readings(self.last_readings)

    @Slot(object)
    def _on_samples(self, readings: tuple) -> None:
        self.last_readings = readings
        now = time.monotonic()
        if now - self._table_refreshed_at >= TABLE_REFRESH_S:
            self._table_refreshed_at = now
            self.devices.set_readings(readings)

    # ------------------------------------------------------------------ view updates

    def _show_state(self, state: ModelState) -> None:
        self.model_state = state
        self.parameters.set_placement(state.placement)
        info, placement = state.info, state.placement
        self.model_box.setTitle(f"Model — {info.class_name} ({info.spec})")
        self.statusModel.setText(f"Model: {info.class_name} ({info.source})")
        where = ", ".join(placement.devices) or "no tensors"
        dtypes = ", ".join(placement.totals.by_dtype) or "—"
        self.statusDevice.setText(f"On: {where} · {dtypes}")
        if not self.action_bar.input_shape_text() and info.example_input_shapes:
            self.action_bar.inputShapeEdit.setPlaceholderText(
                "model input " + ", ".join("x".join(map(str, s)) for s in info.example_input_shapes)
            )
        elif not info.example_input_shapes:
            self.action_bar.inputShapeEdit.setPlaceholderText("needed, e.g. 1,3,224,224")
        self._refresh_actions()

    def _show_move_code(self, request: Any, call: str) -> None:
        try:
            from inspector.core.snippets import move_snippet

            code = move_snippet(request)
        except InputError as exc:
            code = f"# no snippet for this move: {exc.message}"
        self.code.show_code(code, f"Equivalent PyTorch code: {call}")

    def add_history(
        self, call: str, seconds: float | None, gbps: float | None, result: str, *, ok: bool = True, detail: str = ""
    ) -> None:
        self.historyView.add(HistoryEntry(_dt.datetime.now(), call, seconds, gbps, result, ok, detail.strip()))

    def _input_shape(self) -> tuple[int, ...] | None:
        from inspector.core.timing import parse_input_shape

        text = self.action_bar.input_shape_text()
        return parse_input_shape(text) if text else None

    def _model_device_and_dtype(self) -> tuple[str, str]:
        """Where a benchmark will run and in which dtype, as the snapshot tells it ("?" when it
        cannot: the result names the run exactly when it comes back)."""
        state = self.model_state
        if state is None:
            return "?", "?"
        devices = state.placement.devices
        floating = (r.dtype for r in state.placement.tensors
                    if r.kind == "parameter" and r.dtype.startswith(("float", "bfloat")))  # fmt: skip
        return (devices[0] if len(devices) == 1 else "?"), next(floating, "?")

    def _benchmark_blocker(self) -> str | None:
        state = self.model_state
        if state is None:
            return "No model is loaded (File › Open model…)"
        if any(f.code == "split_model" for f in state.placement.warnings):
            return "The model is split across devices: move it as a whole first (.to(device) or .cpu())"
        try:
            shape = self._input_shape()
        except InputError as exc:
            return f"Input shape: {exc.message}"
        if shape is None and not state.info.has_example_input:
            return "This model brings no example input: enter an input shape such as 1,3,224,224"
        return None

    def _refresh_actions(self) -> None:
        state = ActionState(
            busy_task=self.busy_task,
            has_model=self.model_state is not None,
            benchmark_blocker=self._benchmark_blocker() if self.model_state is not None else None,
            pinned_blocker=self._pinned_blocker(),
        )
        self.action_bar.apply(state)
        idle = self.busy_task is None and not self._closed
        self.openModelAction.setEnabled(idle)
        self.recentMenu.setEnabled(idle)
        self.exportReportAction.setEnabled(idle and self.model_state is not None)
        self.exportReportAction.setToolTip(
            "Write the timing report (moves, latency, memory) as HTML, JSON, CSV or Markdown"
            if self.exportReportAction.isEnabled()
            else "Available once a model is loaded and nothing is running"
        )
        self.copyMarkdownAction.setEnabled(self.exportReportAction.isEnabled())
        view = self.comparisonView
        # "Compare with…" needs a report from disk to compare the second one with.
        self.compareWithAction.setEnabled(view.reports["b"] is not None or not view.follows_session)
        self._update_move_tip()

    def _pinned_blocker(self) -> str | None:
        devices = self.model_state.placement.devices if self.model_state is not None else ()
        return pinned_blocker(self.action_bar.target_device(), devices)

    def _target_changed(self) -> None:
        self.devices.select_device(self.action_bar.target_device())  # keep table and combo in step
        self._refresh_actions()  # whether "pinned" applies depends on the target

    def _update_move_tip(self) -> None:
        from inspector.core.moves import MoveRequest, call_code

        a = self.action_bar
        if a.toDeviceButton.isEnabled():
            call = call_code(MoveRequest("to", device=a.target_device(), dtype=a.dtype(), pinned=a.pinned()))
            a.toDeviceButton.setToolTip(f"{call}: works on every machine when the device falls back to the CPU")

    # ------------------------------------------------------------------ settings

    def recent_models(self) -> list[str]:
        value = self.settings.value(SETTINGS_KEYS["recent"], [])
        if isinstance(value, str):  # QSettings gives a bare string for a one-item list
            value = [value]
        return [str(v) for v in (value or []) if str(v).strip()]

    def add_recent_model(self, spec: str) -> None:
        recent = [spec] + [s for s in self.recent_models() if s != spec]
        self.settings.setValue(SETTINGS_KEYS["recent"], recent[:MAX_RECENT])
        self._rebuild_recent_menu()

    def _rebuild_recent_menu(self) -> None:
        self.recentMenu.clear()
        recent = self.recent_models()
        for spec in recent:
            action = self.recentMenu.addAction(spec)
            action.triggered.connect(lambda _checked=False, s=spec: self.open_model(s))
        if recent:
            self.recentMenu.addSeparator()
            self.recentMenu.addAction("Clear the list", self._clear_recent)
        else:
            placeholder = self.recentMenu.addAction("No recent models")
            placeholder.setEnabled(False)

    def _clear_recent(self) -> None:
        self.settings.setValue(SETTINGS_KEYS["recent"], [])
        self._rebuild_recent_menu()

    def _restore_settings(self) -> None:
        geometry = self.settings.value(SETTINGS_KEYS["geometry"])
        if geometry:
            self.restoreGeometry(geometry)
        splitters = self.settings.value(SETTINGS_KEYS["splitters"])
        if isinstance(splitters, (list, tuple)) and len(splitters) == 3:
            for splitter, state in zip((self.main_splitter, self.top_splitter, self.bottom_splitter), splitters):
                splitter.restoreState(state)

    def _save_settings(self) -> None:
        self.settings.setValue(SETTINGS_KEYS["geometry"], self.saveGeometry())
        self.settings.setValue(
            SETTINGS_KEYS["splitters"],
            [s.saveState() for s in (self.main_splitter, self.top_splitter, self.bottom_splitter)],
        )
        self.settings.sync()

    # ------------------------------------------------------------------ shutdown

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._closed:
            self._save_settings()
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self, timeout_s: float = 2.0) -> bool:
        """Cancel running work, quit both threads and wait for them and for a report being
        written or read (``timeout_s`` in all).

        Returns True when everything ended. Safe to call more than once.
        """
        if self._closed:
            return bool(self.threads_stopped)
        self._closed = True
        deadline = time.monotonic() + timeout_s
        self.cancel_event.set()
        self.requestStopSampler.emit()  # the sampler stops its timer and quits its own thread
        self.model_thread.quit()  # ends once the running move/benchmark sees the cancel
        stopped = stop_threads([self.model_thread, self.sampler_thread], timeout_s, quit=False)
        # A file being written is finished rather than abandoned (it is written atomically,
        # so even an interrupted one would leave the old file), within what is left of the bound.
        for pool in (self.exporter, self.comparisonView):
            stopped = pool.wait(max(0, int((deadline - time.monotonic()) * 1000))) and stopped
        self.threads_stopped = stopped
        return stopped

    def threads(self) -> list:
        return [self.model_thread, self.sampler_thread]


# ---------------------------------------------------------------------- helpers


def _short_spec(spec: str) -> str:
    """A model spec for a plot label: a file without its folders ("big.py:make", "model.pt")."""
    path, colon, factory = spec.rpartition(":")
    if colon and factory.isidentifier() and ("/" in path or "\\" in path):
        return f"{Path(path).name}:{factory}"
    return Path(spec).name if ("/" in spec or "\\" in spec) else spec


def _boxed(title: str, widget: QWidget) -> QGroupBox:
    box = QGroupBox(title)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(6, 6, 6, 6)
    layout.addWidget(widget)
    return box


def _splitter(name: str, orientation: Qt.Orientation, first: QWidget, second: QWidget, stretch: tuple[int, int]) -> QSplitter:
    splitter = QSplitter(orientation)
    splitter.setObjectName(name)
    splitter.addWidget(first)
    splitter.addWidget(second)
    splitter.setStretchFactor(0, stretch[0])
    splitter.setStretchFactor(1, stretch[1])
    splitter.setChildrenCollapsible(False)
    return splitter


def _memory_detail(result: Any) -> str:
    lines = []
    for label, readings in (("before", result.memory_before), ("after", result.memory_after)):
        for device, reading in (readings or {}).items():
            lines.append(
                f"{device} {label}: allocated {format_bytes(reading.get('allocated'))}, "
                f"used {format_bytes(reading.get('used'))} of {format_bytes(reading.get('total'))}"
            )
    return "\n".join(lines)
