"""The action bar: move the model (``.to`` / ``.cuda`` / ``.cpu``), benchmark it, cancel.

A control that cannot act right now is disabled, and its tooltip says why. ``.cuda()`` stays
enabled on a machine without CUDA on purpose: pressing it shows what the tutorial warns
about, with the move engine's clear message instead of a crash.

Every text is marked for translation (context "ActionBar") and set again by ``retranslate``
on a change of language, the disabled reasons and the progress bar's idle text included.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QWidget,
)

from inspector.core.vocabulary import DEFAULT_RUNS, MAX_MEASURE_SECONDS, MAX_REPEAT, MAX_SAMPLES, BenchMode, DType
from inspector.gui.common.i18n import Retranslates, core_text, fill, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.steady_label import SteadyHeightLabel
from inspector.gui.features.moves.bar_reasons import ENABLED_TIPS, ActionState, disabled_reasons, enabled_tip

#: The combo boxes' choices: (shown text, data). The shown texts are translated where they are
#: shown (``translate("ActionBar", label)``); dtype names stay as PyTorch spells them, and the
#: data (a dtype, a ``BenchMode`` value) never changes with the language.
DTYPE_CHOICES: tuple[tuple[str, str | None], ...] = (
    (QT_TRANSLATE_NOOP("ActionBar", "keep dtype"), None), *((str(d), str(d)) for d in DType)
)
MODE_CHOICES = tuple((mode.label, str(mode)) for mode in BenchMode)
#: ``BenchMode.label`` of each mode, marked for translation (core has no Qt).
MODE_LABELS = (QT_TRANSLATE_NOOP("ActionBar", "forward"), QT_TRANSLATE_NOOP("ActionBar", "train step"))
#: The same cap as the CLI's --runs: the core keeps every sample of a measurement.
MAX_RUNS = MAX_SAMPLES
INPUT_TIP = QT_TRANSLATE_NOOP(
    "ActionBar",
    "The benchmark's input: a shape such as 1,3,224,224; several inputs separated by ';' "
    "(10,32,512; 20,32,512 for a Transformer's src and tgt), each with an optional :dtype "
    "(8,128:int64 for token ids). Empty: the model's own example input. Enter starts the benchmark.",
)
#: A text the bar shows: as it is, or a function that says it again in the language now
#: installed (then a change of language renders it again).
Words = str | Callable[[], str]
_INVALID_FIELD = "QLineEdit#inputShapeEdit { border: 2px solid #c62828; background: #fdecea; color: #5f2120; }"


class ActionBar(Retranslates, QWidget):
    """Two groups side by side: Move (target, dtype, pinned, three calls) and Measure; then Cancel."""

    #: Emitted after a change of language has set the bar's texts again: whoever adds to its
    #: tooltips (the move buttons' prices) says them again then.
    retranslated = Signal()

    #: Each control's tooltip while it is enabled (``bar_reasons``).
    ENABLED_TIPS = ENABLED_TIPS

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # What the bar shows, kept so a change of language can say it again.
        self._state: ActionState | None = None
        self._input_problem: str | None = None
        self._progress: Words = ""

        self.targetDeviceCombo = QComboBox(self)
        self.targetDeviceCombo.setObjectName("targetDeviceCombo")
        self.targetDeviceCombo.setMinimumContentsLength(8)
        self.targetDeviceCombo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.targetDeviceCombo.addItem("cpu", "cpu")

        self.dtypeCombo = QComboBox(self)
        self.dtypeCombo.setObjectName("dtypeCombo")
        for label, value in DTYPE_CHOICES:
            self.dtypeCombo.addItem(label, value)

        self.pinnedCheck = QCheckBox(self)
        self.pinnedCheck.setObjectName("pinnedCheck")

        self.toDeviceButton = self._button(".to(device)", "toDeviceButton")
        self.cudaButton = self._button(".cuda()", "cudaButton")
        self.cpuButton = self._button(".cpu()", "cpuButton")

        self.inputShapeEdit = QLineEdit(self)
        self.inputShapeEdit.setObjectName("inputShapeEdit")
        self.inputShapeEdit.setClearButtonEnabled(True)
        self.inputShapeEdit.setMinimumWidth(130)
        # Why the text in the field is not an input: shown under it, in words, while it is wrong.
        self.inputShapeProblem = QLabel(self)
        self.inputShapeProblem.setObjectName("inputShapeProblem")
        self.inputShapeProblem.setTextFormat(Qt.TextFormat.PlainText)
        self.inputShapeProblem.setWordWrap(True)
        self.inputShapeProblem.setStyleSheet("QLabel#inputShapeProblem { color: #b71c1c; }")
        self.inputShapeProblem.setVisible(False)

        self.modeCombo = QComboBox(self)
        self.modeCombo.setObjectName("modeCombo")
        for label, value in MODE_CHOICES:
            self.modeCombo.addItem(label, value)

        self.runsSpin = QSpinBox(self)
        self.runsSpin.setObjectName("runsSpin")
        self.runsSpin.setRange(1, MAX_RUNS)
        self.runsSpin.setValue(DEFAULT_RUNS)
        self.runsSpin.setGroupSeparatorShown(True)
        # Independent runs of the measurement (core.measure.repeats): taken one after another
        # in the measuring process; the report keeps each, so a comparison sees how runs differ.
        self.repeatSpin = QSpinBox(self)
        self.repeatSpin.setObjectName("repeatSpin")
        self.repeatSpin.setRange(1, MAX_REPEAT)
        self.repeatSpin.setValue(1)
        # "100 ×3": samples per run, times runs; no arrow buttons (typed, or the wheel and the
        # arrow keys), so the bar still fits a 1024-pixel screen.
        self.repeatSpin.setPrefix("×")
        self.repeatSpin.setButtonSymbols(QSpinBox.ButtonSymbols.NoButtons)
        self.repeatSpin.setAlignment(Qt.AlignmentFlag.AlignRight)

        self.perModuleCheck = QCheckBox(self)
        self.perModuleCheck.setObjectName("perModuleCheck")
        # Every run in a fresh process, none in the window's (core.measure.fresh_runs): a short
        # CPU call is as fast as the thread that runs it, and the window's own is one draw.
        self.freshProcessesCheck = QCheckBox(self)
        self.freshProcessesCheck.setObjectName("freshProcessesCheck")

        self.benchmarkButton = self._button("", "benchmarkButton")
        self.cancelButton = self._button("", "cancelButton")

        self.progressBar = _ElidedProgressBar(self)
        self.progressBar.setObjectName("progressBar")
        self.progressBar.setRange(0, 1000)
        self.progressBar.setValue(0)
        self.progressBar.setTextVisible(True)
        self.progressBar.setMinimumWidth(140)

        self.moveGroup = move = QGroupBox(self)
        self.targetLabel = QLabel(move)
        self.dtypeLabel = QLabel(move)
        grid = QGridLayout(move)
        grid.addWidget(self.targetLabel, 0, 0)
        grid.addWidget(self.targetDeviceCombo, 0, 1)
        grid.addWidget(self.dtypeLabel, 0, 2)
        grid.addWidget(self.dtypeCombo, 0, 3)
        grid.addWidget(self.pinnedCheck, 0, 4)
        buttons = QHBoxLayout()
        for button in (self.toDeviceButton, self.cudaButton, self.cpuButton):
            buttons.addWidget(button)
        grid.addLayout(buttons, 1, 0, 1, 5)
        # The transaction's price before a move: a cast holds the model and its copies.
        # Always one line tall, with or without a price: no text it says moves the window; a
        # longer price is cut at a word, whole in its tooltip (a second line took a tree row at
        # 1024x700 in Chinese, issue 45).
        self.movePriceLabel = SteadyHeightLabel(move, lines=1)
        self.movePriceLabel.setObjectName("movePriceLabel")
        self.movePriceLabel.setTextFormat(Qt.TextFormat.PlainText)  # warnings name classes from files
        self.movePriceLabel.setMaximumWidth(420)
        grid.addWidget(self.movePriceLabel, 2, 0, 1, 5)

        self.measureGroup = measure = QGroupBox(self)
        self.inputShapeLabel = QLabel(measure)
        self.modeLabel = QLabel(measure)
        self.runsLabel = QLabel(measure)
        runs = QHBoxLayout()
        runs.setContentsMargins(0, 0, 0, 0)
        runs.setSpacing(2)
        runs.addWidget(self.runsSpin, 1)
        runs.addWidget(self.repeatSpin)
        grid = QGridLayout(measure)
        grid.addWidget(self.inputShapeLabel, 0, 0)
        grid.addWidget(self.inputShapeEdit, 0, 1)
        grid.addWidget(self.modeLabel, 0, 2)
        grid.addWidget(self.modeCombo, 0, 3)
        grid.addWidget(self.runsLabel, 0, 4)
        grid.addLayout(runs, 0, 5)
        # "per module" sits under Mode rather than after Runs: a seventh column made the
        # window wider than a 1024-pixel screen.
        # The buttons as wide as their words, the progress text all the rest: at 1024 px it
        # was a 160-pixel box that cut "样本 3,567 / 20,000 · …" and "已写入 Net-timing-rep…".
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.benchmarkButton)
        row.addWidget(self.cancelButton)
        row.addWidget(self.perModuleCheck)
        row.addWidget(self.freshProcessesCheck)
        row.addWidget(self.progressBar, 1)
        grid.addLayout(row, 1, 0, 1, 6)
        grid.addWidget(self.inputShapeProblem, 2, 0, 1, 6)
        grid.setColumnStretch(1, 1)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(move)
        layout.addWidget(measure, 1)
        self._progress = _idle
        self._focus_before_busy: QWidget | None = None
        self.retranslate()

    def retranslate(self) -> None:
        """Set every text again in the language now installed (see ``Retranslates``)."""
        self.moveGroup.setTitle(translate("ActionBar", "Move the model"))
        self.targetLabel.setText(translate("ActionBar", "Target"))
        self.dtypeLabel.setText(translate("ActionBar", "dtype"))
        self.measureGroup.setTitle(translate("ActionBar", "Measure latency"))
        self.inputShapeLabel.setText(translate("ActionBar", "Input shape"))
        self.modeLabel.setText(translate("ActionBar", "Mode"))
        self.runsLabel.setText(translate("ActionBar", "Runs"))
        self.pinnedCheck.setText(translate("ActionBar", "pinned"))
        self.perModuleCheck.setText(translate("ActionBar", "per module"))
        self.benchmarkButton.setText(translate("ActionBar", "Benchmark"))
        self.cancelButton.setText(translate("ActionBar", "Cancel"))
        for index, (label, _value) in enumerate(DTYPE_CHOICES):
            self.dtypeCombo.setItemText(index, translate("ActionBar", label))
        for index, (label, _value) in enumerate(MODE_CHOICES):
            self.modeCombo.setItemText(index, translate("ActionBar", label))
        self.targetDeviceCombo.setToolTip(
            translate("ActionBar", "The device .to(device) moves to (selecting a row in the device table sets it)")
        )
        self.dtypeCombo.setToolTip(translate("ActionBar", "Cast floating-point tensors while moving (only .to() can cast)"))
        self.modeCombo.setToolTip(
            translate("ActionBar", "forward: inference only; train step: forward + backward + optimizer step on a copy")
        )
        self.runsSpin.setToolTip(fill(
            translate("ActionBar", "Timed samples after the warm-up (at most %1; a run stops after %2 s, "
                                   "with a note in the history)"),
            f"{MAX_RUNS:,}", f"{MAX_MEASURE_SECONDS:,g}",
        ))  # fmt: skip
        self.repeatSpin.setToolTip(translate(
            "ActionBar",
            "Independent runs of the measurement, one after another, each with its own warm-up: the report keeps "
            "each run, and comparing reports sees how much runs differ (bench --repeat takes each in a fresh process)",
        ))  # fmt: skip
        self.perModuleCheck.setToolTip(translate(
            "ActionBar",
            "After the plain measurement, time every module (hooks on each call, a second run): "
            "fills the Time, % of forward, Output shape and FLOPs columns of the model tree",
        ))  # fmt: skip
        self.freshProcessesCheck.setText(translate("ActionBar", "fresh processes"))
        self.freshProcessesCheck.setToolTip(translate(
            "ActionBar",
            "Take every run in a fresh process that loads the model again, moves it to this device and dtype and "
            "measures it, as bench does: a short call on the CPU is as fast as the thread that runs it, and the "
            "window's own threads stay out. Costs a process start and a load per run (about 3 s for the example) and "
            "the model's memory twice while a run loads it. Not for a remote session",
        ))  # fmt: skip
        self._show_input_problem()
        self.progressBar.setFormat(_say(self._progress))
        if self._state is not None:
            self.apply(self._state)
        else:
            for name in self.ENABLED_TIPS:
                getattr(self, name).setToolTip(enabled_tip(name))
        self.retranslated.emit()

    def _button(self, text: str, name: str) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName(name)
        return button

    # ----- state

    def apply(self, state: ActionState) -> None:
        # A control disabled while it has the focus hands it to the next one in the chain (the
        # input-shape field took it after every move, issue 35): the focus the bar had when
        # the work started goes back where it was when the work ends.
        was_idle = self._state is None or self._state.busy_task is None
        if was_idle and state.busy_task is not None:
            focused = QApplication.focusWidget()
            self._focus_before_busy = focused if focused is not None and self.isAncestorOf(focused) else None
        self._state = state
        for name, reason in disabled_reasons(state).items():
            control: QWidget = getattr(self, name)
            control.setEnabled(reason is None)
            control.setToolTip(enabled_tip(name) if reason is None else reason)
        editable = state.busy_task is None
        for widget in (self.targetDeviceCombo, self.dtypeCombo, self.modeCombo, self.runsSpin, self.repeatSpin,
                       self.freshProcessesCheck):  # fmt: skip
            widget.setEnabled(editable)
        before = self._focus_before_busy
        if editable and before is not None:
            self._focus_before_busy = None
            now = QApplication.focusWidget()
            # Unless the user has put the focus elsewhere meanwhile (outside the bar).
            if before.isEnabled() and now is not before and (now is None or self.isAncestorOf(now)):
                before.setFocus(Qt.FocusReason.OtherFocusReason)

    def fresh_processes(self) -> bool:
        """Whether the next benchmark takes its runs in fresh processes (hidden where the
        session cannot start them: ``SessionCapabilities.fresh_processes``)."""
        check = self.freshProcessesCheck
        return not check.isHidden() and check.isEnabled() and check.isChecked()

    def set_move_price(self, text: str, *, new_model: bool = False) -> None:
        """What ``.to(device)`` with the chosen target and dtype holds at its peak ("": none).
        The label is two lines tall whatever it says (``SteadyHeightLabel``); a longer price
        is cut at a word, the tooltip has all of it. (``new_model``: kept for callers.)"""
        self.movePriceLabel.setText(text)
        self.movePriceLabel.setToolTip(text)

    def set_devices(self, device_ids: list[str], preferred: str | None = None) -> None:
        current = self.target_device()
        with QSignalBlocker(self.targetDeviceCombo):  # refilling is not the user choosing
            self.targetDeviceCombo.clear()
            for ident in device_ids:
                self.targetDeviceCombo.addItem(ident, ident)
        choice = current if current in device_ids and current != "cpu" else preferred
        self.set_target_device(choice or (device_ids[0] if device_ids else "cpu"))

    def set_target_device(self, device: str) -> None:
        index = self.targetDeviceCombo.findData(device)
        if index >= 0:
            self.targetDeviceCombo.setCurrentIndex(index)

    def target_device(self) -> str:
        return str(self.targetDeviceCombo.currentData() or "cpu")

    def dtype(self) -> str | None:
        data = self.dtypeCombo.currentData()
        return None if data is None else str(data)

    def pinned(self) -> bool:
        """Whether a move should pin: ticked, and offered for this target and model."""
        return self.pinnedCheck.isChecked() and self.pinnedCheck.isEnabled()

    def set_dtype(self, dtype: str | None) -> None:
        self.dtypeCombo.setCurrentIndex(max(0, self.dtypeCombo.findData(dtype)))

    def mode(self) -> str:
        return str(self.modeCombo.currentData())

    def input_shape_text(self) -> str:
        return self.inputShapeEdit.text().strip()

    def show_input_problem(self, problem: str | None) -> None:
        """Mark the input field as wrong (red, with the reason under it), or as fine.
        ``problem`` may be core's text (``core_text`` says it in the window's language)."""
        self._input_problem = problem
        self._show_input_problem()

    def _show_input_problem(self) -> None:
        problem = core_text(self._input_problem) if self._input_problem is not None else None
        wrong = problem is not None
        if self.inputShapeEdit.property("invalid") != wrong:
            self.inputShapeEdit.setProperty("invalid", wrong)
            self.inputShapeEdit.setStyleSheet(_INVALID_FIELD if wrong else "")
        self.inputShapeProblem.setText(problem or "")
        self.inputShapeProblem.setVisible(wrong)
        tip = translate("ActionBar", INPUT_TIP)
        self.inputShapeEdit.setToolTip(f"{problem}\n\n{tip}" if wrong else tip)

    def show_progress(self, fraction: float | None, text: Words) -> None:
        """``fraction`` None: busy without a measure of progress (a load). ``text``: a string,
        or a function that says it again when the language changes."""
        if fraction is None:
            self.progressBar.setRange(0, 0)
        else:
            self.progressBar.set_determinate(round(1000 * fraction))
        self._progress = text
        self.progressBar.setFormat(_say(text))

    def show_idle(self, text: Words | None = None) -> None:
        """The bar at rest, saying ``text`` (a string, or a function that says it again when
        the language changes); None: "idle"."""
        self.progressBar.set_determinate(0)
        self._progress = text if text is not None else _idle
        self.progressBar.setFormat(_say(self._progress))


def _say(words: Words) -> str:
    return words() if callable(words) else words


def _idle() -> str:
    return translate("ActionBar", "idle")


class _ElidedProgressBar(QProgressBar):
    """A progress bar whose text ends in "…" where it would be cut (a fit's verdicts, a
    noisy median at 1024 px); the tooltip has all of it."""

    def setFormat(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setFormat(text)
        self.setToolTip(text)

    def set_determinate(self, value: int) -> None:
        """Range 0-1000 at ``value``, and a busy spell's animation stopped. Qt's Fusion style
        stops it only when it draws a bar above its minimum: a bar back at rest at 0 after a
        load went on repainting itself ~60 times a second while the window sat idle. One draw
        at 1 into a throwaway pixmap stops it; nothing on screen changes."""
        was_busy = self.maximum() == 0
        self.setRange(0, 1000)
        if was_busy and value <= 0 and self.isVisible():
            self.setValue(1)
            self.render(QPixmap(self.size()))
        self.setValue(value)

    def text(self) -> str:
        full = super().text()
        room = self.width() - 6  # the frame
        return self.fontMetrics().elidedText(full, Qt.TextElideMode.ElideRight, max(room, 0)) if room > 0 else full
