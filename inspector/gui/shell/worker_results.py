"""How the window shows what the ModelWorker sends back: the model's state, history rows,
the code view, the plots' series, the task marks, the error banner, and the end of each task.

What only another part can act on, it says with a signal: ``stateShown`` (the commands'
availability follows the model), ``taskFailed`` (a failed load to fix, the fit dialog's
answer) and ``trustNeeded`` (a file that needs trust to load).

Its words are the window's language. The memory plot's marks are written in the language of
the moment (a log); what stays on screen (the model box's title, the input field's hint, the
progress bar's text, the code view's code and caption, the history's rows) is said again on a
change of language (``retranslate``; the history keeps, for each row, the functions that say
it). Core's texts (notes, noise flags, failure messages, the code's comments) go through
``core_text``. Core's vocabulary (a mode, a model's source, the example's spec) is said by
``vocabulary_words``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QGroupBox

from inspector.core.errors import InputError
from inspector.core.moves import MoveResult
from inspector.core.placement import meta_text
from inspector.core.measure import time_left_text
from inspector.core.units import format_bytes, format_ms, format_seconds
from inspector.core.vocabulary import FailureKind
from inspector.gui.common.bar_words import BarWords
from inspector.gui.shell.layout import build_latency_plot_when_idle
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.common.plain_text import shown
from inspector.gui.state.tasks import Task, task_label
from inspector.gui.common.vocabulary_words import mode_text, source_text, spec_text, timer_text
from inspector.gui.state.workers import BenchmarkOutcome, FitOutcome, LoadOutcome, Progress, TaskFailure

if TYPE_CHECKING:
    from inspector.core.session import ModelState
    from inspector.gui.common.lazy_tabs import LazyTabs
    from inspector.gui.features.moves.action_bar import ActionBar
    from inspector.gui.common.code_panel import CodePanel
    from inspector.gui.common.error_banner import ErrorBanner
    from inspector.gui.features.history.panel import History
    from inspector.gui.features.model.panel import ParametersPanel
    from inspector.gui.features.report.flow import ReportFlow
    from inspector.gui.state.snapshots import Snapshots
    from inspector.gui.common.status_line import StatusLine
    from inspector.gui.features.memory.task_marks import TaskMarks
    from inspector.gui.state.tasks import TaskController


def train_step_code() -> str:
    """What a training step runs, as the user would write it, its comments in the window's
    language (the code the same in every language)."""
    lines = (
        ("model.train()", ""),
        ("output = model(*inputs)", ""),
        ("loss = output.sum()", translate("WorkerResults", "a stand-in loss")),
        ("optimizer.zero_grad(set_to_none=True)", ""),
        ("loss.backward()", translate("WorkerResults", "each parameter gets a .grad")),
        ("optimizer.step()", translate("WorkerResults", "the optimizer keeps state")),
    )
    return "".join(f"{code:<28} # {comment}\n" if comment else f"{code}\n" for code, comment in lines)


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
        self.bar_words = BarWords(action_bar)

    def retranslate(self) -> None:
        """What this part said that stays on screen, again in the language now installed."""
        if self.snapshots.model is not None:
            self._show_model_words(self.snapshots.model)
        self.bar_words.retranslate()

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
        self._show_model_words(state)
        self.status.show_model(state)
        self.stateShown.emit()
        if first:  # the tensors are listed: now the plots' SVG export, off the first second
            from inspector.gui.common.svg_export import register_if_needed

            QTimer.singleShot(0, register_if_needed)
            build_latency_plot_when_idle(self.pages, self.tasks)

    def _show_model_words(self, state: ModelState) -> None:
        """The model box's title and the input field's hint, for the model ``state`` shows."""
        info = state.info
        # Names from the file: escaped and elided, or a newline in one wrapped the title (plain_text).
        self.model_box.setTitle(fill(translate("WorkerResults", "Model — %1 (%2)"), shown(info.class_name), shown(spec_text(info.spec))))
        if not self.action_bar.input_shape_text() and info.example_input_shapes:
            shapes = ", ".join("x".join(map(str, s)) for s in info.example_input_shapes)
            self.action_bar.inputShapeEdit.setPlaceholderText(fill(translate("WorkerResults", "model input %1"), shapes))
        elif not info.example_input_shapes:
            self.action_bar.inputShapeEdit.setPlaceholderText(translate("WorkerResults", "needed, e.g. 1,3,224,224"))

    @Slot(object)
    def on_model_loaded(self, outcome: LoadOutcome) -> None:
        state = outcome.state
        info = state.info
        self.parameters.model_loaded(info.spec)  # another model: the filter's words were the last one's
        self.on_placement_changed(state)
        self.banner.dismiss()
        totals = state.placement.totals
        meta, count = meta_text(totals), totals.count

        def loaded() -> str:
            words = translate("WorkerResults", "%1 (%2): %n tensors, %3%4", None, count)
            return fill(words, shown(info.class_name), shown(source_text(info.source)), format_bytes(totals.bytes), core_text(meta))

        self.history.record(
            f"load_model({info.spec!r})", outcome.seconds, None, loaded,
            detail=lambda: "\n".join(core_text(note) for note in info.notes),
        )  # fmt: skip
        name = shown(info.class_name)
        self.bar_words.idle(lambda: fill(translate("WorkerResults", "loaded %1"), name))
        # A new session: the report's moves and latency start afresh, and so does the plot.
        # The memory timeline goes on (it is the devices' record, and shows the load itself).
        if self.pages.is_built("latencyPlot"):  # (else it has nothing to clear yet)
            self.latency_plot.clear()
        self.reports.mark_stale()

    @Slot(object)
    def on_move_finished(self, result: MoveResult) -> None:
        if result.ok:
            took = format_seconds(result.seconds)
            self.bar_words.idle(lambda: fill(translate("WorkerResults", "moved in %1"), took))
            self.banner.cleared_by(Task.MOVE)  # a move that works now: the failed one's banner is over
            self.marks.end()
        elif result.error.kind == FailureKind.CANCELLED:
            self.bar_words.idle(lambda: translate("WorkerResults", "cancelled"))
            self.marks.end(translate("WorkerResults", "cancelled"))
        else:
            self.banner.show_failure(result.error, result.call, source=Task.MOVE)
            self.bar_words.idle(lambda: translate("WorkerResults", "move failed"))
            self.marks.end(translate("WorkerResults", "failed"))
        self.reports.mark_stale()
        error_detail = f"\n\n{result.error.detail}" if result.error and result.error.detail else ""
        self.history.record(
            # A failed move has no time worth a figure (it may not have started): "—".
            result.call, result.seconds if result.ok else None, result.gbps, partial(_move_outcome, result), ok=result.ok,
            detail=lambda: _memory_detail(result) + error_detail,
        )  # fmt: skip

    @Slot(object)
    def on_benchmark_finished(self, outcome: BenchmarkOutcome) -> None:
        r = outcome.result
        median, noisy, top = format_ms(r.median_ms, compact=True), bool(r.noise), None
        attribution = outcome.attribution
        if attribution is not None:
            from inspector.gui.common.module_summary import summary_tab_text, top_line

            self.parameters.set_attribution(attribution)
            self.latency_plot.set_top_modules(partial(summary_tab_text, attribution))
            top = partial(top_line, attribution, 1)
        self.history.record(
            partial(_benchmark_call, r), outcome.seconds, None, partial(_benchmark_result, r, attribution),
            detail=partial(_benchmark_detail, r, attribution),
        )  # fmt: skip
        self.bar_words.idle(partial(_benchmark_idle, median, noisy, top))
        self.banner.cleared_by(Task.BENCHMARK)
        self.latency_plot.finish_series(r)
        self.marks.end(fill(translate("WorkerResults", "median %1"), median))
        self.reports.mark_stale()
        mode, device = r.mode, r.device
        self.code.show_code(
            partial(_measurement_code, r),
            lambda: fill(translate("WorkerResults", "Equivalent PyTorch code: %1 timing on %2"), mode_text(mode), device),
        )

    @Slot(object)
    def on_latency_samples(self, pairs: Any) -> None:
        self.latency_plot.add_sample_pairs(pairs)

    @Slot(object)
    def on_progress(self, progress: Progress) -> None:
        if progress.task == Task.MOVE:
            text = fill(translate("WorkerResults", "moving %1 / %2"), format_bytes(progress.done), format_bytes(progress.total))
        else:
            text = fill(translate("WorkerResults", "sample %1 / %2"), f"{int(progress.done):,}", f"{int(progress.total):,}")
        left = core_text(time_left_text(progress.seconds_left))
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
        if failure.failure.kind == FailureKind.CANCELLED:
            self.marks.end(translate("WorkerResults", "cancelled"))
            if failure.task == Task.FIT:
                outcome = QT_TRANSLATE_NOOP("WorkerResults", "cancelled: nothing of the model was touched")
            elif failure.task == Task.LOAD:
                outcome = QT_TRANSLATE_NOOP("WorkerResults", "cancelled: the file was not loaded, the model shown is unchanged")
            else:
                outcome = QT_TRANSLATE_NOOP("WorkerResults", "cancelled: stopped between samples")
            self.history.record(failure.call, failure.seconds, None, partial(translate, "WorkerResults", outcome), ok=False)
            self.bar_words.idle(lambda: translate("WorkerResults", "cancelled"))
            return
        self.marks.end(translate("WorkerResults", "failed"))
        message = failure.failure.message
        if failure.failure.kind == FailureKind.ARCHITECTURE:
            # The window's way to give it: the dialog's field (the CLI says --arch).
            failure = replace(failure, failure=replace(failure.failure, message=_architecture_message(message)))
        self.banner.show_failure(failure.failure, failure.task, source=failure.task)
        said = partial(_architecture_message, message) if failure.failure.kind == FailureKind.ARCHITECTURE else message
        self.history.record(failure.call, failure.seconds, None, partial(_failed, said), ok=False,
                            detail=failure.failure.detail)  # fmt: skip
        task = failure.task
        self.bar_words.idle(lambda: fill(translate("WorkerResults", "%1 failed"), task_label(task)))
        if failure.wanted and failure.path and not self.tasks.closed:
            self.trustNeeded.emit(failure.path, failure.wanted)

    @Slot(object)
    def on_fit_finished(self, outcome: FitOutcome) -> None:
        # The verdicts are said again from the results when the language changes.
        fits = [(r.device, r.fits, format_bytes(r.estimated_peak_bytes)) for r in outcome.results]
        failures = list(outcome.failures)

        def failed() -> str:
            return "; ".join(f"{device}: {core_text(f.message)}" for device, f in failures)

        def result() -> str:
            return ", ".join(_fit_verdict(*fit) for fit in fits) or _failed(failed)

        self.history.record(lambda: translate("WorkerResults", "will it fit?"), outcome.seconds, None, result,
                            ok=bool(outcome.results), detail=failed)  # fmt: skip
        self.bar_words.idle(partial(_fit_idle, fits))

    @Slot(object)
    def on_train_step_finished(self, result: Any) -> None:
        """One real training step ran (``core.measure.training.TrainStepResult``)."""
        loss = f"{result.loss:.4g}"

        def detail() -> str:
            shapes = ", ".join("x".join(map(str, s)) for s in result.input_shapes) or translate("WorkerResults", "(no tensor)")
            return "\n".join((fill(translate("WorkerResults", "input %1"), shapes), *map(core_text, result.notes)))

        self.history.record(
            result.call(), result.seconds, None,
            lambda: fill(translate("WorkerResults", "loss %1 · %2 on %3 %4: gradients and optimizer state are in the tree"),
                         loss, result.optimizer, result.device, result.dtype),
            detail=detail,
        )  # fmt: skip
        self.bar_words.idle(lambda: translate("WorkerResults", "trained 1 step"))
        self.marks.end(fill(translate("WorkerResults", "loss %1"), loss))
        self.reports.mark_stale()
        self.code.show_code(train_step_code, lambda: translate("WorkerResults", "Equivalent PyTorch code: one training step"))

    @Slot(object)
    def on_lesson_finished(self, outcome: Any) -> None:
        """Help › Lessons ran lesson ``outcome.number``: a history row, and its code in the code view."""
        from inspector.core.lessons import LESSON_CODE
        from inspector.gui.features.lessons.panel import answer_lines

        number, facts = outcome.number, outcome.facts
        self.history.record(
            lambda: fill(translate("WorkerResults", "lesson %1"), number), outcome.seconds, None,
            lambda: next(iter(answer_lines(number, facts)), ""), detail=lambda: "\n".join(answer_lines(number, facts)[1:]),
        )  # fmt: skip
        self.action_bar.show_idle(fill(translate("WorkerResults", "lesson %1 done"), outcome.number))
        self.marks.end(fill(translate("WorkerResults", "lesson %1"), outcome.number))
        self.reports.mark_stale()
        self.code.show_code(LESSON_CODE[number], lambda: fill(translate("WorkerResults", "Lesson %1"), number))


def _failed(message: str | Callable[[], str]) -> str:
    """A failed task's history row: "failed: " and its message (core's, or the function that says one)."""
    return fill(translate("WorkerResults", "failed: %1"), message() if callable(message) else core_text(message))


def _architecture_message(message: str) -> str:
    """A file that needs an architecture, as the window asks for one (the CLI says --arch)."""
    return fill(translate(
        "WorkerResults",
        "%1: enter it in the Architecture field of File › Open model… (it opens with this file filled in)",
    ), core_text(message))  # fmt: skip


def _move_outcome(result: MoveResult) -> str:
    """A move's history row: where the model went, or why it did not."""
    if result.ok:
        size = format_bytes(result.bytes)
        if result.dtype:
            outcome = fill(translate("WorkerResults", "%1 → %2: %3 as %4"), result.source, result.target, size, result.dtype)
        else:
            outcome = fill(translate("WorkerResults", "%1 → %2: %3"), result.source, result.target, size)
        if result.note:
            outcome = fill(translate("WorkerResults", "%1 (%2)"), outcome, core_text(result.note))
        return outcome
    if result.error.kind == FailureKind.CANCELLED:
        return translate("WorkerResults", "cancelled: rolled back, the model is as before")
    return _failed(result.error.message)


