"""Export the timing report from the window: plot images, a background writer, "Copy as Markdown".

The three steps keep every thread in its lane (docs/architecture.md, "Data flow"):

1. the ModelWorker builds the report dict (only it may read the model's tensors);
2. the GUI thread renders the plot images (``plot_images``: offscreen twins of the live
   plots at a fixed size, tens of milliseconds);
3. ``ReportExporter`` renders and writes the file on a pool thread, atomically
   (``inspector.core.report.timing_report.save_report``), and reports back through signals.

How the window uses it (``report_flow.ReportFlow``)::

    self.exporter = ReportExporter(self)
    self.exporter.progress.connect(self._on_export_progress)  # (done, total); total 0: busy
    self.exporter.finished.connect(self._on_export_finished)  # path written
    self.exporter.failed.connect(self._on_export_failed)      # Failure(kind, message, detail)
    images = plot_images(window.memoryPlot, window.latencyPlot, language=language)
    self.exporter.export(report, path, images, copy_report=False, language=language)  # returns at once
    copy_markdown(report, language)                            # "Copy report as Markdown"
    self.exporter.wait(msecs)                                  # in InspectorWindow.shutdown

A report is written in the window's language, or in English for sharing: the save dialog
offers each format in words (HTML, Markdown) in the window's language and, when that is not
English, once more in English (``export_filter``; the dialog starts on the English one chosen
last: ``REMEMBER_KEY``).
Its images follow the report's language, not the window's by accident (``plot_images``: English
twins of the plots, or twins that speak the window's language; the memory plot's event marks
said again in the report's language). The JSON, CSV and ZIP are data and the same in every
language; their images are keyed by English headings, which the HTML page translates.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

from PySide6.QtCore import QObject, QSettings, Qt, QThreadPool, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from inspector.core.errors import Failure
from inspector.core.files import escape_control
from inspector.core.messages import ENGLISH, MARK_CONTEXTS, available_languages, language_catalogue as catalogue
from inspector.core.report import SUPPORTED_SUFFIXES, render_markdown, save_report
from inspector.gui.common import i18n
from inspector.gui.common.i18n import fill, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.state.pool import run_in_pool

if TYPE_CHECKING:
    from inspector.core.report import TimingReport
    from inspector.gui.common.faces import LatencyPage, MemoryPage

#: Plot images are rendered at this size whatever the window's size, so reports compare.
IMAGE_SIZE = (960, 480)
#: For QFileDialog.getSaveFileName: one filter per format ``save_report`` writes (its name
#: translated where shown, its pattern as it is).
EXPORT_FILTERS = {
    QT_TRANSLATE_NOOP("ReportExport", "JSON report, opens again"): ".json",
    QT_TRANSLATE_NOOP("ReportExport", "HTML page with plots"): ".html",
    QT_TRANSLATE_NOOP("ReportExport", "Markdown for a bug report"): ".md",
    QT_TRANSLATE_NOOP("ReportExport", "CSV of the latency samples, to pivot"): ".csv",
    QT_TRANSLATE_NOOP("ReportExport", "ZIP of CSV tables, one per section"): ".zip",
}


#: The formats written in words (the others are data): each has a second filter, in English
#: for sharing, when the window speaks another language.
IN_WORDS = {
    ".html": QT_TRANSLATE_NOOP("ReportExport", "HTML page with plots, in English for sharing"),
    ".md": QT_TRANSLATE_NOOP("ReportExport", "Markdown for a bug report, in English for sharing"),
}
#: QSettings: the suffix of the format last written in English for sharing (the dialog then
#: starts on that filter), "" once a report in words was written in the window's language.
REMEMBER_KEY = "reports/english_for_sharing"


def _filters() -> dict[str, tuple[str, str]]:
    """Each filter as the dialog shows it (``"HTML page with plots (*.html)"``) -> (its suffix,
    the language a report chosen with it is written in). In a window that speaks another
    language than English, HTML and Markdown come twice: in that language, and right after
    it in English for sharing."""
    language = i18n.current_language()
    filters: dict[str, tuple[str, str]] = {}
    for name, suffix in EXPORT_FILTERS.items():
        filters[f"{translate('ReportExport', name)} (*{suffix})"] = (suffix, language)
        if language != ENGLISH and suffix in IN_WORDS:
            filters[f"{translate('ReportExport', IN_WORDS[suffix])} (*{suffix})"] = (suffix, ENGLISH)
    return filters


def export_filter() -> str:
    """The ``filter`` argument of ``QFileDialog.getSaveFileName``, in the window's language."""
    return ";;".join(_filters())


