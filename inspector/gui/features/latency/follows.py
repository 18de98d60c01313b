"""The Latency tab's plot as the session goes on: the samples streamed into the running
series, the series finished with its result (and the modules' shares, and the benchmark's
PyTorch code in the code view) or labelled with why it stopped, and a fresh plot for another
model (a new session: its latency starts afresh; the memory timeline goes on).

It hears the session state (``state.session_state``). The plot is built on first use
(``lazy_tabs``), or ahead while the window waits for the user (``build_latency_plot_when_idle``,
once the first model is listed); a load clears it only once built. The code view's words are
in the translation context "OutcomeWords" (``common.outcome_words``).
"""

from __future__ import annotations

import importlib
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot

from inspector.core.errors import InputError
from inspector.core.vocabulary import FailureKind
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.common.pages import LATENCY
from inspector.gui.common.vocabulary_words import mode_text
from inspector.gui.state.outcomes import BenchmarkOutcome, LoadOutcome
from inspector.gui.state.tasks import Task

if TYPE_CHECKING:
    from inspector.gui.common.code_panel import CodePanel
    from inspector.gui.common.lazy_tabs import LazyTabs
    from inspector.gui.state.runs import BenchmarkRun
    from inspector.gui.state.session_state import SessionState
    from inspector.gui.state.tasks import TaskController
    from inspector.gui.state.outcomes import TaskEnded, TaskFailure


class LatencyFollows(QObject):
    """Keeps the latency plot with the session (see the module docstring)."""

    def __init__(
        self, *, state: SessionState, tasks: TaskController, pages: LazyTabs, code: CodePanel, parent: QObject | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.tasks = tasks
        self.pages = pages
        self.code = code
        state.latencySamples.connect(self.on_latency_samples)
        state.taskEnded.connect(self.on_task_ended)
        # A benchmark the launch starts (``state.runs``): the plot ready before it, its
        # series begun once it is sent, the items made for it dropped if it never starts.
        state.benchmarkPlanned.connect(self.on_benchmark_planned)
        state.benchmarkSent.connect(self.on_benchmark_sent)
        state.benchmarkRefused.connect(self.on_benchmark_refused)
        #: The run planned last, and the series key whose items were made for it (None: none new).
        self._planned: tuple[BenchmarkRun, Any] | None = None

    @property
    def latency_plot(self) -> Any:
        """The Latency tab's plot (``plot.LatencyPlot``: this feature's own page), built if it
        was not yet. (Not imported here, even for its type: the plot is imported when first built.)"""
        return self.pages.page(LATENCY)

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        if end.failure is not None:
            self.on_failed(end.failure)
        elif (loaded := end.result_of(LoadOutcome)) is not None:
            self.on_model_loaded(loaded)
        elif (measured := end.result_of(BenchmarkOutcome)) is not None:
            self.on_benchmark_finished(measured)

    def on_model_loaded(self, _outcome: LoadOutcome) -> None:
        if self.pages.is_built(LATENCY):  # (else it has nothing to clear yet)
            self.latency_plot.clear()

    @Slot(object)
    def on_benchmark_planned(self, run: BenchmarkRun) -> None:
        plot = self.latency_plot
        self._planned = (run, plot.prepare_run(run.device, run.dtype, run.mode))
        if not plot.isVisible():  # the tab about to open is drawn before the request leaves
            run.opens = plot

    @Slot(object)
    def on_benchmark_sent(self, run: BenchmarkRun) -> None:
        self._planned = None
        # Samples stream into this run's series; the result names it exactly when it comes.
        self.latency_plot.begin_series(run.device, run.dtype, run.mode, expected=run.expected)
        self.pages.show(LATENCY)

    @Slot(object)
    def on_benchmark_refused(self, run: BenchmarkRun) -> None:
        planned, self._planned = self._planned, None
        if planned is not None and planned[0] is run and planned[1] is not None:
            self.latency_plot.forget_run(planned[1])

    @Slot(object)
    def on_latency_samples(self, pairs: Any) -> None:
        self.latency_plot.add_sample_pairs(pairs)

    @Slot(object)
    def on_benchmark_finished(self, outcome: BenchmarkOutcome) -> None:
        r, attribution = outcome.result, outcome.attribution
        if attribution is not None:
            from inspector.gui.common.module_summary import summary_tab_text

            self.latency_plot.set_top_modules(partial(summary_tab_text, attribution))
        self.latency_plot.finish_series(r)
        mode, device = r.mode, r.device
        self.code.show_code(
            partial(_measurement_code, r),
            lambda: fill(translate("OutcomeWords", "Equivalent PyTorch code: %1 timing on %2"), mode_text(mode), device),
        )

    @Slot(object)
    def on_failed(self, failure: TaskFailure) -> None:
        if failure.task == Task.BENCHMARK and self.tasks.owns(failure.task):
            # What was measured stays on the plot, labelled with why the run stopped.
            self.latency_plot.abort_series("cancelled" if failure.failure.kind == FailureKind.CANCELLED else "failed")


def _measurement_code(r: Any) -> str:
    """The code repeating measurement ``r``, its comments in the window's language."""
    from inspector.core.report import measurement_snippet

    try:
        return measurement_snippet(r, say=core_text)
    except InputError as exc:
        return "# " + fill(translate("OutcomeWords", "no snippet for this measurement: %1"), core_text(exc.message))


def build_latency_plot_when_idle(pages: LazyTabs, tasks: TaskController) -> None:
    """The plot a benchmark opens, built while the window waits for the user: its two slow
    imports on a thread of their own (~50-70 ms on the GUI thread), its two pyqtgraph plot
    widgets at idle moments of their own (~30 ms each, their menus left out), then the rest
    of the plot (~15 ms), then the items every run shares (~15 ms) and the two menus.
    Built at a benchmark's start, all of it in one go was its longest stall; built at one
    idle moment, it still held the event loop ~100 ms."""
    def widgets() -> Any:
        return importlib.import_module("inspector.gui.features.latency.plot_widgets")

    pages.build_when_idle(
        LATENCY,
        lambda: tasks.task is None and not tasks.closed,
        tasks.busyChanged,
        # (then the plot's own module, which the page's factory imports: ``shell.layout``)
        prepare=[lambda: importlib.import_module("inspector.core.report").verdicts_of_runs],
        # (children of the tab widget, hidden, until the plot takes them; their right-click
        # menus, half of their cost, at moments of their own after the build)
        steps=[lambda: widgets().samples_plot_widget(pages.tabs, menu=False),
               lambda: widgets().summary_plot_widget(pages.tabs, menu=False)],  # fmt: skip
        # and the items every run draws with (~15 ms), which the first benchmark made at its start
        then=[lambda page: _plot(page).canvas.prepare_shared_items(),
              lambda page: widgets().enable_menu(_plot(page).samples_plot),
              lambda page: widgets().enable_menu(_plot(page).summary_plot)],
    )


def _plot(page: object) -> Any:
    """The Latency page (a ``LatencyPlot``, built by ``plot_widgets``' steps), as its builder hands it over."""
    return page