def _benchmark_call(r: Any) -> str:
    """A measurement's history call: its mode, samples, device, dtype and input."""
    shape = "; ".join("x".join(map(str, s)) for s in (r.input_shapes or (r.input_shape,)))
    return fill(translate("WorkerResults", "%1 ×%2 · %3 %4 · input %5"), mode_text(r.mode), len(r.samples_ms), r.device, r.dtype, shape)


def _benchmark_result(r: Any, attribution: Any) -> str:
    """A measurement's history result: its median and p95, a noise flag, the top module."""
    ms = partial(format_ms, compact=True)
    result = fill(translate("WorkerResults", "median %1 · p95 %2"), ms(r.median_ms), ms(r.p95_ms))
    if r.noise:  # said where it is seen first: the history row, the status line and its tooltip
        result += " · " + core_text(r.noise)
    if attribution is not None:
        from inspector.gui.common.module_summary import top_line

        result += " · " + top_line(attribution)
    return result


def _benchmark_detail(r: Any, attribution: Any) -> str:
    """A measurement's history tooltip: every figure, its spread and clock, notes, the modules."""
    ms = partial(format_ms, compact=True)
    figures = fill(translate("WorkerResults", "p5 %1, mean %2, min %3, max %4; first call %5"),
                   ms(r.p5_ms), ms(r.mean_ms), ms(r.min_ms), ms(r.max_ms), ms(r.warmup_ms))  # fmt: skip
    if r.median_ci_ms:
        spread = fill(translate("WorkerResults", "95 % CI of the median %1 – %2, IQR %3; timed by %4"),
                      ms(r.median_ci_ms[0]), ms(r.median_ci_ms[1]), ms(r.iqr_ms), timer_text(r.timer))  # fmt: skip
    else:
        spread = fill(translate("WorkerResults", "IQR %1; timed by %2"), ms(r.iqr_ms), timer_text(r.timer))
    detail = [figures, spread]
    if r.noise:
        detail.insert(0, core_text(r.noise))
    elif r.machine is not None and r.machine.note:  # what the machine did meanwhile (it names no noise)
        detail.append(core_text(r.machine.note))
    if attribution is not None:
        from inspector.gui.common.module_summary import summary_lines

        detail += summary_lines(attribution)
    return "\n".join(detail + [core_text(note) for note in r.notes])