def path_with_suffix(path: str | Path, selected_filter: str = "") -> Path:
    """The path the user typed, given the chosen filter's suffix if it has none we write."""
    path = Path(path)
    if path.suffix.lower() in SUPPORTED_SUFFIXES:
        return path
    return path.with_name(path.name + _filters().get(selected_filter, (".json", ""))[0])


def report_language(selected_filter: str = "") -> str:
    """The language a report is written in when the dialog's ``selected_filter`` was chosen:
    English for an "in English for sharing" filter, else the window's language."""
    return _filters().get(selected_filter, ("", i18n.current_language()))[1]


def remembered_filter(settings: QSettings) -> str | None:
    """The "in English for sharing" filter chosen last (the dialog starts on it), or None."""
    from inspector.gui.common.settings_values import text

    suffix = text(settings, REMEMBER_KEY, choices=("", *IN_WORDS))
    chosen = [shown for shown, said in _filters().items() if said == (suffix, ENGLISH)]
    return chosen[0] if chosen else None


def remember_choice(settings: QSettings, path: str | Path, language: str) -> None:
    """Keep whether a report in words (HTML, Markdown) was asked for in English for sharing;
    a data format (JSON, CSV, ZIP) says nothing about it and changes nothing."""
    suffix = Path(path).suffix.lower()
    if suffix in IN_WORDS and i18n.current_language() != ENGLISH:
        settings.setValue(REMEMBER_KEY, suffix if language == ENGLISH else "")


def replaces_unasked(typed: str | Path, target: str | Path) -> bool:
    """Whether writing ``target`` would replace a file the save dialog did not ask about.

    The dialog (Qt's own or the platform's) asks about the name typed; a suffix appended
    afterwards (``path_with_suffix``) names another file, which may hold the user's notes.
    A link there counts as a file (writing replaces it), a dangling one too.
    """
    return Path(typed) != Path(target) and os.path.lexists(target)


def ask_replace(parent: QWidget, target: str | Path, on_yes: Callable[[], object],
                on_no: Callable[[], object]) -> QMessageBox:  # fmt: skip
    """Ask, window-modal and without blocking, whether to replace ``target``; "No" is the
    default (Enter keeps the file). Exactly one of ``on_yes()``, ``on_no()`` runs."""
    target = Path(target)
    box = QMessageBox(parent)
    box.setObjectName("replaceFileDialog")
    box.setIcon(QMessageBox.Icon.Warning)
    box.setTextFormat(Qt.TextFormat.PlainText)  # a file name is never markup
    box.setWindowTitle(translate("ReportExport", "Replace the file?"))
    box.setText(fill(translate("ReportExport", "%1 already exists."), escape_control(target.name)))
    box.setInformativeText(translate("ReportExport", "Replace it with the report? What it holds now is lost."))
    box.setDetailedText(str(target))
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    box.setDefaultButton(QMessageBox.StandardButton.No)
    box.button(QMessageBox.StandardButton.Yes).setText(translate("ReportExport", "Replace"))
    box.button(QMessageBox.StandardButton.No).setText(translate("ReportExport", "Choose another name"))
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def answered() -> None:
        if box.clickedButton() is box.button(QMessageBox.StandardButton.Yes):
            on_yes()
        else:  # No, Escape or the window's close button
            on_no()

    box.finished.connect(lambda _result: answered())
    box.open()  # window-modal and asynchronous, as the trust question
    return box


