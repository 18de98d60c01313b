"""The main window: panels laid out, wired to the two background workers.

The window never touches the model: it sends requests to the ModelWorker through queued
signals and shows the frozen results that come back. It keeps only snapshots (the latest
placement, the device inventory, the last memory readings). Its parts each have a module:
the panels are laid out by ``layout``, the menus are data (``menus``), the
one-task-at-a-time rule is the ``TaskController`` (``tasks``), reports go through the
``ReportFlow`` (``report_flow``), the worker's results are shown by ``results``, what is
remembered between runs is ``window_settings``, and the dialogs live in ``dialogs``.
"""

from __future__ import annotations

import datetime as _dt
import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent, QKeySequence
from PySide6.QtWidgets import QMainWindow

from inspector.core.errors import Failure
from inspector.core.measure.memory_log import MemoryTimeline
from inspector.core.moves.request import MoveRequest
from inspector.core.session import BenchmarkRequest, LoadRequest, ModelState
from inspector.core.vocabulary import BenchMode, FailureKind
from inspector.gui import window_settings
from inspector.gui.layout import build_latency_plot_when_idle, build_panels, build_status_bar
from inspector.gui.availability import CommandAvailability
from inspector.gui.menus import build_menus
from inspector.gui.panels.history import HistoryEntry
from inspector.gui.report_flow import ReportFlow
from inspector.gui.results import WorkerResults
from inspector.gui.tasks import Task, TaskController
from inspector.gui.sampler import MemorySampler
from inspector.gui.threads import start_in_thread, stop_threads
from inspector.gui.workers import ModelWorker, request_call

if TYPE_CHECKING:
    from inspector.gui import dialogs

log = logging.getLogger(__name__)

#: The device table repaints from the 10 Hz samples at most this often.
TABLE_REFRESH_S = 1.0
#: After a close's 2 s bound, how much longer the hidden window waits for work that cannot
#: be interrupted to reach its next cancel check.
LINGER_S = 20.0


