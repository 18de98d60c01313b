"""How the window shows what the ModelWorker sends back: the model's state, history rows,
the code view, the plots' series, the task marks, the error banner, and the end of each task.

What only another part can act on, it says with a signal: ``stateShown`` (the commands'
availability follows the model), ``taskFailed`` (a failed load to fix, the fit dialog's
answer) and ``trustNeeded`` (a file that needs trust to load).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QGroupBox

from inspector.core.errors import InputError
from inspector.core.moves.transaction import MoveResult
from inspector.core.placement.tensor_rows import meta_text
from inspector.core.measure.time_left import time_left_text
from inspector.core.units import format_bytes, format_ms, format_seconds
from inspector.core.vocabulary import FailureKind
from inspector.gui.layout import build_latency_plot_when_idle
from inspector.gui.i18n import fill, translate
from inspector.gui.tasks import Task
from inspector.gui.workers import BenchmarkOutcome, FitOutcome, LoadOutcome, Progress, TaskFailure

if TYPE_CHECKING:
    from inspector.core.session import ModelState
    from inspector.gui.lazy_tabs import LazyTabs
    from inspector.gui.panels.actions import ActionBar
    from inspector.gui.panels.code import CodePanel
    from inspector.gui.panels.error_banner import ErrorBanner
    from inspector.gui.panels.history import History
    from inspector.gui.panels.parameters import ParametersPanel
    from inspector.gui.report_flow import ReportFlow
    from inspector.gui.snapshots import Snapshots
    from inspector.gui.status_line import StatusLine
    from inspector.gui.task_marks import TaskMarks
    from inspector.gui.tasks import TaskController

#: What a training step runs, as the user would write it.
TRAIN_STEP_CODE = """model.train()
output = model(*inputs)
loss = output.sum()          # a stand-in loss
optimizer.zero_grad(set_to_none=True)
loss.backward()              # each parameter gets a .grad
optimizer.step()             # the optimizer keeps state
"""


class WorkerResults(QObject):
    """The ModelWorker's signals, shown in the window's panels (see the module docstring)."""

    stateShown = Signal()
    taskFailed = Signal(object)  # TaskFailure of the window's own task (not the quiet session report)
    trustNeeded = Signal(str, object)  # path, the names it asks for

    def __init__(
        self, *, tasks: TaskController, snapshots: Snapshots, marks: TaskMarks, status: StatusLine,
        action_bar: ActionBar, banner: ErrorBanner, history: History, code: CodePanel, parameters: ParametersPanel,
        model_box: QGroupBox, pages: LazyTabs, reports: ReportFlow, parent: QObject | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.tasks = tasks
        self.snapshots = snapshots
        self.marks = marks
        self.status = status
        self.action_bar = action_bar
        self.banner = banner
        self.history = history
        self.code = code
        self.parameters = parameters
        self.model_box = model_box
        self.pages = pages
        self.reports = reports

    @property
    def latency_plot(self) -> Any:
        """The Latency tab's plot (``gui.plots.latency.LatencyPlot``), built if it was not yet."""
        return self.pages.page("latencyPlot")

    @Slot(str)
    def on_task_started(self, task: str) -> None:
        if self.tasks.owns(task):  # not the quiet session report
            self.status.show_task(task)

    @Slot(str)
    def on_task_finished(self, task: str) -> None:
        if task == Task.SESSION:
            self.reports.session_task_finished()
        if not self.tasks.worker_finished(task):
            return  # a quiet session report, or an export whose file is still being written
        self.marks.end()
        if self.action_bar.progressBar.maximum() == 0:  # a load or export: no measured progress
            self.action_bar.show_idle()
        self.reports.maybe_refresh_session()

    @Slot(object)
    def on_placement_changed(self, state: ModelState) -> None:
        first = self.snapshots.model is None
        self.snapshots.model = state
        self.parameters.set_placement(state.placement)
        info = state.info
        self.model_box.setTitle(f"Model — {info.class_name} ({info.spec})")
        self.status.show_model(state)
        if not self.action_bar.input_shape_text() and info.example_input_shapes:
            self.action_bar.inputShapeEdit.setPlaceholderText(
                "model input " + ", ".join("x".join(map(str, s)) for s in info.example_input_shapes)
            )
        elif not info.example_input_shapes:
            self.action_bar.inputShapeEdit.setPlaceholderText("needed, e.g. 1,3,224,224")
        self.stateShown.emit()
        if first:  # the tensors are listed: now the plots' SVG export, off the first second
            from inspector.gui.plots import register_svg_exporter

            QTimer.singleShot(0, register_svg_exporter)
            build_latency_plot_when_idle(self.pages, self.tasks)

    @Slot(object)
    def on_model_loaded(self, outcome: LoadOutcome) -> None:
        state = outcome.state
        info = state.info
        self.on_placement_changed(state)
        self.banner.dismiss()
        totals = state.placement.totals
        self.history.record(
            f"load_model({info.spec!r})",
            outcome.seconds,
            None,
            f"{info.class_name} ({info.source}): {totals.count} tensors, {format_bytes(totals.bytes)}{meta_text(totals)}",
            detail="\n".join(info.notes),
        )
        self.action_bar.show_idle(f"loaded {info.class_name}")
        # A new session: the report's moves and latency start afresh, and so does the plot.
        # The memory timeline goes on (it is the devices' record, and shows the load itself).
        if self.pages.is_built("latencyPlot"):  # (else it has nothing to clear yet)
            self.latency_plot.clear()
        self.reports.mark_stale()

    @Slot(object)
    def on_move_finished(self, result: MoveResult) -> None:
        if result.ok:
            outcome = f"{result.source} → {result.target}: {format_bytes(result.bytes)}"
            if result.dtype:
                outcome += f" as {result.dtype}"
            if result.note:
                outcome += f" ({result.note})"
            self.action_bar.show_idle(f"moved in {format_seconds(result.seconds)}")
            self.marks.end()
        elif result.error.kind == FailureKind.CANCELLED:
            outcome = "cancelled: rolled back, the model is as before"
            self.action_bar.show_idle("cancelled")
            self.marks.end("cancelled")
        else:
            outcome = f"failed: {result.error.message}"
            self.banner.show_failure(result.error, result.call)
            self.action_bar.show_idle("move failed")
            self.marks.end("failed")
        self.reports.mark_stale()
        self.history.record(
            # A failed move has no time worth a figure (it may not have started): "—".
            result.call, result.seconds if result.ok else None, result.gbps, outcome, ok=result.ok,
            detail=_memory_detail(result) + (f"\n\n{result.error.detail}" if result.error and result.error.detail else ""),
        )  # fmt: skip

    @Slot(object)
    def on_benchmark_finished(self, outcome: BenchmarkOutcome) -> None:
        r = outcome.result
        shape = "; ".join("x".join(map(str, s)) for s in (r.input_shapes or (r.input_shape,)))
        call = f"{r.mode} ×{len(r.samples_ms)} · {r.device} {r.dtype} · input {shape}"
        result = f"median {format_ms(r.median_ms, compact=True)} · p95 {format_ms(r.p95_ms, compact=True)}"
        interval = (f"95 % CI of the median {format_ms(r.median_ci_ms[0], compact=True)} – "
                    f"{format_ms(r.median_ci_ms[1], compact=True)}, " if r.median_ci_ms else "")  # fmt: skip
        detail = [
            f"p5 {format_ms(r.p5_ms, compact=True)}, mean {format_ms(r.mean_ms, compact=True)}, min {format_ms(r.min_ms, compact=True)}, max {format_ms(r.max_ms, compact=True)}; "
            f"first call {format_ms(r.warmup_ms, compact=True)}",
            f"{interval}IQR {format_ms(r.iqr_ms, compact=True)}; timed by {r.timer}",
        ]
        idle = f"median {format_ms(r.median_ms, compact=True)}"
        if r.noise:
            # Said where it is seen first: the history row, the status line and its tooltip.
            result += f" · {r.noise}"
            idle += " · noisy"
            detail.insert(0, r.noise)
        if outcome.attribution is not None:
            from inspector.gui.module_summary import summary_lines, summary_tab_text, top_line

            self.parameters.set_attribution(outcome.attribution)
            self.latency_plot.set_top_modules(summary_tab_text(outcome.attribution))
            detail += summary_lines(outcome.attribution)
            result += " · " + top_line(outcome.attribution)
            idle += " · " + top_line(outcome.attribution, 1)
        self.history.record(call, outcome.seconds, None, result, detail="\n".join(detail + list(r.notes)))
        self.action_bar.show_idle(idle)
        self.latency_plot.finish_series(r)
        self.marks.end(f"median {format_ms(r.median_ms, compact=True)}")
        self.reports.mark_stale()
        try:
            from inspector.core.report.snippets import measurement_snippet

            code = measurement_snippet(r)
        except InputError as exc:
            code = f"# no snippet for this measurement: {exc.message}"
        self.code.show_code(code, f"Equivalent PyTorch code: {r.mode} timing on {r.device}")

    @Slot(object)
    def on_latency_samples(self, pairs: Any) -> None:
        self.latency_plot.add_sample_pairs(pairs)

    @Slot(object)
    def on_progress(self, progress: Progress) -> None:
        if progress.task == Task.MOVE:
            text = f"moving {format_bytes(progress.done)} / {format_bytes(progress.total)}"
        else:
            text = f"sample {int(progress.done):,} / {int(progress.total):,}"
        left = time_left_text(progress.seconds_left)
        if left:  # a long benchmark: an estimate in the bar and in the status bar
            text += f" · {left}"
            if self.tasks.task is not None:
                self.status.show_task(self.tasks.task, left)
        self.action_bar.show_progress(progress.fraction, text)

    @Slot(object)
    def on_failed(self, failure: TaskFailure) -> None:
        if not self.tasks.owns(failure.task):  # the quiet session report: no banner for it
            self.reports.session_failed(failure)
            return
        self.taskFailed.emit(failure)
        if failure.task == Task.BENCHMARK:
            # What was measured stays on the plot, labelled with why the run stopped.
            self.latency_plot.abort_series("cancelled" if failure.failure.kind == FailureKind.CANCELLED else "failed")
        self.marks.end("cancelled" if failure.failure.kind == FailureKind.CANCELLED else "failed")
        if failure.failure.kind == FailureKind.CANCELLED:
            stopped = "nothing of the model was touched" if failure.task == Task.FIT else "stopped between samples"
            self.history.record(failure.call, failure.seconds, None, f"cancelled: {stopped}", ok=False)
            self.action_bar.show_idle("cancelled")
            return
        if failure.failure.kind == FailureKind.ARCHITECTURE:
            # The window's way to give it: the dialog's field (the CLI says --arch).
            failure = replace(failure, failure=replace(
                failure.failure,
                message=failure.failure.message + ": enter it in the Architecture field of File › Open model… "
                "(it opens with this file filled in)",
            ))  # fmt: skip
        self.banner.show_failure(failure.failure, failure.task)
        self.history.record(
            failure.call, failure.seconds, None, f"failed: {failure.failure.message}", ok=False, detail=failure.failure.detail
        )
        self.action_bar.show_idle(f"{failure.task} failed")
        if failure.wanted and failure.path and not self.tasks.closed:
            self.trustNeeded.emit(failure.path, failure.wanted)

    @Slot(object)
    def on_fit_finished(self, outcome: FitOutcome) -> None:
        verdicts = ", ".join(
            f"{r.device} {'fits' if r.fits else 'does not fit' if r.fits is False else 'unknown'}"
            f" ({format_bytes(r.estimated_peak_bytes)})"
            for r in outcome.results
        )
        failed = "; ".join(f"{device}: {f.message}" for device, f in outcome.failures)
        self.history.record("will it fit?", outcome.seconds, None, verdicts or f"failed: {failed}",
                            ok=bool(outcome.results), detail=failed)  # fmt: skip
        self.action_bar.show_idle(verdicts[:80] or "fit failed")

    @Slot(object)
    def on_train_step_finished(self, result: Any) -> None:
        """One real training step ran (``core.measure.training.TrainStepResult``)."""
        shapes = ", ".join("x".join(map(str, s)) for s in result.input_shapes) or "(no tensor)"
        self.history.record(
            result.call(), result.seconds, None,
            f"loss {result.loss:.4g} · {result.optimizer} on {result.device} {result.dtype}: "
            "gradients and optimizer state are in the tree",
            detail="\n".join((f"input {shapes}", *result.notes)),
        )  # fmt: skip
        self.action_bar.show_idle("trained 1 step")
        self.marks.end(f"loss {result.loss:.4g}")
        self.reports.mark_stale()
        self.code.show_code(TRAIN_STEP_CODE, "Equivalent PyTorch code: one training step")

    @Slot(object)
    def on_lesson_finished(self, outcome: Any) -> None:
        """Help › Lessons ran lesson ``outcome.number``: a history row, and its code in the code view."""
        from inspector.core.lessons import LESSON_CODE
        from inspector.gui.lessons import answer_lines

        lines = answer_lines(outcome.number, outcome.facts)
        self.history.record(
            fill(translate("WorkerResults", "lesson %1"), outcome.number), outcome.seconds, None,
            lines[0] if lines else "", detail="\n".join(lines[1:]),
        )  # fmt: skip
        self.action_bar.show_idle(fill(translate("WorkerResults", "lesson %1 done"), outcome.number))
        self.marks.end(fill(translate("WorkerResults", "lesson %1"), outcome.number))
        self.reports.mark_stale()
        self.code.show_code(LESSON_CODE[outcome.number], fill(translate("WorkerResults", "Lesson %1"), outcome.number))


def _memory_detail(result: MoveResult) -> str:
    lines = []
    for label, readings in (("before", result.memory_before), ("after", result.memory_after)):
        for device, reading in (readings or {}).items():
            # The CPU's reading holds this process's RSS where a GPU's holds allocated bytes.
            own = "process RSS" if device == "cpu" else "allocated"
            lines.append(
                f"{device} {label}: {own} {format_bytes(reading.get('allocated'))}, "
                f"used {format_bytes(reading.get('used'))} of {format_bytes(reading.get('total'))}"
            )
    return "\n".join(lines)