def images_language(language: str) -> str:
    """The language a report's images in ``language`` are drawn in: that one, or English where
    no installed font draws it (Chinese on a machine without a CJK font: boxes tell nothing)."""
    if language == i18n.CHINESE and not i18n.has_cjk_font():
        return ENGLISH
    return language


def plot_images(memory_plot: MemoryPage | None = None, latency_plot: LatencyPage | None = None, size: tuple[int, int] = IMAGE_SIZE,
                language: str = ENGLISH) -> dict[str, bytes]:  # fmt: skip
    """PNG bytes of the plots that hold data, at ``size``, for ``save_report(images=...)``.

    GUI thread only (it draws widgets). Keys are the English headings the HTML report shows
    (translated there). ``language``: English (twins that say each text's English source)
    or the language the window speaks now (twins that say it through Qt's translators; to draw
    in a third, ``report_images`` installs it first). The memory plot's event marks, written
    in the window's language when they were made, are said in ``language`` (``mark_in``).
    """
    english = language == ENGLISH
    if not english and language != i18n.current_language():
        raise ValueError(f"plot images are drawn in English or the language installed ({i18n.current_language()}), not {language}")
    width, height = size
    images: dict[str, bytes] = {}
    if latency_plot is not None and latency_plot.series:
        images["Latency samples"] = latency_plot.render_png(width, height, view="samples", english=english)
        images["Latency summary"] = latency_plot.render_png(width, height, view="summary", english=english)
    if memory_plot is not None and memory_plot.timeline.devices():
        shown = memory_plot.markers  # the window's own, in its language: said again for the image only
        memory_plot.markers = [dataclasses.replace(m, label=mark_in(m.label, language)) for m in shown]
        try:
            images["Memory"] = memory_plot.render_png(width, height, english=english)
        finally:
            memory_plot.markers = shown
    return images


# How deep ``mark_in`` looks into a label's parts ("%1 (%2)" holding "benchmark ×%1 · %2 %3").
_DEPTH = 3
_PLACEHOLDER = re.compile(r"%(\d)")


def mark_in(label: str, language: str) -> str:
    """A mark of the memory plot said in ``language``.

    The window writes each mark in the language it speaks at the moment (a log, as the
    history's rows: ``task_marks``), from the texts of a few of its parts (``MARK_CONTEXTS``:
    a task's name, "load %1", "benchmark ×%1 · %2 %3", how it ended, "%1 (%2)"). A report in
    another language reads the label back against those texts in every language the app
    speaks and says it again in ``language``, its arguments (code, devices, figures) as they
    are. A label none of them reads (a mark a test or a newer part made) stays as it is."""
    running = label.endswith(" …")
    core = label[:-2] if running else label
    said = _said_in(core, language, 0)
    return said + " …" if running else said


def _said_in(text: str, language: str, depth: int) -> str:
    best: tuple[int, str, dict[str, str]] | None = None
    for pattern, literal, target in _mark_forms(language):
        if best is not None and literal <= best[0]:
            break  # most specific first: nothing after this one reads more of the label
        match = pattern.fullmatch(text)
        if match is not None:
            best = (literal, target, match.groupdict())
    if best is None:
        return text
    _, target, parts = best
    if depth < _DEPTH:
        parts = {name: _said_in(value, language, depth + 1) for name, value in parts.items()}
    return _PLACEHOLDER.sub(lambda m: parts.get(f"p{m.group(1)}", m.group(0)), target)


_FORMS: dict[str, tuple[tuple[re.Pattern[str], int, str], ...]] = {}


