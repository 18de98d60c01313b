"""Two timing reports side by side: a thin view over ``inspector.core.report.compare``.

Three tables (latency, moves, environment) fed by two report dicts: the current session
(``set_session_report``) and a report opened from disk (``open_report``). Reading, checking,
comparing and wording the rows all run on the view's pool thread (two reports of 2,000
entries once froze the window for ~50 s); the GUI thread only hands the rows to the tables.
An outcome that no longer matches the reports held is dropped (or compared again), and
``comparisonShown`` says when the tables show a new one.

How the window uses it (``layout.add_pages`` and ``report_flow.ReportFlow``)::

    view = ComparisonView(window)                           # objectName "comparisonView"
    view.failed.connect(flow._on_comparison_failed)         # Failure -> the error banner
    view.reportOpened.connect(flow._on_comparison_opened)   # (side, path)
    view.set_session_report(report)                         # built by the ModelWorker
    view.open_report(path, "b")                             # compare with a saved .json
    view.wait(2000)                                         # in InspectorWindow.shutdown

Its texts follow the window's language: a change of language shows the reports again
(``retranslate``). Core's words (verdicts, noise flags) are shown through ``core_text``.
Columns keep their English header keys (``cell_text(table, row, "Verdict")``); the headers
show them translated (``cells.header_text``). The cells of the figures are made in
``compare_cells``, laid out in rows by ``compare_rows``.
"""

from __future__ import annotations

import html
import logging
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import Qt, QThreadPool, Signal, Slot
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.core.report import Comparison, compare_reports
from inspector.core.errors import Failure, InspectorError
from inspector.core.report import TimingReport, load_report
from inspector.core.vocabulary import FailureKind
from inspector.gui.features.compare.rows import Tables, comparison_tables, folded_columns
from inspector.gui.features.compare.table import ComparisonTable
from inspector.gui.features.compare.cells import header_text
from inspector.gui.features.compare.words import A_REPORT, THIS_SESSION, side_name
from inspector.gui.common.i18n import Retranslates, core_text, current_language, fill, translate
from inspector.gui.state.pool import run_in_pool

if TYPE_CHECKING:
    from inspector.gui.common.faces import ComparisonPage

log = logging.getLogger(__name__)

SIDES = ("a", "b")


@dataclass(frozen=True)
class _Outcome:
    """What the pool thread made of the reports it was given (and of the one it read)."""

    reports: dict[str, TimingReport | None]  # by side, the one read in its place
    labels: dict[str, str]
    comparison: Comparison | None  # None: a failure, or nothing to compare
    load: tuple[str, str, int] | None = None  # (side, path, serial) of the report read, if one was
    failure: Failure | None = None
    unread: bool = False  # the failure is the file's: it was not read
    tables: Tables | None = None  # the comparison's rows, made on the pool thread too
    #: by side, ``reports`` as the typed report they were read as (on the pool thread)
    typed: dict[str, TimingReport | None] = field(default_factory=dict)


def _compared(reports: dict[str, TimingReport | None], labels: dict[str, str],
              load: tuple[str, str, int] | None) -> _Outcome:  # fmt: skip
    """On the pool thread: read ``load``'s report (``load_report`` checks every field, and
    refuses figures its samples contradict), then compare. Returns failures, never raises."""
    reports, labels = dict(reports), dict(labels)
    if load is not None:
        side, path, _ = load
        labels[side] = Path(path).name
        try:
            reports[side] = load_report(path)
        except InspectorError as exc:
            return _Outcome(reports, labels, None, load, Failure.from_exception(exc), unread=True)
    typed: dict[str, TimingReport | None] = dict(reports)  # loaded, or the session's: typed either way
    a, b = typed["a"], typed["b"]
    first, second = (a, b) if a is not None else (b, None)  # one report alone fills the A columns
    if first is None:
        return _Outcome(reports, labels, None, load)
    try:
        comparison = compare_reports(first, second, label_a="A", label_b="B")
    except Exception as exc:  # noqa: BLE001 -- a bug must reach the user as one line, not end the thread
        log.exception("could not compare the reports")
        failure = Failure(FailureKind.ERROR, f"{type(exc).__name__}: {exc}".splitlines()[0], repr(exc))
        return _Outcome(reports, labels, None, load, failure, typed=typed)
    try:
        tables: Tables | None = comparison_tables(comparison)
    except Exception:  # noqa: BLE001 -- the GUI thread makes them again, and says what fails
        log.exception("could not make the comparison's rows")
        tables = None
    return _Outcome(reports, labels, comparison, load, tables=tables, typed=typed)


