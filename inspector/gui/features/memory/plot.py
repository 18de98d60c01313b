"""The memory plot: every device's memory over time, one curve per device and figure, with
markers for the moves and benchmarks that ran.

``MemoryPlot`` reads a ``MemoryTimeline`` (the window's: the sampler fills it, the report
reads it) and repaints from a single-shot QTimer on the GUI thread at a few frames per
second, never once per reading.

Its texts follow the window's language (``retranslate``); the image ``render_png`` draws for
a report file stays English (``words.ENGLISH``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Iterable

from PySide6.QtCore import QPointF, Qt, QTimer, Slot
from PySide6.QtGui import QAction, QShowEvent
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.core.devices import MemoryReading
from inspector.core.measure import MemoryTimeline, report_point
from inspector.core.placement import KINDS
from inspector.core.units import format_bytes
from inspector.gui.common.named import named
from inspector.gui.common.i18n import Retranslates, fill, translate
from inspector.gui.features.memory.canvas import REPORT_LINE_WIDTH, Marker, MemoryCanvas, figure_label
from inspector.gui.common.plot_render import DEFAULT_REDRAW_FPS, png_bytes
from inspector.gui.common.plot_words import ENGLISH, LIVE

if TYPE_CHECKING:
    from inspector.core.report import TimingReport

#: An hour at 20 Hz (the sampler's fastest rate), two hours at the default 10 Hz.
MEMORY_CAPACITY = 20 * 3600
#: The memory plot's "Show" choices: label -> seconds of history (None: the whole timeline).
MEMORY_WINDOWS = (
    (QT_TRANSLATE_NOOP("MemoryPlot", "Whole timeline"), None),
    (QT_TRANSLATE_NOOP("MemoryPlot", "Last 30 s"), 30.0),
    (QT_TRANSLATE_NOOP("MemoryPlot", "Last 5 min"), 300.0),
)
#: The model's kinds of tensors (``tensor_rows.KINDS``) as the hover readout names them.
KIND_WORDS = {
    "parameter": QT_TRANSLATE_NOOP("MemoryPlot", "parameter"),
    "buffer": QT_TRANSLATE_NOOP("MemoryPlot", "buffer"),
    "grad": QT_TRANSLATE_NOOP("MemoryPlot", "grad"),
    "optimizer_state": QT_TRANSLATE_NOOP("MemoryPlot", "optimizer state"),
}

#: The canvas's least height: 150 px of drawing area over its axis and legend.
MIN_PLOT_HEIGHT = 180

class MemoryPlot(Retranslates, QWidget):
    """Memory of every device over time: one curve per device and figure, with markers.

    ``add_readings`` only stores (O(1) per reading, in ``timeline``'s ring buffers); a
    timer on the GUI thread repaints at ``redraw_fps``. Pausing freezes the picture while
    readings keep being recorded, so the report's memory timeline stays complete.
    """

    def __init__(self, parent: QWidget | None = None, *, timeline: MemoryTimeline | None = None,
                 redraw_fps: float = DEFAULT_REDRAW_FPS) -> None:  # fmt: skip
        super().__init__(parent)
        self.setObjectName("memoryPlot")
        self.timeline = timeline if timeline is not None else MemoryTimeline(capacity=MEMORY_CAPACITY)
        self.markers: list[Marker] = []
        self._paused = False
        self._window: float | None = None
        self._dirty = False

        self.canvas = MemoryCanvas(self)
        # 150 px to draw in at the window's least size (its minimum height grows to give it, issue 45)
        self.canvas.setMinimumHeight(MIN_PLOT_HEIGHT)
        self.pause_button = named(QToolButton(self), "memoryPauseButton")
        self.pause_button.setCheckable(True)
        self.pause_button.toggled.connect(self.set_paused)
        self.clear_button = named(QToolButton(self), "memoryClearButton")
        self.clear_button.clicked.connect(self.clear)
        self.window_combo = named(QComboBox(self), "memoryWindowCombo")
        for text, seconds in MEMORY_WINDOWS:
            self.window_combo.addItem(text, seconds)
        self.window_combo.currentIndexChanged.connect(self._window_changed)
        self.secondary_check = named(QCheckBox(self), "memorySecondaryCheck")
        self.secondary_check.toggled.connect(self._secondary_toggled)
        self.show_label = QLabel(self)
        self.readout = named(QLabel(self), "memoryReadout")
        self.readout.setTextFormat(Qt.TextFormat.PlainText)
        self._hovered_t: float | None = None  # the time the readout reads out
        self.canvas.scene().sigMouseMoved.connect(self._hovered)
        self._build_layout()
        self._add_menu_actions()
        self.retranslate()

        # Single-shot: the first reading after a quiet spell schedules one redraw; readings
        # that arrive before it fires ride along (at most redraw_fps repaints per second).
        self._timer = QTimer(self, singleShot=True, interval=max(1, round(1000 / redraw_fps)))
        self._timer.timeout.connect(self._timer_fired)

    def _timer_fired(self) -> None:
        # Behind another tab nothing is painted: draw when shown instead (showEvent).
        if self.isVisible():
            self.redraw()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._dirty:
            self.redraw()

    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.pause_button)
        bar.addWidget(self.clear_button)
        bar.addSpacing(12)
        bar.addWidget(self.show_label)
        bar.addWidget(self.window_combo)
        bar.addSpacing(12)
        bar.addWidget(self.secondary_check)
        bar.addSpacing(12)
        bar.addWidget(self.readout, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(bar)
        layout.addWidget(self.canvas, 1)

    def _add_menu_actions(self) -> None:
        menu = self.canvas.getPlotItem().getViewBox().menu
        menu.addSeparator()
        self.pause_action = QAction(self, checkable=True)
        self.pause_action.toggled.connect(self.pause_button.setChecked)
        self.clear_action = QAction(self)
        self.clear_action.triggered.connect(self.clear)
        menu.addAction(self.pause_action)
        menu.addAction(self.clear_action)

    def retranslate(self) -> None:
        """Every text again in the language now installed: controls, axes, legend, readout."""
        self.pause_button.setToolTip(translate("MemoryPlot", "Freeze the picture; readings are still recorded"))
        self.clear_button.setText(translate("MemoryPlot", "Clear"))
        self.clear_button.setToolTip(translate("MemoryPlot", "Forget every reading and marker and start the clock again"))
        for index in range(self.window_combo.count()):
            self.window_combo.setItemText(index, _window_text(self.window_combo.itemData(index)))
        self.secondary_check.setText(translate("MemoryPlot", "Process RSS && machine"))
        self.secondary_check.setToolTip(translate(
            "MemoryPlot",
            "Also draw this process's resident memory (RSS: mostly torch itself) and the whole "
            "machine's used memory. Neither is the model's; off by default without an accelerator.",
        ))  # fmt: skip
        self.show_label.setText(translate("MemoryPlot", "Show:"))
        self.pause_action.setText(translate("MemoryPlot", "Pause memory plot"))
        self.clear_action.setText(translate("MemoryPlot", "Clear memory plot"))
        self._update_pause_text()
        self.canvas.retranslate()
        if self._hovered_t is not None:
            self.readout.setText(self.readout_at(self._hovered_t))

    # ----- data in

    @Slot(object)
    def add_readings(self, readings: Iterable[MemoryReading]) -> None:
        """Store readings (a tuple of ``MemoryReading``, as the sampler emits); repaint soon."""
        self.timeline.add(readings)
        self._schedule()

    @Slot()
    @Slot(object)
    def schedule_redraw(self, _readings: object = None) -> None:
        """Repaint soon, without storing: for readings already in a shared ``timeline``
        (the window's MemorySampler adds to the timeline itself before it emits them)."""
        self._schedule()

    def mark(self, label: str, t: float | None = None) -> float:
        """A labelled vertical line at ``t`` (a ``time.time()`` stamp; None = now). Returns ``t``."""
        t = time.time() if t is None else float(t)
        self._add_marker(Marker(label, t))
        return t

    def mark_span(self, label: str, start: float, end: float | None = None) -> None:
        """A shaded span from ``start`` to ``end`` (``time.time()`` stamps; end None = now)."""
        end = time.time() if end is None else float(end)
        self._add_marker(Marker(label, float(start), max(end, float(start))))

    def end_mark(self, start: float, label: str | None = None, end: float | None = None) -> None:
        """Turn the line ``mark`` drew at ``start`` into a span up to ``end`` (None = now),
        relabelled with ``label`` if given: a task shows a line while it runs, a span after.
        Without such a line (e.g. after a clear) the span is simply added."""
        for index in range(len(self.markers) - 1, -1, -1):
            marker = self.markers[index]
            if marker.end is None and marker.start == start:
                del self.markers[index]
                self.canvas.remove_marker(index)
                label = marker.label if label is None else label
                break
        self.mark_span(label if label is not None else "", start, end)

    def _add_marker(self, marker: Marker) -> None:
        self.markers.append(marker)
        self.canvas.add_marker(marker, self.timeline.t0, len(self.markers) - 1)

    def show_report(self, report: TimingReport) -> None:
        """Show a report's ``memory`` section (``{device: [{t, allocated, ...}]}``, as its file holds it) instead.

        The plot switches to a timeline of its own, so a timeline it shared with the window
        (the session's record) is left as it was; show reports in a second MemoryPlot.
        """
        self.timeline = MemoryTimeline(capacity=max(self.timeline.capacity, MEMORY_CAPACITY))
        self.markers.clear()
        self.canvas.clear_all()
        t0 = self.timeline.t0
        data = report.data  # the readings as written (``report_point`` reads old and new names)
        for device, points in (data.get("memory") or {}).items():
            readings = []
            for raw in points:
                p = report_point(str(device), raw)  # the CPU's RSS, by its new name or its old
                rss_or_allocated = p["process_rss"] if device == "cpu" else p["allocated"]
                readings.append(MemoryReading(str(device), t0 + float(p.get("t") or 0.0), rss_or_allocated,
                                              p["reserved"], p["used"], p["total"], p["other_processes"]))  # fmt: skip
            self.timeline.add(readings)
        self.timeline.add_model_report(data.get("model_memory"))
        self.redraw()

    # ----- controls

    @property
    def paused(self) -> bool:
        return self._paused

    @Slot(bool)
    def set_paused(self, paused: bool) -> None:
        self._paused = bool(paused)
        for control in (self.pause_button, self.pause_action):
            if control.isChecked() != self._paused:
                control.setChecked(self._paused)
        self._update_pause_text()
        if not self._paused:
            self.redraw()  # catch up with what was recorded meanwhile
        elif self._window is not None:
            # Following draws only the tail; a paused picture gets it all, to pan back through.
            self.canvas.draw(self.timeline)

    def pause(self) -> None:
        self.set_paused(True)

    def resume(self) -> None:
        self.set_paused(False)

    def _update_pause_text(self) -> None:
        if self._paused:
            self.pause_button.setText(translate("MemoryPlot", "Resume"))
        else:
            self.pause_button.setText(translate("MemoryPlot", "Pause"))

    @Slot()
    def clear(self) -> None:
        """Forget every reading and marker; the clock starts again at 0 s.

        A timeline shared with the window is cleared too, so the report's memory section
        starts afresh as well: what the user cleared is gone.
        """
        self.timeline.clear()
        self.markers.clear()
        self.canvas.clear_all()
        self._dirty = False

    def _secondary_toggled(self, on: bool) -> None:
        self.canvas.set_secondary_visible(on)
        self.redraw()

    def _sync_secondary_check(self) -> None:
        shown = bool(self.canvas.show_secondary)
        if self.secondary_check.isChecked() != shown:
            self.secondary_check.blockSignals(True)
            self.secondary_check.setChecked(shown)
            self.secondary_check.blockSignals(False)

    def _hovered(self, scene_pos: QPointF) -> None:
        view = self.canvas.getPlotItem().getViewBox()
        if view.sceneBoundingRect().contains(scene_pos):
            self._hovered_t = view.mapSceneToView(scene_pos).x()
            self.readout.setText(self.readout_at(self._hovered_t))

    def readout_at(self, t: float) -> str:
        """The hover text at ``t`` seconds: every curve on screen's value there, the model's
        split into its kinds ("t 12.3 s · model on cpu 1.2 MiB (parameter 1.0 MiB, ...)")."""
        parts = [f"t {t:.1f} s"]
        model = self.timeline.model_at(t)
        for (device, figure), curve in self.canvas.curves.items():
            if not curve.isVisible():
                continue
            value = self.canvas.value_at((device, figure), t)
            if value is None:
                continue
            text = f"{figure_label(device, figure, LIVE)} {format_bytes(value)}"
            if figure == "model" and model is not None:
                kinds = model.by_device.get(device, {})
                split = ", ".join(f"{_kind_text(k)} {format_bytes(kinds[k])}" for k in KINDS if kinds.get(k))
                text += f" ({split})" if split else ""
            parts.append(text)
        return " · ".join(parts) if len(parts) > 1 else ""

    def _window_changed(self, index: int) -> None:
        self._window = self.window_combo.itemData(index)
        if self._window is None:
            self.canvas.getPlotItem().enableAutoRange()
        self.redraw()

    def set_window(self, seconds: float | None) -> None:
        """Follow the last ``seconds`` of the timeline (None: show all of it)."""
        index = self.window_combo.findData(seconds)
        if index < 0:
            self.window_combo.addItem(_window_text(seconds), seconds)
            index = self.window_combo.count() - 1
        self.window_combo.setCurrentIndex(index)

    # ----- drawing

    @property
    def unit(self) -> str:
        """The unit the y axis shows (``MiB``, ``GiB``, ...), picked from the largest value."""
        return self.canvas.unit[0]

    def _schedule(self) -> None:
        self._dirty = True
        if not self._paused and not self._timer.isActive():
            self._timer.start()

    @Slot()
    def redraw(self) -> None:
        """Repaint from the timeline now (the timer calls this; tests may too)."""
        if self._paused:
            return
        self._dirty = False
        latest = self.canvas.draw(self.timeline, self._window)
        self._sync_secondary_check()
        if self._window is not None:
            view = self.canvas.getPlotItem().getViewBox()
            view.setXRange(max(0.0, latest - self._window), max(latest, self._window), padding=0)
            view.setAutoVisible(y=True)
            view.enableAutoRange(axis="y")

    def render_png(self, width: int = 960, height: int = 480, *, english: bool = True) -> bytes:
        """The whole timeline and its markers as a PNG of exactly ``width`` x ``height``.

        For a report file, so its axes and legend are English unless ``english`` is False (a
        report is shared with others and stays English whatever the window speaks).

        Every figure of every device is drawn, whatever the window shows: the live plot's
        choices (its "Process RSS & machine" box, off by default without an accelerator, and
        the legend entries clicked away) are how one person looks now, and a report's reader
        cannot click them back. On a CPU-only machine the process's RSS is the only reading
        there is; hidden, a report's memory plot was empty."""
        twin = MemoryCanvas(None, name="memoryPlotExport", words=ENGLISH if english else LIVE,
                            line_width=REPORT_LINE_WIDTH)  # fmt: skip
        try:
            twin.show_secondary = True  # a fresh twin: nothing the window hid is hidden here
            twin.draw(self.timeline)
            for number, marker in enumerate(self.markers):
                twin.add_marker(marker, self.timeline.t0, number)
            return png_bytes(twin.getPlotItem(), width, height)
        finally:
            twin.deleteLater()


def _window_text(seconds: float | None) -> str:
    """A "Show" choice's text: one of ``MEMORY_WINDOWS``, or the last ``seconds``."""
    for text, choice in MEMORY_WINDOWS:
        if choice == seconds:
            return translate("MemoryPlot", text)
    return fill(translate("MemoryPlot", "Last %1 s"), f"{seconds:g}")


def _kind_text(kind: str) -> str:
    return translate("MemoryPlot", KIND_WORDS[kind]) if kind in KIND_WORDS else kind.replace("_", " ")