def _measurement_code(r: Any) -> str:
    """The code repeating measurement ``r``, its comments in the window's language."""
    from inspector.core.report import measurement_snippet

    try:
        return measurement_snippet(r, say=core_text)
    except InputError as exc:
        return "# " + fill(translate("WorkerResults", "no snippet for this measurement: %1"), core_text(exc.message))


def _benchmark_idle(median: str, noisy: bool, top: Callable[[], str] | None) -> str:
    """The progress bar's words after a benchmark: its median, a flag when noisy, the top module."""
    text = fill(translate("WorkerResults", "median %1"), median)
    if noisy:
        text = fill(translate("WorkerResults", "%1 · noisy"), text)
    return text + (" · " + top() if top is not None else "")


def _fit_verdict(device: str, fits: bool | None, peak: str) -> str:
    if fits:
        return fill(translate("WorkerResults", "%1 fits (%2)"), device, peak)
    if fits is False:
        return fill(translate("WorkerResults", "%1 does not fit (%2)"), device, peak)
    return fill(translate("WorkerResults", "%1 unknown (%2)"), device, peak)


def _fit_idle(fits: list[tuple[str, bool | None, str]]) -> str:
    verdicts = ", ".join(_fit_verdict(*fit) for fit in fits)
    return verdicts[:80] or translate("WorkerResults", "fit failed")


def _memory_detail(result: MoveResult) -> str:
    lines = []
    for when, readings in (("before", result.memory_before), ("after", result.memory_after)):
        for device, reading in (readings or {}).items():
            allocated, used, total = (format_bytes(reading.get(k)) for k in ("allocated", "used", "total"))
            # The CPU's reading holds this process's RSS where a GPU's holds allocated bytes.
            if device == "cpu" and when == "before":
                line = translate("WorkerResults", "%1 before: process RSS %2, used %3 of %4")
            elif device == "cpu":
                line = translate("WorkerResults", "%1 after: process RSS %2, used %3 of %4")
            elif when == "before":
                line = translate("WorkerResults", "%1 before: allocated %2, used %3 of %4")
            else:
                line = translate("WorkerResults", "%1 after: allocated %2, used %3 of %4")
            lines.append(fill(line, device, allocated, used, total))
    return "\n".join(lines)
