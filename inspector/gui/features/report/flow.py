"""The window's reports: export to a file, copy as Markdown, open one, compare two.

The worker builds the session's report (only its thread may read the tensors); this flow
renders the plot images on the GUI thread for an HTML page and hands the dict to the
``ReportExporter``, which writes the file on a pool thread. It also keeps the comparison's
side A, the session's own report, up to date: rebuilt quietly (no busy state) when it shows
and a move, benchmark or load has made it old.

It is given what it uses: the one door to the worker (``state.dispatcher.Dispatcher``) and its
report request, the session state it hears (a built report; a load, move, benchmark, training
step or lesson makes side A old; a quiet session report that ended or failed), the tab pages
(the Compare view, typed by ``common.faces.ComparisonPage``; the plots drawn into an HTML
report), the progress bar, banner, history (``common.faces.History``) and status line it
reports to; a report it opens is said on the state (``reportOpened``: the ranks feature shows
a torchrun report's ranks side by side). ``actionsChanged`` says that "Compare with…" may have become
available (or not).

Its words are the window's language: history rows (the functions that say them, said again
by the history) and the progress bar's text said again on a change of language (``retranslate``). A report file's Markdown or
HTML is written in the window's language too, or in English for sharing when the save
dialog's "in English for sharing" filter was chosen (remembered: ``export.REMEMBER_KEY``);
its plot images follow the report's language (``export.plot_images``). "Copy report as
Markdown" copies it in the window's language.
"""

from __future__ import annotations

import logging
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, Signal, SignalInstance, Slot
from PySide6.QtWidgets import QFileDialog, QWidget

from inspector.core.errors import Failure
from inspector.gui.common import i18n, window_settings
from inspector.gui.common.bar_words import BarWords
from inspector.gui.common.faces import ProgressShown
from inspector.gui.common.i18n import core_text, fill, translate
from inspector.gui.common.pages import COMPARISON, LATENCY, MEMORY
from inspector.gui.state.tasks import Task
from inspector.gui.state.outcomes import ReportBuilt, ReportRequest, TaskEnded, TaskFailure

if TYPE_CHECKING:
    from inspector.core.report import TimingReport
    from inspector.gui.common.faces import ComparisonPage, History
    from inspector.gui.state.dispatcher import Dispatcher
    from inspector.gui.state.session_state import SessionState
    from inspector.gui.features.report.export import ReportExporter
    from inspector.gui.common.lazy_tabs import LazyTabs
    from inspector.gui.common.error_banner import ErrorBanner
    from inspector.gui.common.status_line import StatusLine
    from inspector.gui.state.tasks import TaskController

# ``gui.export`` (and with it ``core.report.timing_report``), the ranks table and the Compare view are
# imported when first used: the window's first second lists the model's tensors (issue 12).

log = logging.getLogger(__name__)



def report_open_filter() -> str:
    """The open dialogs' file filter, in the window's language (the patterns as they are)."""
    return translate("ReportFlow", "Timing report") + " (*.json);;" + translate("ReportFlow", "All files") + " (*)"