class MainWindow(QMainWindow):
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
    #: File › Connect to server…: ``gui.remote_window`` answers it (app.create_window wires it;
    #: the window cannot import the remote window, which is a kind of window itself).
    connectServerRequested = Signal()

    def __init__(self, model_spec: str = "example", trust: bool = False, settings: QSettings | None = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.settings = settings if settings is not None else QSettings()
        self.cancel_event = threading.Event()
        self.tasks = TaskController(self.cancel_event, self)
        self.tasks.busyChanged.connect(self._on_busy_changed)
        self.timeline = MemoryTimeline()
        self.inventory: Any = None
        self.fit_dialog: Any = None  # gui.fit_dialog.FitDialog, made on first use
        self.model_state: ModelState | None = None
        self.last_readings: tuple[Any, ...] = ()
        self._table_refreshed_at = 0.0
        self.pending_move: MoveRequest | None = None
        self.pending_load: LoadRequest | None = None
        #: The last load that failed (the Open model dialog reopens on it, to fix); None once one succeeds.
        self.failed_load: Failure | None = None
        #: (spec, input text) a preset or the Open model dialog gave for the load under way.
        self.pending_inputs: tuple[str, str] | None = None
        #: The memory plot's line for the running task: (time.time() it started, label).
        self._task_mark: tuple[float, str] | None = None
        self.threads_stopped: bool | None = None
        #: Task marks (label, start, end or None) made before the memory plot was built.
        self.unplotted_marks: list[tuple[str, float, float | None]] = []
        self.availability = CommandAvailability(self)

        build_panels(self)
        self._connect_panels()
        build_menus(self)
        self._rebuild_recent_menu()
        build_status_bar(self)
        window_settings.restore_layout(self)
        self.reports = ReportFlow(self)
        self.results = WorkerResults(self)
        self._start_workers()
        self.refresh_actions()
        self.open_model(model_spec, trust=trust)

    # ------------------------------------------------------------------ state

    @property
    def busy_task(self) -> str | None:
        """The task the window waits for (a ``Task``, which is its name); None when idle."""
        return self.tasks.task

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
    def closed(self) -> bool:
        return self.tasks.closed

    @property
    def last_export(self) -> dict[str, Any] | None:
        return self.reports.last_export

    @property
    def _exporting(self) -> str | None:
        return self.reports.exporting

    # ------------------------------------------------------------------ building

    def _connect_panels(self) -> None:
        a = self.action_bar
        a.toDeviceButton.clicked.connect(self.move_to_target)
        a.cudaButton.clicked.connect(self.move_cuda)
        a.cpuButton.clicked.connect(self.move_cpu)
        a.benchmarkButton.clicked.connect(self.run_benchmark)
        a.inputShapeEdit.returnPressed.connect(self.run_benchmark)
        self.parameters.move_target = lambda: (a.target_device(), a.dtype())
        a.cancelButton.clicked.connect(self.cancel)
        a.cancelButton.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.availability.connect(a)
        self.devices.deviceSelected.connect(a.set_target_device)

    def _start_workers(self) -> None:
        hz = window_settings.sample_hz(self.settings)
        self.worker, self.sampler = self._make_workers(hz)

        self.requestLoad.connect(self.worker.load)
        self.requestMove.connect(self.worker.move)
        self.requestBenchmark.connect(self.worker.benchmark)
        self.requestReport.connect(self.worker.build_report)
        self.requestFit.connect(self.worker.fit)
        self.requestTrainStep.connect(self.worker.train_step)
        self.requestSampleRate.connect(self.sampler.set_rate)
        self.requestRediscover.connect(self.sampler.rediscover)
        self.requestStopSampler.connect(self.sampler.stop)

        results = self.results
        self.worker.taskStarted.connect(results.on_task_started)
        self.worker.taskFinished.connect(results.on_task_finished)
        self.worker.modelLoaded.connect(results.on_model_loaded)
        self.worker.placementChanged.connect(self._on_placement_changed)
        self.worker.moveFinished.connect(results.on_move_finished)
        self.worker.benchmarkFinished.connect(results.on_benchmark_finished)
        self.worker.progress.connect(results.on_progress)
        self.worker.reportBuilt.connect(self.reports.on_report_built)
        self.worker.fitFinished.connect(results.on_fit_finished)
        self.worker.trainStepFinished.connect(results.on_train_step_finished)
        self.worker.failed.connect(results.on_failed)
        # The sampler stores its readings in self.timeline before it emits them: the plot
        # only repaints (add_readings would store them twice).
        self.worker.latencySamples.connect(self._on_latency_samples)
        self.sampler.inventoryReady.connect(self._on_inventory)
        self.sampler.samples.connect(self._on_samples)
        self.sampler.samples.connect(self._on_memory_samples)

        self.model_thread = start_in_thread(self.worker, "model-worker")
        self.sampler_thread = start_in_thread(self.sampler, "memory-sampler", on_started=self.sampler.start)

    def _make_workers(self, hz: float) -> tuple[Any, Any]:
        """The model worker and the memory sampler; a remote window's come from its agent."""
        return ModelWorker(self.cancel_event, self.timeline), MemorySampler(self.timeline, hz)

    # ------------------------------------------------------------------ commands

    def open_model(
        self, spec: str, *, trust: bool = False, architecture: str | None = None, inputs: str | None = None
    ) -> bool:
        """Load ``spec`` in the worker (the old model stays until the new one is loaded);
        ``inputs`` fills the input field once it is loaded (else what the model last used)."""
        request = LoadRequest(spec, trust, architecture or None)
        self.pending_load = request
        self.pending_inputs = (spec, inputs) if inputs is not None else None
        return self.dispatch(Task.LOAD, self.requestLoad, request, mark=f"load {_short_spec(spec)}")

    def request_move(self, request: MoveRequest) -> bool:
        self.pending_move = request
        return self.dispatch(Task.MOVE, self.requestMove, request, mark=request_call(request))

    def move_to_target(self) -> bool:
        a = self.action_bar
        return self.request_move(MoveRequest("to", device=a.target_device(), dtype=a.dtype(), pinned=a.pinned()))

    def move_cuda(self) -> bool:
        target = self.action_bar.target_device()
        device = target if target.startswith("cuda") else None
        return self.request_move(MoveRequest("cuda", device=device, pinned=self.action_bar.pinned()))

    def move_cpu(self) -> bool:
        return self.request_move(MoveRequest("cpu"))

    def run_benchmark(self) -> bool:
        blocker = self.availability.benchmark_blocker()
        if blocker is not None:
            self.errorBanner.show_failure(Failure(FailureKind.INPUT, blocker), "benchmark")
            return False
        request = BenchmarkRequest(
            mode=self.action_bar.mode(), runs=self.action_bar.runsSpin.value(), input_shape=self.availability.input_shape(),
            per_module=self.action_bar.perModuleCheck.isChecked(),
        )
        if self.model_state is not None:
            window_settings.remember_inputs(self.settings, self.model_state.info.spec, self.action_bar.input_shape_text())
        device, dtype = self.availability.model_device_and_dtype()
        label = f"benchmark ×{request.runs:,}" + (" train step" if request.mode == BenchMode.TRAIN_STEP else "")
        label += f" · {device} {dtype}"
        if not self.dispatch(Task.BENCHMARK, self.requestBenchmark, request, mark=label):
            return False
        # Samples stream into this run's series; the result names it exactly when it comes.
        self.latencyPlot.begin_series(device, dtype, request.mode)
        self.tabs.setCurrentWidget(self.latencyPlot)
        return True

    def show_fit_dialog(self) -> Any:
        """The non-modal "will it fit?" dialog, one row per device of the machine."""
        from inspector.gui.fit_dialog import FitDialog

        if self.fit_dialog is None:
            self.fit_dialog = FitDialog(self)
            self.fit_dialog.requested.connect(self.request_fit)
            self.fit_dialog.cancelRequested.connect(self.cancel)
        ids = self.inventory.ids() if self.inventory is not None else ["cpu"]
        self.fit_dialog.set_devices(ids)
        self.fit_dialog.set_input_shape(self.action_bar.inputShapeEdit.text().strip())
        self.fit_dialog.set_busy(not self.fitAction.isEnabled())
        self.fit_dialog.show()
        self.fit_dialog.raise_()
        return self.fit_dialog

    def request_fit(self, requests: tuple[Any, ...]) -> bool:
        devices = ", ".join(r.device for r in requests)
        if not self.dispatch(Task.FIT, self.requestFit, requests, mark=f"will it fit? {devices}"):
            if self.fit_dialog is not None:
                self.fit_dialog.show_failure(f"Busy: wait for the {self.busy_task} to finish, or cancel it")
            return False
        return True

    def confirm_train_step(self) -> bool:
        """Ask first (the step changes the model's weights), then run one training step."""
        if self.model_state is None or not _dialogs().confirm_train_step(self):
            return False
        return self.run_train_step()

    def run_train_step(self) -> bool:
        """One real training step on the model, with its own input or the input-shape field's."""
        try:
            shape = self.availability.input_shape()
        except Exception as exc:  # noqa: BLE001 - the field's parse error, as the benchmark shows it
            self.errorBanner.show_failure(Failure(FailureKind.INPUT, f"Input shape: {exc}"), "train step")
            return False
        return self.dispatch(Task.TRAIN_STEP, self.requestTrainStep, shape, mark="train step")

    def export_report(self, path: str | Path) -> bool:
        """Write the session's report to ``path`` (its suffix picks the format); see ReportFlow."""
        return self.reports.export_report(path)

    def copy_markdown_report(self) -> bool:
        return self.reports.copy_markdown_report()

    def open_report(self, path: str | Path) -> None:
        self.reports.open_report(path)

    def compare_with(self, path: str | Path) -> None:
        self.reports.compare_with(path)

    def cancel(self) -> None:
        """Ask the running move or benchmark to stop at its next safe point."""
        if self.tasks.cancel():
            self.statusBusy.setText(f"Cancelling the {self.busy_task}…")

    def dispatch(self, task: Task, signal: Any, *args: Any, mark: str | None = None) -> bool:
        """Send one request to the worker unless another task runs; ``mark`` labels the
        memory plot from now until the task ends."""
        if self.tasks.closed:
            return False
        if not self.tasks.begin(task):
            self.statusBar().showMessage(f"Busy: wait for the {self.busy_task} to finish, or cancel it", 4000)
            return False
        self.action_bar.show_progress(0.0 if task.measured else None, f"{task}…")
        if mark is not None:
            self._task_mark = (self._mark(mark + " …"), mark)
        signal.emit(*args)
        return True

    def end_task_mark(self, outcome: str = "") -> None:
        """The running task's line on the memory plot becomes a span, labelled with how it ended."""
        if self._task_mark is None:
            return
        started, label = self._task_mark
        self._task_mark = None
        label = f"{label} ({outcome})" if outcome else label
        if self.lazy_tabs.is_built("memoryPlot"):
            self.memoryPlot.end_mark(started, label)
        else:
            self.unplotted_marks.append((label, started, time.time()))

    def _mark(self, label: str) -> float:
        """A line on the memory plot from now (its ``time.time()`` stamp); kept for the plot
        until its tab is first shown."""
        if self.lazy_tabs.is_built("memoryPlot"):
            return float(self.memoryPlot.mark(label))
        started = time.time()
        self.unplotted_marks.append((label, started, None))
        return started

    @Slot(object)
    def _on_busy_changed(self, task: Task | None) -> None:
        self.statusBusy.setText("Ready" if task is None else f"Busy: {task}")
        self.refresh_actions()

    # ------------------------------------------------------------------ dialogs

    def open_model_dialog(self) -> None:
        dialog = self.make_open_model_dialog()
        if dialog.exec() == _dialogs().OpenModelDialog.DialogCode.Accepted and dialog.spec():
            if dialog.browsed_path:
                window_settings.set_last_folder(self.settings, "models", dialog.browsed_path)
            self.open_model(dialog.spec(), architecture=dialog.architecture(), inputs=dialog.inputs())

    def make_open_model_dialog(self) -> dialogs.OpenModelDialog:
        """The Open model dialog, filled with the load that just failed (to fix it) or else
        the current model and its input."""
        failed, request = self.failed_load, self.pending_load
        if failed is not None and request is not None:
            spec, arch, inputs = request.spec, request.architecture or "", ""
            if self.pending_inputs is not None and self.pending_inputs[0] == request.spec:
                inputs = self.pending_inputs[1]
        elif self.model_state is not None:
            spec, arch, inputs = self.model_state.info.spec, "", self.action_bar.input_shape_text()
        else:
            spec = arch = inputs = ""
        return _dialogs().OpenModelDialog(
            self.recent_models(), self, spec=spec, architecture=arch, inputs=inputs,
            needs_architecture=failed is not None and failed.kind == FailureKind.ARCHITECTURE,
            start_folder=window_settings.last_folder(self.settings, "models"),
        )  # fmt: skip

    def follow_loaded_model(self, spec: str) -> None:
        """A model was loaded: the input field shows what it was opened with (a preset), else
        what its last benchmark used, else nothing (its own example input, or a hint)."""
        pending, self.pending_inputs = self.pending_inputs, None
        self.failed_load = None
        text = pending[1] if pending is not None and pending[0] == spec else window_settings.remembered_inputs(self.settings, spec)
        self.action_bar.inputShapeEdit.setText(text)
        self.code.show_code("", "")  # the last model's snippet does not apply to this one

    def export_report_dialog(self) -> None:
        self.reports.export_report_dialog()

    def open_report_dialog(self) -> None:
        self.reports.open_report_dialog()

    def compare_with_dialog(self) -> None:
        self.reports.compare_with_dialog()

    def preferences_dialog(self) -> None:
        current = window_settings.sample_hz(self.settings)
        dialog = _dialogs().PreferencesDialog(current, self)
        if dialog.exec() == _dialogs().PreferencesDialog.DialogCode.Accepted:
            self.set_sample_rate(dialog.sample_hz())

    def set_sample_rate(self, hz: float) -> None:
        self.requestSampleRate.emit(window_settings.set_sample_hz(self.settings, hz))

    def show_help(self, topic: str) -> Any:
        """A Help menu page ("start", "shortcuts", "report"), non-modal."""
        from inspector.gui.help import show_help

        return show_help(self, topic)

    def about_dialog(self) -> None:
        _dialogs().show_about(self, self.about_text())

    def about_text(self) -> str:
        from inspector.core.devices.environment import driver_lines, version_lines
        from inspector.gui.branding import toolkit_line

        return _dialogs().about_html(version_lines(toolkit_line()) + driver_lines(self.inventory))

    def ask_trust(self, path: str, wanted: tuple[str, ...]) -> None:
        """Offer to load a refused file again with trust (the load's other arguments kept)."""

        def trusted() -> None:
            if not self.tasks.closed:
                architecture = self.pending_load.architecture if self.pending_load else None
                self.open_model(path, trust=True, architecture=architecture)

        _dialogs().ask_trust(self, path, wanted, trusted)

    # ------------------------------------------------------------------ sampler results

    @Slot(object)
    def _on_inventory(self, inventory: Any) -> None:
        self.inventory = inventory
        self.devices.set_inventory(inventory)
        ids = inventory.ids() or ["cpu"]
        accelerators = [i for i in ids if i != "cpu"]
        self.action_bar.set_devices(ids, preferred=accelerators[0] if accelerators else "cpu")
        from inspector.gui.help import note_cpu_only_once

        note_cpu_only_once(self, self.settings, accelerators)
        self.devices.select_device(self.action_bar.target_device())
        if self.last_readings:
            self.devices.set_readings(self.last_readings)

    @Slot(object)
    def _on_memory_samples(self, _readings: tuple) -> None:
        # The sampler stored them in the timeline: a built plot repaints, an unbuilt one
        # draws the whole timeline when it is built.
        if self.lazy_tabs.is_built("memoryPlot"):
            self.memoryPlot.schedule_redraw()

    @Slot(object)
    def _on_latency_samples(self, pairs: Any) -> None:
        self.latencyPlot.add_sample_pairs(pairs)

    @Slot(object)
    def _on_samples(self, readings: tuple) -> None:
        self.last_readings = readings
        now = time.monotonic()
        if now - self._table_refreshed_at >= TABLE_REFRESH_S:
            self._table_refreshed_at = now
            self.devices.set_readings(readings)

    # ------------------------------------------------------------------ view updates

    @Slot(object)
    def _on_placement_changed(self, state: ModelState) -> None:
        self.show_state(state)

    def show_state(self, state: ModelState) -> None:
        first = self.model_state is None
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
        self.refresh_actions()
        if first:  # the tensors are listed: now the plots' SVG export, off the first second
            from inspector.gui.plots import register_svg_exporter

            QTimer.singleShot(0, register_svg_exporter)
            build_latency_plot_when_idle(self)

    def add_history(
        self, call: str, seconds: float | None, gbps: float | None, result: str, *, ok: bool = True, detail: str = ""
    ) -> None:
        self.historyView.add(HistoryEntry(_dt.datetime.now(), call, seconds, gbps, result, ok, detail.strip()))

    def refresh_actions(self) -> None:
        self.availability.refresh()

    # ------------------------------------------------------------------ settings

    def recent_models(self) -> list[str]:
        return window_settings.recent_models(self.settings)

    def add_recent_model(self, spec: str) -> None:
        window_settings.add_recent_model(self.settings, spec)
        self._rebuild_recent_menu()

    def _rebuild_recent_menu(self) -> None:
        window_settings.fill_recent_menu(self.recentMenu, self.settings, self.open_model)

    # ------------------------------------------------------------------ shutdown

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.tasks.closed:
            window_settings.save_layout(self)
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
        return [self.model_thread, self.sampler_thread]


# ---------------------------------------------------------------------- helpers


def _short_spec(spec: str) -> str:
    """A model spec for a plot label: a file without its folders ("big.py:make", "model.pt")."""
    path, colon, factory = spec.rpartition(":")
    if colon and factory.isidentifier() and ("/" in path or "\\" in path):
        return f"{Path(path).name}:{factory}"
    return Path(spec).name if ("/" in spec or "\\" in spec) else spec


def _dialogs() -> Any:
    """``gui.dialogs``, imported when a dialog first opens (not in the first second)."""
    from inspector.gui import dialogs

    return dialogs