def _mark_forms(language: str) -> tuple[tuple[re.Pattern[str], int, str], ...]:
    """(a form's pattern in another language, its letters, the same form in ``language``),
    most letters first: every text of ``MARK_CONTEXTS`` in every language the app speaks."""
    if language in _FORMS:
        return _FORMS[language]
    target = catalogue(language)
    forms: dict[str, tuple[re.Pattern[str], int, str]] = {}
    for other in available_languages():
        if other == language:
            continue
        said = catalogue(other if other != ENGLISH else language)
        for context in MARK_CONTEXTS:
            for source, translation in said.context(context).items():
                form = source if other == ENGLISH else translation
                wanted = target.translate(context, source)
                literal = len(_PLACEHOLDER.sub("", form).replace(" ", ""))
                if literal and form != wanted and form not in forms:
                    forms[form] = (_form_regex(form), literal, wanted)
    ordered = tuple(sorted(forms.values(), key=lambda item: -item[1]))
    _FORMS[language] = ordered
    return ordered


def _form_regex(form: str) -> re.Pattern[str]:
    parts: list[str] = []
    seen: set[str] = set()
    position = 0
    for match in _PLACEHOLDER.finditer(form):
        parts.append(re.escape(form[position:match.start()]))
        name = f"p{match.group(1)}"
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        position = match.end()
    parts.append(re.escape(form[position:]))
    return re.compile("".join(parts), re.DOTALL)


def copy_markdown(report: TimingReport, language: str = ENGLISH) -> str:
    """Put the report's Markdown block, in ``language``, on the clipboard (to paste into an
    issue); return it."""
    text = render_markdown(report, language)
    QGuiApplication.clipboard().setText(text)
    return text


class ReportExporter(QObject):
    """Writes reports on a background thread, one at a time, and says how it went.

    Signals (delivered on the thread that owns the exporter, the GUI thread):
    ``started(path)``, ``progress(done, total)`` (``total`` 0 means "busy", which a
    QProgressBar shows as a busy indicator: rendering and writing are one call),
    ``finished(path)`` and ``failed(Failure)``. Exactly one of the last two per export.
    A failed write leaves any file already at ``path`` untouched.
    """

    started = Signal(str)
    progress = Signal(int, int)
    finished = Signal(str)
    failed = Signal(Failure)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        # One writer: two exports to the same path land in the order they were asked for.
        self._pool.setMaxThreadCount(1)

    def export(self, report: TimingReport, path: str | Path, images: Mapping[str, bytes] | None = None, *,
               copy_report: bool = True, language: str = ENGLISH, images_language: str | None = None) -> None:  # fmt: skip
        """Queue ``report`` to be written to ``path``, its Markdown or HTML in ``language``
        (``images_language``: the language ``images`` were drawn in).

        A copy is taken unless ``copy_report`` is False, for a caller that hands over a report
        nobody changes afterwards: copying an hour of readings of nine devices takes about
        a second, on the caller's (the GUI) thread.
        """
        # Copy on the caller's thread: the caller may go on changing the dicts it was read from.
        report_copy = copy.deepcopy(report) if copy_report else report
        image_copy = {str(k): bytes(v) for k, v in (images or {}).items()}
        target = str(path)

        def write() -> str:
            # On the pool thread: nothing here may touch a widget; everything ends in a signal.
            self.started.emit(target)
            self.progress.emit(0, 0)
            return str(save_report(report_copy, target, images=image_copy or None, language=language,
                                   images_language=images_language if image_copy else None))  # fmt: skip

        run_in_pool(self._pool, write, done=self._written, failed=self.failed.emit, unforeseen=lambda exc: fill(
            translate("ReportExporter", "could not export the report to %1: %2"), target, exc))  # fmt: skip

    def is_busy(self) -> bool:
        return self._pool.activeThreadCount() > 0

    def wait(self, msecs: int = 5000) -> bool:
        """Block until queued exports are written (for closeEvent); False on timeout."""
        return self._pool.waitForDone(msecs)

    def _written(self, path: str) -> None:
        self.progress.emit(1, 1)
        self.finished.emit(path)