def _minute(created: str) -> str:
    """A report's ``created`` (ISO 8601, UTC) to the minute on this machine's clock,
    "2026-12-03 14:39": with both reports' names the summary is one line at 1024x700, not two
    (the Environment tab has it as written). Anything else as it is."""
    try:
        moment = datetime.fromisoformat(created)
    except ValueError:
        return created
    return (moment.astimezone() if moment.tzinfo else moment).strftime("%Y-%m-%d %H:%M")


def _could_not_show(path: str, message: str) -> Callable[[], str]:
    """ "could not show PATH: WHY" in the window's language, said again on a change of it."""
    return lambda: fill(translate("ComparisonView", "could not show %1: %2"), path, core_text(message))


class ComparisonView(Retranslates, QWidget):
    """Report A (the session, or a report) next to report B; B alone fills A's columns."""

    #: A report could not be opened: Failure(kind, message, detail) for the error banner.
    failed = Signal(Failure)
    #: (side, path) after a report from disk is shown.
    reportOpened = Signal(str, str)
    #: The tables show a comparison (or the empty view) just made: for tests and tools.
    comparisonShown = Signal()
    _compared = Signal(_Outcome)  # pool thread -> GUI thread

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("comparisonView")
        self.reports: dict[str, TimingReport | None] = {"a": None, "b": None}
        #: Each side's name: a file's name, or THIS_SESSION / A_REPORT (said in the window's language).
        self.labels: dict[str, str] = {"a": THIS_SESSION, "b": A_REPORT}
        self.comparison: Comparison | None = None
        #: True in a window whose session is side A (possibly not built yet): a report opened
        #: with the button then always goes to side B, never into the session's place.
        self.follows_session = False
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._compared.connect(self._on_compared)
        #: What is shown: the outcome of the comparison the tables hold (None: empty).
        self._shown: _Outcome | None = None
        #: Per side, the serial of the latest Open report… asked for (an older one's outcome is dropped).
        self._opened: dict[str, int] = {side: 0 for side in SIDES}
        self._opens_in_flight = 0
        #: What the summary line says instead of the reports ("Opening…", a failure), as a
        #: function that says it again when the language changes; None: the reports.
        self._notice: Callable[[], str] | None = None

        self.summary_label = QLabel(self, wordWrap=True)
        self.summary_label.setObjectName("comparisonSummary")
        # Rich text for the A/B summary, whose file-supplied parts are escaped where it is built;
        # every other text set here goes through html.escape.
        self.summary_label.setTextFormat(Qt.TextFormat.RichText)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button = QPushButton(self)
        self.open_button.setObjectName("openComparisonButton")
        self.open_button.clicked.connect(self._ask_for_report)
        self.latency_table = ComparisonTable("comparisonLatencyTable", self, header_text, folded_columns)
        self.moves_table = ComparisonTable("comparisonMovesTable", self, header_text, folded_columns)
        self.environment_table = ComparisonTable("comparisonEnvironmentTable", self, header_text, folded_columns)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("comparisonTabs")
        self.tabs.setDocumentMode(True)  # no frame around a frame: the rows get its pixels
        self.tabs.addTab(self.latency_table, "")
        self.tabs.addTab(self.moves_table, "")
        self.tabs.addTab(self.environment_table, "")

        # At 1024x700 the tab is ~190 px tall: the tables get all of it the summary leaves (the
        # margins around them took two rows' worth); the button sits beside the tables' tabs,
        # so the summary has the whole width, one line for two reports' names.
        self.tabs.setCornerWidget(self.open_button, Qt.Corner.TopRightCorner)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 4, 2, 0)
        layout.setSpacing(2)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.tabs, 1)
        self._set_static_texts()
        self.refresh()

    def _set_static_texts(self) -> None:
        self.open_button.setText(translate("ComparisonView", "Open report…"))
        self.open_button.setToolTip(translate("ComparisonView", "Open a saved .json timing report to compare with this session"))
        self.tabs.setTabText(0, translate("ComparisonView", "Latency"))
        self.tabs.setTabText(1, translate("ComparisonView", "Moves"))
        self.tabs.setTabText(2, translate("ComparisonView", "Environment"))

    def retranslate(self) -> None:
        """Every text again in the language now installed: the reports are shown again."""
        self._set_static_texts()
        notice = self._notice
        self.refresh(announce=False)
        if notice is not None and self._notice is None:
            self._say(notice)

    # ----- input

    def set_reports(self, a: TimingReport | None, b: TimingReport | None = None, *,
                    label_a: str | None = None, label_b: str | None = None) -> None:  # fmt: skip
        """Show report ``a`` next to ``b`` (either may be None), once compared on the pool thread."""
        self.reports = {"a": a, "b": b}
        if label_a:
            self.labels["a"] = label_a
        if label_b:
            self.labels["b"] = label_b
        self._compare()

    def set_session_report(self, report: TimingReport | None) -> None:
        """The current session's report as A (the window rebuilds it after each move/benchmark)."""
        self.reports["a"] = report
        self.labels["a"] = THIS_SESSION
        self._compare()

    def open_report(self, path: str | Path, side: str = "b") -> None:
        """Read a saved ``.json`` report and compare it with the other side, both on a pool
        thread, then show it as ``side``."""
        if side not in SIDES:
            raise ValueError(f"side must be 'a' or 'b', not {side!r}")
        path = str(path)
        self._say(lambda: fill(translate("ComparisonView", "Opening %1…"), path))
        self._opened[side] += 1
        self._opens_in_flight += 1
        self._compare(load=(side, path, self._opened[side]))

    def wait(self, msecs: int = 2000) -> bool:
        """Block until a report being read or compared is done (for closeEvent); False on timeout."""
        return self._pool.waitForDone(msecs)

    # ----- the pool thread reads, checks and compares; this one shows the outcome

    def _compare(self, load: tuple[str, str, int] | None = None) -> None:
        """Compare the reports as they are now (after reading ``load`` = (side, path, serial)
        into its side) on the pool thread; ``_on_compared`` shows the rows. With nothing to
        compare the view is emptied at once: there is no work to move off this thread."""
        reports = dict(self.reports)
        if load is None and reports["a"] is None and reports["b"] is None:
            self._show(None)
            return
        labels = dict(self.labels)
        run_in_pool(
            self._pool,
            lambda: _compared(reports, labels, load),
            done=self._compared.emit,
            # (_compared returns its failures; this is for one it did not foresee)
            failed=lambda failure: self._compared.emit(_Outcome(reports, labels, None, load, failure, load is not None)),
            unforeseen=lambda exc: fill(translate("ComparisonView", "could not compare the reports: %1"), exc),
        )

    @Slot(object)
    def _on_compared(self, outcome: _Outcome) -> None:
        if outcome.load is None:
            if not self._current(outcome):
                return  # the reports changed since: their own comparison is on its way
            if outcome.failure is not None:
                self._show(None, announce=False)
                message = outcome.failure.message
                self._say(lambda: fill(translate("ComparisonView", "The comparison could not be shown: %1"), message))
                self.failed.emit(outcome.failure)
                return
            self._show(outcome)
            return
        side, path, serial = outcome.load
        self._opens_in_flight -= 1
        if serial != self._opened[side]:
            return  # a later Open report… for this side replaced this one
        failure = outcome.failure
        if failure is not None:
            if outcome.unread:
                self._refuse(failure)
            else:  # read, but the comparison failed (a bug): keep what was shown
                self._refuse(failure, _could_not_show(path, failure.message))
            return
        previous = self.reports[side], self.labels[side]
        self.reports[side], self.labels[side] = outcome.reports[side], Path(path).name
        if not self._current(outcome):  # the other side changed meanwhile: compare again
            self._compare()
            self.reportOpened.emit(side, path)
            return
        shown = self._show(outcome, announce=False)
        if shown is not None:
            # The view could not show what the reader let through: put back what was there,
            # so the view and every later action work as before this file was opened.
            self.reports[side], self.labels[side] = previous
            self._show(self._shown, announce=False)
            self._refuse(shown, _could_not_show(path, shown.message))
            return
        self.reportOpened.emit(side, path)

    def _current(self, outcome: _Outcome) -> bool:
        """Whether ``outcome`` compared the reports held now (the same objects on both sides)."""
        return all(outcome.reports[side] is self.reports[side] for side in SIDES)

    def _refuse(self, failure: Failure, said: Callable[[], str] | None = None) -> None:
        """A report from disk is not shown: the summary line and the banner say why."""
        if said is not None:
            failure = Failure(failure.kind, said(), failure.detail)
        message = failure.message
        self._say(said or (lambda: core_text(message)))
        self.failed.emit(failure)

    def _say(self, notice: Callable[[], str]) -> None:
        """The summary line says ``notice()`` (plain text) until the reports are shown again."""
        self._notice = notice
        self.summary_label.setText(html.escape(notice()))

    def _ask_for_report(self) -> None:
        title, kind = translate("ComparisonView", "Open a timing report"), translate("ComparisonView", "Timing report")
        path, _ = QFileDialog.getOpenFileName(self, title, "", kind + " (*.json)")
        if path:
            self.open_report(path, "b" if self.follows_session or self.reports["a"] is not None else "a")

    # ----- output: the GUI thread only shows what the pool thread compared

    def refresh(self, *, announce: bool = True) -> Failure | None:
        """Show the comparison shown last again (in the language now installed). Never raises:
        a failure empties the tables, is shown in the summary line, emitted as ``failed`` (when
        ``announce``) and returned."""
        return self._show(self._shown, announce=announce)

    def _show(self, outcome: _Outcome | None, *, announce: bool = True) -> Failure | None:
        if not self._opens_in_flight:  # (else what it says stays said: "Opening…")
            self._notice = None
        try:
            self._show_outcome(outcome)
        except Exception as exc:  # noqa: BLE001 -- a bug must not leave the view stuck at "Opening…"
            log.exception("could not show the comparison")
            failure = Failure(FailureKind.ERROR, f"{type(exc).__name__}: {exc}".splitlines()[0], repr(exc))
            self.comparison = None  # (what was shown before stays _shown: it can be shown again)
            for table in (self.latency_table, self.moves_table, self.environment_table):
                table.set_rows(table.headers(), [])
            message = failure.message
            self._say(lambda: fill(translate("ComparisonView", "The comparison could not be shown: %1"), message))
            if announce:
                self.failed.emit(failure)
            return failure
        if self._notice is not None:
            self.summary_label.setText(html.escape(self._notice()))
        self.comparisonShown.emit()
        return None

    def _show_outcome(self, outcome: _Outcome | None) -> None:
        if outcome is None or outcome.comparison is None:
            self._shown, self.comparison = None, None
            self.summary_label.setText(html.escape(translate("ComparisonView", "No report yet: run a benchmark, or open a saved report.")))
            for table in (self.latency_table, self.moves_table, self.environment_table):
                table.set_rows(table.headers(), [])
            return
        a, b = outcome.typed.get("a"), outcome.typed.get("b")
        # One report alone fills the A columns, whichever side it came in on.
        first, second = (a, b) if a is not None else (b, None)
        assert first is not None  # a comparison was made: it had a report to put in A
        labels = outcome.labels
        name_a = labels["a"] if a is not None else labels["b"]
        self.summary_label.setText(self._summary_text(first, second, name_a, labels["b"], outcome.comparison))
        tables = outcome.tables
        if tables is None or tables.language != current_language():  # (the language changed since)
            tables = comparison_tables(outcome.comparison)
        self.latency_table.set_rows(*tables.latency)
        self.moves_table.set_rows(*tables.moves)
        self.environment_table.set_rows(*tables.environment)
        self._shown, self.comparison = outcome, outcome.comparison

    def _summary_text(self, a: TimingReport, b: TimingReport | None, name_a: str, name_b: str,
                      comparison: Comparison) -> str:  # fmt: skip
        def describe(report: TimingReport, name: str, when: bool) -> str:
            from inspector.gui.common.vocabulary_words import spec_text  # ("example" is 示例 in Chinese)

            model = spec_text(report.model.spec or "?")
            created = f", {html.escape(_minute(report.created or '?'))}" if when else ""  # (the Environment tab has it whole)
            return f"<b>{html.escape(side_name(name))}</b> ({html.escape(model)}{created})"

        if b is None:
            return describe(a, name_a, True)
        # One line in a tab half the window wide: when each report was made is on hover.
        self.summary_label.setToolTip(f"A = {describe(a, name_a, True)}<br>B = {describe(b, name_b, True)}")
        line = f"<b>A</b> = {describe(a, name_a, False)} &nbsp;·&nbsp; <b>B</b> = {describe(b, name_b, False)}"
        same = comparison.same_measurement_text()  # the same file twice, or a copy
        return f"{line}<br>{html.escape(core_text(same))}" if same else line

    def cell_text(self, table: ComparisonTable, row: int, header: str) -> str:
        """The text under ``header`` in ``row`` (for tests and accessibility tools)."""
        if header not in table.headers():
            raise KeyError(header)
        return str(table.cell(row, header) or "")


if TYPE_CHECKING:  # the face the other features know the view by (common.faces): mypy holds it to it
    _AS_PAGE: type[ComparisonPage] = ComparisonView