class ReportFlow(QObject):
    """Export, copy, open and compare reports (see the module docstring)."""

    actionsChanged = Signal()

    def __init__(
        self, parent: QWidget, *, dispatcher: Dispatcher, request: SignalInstance, tasks: TaskController,
        pages: LazyTabs, progress: ProgressShown, banner: ErrorBanner, history: History, status: StatusLine,
        settings: QSettings, state: SessionState,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.parent_widget = parent  # the file dialogs open over it
        self.dispatcher = dispatcher
        self._request = request
        self.tasks = tasks
        self.pages = pages
        self.progress = progress
        self.bar_words = BarWords(progress)
        self.banner = banner
        self.history = history
        self.status = status
        self.settings = settings
        self.state = state
        #: The latest report the worker built for this session (any purpose), and the session's
        #: revision when side A was last asked for (``SessionState.revision``: a load, move,
        #: benchmark, training step or lesson since makes it old).
        self.session_report: TimingReport | None = None
        self._asked_at_revision: int | None = None
        self._session_in_flight = False
        #: The file the ReportExporter is writing, when it was asked for, and its report.
        self.exporting: str | None = None
        self._export_asked_at: float | None = None
        #: The language each file asked for is to be written in, until its report is built.
        self._export_languages: dict[str, str] = {}
        self.last_export: TimingReport | None = None

        self._exporter: ReportExporter | None = None
        state.taskEnded.connect(self.on_task_ended)
        # The end of the window's own task (the window idle again) is a moment to rebuild side A.
        tasks.busyChanged.connect(lambda task: self.maybe_refresh_session() if task is None else None)

    def retranslate(self) -> None:
        """The progress bar's text again, if it still says this flow's."""
        self.bar_words.retranslate()

    @property
    def exporter(self) -> ReportExporter:
        """The background writer of report files, made on the first export."""
        if self._exporter is None:
            from inspector.gui.features.report.export import ReportExporter

            self._exporter = ReportExporter(self)
            self._exporter.progress.connect(self._on_export_progress)
            self._exporter.finished.connect(self._on_export_finished)
            self._exporter.failed.connect(self._on_export_failed)
        return self._exporter

    @property
    def comparison_view(self) -> ComparisonPage:
        """The Compare tab, built if it was not yet."""
        return self.pages.page(COMPARISON)

    def can_compare_with(self) -> bool:
        """Whether "Compare with…" has a report from disk to compare a second one with (none
        before the Compare view is built)."""
        if not self.pages.is_built(COMPARISON):
            return False
        view = self.comparison_view
        return view.reports["b"] is not None or not view.follows_session

    def comparison_view_built(self, view: ComparisonPage) -> None:
        """The Compare tab was just built (``layout``): hear it, and give it this session's report."""
        view.failed.connect(self._on_comparison_failed)
        view.reportOpened.connect(self._on_comparison_opened)
        if self.session_report is not None:
            view.set_session_report(self.session_report)

    # ----- commands

    def export_report(self, path: str | Path, language: str | None = None) -> bool:
        """Write the session's report to ``path`` (its suffix picks the format), its Markdown or
        HTML in ``language`` (None: the window's); the window stays busy until the file is written."""
        self._export_asked_at = time.perf_counter()
        sent = self.dispatcher.send(Task.EXPORT, self._request, ReportRequest("export", str(path)))
        if sent:
            self._export_languages[str(path)] = language or i18n.current_language()
        return sent

    def copy_markdown_report(self) -> bool:
        """Put the session's report as Markdown on the clipboard (once the worker built it)."""
        return self.dispatcher.send(Task.REPORT, self._request, ReportRequest("markdown"))

    def open_report(self, path: str | Path) -> None:
        """Show a saved ``.json`` report in the Compare tab, next to this session."""
        view = self.comparison_view
        view.follows_session = True
        view.set_session_report(self.session_report)
        view.open_report(path, "b")
        self.pages.show(COMPARISON)
        self.maybe_refresh_session()

    def compare_with(self, path: str | Path) -> None:
        """Compare the report opened from disk (it becomes A) with a second one (B).

        With no report open yet, ``path`` is opened next to the session instead.
        """
        view = self.comparison_view
        # The report from disk: B next to the session, or B (else A) of two reports.
        side = "b" if view.reports["b"] is not None or view.follows_session else "a"
        if view.reports[side] is None:
            self.open_report(path)
            return
        view.follows_session = False
        view.set_reports(view.reports[side], None, label_a=view.labels[side])
        view.open_report(path, "b")
        self.pages.show(COMPARISON)
        self.actionsChanged.emit()

    def suggested_export_path(self) -> str:
        """Where the export dialog starts: the last reports folder, a file named after the model."""
        state = self.state.model
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", state.info.class_name).strip("-.") if state is not None else ""
        name = f"{stem}-timing-report.json" if stem else "timing-report.json"
        return str(Path(window_settings.last_folder(self.settings, "reports")) / name)

    def export_report_dialog(self, start: str = "") -> None:
        from inspector.gui.features.report import export

        start = start or self.suggested_export_path()
        title = translate("ReportFlow", "Export timing report")
        remembered = export.remembered_filter(self.settings)  # the "in English for sharing" chosen last
        if remembered is None:
            path, chosen = QFileDialog.getSaveFileName(self.parent_widget, title, start, export.export_filter())
        else:
            path, chosen = QFileDialog.getSaveFileName(self.parent_widget, title, start, export.export_filter(),
                                                       remembered)  # fmt: skip
        if not path:
            return
        window_settings.set_last_folder(self.settings, "reports", path)
        target = export.path_with_suffix(path, chosen)
        language = export.report_language(chosen)
        export.remember_choice(self.settings, target, language)
        if export.replaces_unasked(path, target):
            # The dialog asked about `notes`; `notes.json` is what would be replaced. "No"
            # goes back to the dialog, as the dialog's own question does.
            export.ask_replace(self.parent_widget, target, on_yes=lambda: self.export_report(target, language),
                               on_no=lambda: self.export_report_dialog(path))  # fmt: skip
            return
        self.export_report(target, language)

    def open_report_dialog(self) -> None:
        start = window_settings.last_folder(self.settings, "reports")
        title = translate("ReportFlow", "Open a timing report")
        path, _ = QFileDialog.getOpenFileName(self.parent_widget, title, start, report_open_filter())
        if path:
            window_settings.set_last_folder(self.settings, "reports", path)
            self.open_report(path)

    def compare_with_dialog(self) -> None:
        start = window_settings.last_folder(self.settings, "reports")
        title = translate("ReportFlow", "Compare with a second timing report")
        path, _ = QFileDialog.getOpenFileName(self.parent_widget, title, start, report_open_filter())
        if path:
            window_settings.set_last_folder(self.settings, "reports", path)
            self.compare_with(path)

    def waits_for_writer(self) -> bool:
        return self.exporting is not None

    # ----- the session's own report (side A)

    @property
    def session_stale(self) -> bool:
        """The session changed since side A was last asked for (or it never was)."""
        return self._asked_at_revision != self.state.revision

    def maybe_refresh_session(self) -> None:
        """Rebuild side A of the comparison when it shows this session and is out of date.

        Quiet: the request is not a task of the window's (no busy state, no progress); the
        worker runs it between the user's own tasks.
        """
        if not self.pages.is_built(COMPARISON):
            return  # built when its tab shows (that calls this again) or a report opens
        view = self.comparison_view
        wanted = view.follows_session and (view.reports["b"] is not None or self.pages.is_shown(COMPARISON))
        if not wanted or self.tasks.closed or self.state.model is None or self._session_in_flight:
            return
        if not self.session_stale and self.session_report is not None:
            return
        self._asked_at_revision = self.state.revision
        self._session_in_flight = True
        self._request.emit(ReportRequest(Task.SESSION.value))

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        """A report built (or not): a quiet session report is no longer in flight."""
        if (built := end.result_of(ReportBuilt)) is not None:
            self.on_report_built(built)
        if end.failure is not None:
            self.on_failed(end.failure)
        if end.task == Task.SESSION:
            self._session_in_flight = False

    def on_failed(self, failure: TaskFailure) -> None:
        if not self.tasks.owns(failure.task):  # the quiet session report (the window's own: a banner)
            self.session_failed(failure)

    def session_failed(self, failure: TaskFailure) -> None:
        log.warning("could not build the session report: %s", failure.failure.message)
        message = failure.failure.message
        outcome = lambda: fill(translate("ReportFlow", "failed: %1"), core_text(message))  # noqa: E731 (said again on a change of language)
        self.history.record(failure.call, failure.seconds, None, outcome, ok=False, detail=failure.failure.detail)

    # ----- worker and writer results

    def on_report_built(self, built: ReportBuilt) -> None:
        self.session_report = built.report
        if self.pages.is_built(COMPARISON):  # (else it takes it when built)
            view = self.comparison_view
            if view.follows_session:
                view.set_session_report(built.report)
        if self.tasks.closed:
            return  # closing cancels work: no file is started after that
        if built.request.purpose == "export":
            self._start_export(built)
        elif built.request.purpose == "markdown":
            from inspector.gui.features.report.export import copy_markdown

            copy_markdown(built.report, i18n.current_language())
            self.status.flash(translate("ReportFlow", "Copied the report as Markdown: paste it into an issue or a chat"), 8000)

    def _start_export(self, built: ReportBuilt) -> None:
        path = str(built.request.path)
        language = self._export_languages.pop(path, i18n.current_language())
        if language not in (i18n.ENGLISH, i18n.current_language()):
            language = i18n.current_language()  # (the window switched language since it was asked)
        images: dict[str, bytes] = {}
        drawn: str | None = None
        if Path(path).suffix.lower() == ".html":
            # Drawn here (widgets live on this thread) at a fixed size; the file is written
            # on the exporter's pool thread.
            try:
                from inspector.gui.features.report.export import images_language, plot_images

                drawn = images_language(language)
                images = plot_images(self.pages.page(MEMORY), self.pages.page(LATENCY), language=drawn)
            except Exception:  # noqa: BLE001 -- a report without plots is better than no report
                log.exception("could not render the plots for %s", path)
        self.exporting = path
        self.last_export = built.report
        self.tasks.writer_started()
        name = Path(path).name
        self.bar_words.progress(None, lambda: fill(translate("ReportFlow", "writing %1…"), name))
        # No copy: the worker built this dict for this export, and nothing here changes it.
        self.exporter.export(built.report, path, images, copy_report=False, language=language, images_language=drawn)

    @Slot(int, int)
    def _on_export_progress(self, done: int, total: int) -> None:
        if self.exporting is not None:  # total 0: rendering and writing are one call
            fraction = done / total if total else None
            name = Path(self.exporting).name
            self.bar_words.progress(fraction, lambda: fill(translate("ReportFlow", "writing %1…"), name))

    @Slot(str)
    def _on_export_finished(self, path: str) -> None:
        seconds = self._export_done()
        self.history.record(f"save_report(report, {path!r})", seconds, None, lambda: translate("ReportFlow", "written"))
        self.status.flash(fill(translate("ReportFlow", "Report written: %1"), path), 8000)
        name = Path(path).name
        self.bar_words.idle(lambda: fill(translate("ReportFlow", "wrote %1"), name))
        self.banner.cleared_by(Task.EXPORT)

    @Slot(object)
    def _on_export_failed(self, failure: Failure) -> None:
        path = self.exporting or "?"
        seconds = self._export_done()
        self.banner.show_failure(failure, "export", source=Task.EXPORT)
        outcome = lambda: fill(translate("ReportFlow", "failed: %1"), core_text(failure.message))  # noqa: E731 (said again on a change of language)
        self.history.record(f"save_report(report, {path!r})", seconds, None, outcome, ok=False, detail=failure.detail)
        self.bar_words.idle(lambda: translate("ReportFlow", "export failed"))

    def _export_done(self) -> float | None:
        """The exporter is done with the file: the window is free again. Returns the seconds
        since the report was asked for."""
        if self.exporting is None:
            return None
        self.exporting = None
        seconds = time.perf_counter() - self._export_asked_at if self._export_asked_at else None
        self.tasks.writer_done()
        return seconds

    @Slot(object)
    def _on_comparison_failed(self, failure: Failure) -> None:
        self.banner.show_failure(failure, "open report", source="open report")

    @Slot(str, str)
    def _on_comparison_opened(self, side: str, path: str) -> None:
        self.history.record(f"load_report({path!r})", None, None, lambda: translate("ReportFlow", "shown in the Compare tab"))
        self.banner.cleared_by("open report")
        view = self.comparison_view
        self.state.reportOpened.emit(view.reports[side])  # (a torchrun report: its ranks side by side)
        self.actionsChanged.emit()
        self.maybe_refresh_session()

    def wait(self, msecs: int) -> bool:
        """Block until a report being written is done (for shutdown); False on timeout."""
        return self._exporter is None or self._exporter.wait(msecs)
