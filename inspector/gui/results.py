"""How the window shows what the ModelWorker sends back: history rows, the code view, the
plots' series and marks, the error banner, and the end of each task."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot

from inspector.core.errors import InputError
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import MoveResult
from inspector.core.placement.tensor_rows import meta_text
from inspector.core.measure.time_left import time_left_text
from inspector.core.units import format_bytes, format_ms, format_seconds
from inspector.core.vocabulary import FailureKind
from inspector.gui.tasks import Task
from inspector.gui.workers import BenchmarkOutcome, FitOutcome, LoadOutcome, Progress, TaskFailure

#: What a training step runs, as the user would write it.
TRAIN_STEP_CODE = """model.train()
output = model(*inputs)
loss = output.sum()          # a stand-in loss
optimizer.zero_grad(set_to_none=True)
loss.backward()              # each parameter gets a .grad
optimizer.step()             # the optimizer keeps state
"""

if TYPE_CHECKING:
    from inspector.gui.main_window import MainWindow


class WorkerResults(QObject):
    """The ModelWorker's signals, shown in ``window``."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window

    @Slot(str)
    def on_task_started(self, task: str) -> None:
        if self.window.tasks.owns(task):  # not the quiet session report
            self.window.statusBusy.setText(f"Busy: {task}")

    @Slot(str)
    def on_task_finished(self, task: str) -> None:
        window = self.window
        if task == Task.SESSION:
            window.reports.session_task_finished()
        if not window.tasks.worker_finished(task):
            return  # a quiet session report, or an export whose file is still being written
        window.end_task_mark()
        if window.action_bar.progressBar.maximum() == 0:  # a load or export: no measured progress
            window.action_bar.show_idle()
        window.reports.maybe_refresh_session()

    @Slot(object)
    def on_model_loaded(self, outcome: LoadOutcome) -> None:
        w = self.window
        state = outcome.state
        info = state.info
        w.follow_loaded_model(info.spec)
        w.show_state(state)
        w.errorBanner.dismiss()
        w.add_recent_model(info.spec)
        totals = state.placement.totals
        w.add_history(
            f"load_model({info.spec!r})",
            outcome.seconds,
            None,
            f"{info.class_name} ({info.source}): {totals.count} tensors, {format_bytes(totals.bytes)}{meta_text(totals)}",
            detail="\n".join(info.notes),
        )
        w.action_bar.show_idle(f"loaded {info.class_name}")
        w.setWindowTitle(f"{info.class_name} — {info.spec}")
        # A new session: the report's moves and latency start afresh, and so does the plot.
        # The memory timeline goes on (it is the devices' record, and shows the load itself).
        if w.lazy_tabs.is_built("latencyPlot"):  # (else it has nothing to clear yet)
            w.latencyPlot.clear()
        w.reports.mark_stale()

    @Slot(object)
    def on_move_finished(self, result: MoveResult) -> None:
        w = self.window
        if w.pending_move is not None:
            self.show_move_code(w.pending_move, result.call)
        if result.ok:
            outcome = f"{result.source} → {result.target}: {format_bytes(result.bytes)}"
            if result.dtype:
                outcome += f" as {result.dtype}"
            if result.note:
                outcome += f" ({result.note})"
            w.action_bar.show_idle(f"moved in {format_seconds(result.seconds)}")
            w.end_task_mark()
        elif result.error.kind == FailureKind.CANCELLED:
            outcome = "cancelled: rolled back, the model is as before"
            w.action_bar.show_idle("cancelled")
            w.end_task_mark("cancelled")
        else:
            outcome = f"failed: {result.error.message}"
            w.errorBanner.show_failure(result.error, result.call)
            w.action_bar.show_idle("move failed")
            w.end_task_mark("failed")
        w.reports.mark_stale()
        w.add_history(
            # A failed move has no time worth a figure (it may not have started): "—".
            result.call, result.seconds if result.ok else None, result.gbps, outcome, ok=result.ok,
            detail=_memory_detail(result) + (f"\n\n{result.error.detail}" if result.error and result.error.detail else ""),
        )  # fmt: skip

    @Slot(object)
    def on_benchmark_finished(self, outcome: BenchmarkOutcome) -> None:
        w = self.window
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

            w.parameters.set_attribution(outcome.attribution)
            w.latencyPlot.set_top_modules(summary_tab_text(outcome.attribution))
            detail += summary_lines(outcome.attribution)
            result += " · " + top_line(outcome.attribution)
            idle += " · " + top_line(outcome.attribution, 1)
        w.add_history(call, outcome.seconds, None, result, detail="\n".join(detail + list(r.notes)))
        w.action_bar.show_idle(idle)
        w.latencyPlot.finish_series(r)
        w.end_task_mark(f"median {format_ms(r.median_ms, compact=True)}")
        w.reports.mark_stale()
        try:
            from inspector.core.report.snippets import measurement_snippet

            code = measurement_snippet(r)
        except InputError as exc:
            code = f"# no snippet for this measurement: {exc.message}"
        w.code.show_code(code, f"Equivalent PyTorch code: {r.mode} timing on {r.device}")

    @Slot(object)
    def on_progress(self, progress: Progress) -> None:
        w = self.window
        if progress.task == Task.MOVE:
            text = f"moving {format_bytes(progress.done)} / {format_bytes(progress.total)}"
        else:
            text = f"sample {int(progress.done):,} / {int(progress.total):,}"
        left = time_left_text(progress.seconds_left)
        if left:  # a long benchmark: an estimate in the bar and in the status bar
            text += f" · {left}"
            if w.busy_task is not None:
                w.statusBusy.setText(f"Busy: {w.busy_task} · {left}")
        w.action_bar.show_progress(progress.fraction, text)

    @Slot(object)
    def on_failed(self, failure: TaskFailure) -> None:
        w = self.window
        if not w.tasks.owns(failure.task):  # the quiet session report: no banner for it
            w.reports.session_failed(failure)
            return
        if failure.task == Task.FIT and w.fit_dialog is not None:
            w.fit_dialog.show_failure(failure.failure.message)
        if failure.task == Task.BENCHMARK:
            # What was measured stays on the plot, labelled with why the run stopped.
            w.latencyPlot.abort_series("cancelled" if failure.failure.kind == FailureKind.CANCELLED else "failed")
        w.end_task_mark("cancelled" if failure.failure.kind == FailureKind.CANCELLED else "failed")
        if failure.failure.kind == FailureKind.CANCELLED:
            stopped = "nothing of the model was touched" if failure.task == Task.FIT else "stopped between samples"
            w.add_history(failure.call, failure.seconds, None, f"cancelled: {stopped}", ok=False)
            w.action_bar.show_idle("cancelled")
            return
        if failure.task == Task.LOAD:
            w.failed_load = failure.failure
        if failure.failure.kind == FailureKind.ARCHITECTURE:
            # The window's way to give it: the dialog's field (the CLI says --arch).
            failure = replace(failure, failure=replace(
                failure.failure,
                message=failure.failure.message + ": enter it in the Architecture field of File › Open model… "
                "(it opens with this file filled in)",
            ))  # fmt: skip
        w.errorBanner.show_failure(failure.failure, failure.task)
        w.add_history(
            failure.call, failure.seconds, None, f"failed: {failure.failure.message}", ok=False, detail=failure.failure.detail
        )
        w.action_bar.show_idle(f"{failure.task} failed")
        if failure.wanted and failure.path and not w.tasks.closed:
            w.ask_trust(failure.path, failure.wanted)

    @Slot(object)
    def on_fit_finished(self, outcome: FitOutcome) -> None:
        w = self.window
        verdicts = ", ".join(
            f"{r.device} {'fits' if r.fits else 'does not fit' if r.fits is False else 'unknown'}"
            f" ({format_bytes(r.estimated_peak_bytes)})"
            for r in outcome.results
        )
        failed = "; ".join(f"{device}: {f.message}" for device, f in outcome.failures)
        w.add_history("will it fit?", outcome.seconds, None, verdicts or f"failed: {failed}",
                      ok=bool(outcome.results), detail=failed)  # fmt: skip
        w.action_bar.show_idle(verdicts[:80] or "fit failed")
        if w.fit_dialog is not None:
            w.fit_dialog.show_outcome(outcome)

    @Slot(object)
    def on_train_step_finished(self, result: Any) -> None:
        """One real training step ran (``core.measure.training.TrainStepResult``)."""
        w = self.window
        shapes = ", ".join("x".join(map(str, s)) for s in result.input_shapes) or "(no tensor)"
        w.add_history(
            result.call(), result.seconds, None,
            f"loss {result.loss:.4g} · {result.optimizer} on {result.device} {result.dtype}: "
            "gradients and optimizer state are in the tree",
            detail="\n".join((f"input {shapes}", *result.notes)),
        )  # fmt: skip
        w.action_bar.show_idle("trained 1 step")
        w.end_task_mark(f"loss {result.loss:.4g}")
        w.reports.mark_stale()
        w.code.show_code(TRAIN_STEP_CODE, "Equivalent PyTorch code: one training step")

    def show_move_code(self, request: MoveRequest, call: str) -> None:
        w = self.window
        try:
            from inspector.core.report.snippets import move_snippet

            code = move_snippet(request)
        except InputError as exc:
            code = f"# no snippet for this move: {exc.message}"
        w.code.show_code(code, f"Equivalent PyTorch code: {call}")


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
