"""The History tab's rows for what the session did: a load, a move, a benchmark, a fit, a
training step, and a task that failed or was cancelled (the window's own tasks; a quiet
session report that failed is the report feature's row).

It hears the session state (``state.session_state``). Each row keeps the functions that say
it, said again on a change of language (``panel``). Core's texts (notes, noise flags, failure
messages) go through ``core_text``; core's vocabulary (a mode, a model's source) through
``vocabulary_words``. The rows' words are in the translation context "OutcomeWords", the
words of how tasks end (``common.outcome_words``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot

from inspector.core.moves import MoveResult
from inspector.core.placement import meta_text
from inspector.core.units import format_bytes, format_ms
from inspector.core.vocabulary import FailureKind
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.outcome_words import architecture_message, failed_text, fit_verdict
from inspector.gui.common.plain_text import shown
from inspector.gui.common.vocabulary_words import mode_text, source_text, timer_text
from inspector.gui.state.outcomes import BenchmarkOutcome, FitOutcome, LoadOutcome
from inspector.gui.state.tasks import Task

if TYPE_CHECKING:
    from inspector.gui.common.faces import History
    from inspector.gui.state.session_state import SessionState
    from inspector.gui.state.tasks import TaskController
    from inspector.gui.state.outcomes import TaskEnded, TaskFailure
    from inspector.gui.state.notes import Note


class HistoryRows(QObject):
    """Writes a row to ``history`` for each of the session's outcomes (see the module docstring)."""

    def __init__(self, *, state: SessionState, tasks: TaskController, history: History, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.history = history
        state.taskEnded.connect(self.on_task_ended)
        state.noted.connect(self.on_noted)

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        """A row for how the task went (a lesson's is the lessons feature's, a report's the report feature's)."""
        if end.failure is not None:
            self.on_failed(end.failure)
        elif (loaded := end.result_of(LoadOutcome)) is not None:
            self.on_model_loaded(loaded)
        elif (moved := end.result_of(MoveResult)) is not None:
            self.on_move_finished(moved)
        elif (measured := end.result_of(BenchmarkOutcome)) is not None:
            self.on_benchmark_finished(measured)
        elif (fitted := end.result_of(FitOutcome)) is not None:
            self.on_fit_finished(fitted)
        elif end.task == Task.TRAIN_STEP:
            self.on_train_step_finished(end.result)

    @Slot(object)
    def on_noted(self, note: Note) -> None:
        self.history.record(note.call, None, None, note.result, ok=note.ok)

    @Slot(object)
    def on_model_loaded(self, outcome: LoadOutcome) -> None:
        info = outcome.state.info
        totals = outcome.state.placement.totals
        meta, count = meta_text(totals), totals.count

        def loaded() -> str:
            words = translate("OutcomeWords", "%1 (%2): %n tensors, %3%4", None, count)
            return fill(words, shown(info.class_name), shown(source_text(info.source)), format_bytes(totals.bytes), core_text(meta))

        self.history.record(
            f"load_model({info.spec!r})", outcome.seconds, None, loaded,
            detail=lambda: "\n".join(core_text(note) for note in info.notes),
        )  # fmt: skip

    @Slot(object)
    def on_move_finished(self, result: MoveResult) -> None:
        error_detail = f"\n\n{result.error.detail}" if result.error and result.error.detail else ""
        self.history.record(
            # A failed move has no time worth a figure (it may not have started): "—".
            result.call, result.seconds if result.ok else None, result.gbps, partial(_move_outcome, result), ok=result.ok,
            detail=lambda: _memory_detail(result) + error_detail,
        )  # fmt: skip

    @Slot(object)
    def on_benchmark_finished(self, outcome: BenchmarkOutcome) -> None:
        r, attribution = outcome.result, outcome.attribution
        self.history.record(
            partial(_benchmark_call, r), outcome.seconds, None, partial(_benchmark_result, r, attribution),
            detail=partial(_benchmark_detail, r, attribution),
        )  # fmt: skip

    @Slot(object)
    def on_failed(self, failure: TaskFailure) -> None:
        if not self.tasks.owns(failure.task):  # the quiet session report: the report feature's row
            return
        if failure.failure.kind == FailureKind.CANCELLED:
            if failure.task == Task.FIT:
                outcome = QT_TRANSLATE_NOOP("OutcomeWords", "cancelled: nothing of the model was touched")
            elif failure.task == Task.LOAD:
                outcome = QT_TRANSLATE_NOOP("OutcomeWords", "cancelled: the file was not loaded, the model shown is unchanged")
            else:
                outcome = QT_TRANSLATE_NOOP("OutcomeWords", "cancelled: stopped between samples")
            self.history.record(failure.call, failure.seconds, None, partial(translate, "OutcomeWords", outcome), ok=False)
            return
        message = failure.failure.message
        said = partial(architecture_message, message) if failure.failure.kind == FailureKind.ARCHITECTURE else message
        self.history.record(failure.call, failure.seconds, None, partial(failed_text, said), ok=False,
                            detail=failure.failure.detail)  # fmt: skip

    @Slot(object)
    def on_fit_finished(self, outcome: FitOutcome) -> None:
        # The verdicts are said again from the results when the language changes.
        fits = [(r.device, r.fits, format_bytes(r.estimated_peak_bytes)) for r in outcome.results]
        failures = list(outcome.failures)

        def failed() -> str:
            return "; ".join(f"{device}: {core_text(f.message)}" for device, f in failures)

        def result() -> str:
            return ", ".join(fit_verdict(*fit) for fit in fits) or failed_text(failed)

        self.history.record(lambda: translate("OutcomeWords", "will it fit?"), outcome.seconds, None, result,
                            ok=bool(outcome.results), detail=failed)  # fmt: skip

    @Slot(object)
    def on_train_step_finished(self, result: Any) -> None:
        """One real training step ran (``core.measure.training.TrainStepResult``)."""
        loss = f"{result.loss:.4g}"

        def detail() -> str:
            shapes = ", ".join("x".join(map(str, s)) for s in result.input_shapes) or translate("OutcomeWords", "(no tensor)")
            return "\n".join((fill(translate("OutcomeWords", "input %1"), shapes), *map(core_text, result.notes)))

        self.history.record(
            result.call(), result.seconds, None,
            lambda: fill(translate("OutcomeWords", "loss %1 · %2 on %3 %4: gradients and optimizer state are in the tree"),
                         loss, result.optimizer, result.device, result.dtype),
            detail=detail,
        )  # fmt: skip


def _move_outcome(result: MoveResult) -> str:
    """A move's history row: where the model went, or why it did not."""
    if result.ok:
        size = format_bytes(result.bytes)
        if result.dtype:
            outcome = fill(translate("OutcomeWords", "%1 → %2: %3 as %4"), result.source, result.target, size, result.dtype)
        else:
            outcome = fill(translate("OutcomeWords", "%1 → %2: %3"), result.source, result.target, size)
        if result.note:
            outcome = fill(translate("OutcomeWords", "%1 (%2)"), outcome, core_text(result.note))
        return outcome
    error = result.error
    if error is not None and error.kind == FailureKind.CANCELLED:
        return translate("OutcomeWords", "cancelled: rolled back, the model is as before")
    return failed_text(error.message if error is not None else "")


def _benchmark_call(r: Any) -> str:
    """A measurement's history call: its mode, samples, device, dtype and input."""
    shape = "; ".join("x".join(map(str, s)) for s in (r.input_shapes or (r.input_shape,)))
    return fill(translate("OutcomeWords", "%1 ×%2 · %3 %4 · input %5"), mode_text(r.mode), len(r.samples_ms), r.device, r.dtype, shape)


def _benchmark_result(r: Any, attribution: Any) -> str:
    """A measurement's history result: its median and p95, a noise flag, the top module."""
    ms = partial(format_ms, compact=True)
    result = fill(translate("OutcomeWords", "median %1 · p95 %2"), ms(r.median_ms), ms(r.p95_ms))
    if r.noise:  # said where it is seen first: the history row, the status line and its tooltip
        result += " · " + core_text(r.noise)
    if attribution is not None:
        from inspector.gui.common.module_summary import top_line

        result += " · " + top_line(attribution)
    return result


def _benchmark_detail(r: Any, attribution: Any) -> str:
    """A measurement's history tooltip: every figure, its spread and clock, notes, the modules."""
    ms = partial(format_ms, compact=True)
    figures = fill(translate("OutcomeWords", "p5 %1, mean %2, min %3, max %4; first call %5"),
                   ms(r.p5_ms), ms(r.mean_ms), ms(r.min_ms), ms(r.max_ms), ms(r.warmup_ms))  # fmt: skip
    if r.median_ci_ms:
        spread = fill(translate("OutcomeWords", "95 % CI of the median %1 – %2, IQR %3; timed by %4"),
                      ms(r.median_ci_ms[0]), ms(r.median_ci_ms[1]), ms(r.iqr_ms), timer_text(r.timer))  # fmt: skip
    else:
        spread = fill(translate("OutcomeWords", "IQR %1; timed by %2"), ms(r.iqr_ms), timer_text(r.timer))
    detail = [figures, spread]
    if r.noise:
        detail.insert(0, core_text(r.noise))
    elif r.machine is not None and r.machine.note:  # what the machine did meanwhile (it names no noise)
        detail.append(core_text(r.machine.note))
    if attribution is not None:
        from inspector.gui.common.module_summary import summary_lines

        detail += summary_lines(attribution)
    return "\n".join(detail + [core_text(note) for note in r.notes])


def _memory_detail(result: MoveResult) -> str:
    lines = []
    for when, readings in (("before", result.memory_before), ("after", result.memory_after)):
        for device, reading in (readings or {}).items():
            allocated, used, total = (format_bytes(reading.get(k)) for k in ("allocated", "used", "total"))
            # The CPU's reading holds this process's RSS where a GPU's holds allocated bytes.
            if device == "cpu" and when == "before":
                line = translate("OutcomeWords", "%1 before: process RSS %2, used %3 of %4")
            elif device == "cpu":
                line = translate("OutcomeWords", "%1 after: process RSS %2, used %3 of %4")
            elif when == "before":
                line = translate("OutcomeWords", "%1 before: allocated %2, used %3 of %4")
            else:
                line = translate("OutcomeWords", "%1 after: allocated %2, used %3 of %4")
            lines.append(fill(line, device, allocated, used, total))
    return "\n".join(lines)
