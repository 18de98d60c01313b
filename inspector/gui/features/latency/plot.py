"""The latency plot: every sample of each benchmark run against its index (warm-up calls at
negative indices, a running median over them), and a summary of the runs side by side.

Samples stream in while a run measures (``add_sample_pairs``); the finished result then
replaces them with the exact figures from the core. The data lives in Qt-free ``Series``
(``series.py``); this module keeps one per run and has ``canvas.py`` draw them, the
lines under the Summary tab in ``summary_notes.py`` and the hover texts from
``latency_readout.py``.

Its texts follow the window's language (``retranslate``); the images ``render_png`` draws for
a report file stay English (``words.ENGLISH``).
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Iterable, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, QTimer, Slot
from PySide6.QtGui import QColor, QShowEvent
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QTabWidget, QVBoxLayout, QWidget

from inspector.core.report import Run, TimingReport
from inspector.core.vocabulary import MAX_SAMPLES, BenchMode
from inspector.gui.common.named import named
from inspector.gui.common.i18n import Retranslates, core_text, fill, translate
from inspector.gui.features.latency.canvas import LatencyCanvas
from inspector.gui.features.latency.labels import run_label
from inspector.gui.features.latency.readouts import bar_readout, sample_readout
from inspector.gui.common.plot_render import DEFAULT_REDRAW_FPS, png_bytes
from inspector.gui.features.latency.series import Series, SeriesKey, field_of
from inspector.gui.features.latency.summary_notes import SummaryNotes, note_label
from inspector.gui.features.latency.summary_verdicts import summary_verdicts
from inspector.gui.common.theme import pick_series_color
from inspector.gui.common.plot_words import ENGLISH, LIVE, Words

log = logging.getLogger(__name__)

#: The Summary tab's line of top modules: a text, or a function that says it again in the
#: language now installed (``set_top_modules``).
TopModules = str | Callable[[], str]


class LatencyPlot(Retranslates, QWidget):
    """Benchmark latency: every sample against its index with the running median ("Samples"
    tab), one bar per device/dtype with p5–p95 whiskers ("Summary"). Samples stream in through
    ``add_sample`` (appended, repainted by a timer); ``finish_series`` then replaces them with
    the ``LatencyResult``'s exact figures and adds the warm-up calls at negative indices."""

    def __init__(
        self, parent: QWidget | None = None, *, redraw_fps: float = DEFAULT_REDRAW_FPS, plots: Sequence[pg.PlotWidget] = (),
    ) -> None:  # fmt: skip
        """``plots``: the canvas's two plot widgets, where they were made ahead (``LatencyCanvas``)."""
        super().__init__(parent)
        self.setObjectName("latencyPlot")
        self.series: dict[SeriesKey, Series] = {}
        self._colors: dict[SeriesKey, QColor] = {}
        self._current: SeriesKey | None = None
        self._replaced: Series | None = None
        self._dirty: set[SeriesKey] = set()
        self.canvas = LatencyCanvas(self, plots=plots, label=run_label)
        self.tabs = named(QTabWidget(self), "latencyTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.canvas.samples_plot, "")
        self.tabs.addTab(self.canvas.summary_plot, "")
        self.logCheck = named(QCheckBox(self), "latencyLogCheck")
        self.logCheck.toggled.connect(self._log_toggled)
        # The hover readout: the sample under the pointer (or the bar), in words.
        self.readout = named(QLabel(self), "latencyReadout")
        self.readout.setTextFormat(Qt.TextFormat.PlainText)
        self._hovered: tuple[str, float, float] | None = None  # ("samples" or "summary", x, y) read out
        # Beside the Samples and Summary tabs, not in a row above them: the plots keep its height (issue 45).
        corner = QWidget(self.tabs)
        bar = QHBoxLayout(corner)
        bar.setContentsMargins(12, 0, 6, 0)
        bar.addWidget(self.readout, 1)
        bar.addWidget(self.logCheck)
        self.tabs.setCornerWidget(corner, Qt.Corner.TopRightCorner)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.tabs)
        self.canvas.samples_plot.scene().sigMouseMoved.connect(self._samples_hovered)
        self.canvas.summary_plot.scene().sigMouseMoved.connect(self._summary_hovered)
        # After a per-module run the Summary tab names where the time went (the model
        # tree's Time column has every module). A label under the tabs rather than a page
        # around the plot, so the Summary page stays the plot itself.
        self.modulesLabel = note_label(self, "summaryModulesLabel")
        # How the runs compare (like with like, each ratio with its interval) and which are
        # noisy, in sentences: the bars carry the short form.
        self.verdictLabel = note_label(self, "summaryVerdictLabel")
        self.notes = SummaryNotes(self, self.modulesLabel, self.verdictLabel)
        layout.addWidget(self.notes)
        self._timer = QTimer(self, singleShot=True, interval=max(1, round(1000 / redraw_fps)))
        self._timer.timeout.connect(self._timer_fired)
        # Shown (a benchmark's start switches to this tab): draw in the next turn of the event
        # loop, not inside the show. A first draw makes the run's plot items (~20 ms, twice
        # that while the worker's Python shares the GIL); with the show's own layout work in
        # the same turn that was the longest stall of a benchmark's start. The price: the
        # tab's first frame can show the plot as last drawn, for one turn.
        self._shown_timer = QTimer(self, singleShot=True, interval=0)
        self._shown_timer.timeout.connect(self._timer_fired)
        self._summary_stale = False
        self._top_modules: TopModules = ""
        self.tabs.currentChanged.connect(self._tab_changed)
        self.retranslate()

    def retranslate(self) -> None:
        """Every text again in the language now installed: the controls, the plots' labels,
        the bars' verdicts and the lines under them, the hover readout."""
        self.tabs.setTabText(0, translate("LatencyPlot", "Samples"))
        self.tabs.setTabText(1, translate("LatencyPlot", "Summary"))
        self.logCheck.setText(translate("LatencyPlot", "Log scale"))
        self.logCheck.setToolTip(translate("LatencyPlot", "A logarithmic latency axis: every sample in view, outliers included"))
        self.canvas.retranslate()
        self._show_top_modules()
        if self.series:
            self._summary_stale = True
            self.redraw()
        self._read_out()

    def _timer_fired(self) -> None:
        # Only what is on screen is drawn; the rest when it is shown (showEvent, tab change).
        if self.isVisible():
            self.redraw(summary=self.tabs.currentWidget() is self.summary_plot)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self._shown_timer.start()

    def _tab_changed(self, _index: int) -> None:
        self._show_modules_label()
        self._timer_fired()

    def set_top_modules(self, text: TopModules) -> None:
        """Show ``text`` (the top modules of the last per-module run) under the Summary tab;
        empty hides it. A function is asked again when the language changes."""
        self._top_modules = text
        self._show_top_modules()

    def _show_top_modules(self) -> None:
        text = self._top_modules
        self.modulesLabel.setText(text() if callable(text) else text)
        self._show_modules_label()

    def _show_modules_label(self) -> None:
        on_summary = self.tabs.currentWidget() is self.summary_plot
        self.modulesLabel.setVisible(on_summary and bool(self.modulesLabel.text()))
        self.verdictLabel.setVisible(on_summary and bool(self.verdictLabel.text()))
        self.notes.refit()

    @property
    def samples_plot(self) -> pg.PlotWidget:
        return self.canvas.samples_plot

    @property
    def summary_plot(self) -> pg.PlotWidget:
        return self.canvas.summary_plot

    # ----- data in

    def prepare_run(self, device: str, dtype: str, mode: str = BenchMode.FORWARD.value) -> SeriesKey | None:
        """Make the plot items a run of this key will draw into, now: before its benchmark
        takes every core (made under the benchmark, each piece held the window 60-75 ms).
        Returns the key when its items are new (``forget_run`` drops them if the run never
        starts), else None."""
        key = (str(device), str(dtype), str(mode))
        new = key not in self.canvas.items
        self.canvas.prepare_series(key, self._color(key))
        return key if new else None

    def forget_run(self, key: SeriesKey) -> None:
        """Drop the items ``prepare_run`` made for a run that did not start."""
        if key not in self.series:
            self._drop_items(key)

    def begin_series(
        self, device: str, dtype: str, mode: str = BenchMode.FORWARD.value, expected: int | None = None,
    ) -> SeriesKey:  # fmt: skip
        """Start a run of ``expected`` samples (None: unknown): following samples belong to it,
        drawn in steady ranges until it ends (``live_range``). A re-run of the same key replaces it."""
        key = (str(device), str(dtype), str(mode))
        # Kept until the new run measures something: a run that fails before its first
        # sample (a wrong input shape) then leaves the earlier result on screen.
        self._replaced = self.series.get(key)
        self.series[key] = Series(*key)
        self._current = key
        self.canvas.follow_bulk = True  # a new run: fit its bulk again, whatever the zoom was
        self.canvas.stream(expected)
        # Drawn now, before its tab opens (~2 ms): the tab's first frame has the run's ranges
        # (x across the samples asked for), and no second frame follows to move them there.
        self._dirty.add(key)
        self.redraw(summary=False)
        return key

    @Slot(int, float)
    def add_sample(self, index: int, ms: float, warmup: bool = False) -> None:
        """One sample of the current run (``measure_latency``'s ``on_sample(index, ms)``)."""
        series = self._current_series()
        if warmup:
            series.warmup_ms.append(float(ms))
        else:
            if not 0 <= index < MAX_SAMPLES:  # no run takes more: padding up to it would never end
                log.warning("ignored a latency sample at index %d (a run takes at most %d)", index, MAX_SAMPLES)
                return
            # A gap (a dropped signal) is padded with NaN so later samples keep their index.
            series.pad_to(index)
            series.add(float(ms))
        self._schedule(self._current)

    @Slot(object)
    def add_sample_pairs(self, pairs: Iterable[tuple[int, float]]) -> None:
        """A batch of ``(index, ms)`` samples (the ModelWorker's throttled ``latencySamples``)."""
        for index, ms in pairs:
            self.add_sample(index, ms)

    def add_samples(self, first_index: int, values_ms: Sequence[float]) -> None:
        """A batch of consecutive samples (for a worker that throttles its signals)."""
        for offset, ms in enumerate(values_ms):
            self.add_sample(first_index + offset, ms)

    def finish_series(self, result: Any) -> SeriesKey:
        """A ``LatencyResult`` (the run's, or a report's entry: one type): exact samples, warm-ups and statistics.

        It adopts the run begun last (renamed to the result's device/dtype/mode if they
        differ, e.g. when the window could not know the dtype in advance).
        """
        key = (str(field_of(result, "device")), str(field_of(result, "dtype")), str(field_of(result, "mode", BenchMode.FORWARD.value)))
        series = self.series.pop(self._current) if self._current in self.series else Series(*key)
        if self._current is not None and self._current != key:
            self._drop_items(self._current)
        series.device, series.dtype, series.mode = key
        series.replace_samples(field_of(result, "samples_ms", ()) or ())
        series.warmup_ms = [float(v) for v in (field_of(result, "warmup_samples_ms", ()) or ())]
        if not series.warmup_ms and field_of(result, "warmup_ms") is not None:
            series.warmup_ms = [float(field_of(result, "warmup_ms"))]
        series.stats = {name: float(field_of(result, name)) for name in ("median_ms", "p5_ms", "p95_ms")
                        if field_of(result, name) is not None} or None  # fmt: skip
        if series.stats is not None and len(series.stats) < 3:
            series.stats = None  # an old/partial entry: recompute from the samples
        # The batch as the model says it (core.measure.batch_dim), never a guess from dimension 0.
        batch = field_of(result, "batch")
        series.batch = batch if isinstance(batch, int) and batch > 0 else None
        shape = field_of(result, "input_shape")
        series.input_shape = tuple(int(d) for d in shape) if isinstance(shape, (list, tuple)) else None
        series.noise = field_of(result, "noise") or None
        machine = field_of(result, "machine")  # (core.measure.machine_noise; absent from older reports)
        series.machine_note = field_of(machine, "note") if machine is not None and field_of(machine, "disturbed") else None
        runs = field_of(result, "runs_ms", ()) or ()
        series.runs_ms = tuple(tuple(float(v) for v in run) for run in runs) if len(runs) > 1 else ()
        series.status = ""
        self.series[key] = series
        self._current, self._replaced = None, None
        self.canvas.stream_ended()
        self._schedule(key)
        return key

    def abort_series(self, reason: str = "cancelled") -> None:
        """The current run stopped early: keep what was measured, labelled with ``reason``.

        It never takes the place of a finished run of the same device, dtype and mode: that
        run comes back (a stopped run's few samples are no measurement to keep over a whole
        one), as it does when the stopped run measured nothing (no empty legend entry).
        """
        key, replaced = self._current, self._replaced
        self._current, self._replaced = None, None
        self.canvas.stream_ended()
        if key is None or (series := self.series.get(key)) is None:
            return
        finished = replaced is not None and not replaced.status and replaced.summary() is not None
        if (len(series.samples) or series.warmup_ms) and not finished:
            series.status = reason
        elif replaced is not None:
            self.series[key] = replaced
        else:
            del self.series[key]
            self._drop_items(key)
            return
        self._schedule(key)

    def measuring_seconds(self) -> float:
        """The samples' own time of the run being measured (0 when none): what closing the
        window now would lose."""
        series = self.series.get(self._current) if self._current is not None else None
        if series is None or not len(series.samples):
            return 0.0
        return float(np.nansum(series.samples_ms)) / 1000.0

    def show_report(self, report: TimingReport) -> None:
        """Show a report's ``latency`` entries (each as ``finish_series`` would: a
        ``LatencyResult``, its figures its samples')."""
        self.clear()
        for entry in report.latency:
            self.finish_series(entry)
        self.redraw()

    @Slot()
    def clear(self) -> None:
        for key in list(self.series):
            self._drop_items(key)
        self.series.clear()
        self._current, self._replaced = None, None
        self._dirty.clear()
        self.canvas.stream_ended()  # (and the empty view's range)
        self.canvas.draw_summary([])
        self.set_top_modules("")

    def _drop_items(self, key: SeriesKey) -> None:
        self._colors.pop(key, None)
        self.canvas.drop(key)

    def _current_series(self) -> Series:
        if self._current is None or self._current not in self.series:
            # Samples without begin_series: collect them; finish_series names the run.
            return self.series[self.begin_series("?", "?", BenchMode.FORWARD.value)]
        return self.series[self._current]

    # ----- drawing

    def _schedule(self, key: SeriesKey | None) -> None:
        if key is not None:
            self._dirty.add(key)
        if not self._timer.isActive():
            self._timer.start()

    @Slot()
    def redraw(self, summary: bool = True) -> None:
        """Repaint the runs that changed, and the summary unless ``summary`` is False
        (the timer calls this for what is on screen; tests may call it too)."""
        if self._dirty:
            for key in self._dirty:
                if key in self.series:
                    self.canvas.draw_series(key, self.series[key], self._color(key))
            self._dirty.clear()
            self.canvas.refresh_range()
            self._summary_stale = True
        if summary and self._summary_stale:
            self._summary_stale = False
            rows = self._summary_rows()
            self.canvas.draw_summary(rows)
            self.verdictLabel.setText("\n".join(r["sentence"] for r in rows if r["sentence"]))
            self._show_modules_label()

    def _color(self, key: SeriesKey) -> QColor:
        if key not in self._colors:
            self._colors[key] = pick_series_color(key[0], self._colors.values())
        return self._colors[key]

    def _summary_rows(self, words: Words = LIVE) -> list[dict[str, Any]]:
        """The summary's bars, their verdicts and the sentences under them, in ``words``' language."""
        rows: list[dict[str, Any]] = []
        runs: list[Run] = []
        for key, s in self.series.items():
            stats = s.summary()
            if stats is None:
                continue
            label = run_label(key, s.status, words)
            rows.append({"key": key, "label": label, "color": self._color(key), "mode": key[2],
                         "batch": s.batch, **stats})  # fmt: skip
            samples = s.samples_ms
            runs.append(Run(label, key[1], key[2], s.input_shape, stats["median_ms"],
                            tuple(samples[np.isfinite(samples)].tolist()), runs_ms=s.runs_ms))  # fmt: skip
        say_core: Callable[[object], str] = str if words.english else core_text  # the verdicts in ``words``' language
        for row, run, verdict in zip(rows, runs, summary_verdicts(runs, [row["key"][0] for row in rows])):
            noise = self.series[row["key"]].noise
            # The bar's words: how it compares with alike runs, and a flag when it is noisy.
            short = say_core(verdict.short)
            row["verdict"] = fill(words.translate("LatencyPlot", "%1 · noisy"), short) if noise else short
            # The noise flag names the machine's part; a steady figure on a disturbed machine says it too.
            said = noise or self.series[row["key"]].machine_note
            noise_line = fill(words.translate("LatencyPlot", "%1: %2"), run.label, say_core(said)) if said else ""
            row["sentence"] = "\n".join(t for t in (*map(say_core, verdict.sentences), noise_line) if t)
        return rows

    def summary_rows(self) -> list[dict[str, Any]]:
        """What the summary view shows: per run ``label``, ``median_ms``, ``p5_ms``, ``p95_ms``."""
        return self.canvas.summary_rows

    def drawn(self, key: SeriesKey) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """The points on screen for one run: ``samples``, ``warmup`` and ``median`` as (x, y),
        y in ms whatever unit the axis shows; ``clipped``: the outliers' indices at the edge."""
        items = self.canvas.items[key]
        out = {}
        for name in ("samples", "warmup", "median"):
            x, y = getattr(items, name).getData()
            y = np.asarray(y if y is not None else [], dtype=float) * self.canvas.unit[1]
            out[name] = (np.asarray(x if x is not None else []), y)
        x, y = items.clipped.getData()
        out["clipped"] = (np.asarray(x), np.asarray(y, dtype=float) * self.canvas.unit[1])
        return out

    # ----- controls and hover

    def _log_toggled(self, on: bool) -> None:
        self.canvas.set_log_scale(on)

    def _samples_hovered(self, scene_pos: QPointF) -> None:
        view = self.samples_plot.getPlotItem().getViewBox()
        if not view.sceneBoundingRect().contains(scene_pos):
            return
        point = view.mapSceneToView(scene_pos)
        self._hovered = ("samples", point.x(), point.y())
        self._read_out()

    def _read_out(self) -> None:
        """The hover readout of the point last hovered (again, after a change of language)."""
        if self._hovered is None:
            return
        view, x, y = self._hovered
        self.readout.setText(self.readout_at(x, y) if view == "samples" else self.summary_readout_at(x))

    def readout_at(self, x: float, y: float) -> str:
        """The hover text for view coordinates (x, y): the sample nearest the pointer at
        index ``round(x)`` among the runs on screen, as "sample 37 · cpu · float32: 41.2 µs"."""
        shown = {key for key, items in self.canvas.items.items() if items.samples.isVisible()}
        return sample_readout(self.series, shown, x, y, self.canvas.unit, log_scale=self.canvas.log_scale)

    def _summary_hovered(self, scene_pos: QPointF) -> None:
        view = self.summary_plot.getPlotItem().getViewBox()
        if not view.sceneBoundingRect().contains(scene_pos):
            return
        self._hovered = ("summary", view.mapSceneToView(scene_pos).x(), 0.0)
        self._read_out()

    def summary_readout_at(self, x: float) -> str:
        """The hover text for the summary bar at ``x``: its figures and throughput."""
        return bar_readout(self.canvas.summary_rows, self.canvas.summary_unit, x)

    def render_png(self, width: int = 960, height: int = 480, view: str = "samples", *, english: bool = True) -> bytes:
        """One view (``"samples"`` or ``"summary"``) as a PNG of exactly ``width`` x ``height``.

        For a report file, so in English unless ``english`` is False (a report is shared with
        others and stays English whatever the window speaks): an offscreen twin draws it.
        """
        if view not in ("samples", "summary"):
            raise ValueError(f"view must be 'samples' or 'summary', not {view!r}")
        twin = LatencyCanvas(None, prefix="latencyExport", words=ENGLISH if english else LIVE, menus=False, label=run_label)
        try:
            for key, series in self.series.items():
                twin.draw_series(key, series, self._color(key))
            twin.log_scale = self.canvas.log_scale
            twin.samples_plot.getPlotItem().setLogMode(y=twin.log_scale)
            twin.refresh_range()
            twin.draw_summary(self._summary_rows(twin.words))
            plot = twin.samples_plot if view == "samples" else twin.summary_plot
            return png_bytes(plot.getPlotItem(), width, height)
        finally:
            twin.deleteLater()
