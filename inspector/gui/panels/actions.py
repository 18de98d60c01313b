"""The action bar: move the model (``.to`` / ``.cuda`` / ``.cpu``), benchmark it, cancel.

A control that cannot act right now is disabled, and its tooltip says why. ``.cuda()`` stays
enabled on a machine without CUDA on purpose: pressing it shows what the tutorial warns
about, with the move engine's clear message instead of a crash.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
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

from inspector.core.vocabulary import DEFAULT_RUNS, MAX_MEASURE_SECONDS, MAX_SAMPLES, BenchMode, DType

DTYPE_CHOICES: tuple[tuple[str, str | None], ...] = (("keep dtype", None), *((str(d), str(d)) for d in DType))
MODE_CHOICES = tuple((mode.label, str(mode)) for mode in BenchMode)
#: The same cap as the CLI's --runs: the core keeps every sample of a measurement.
MAX_RUNS = MAX_SAMPLES
INPUT_TIP = (
    "The benchmark's input: a shape such as 1,3,224,224; several inputs separated by ';' "
    "(10,32,512; 20,32,512 for a Transformer's src and tgt), each with an optional :dtype "
    "(8,128:int64 for token ids). Empty: the model's own example input. Enter starts the benchmark."
)
_INVALID_FIELD = "QLineEdit#inputShapeEdit { border: 2px solid #c62828; background: #fdecea; color: #5f2120; }"


@dataclass(frozen=True)
class ActionState:
    """What the window knows that decides which buttons can act."""

    busy_task: str | None = None  # "load" | "move" | "benchmark" | "export"
    has_model: bool = False
    #: Why a benchmark cannot run now (no input, a bad shape, a split model); None if it can.
    benchmark_blocker: str | None = None
    #: Why a pinned move makes no sense now (see ``pinned_blocker``); None if it does.
    pinned_blocker: str | None = None


def pinned_blocker(target: str, model_devices: Sequence[str]) -> str | None:
    """Why the "pinned" option cannot apply to a move to ``target`` of a model whose tensors
    are on ``model_devices``; None when it can (a CUDA target, some tensors on the host).

    The move engine pins only for host -> CUDA copies (anywhere else it would ignore the
    option with a note), so the window does not offer it there.
    """
    kind = target.split(":", 1)[0]
    if kind == "cpu":
        return "pinning only speeds host-to-GPU copies; no GPU is the target"
    if kind != "cuda":
        return f"pinning only speeds host-to-CUDA copies; the target is {target}"
    if model_devices and "cpu" not in model_devices:
        return f"pinning only speeds host-to-GPU copies; the model is already on {', '.join(model_devices)}"
    return None


_BUSY_WORDS = {
    "load": "a model is loading",
    "move": "a move is running",
    "benchmark": "a benchmark is running",
    "export": "the report is being written",
    "report": "the report is being built",
    "train step": "a training step is running",
}


def disabled_reasons(state: ActionState) -> dict[str, str | None]:
    """For each control, why it is disabled (None: enabled). Kept pure so tests can read it."""
    if state.busy_task is not None:
        busy = f"Not now: {_BUSY_WORDS.get(state.busy_task, state.busy_task)}"
        cancellable = state.busy_task in ("move", "benchmark")
        if cancellable:
            busy += " (Cancel stops it)"
        reasons = {name: busy for name in ("toDeviceButton", "cudaButton", "cpuButton", "benchmarkButton", "pinnedCheck")}
        reasons["cancelButton"] = None if cancellable else f"{_BUSY_WORDS.get(state.busy_task, 'this')} cannot be cancelled"
        return reasons
    no_model = None if state.has_model else "No model is loaded (File › Open model…)"
    return {
        "toDeviceButton": no_model,
        "cudaButton": no_model,
        "cpuButton": no_model,
        "benchmarkButton": no_model or state.benchmark_blocker,
        "pinnedCheck": no_model or state.pinned_blocker,
        "cancelButton": "Nothing to cancel: no move or benchmark is running",
    }


class ActionBar(QWidget):
    """Two groups side by side: Move (target, dtype, pinned, three calls) and Measure; then Cancel."""

    ENABLED_TIPS = {
        "toDeviceButton": "model.to(device, dtype): works on every machine when device falls back to the CPU",
        "cudaButton": "model.cuda(): needs a CUDA GPU; on a machine without one you will see why .to(device) is preferred",
        "cpuButton": "model.cpu(): bring every tensor back to the CPU",
        "benchmarkButton": "Time the model on its current device (warm-up first; every sample kept)",
        "cancelButton": "Stop the running move (it rolls back) or benchmark (between samples)",
        "pinnedCheck": (
            "Pin the host tensors (page-locked memory) and copy with non_blocking=True, for .to(device) "
            "and .cuda(): compare the GB/s with an unpinned move to see whether pinning pays here"
        ),
    }

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.targetDeviceCombo = QComboBox(self)
        self.targetDeviceCombo.setObjectName("targetDeviceCombo")
        self.targetDeviceCombo.setToolTip("The device .to(device) moves to (selecting a row in the device table sets it)")
        self.targetDeviceCombo.setMinimumContentsLength(8)
        self.targetDeviceCombo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.targetDeviceCombo.addItem("cpu", "cpu")

        self.dtypeCombo = QComboBox(self)
        self.dtypeCombo.setObjectName("dtypeCombo")
        self.dtypeCombo.setToolTip("Cast floating-point tensors while moving (only .to() can cast)")
        for label, value in DTYPE_CHOICES:
            self.dtypeCombo.addItem(label, value)

        self.pinnedCheck = QCheckBox("pinned", self)
        self.pinnedCheck.setObjectName("pinnedCheck")

        self.toDeviceButton = self._button(".to(device)", "toDeviceButton")
        self.cudaButton = self._button(".cuda()", "cudaButton")
        self.cpuButton = self._button(".cpu()", "cpuButton")

        self.inputShapeEdit = QLineEdit(self)
        self.inputShapeEdit.setObjectName("inputShapeEdit")
        self.inputShapeEdit.setClearButtonEnabled(True)
        self.inputShapeEdit.setToolTip(INPUT_TIP)
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
        self.modeCombo.setToolTip("forward: inference only; train step: forward + backward + optimizer step on a copy")
        for label, value in MODE_CHOICES:
            self.modeCombo.addItem(label, value)

        self.runsSpin = QSpinBox(self)
        self.runsSpin.setObjectName("runsSpin")
        self.runsSpin.setRange(1, MAX_RUNS)
        self.runsSpin.setValue(DEFAULT_RUNS)
        self.runsSpin.setToolTip(
            f"Timed samples after the warm-up (at most {MAX_RUNS:,}; a run stops after "
            f"{MAX_MEASURE_SECONDS:,g} s, with a note in the history)"
        )
        self.runsSpin.setGroupSeparatorShown(True)

        self.perModuleCheck = QCheckBox("per module", self)
        self.perModuleCheck.setObjectName("perModuleCheck")
        self.perModuleCheck.setToolTip(
            "After the plain measurement, time every module (hooks on each call, a second run): "
            "fills the Time, % of forward, Output shape and FLOPs columns of the model tree"
        )

        self.benchmarkButton = self._button("Benchmark", "benchmarkButton")
        self.cancelButton = self._button("Cancel", "cancelButton")

        self.progressBar = _ElidedProgressBar(self)
        self.progressBar.setObjectName("progressBar")
        self.progressBar.setRange(0, 1000)
        self.progressBar.setValue(0)
        self.progressBar.setTextVisible(True)
        self.progressBar.setFormat("idle")
        self.progressBar.setMinimumWidth(140)

        move = QGroupBox("Move the model", self)
        grid = QGridLayout(move)
        grid.addWidget(QLabel("Target"), 0, 0)
        grid.addWidget(self.targetDeviceCombo, 0, 1)
        grid.addWidget(QLabel("dtype"), 0, 2)
        grid.addWidget(self.dtypeCombo, 0, 3)
        grid.addWidget(self.pinnedCheck, 0, 4)
        buttons = QHBoxLayout()
        for button in (self.toDeviceButton, self.cudaButton, self.cpuButton):
            buttons.addWidget(button)
        grid.addLayout(buttons, 1, 0, 1, 5)
        # The transaction's price before a move: a cast holds the model and its copies.
        self.movePriceLabel = QLabel(move)
        self.movePriceLabel.setObjectName("movePriceLabel")
        self.movePriceLabel.setTextFormat(Qt.TextFormat.PlainText)  # warnings name classes from files
        self.movePriceLabel.setWordWrap(True)
        self.movePriceLabel.setMaximumWidth(420)
        self.movePriceLabel.hide()
        grid.addWidget(self.movePriceLabel, 2, 0, 1, 5)

        measure = QGroupBox("Measure latency", self)
        grid = QGridLayout(measure)
        grid.addWidget(QLabel("Input shape"), 0, 0)
        grid.addWidget(self.inputShapeEdit, 0, 1)
        grid.addWidget(QLabel("Mode"), 0, 2)
        grid.addWidget(self.modeCombo, 0, 3)
        grid.addWidget(QLabel("Runs"), 0, 4)
        grid.addWidget(self.runsSpin, 0, 5)
        # "per module" sits under Mode rather than after Runs: a seventh column made the
        # window wider than a 1024-pixel screen.
        grid.addWidget(self.benchmarkButton, 1, 0, 1, 2)
        grid.addWidget(self.cancelButton, 1, 2, 1, 1)
        grid.addWidget(self.perModuleCheck, 1, 3, 1, 1)
        grid.addWidget(self.progressBar, 1, 4, 1, 2)
        grid.addWidget(self.inputShapeProblem, 2, 0, 1, 6)
        grid.setColumnStretch(1, 1)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(move)
        layout.addWidget(measure, 1)

    def _button(self, text: str, name: str) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName(name)
        return button

    # ----- state

    def apply(self, state: ActionState) -> None:
        for name, reason in disabled_reasons(state).items():
            control: QWidget = getattr(self, name)
            control.setEnabled(reason is None)
            control.setToolTip(self.ENABLED_TIPS[name] if reason is None else reason)
        editable = state.busy_task is None
        for widget in (self.targetDeviceCombo, self.dtypeCombo, self.modeCombo, self.runsSpin):
            widget.setEnabled(editable)

    def set_move_price(self, text: str) -> None:
        """What ``.to(device)`` with the chosen target and dtype holds at its peak ("": hidden)."""
        self.movePriceLabel.setText(text)
        self.movePriceLabel.setToolTip(text)
        self.movePriceLabel.setVisible(bool(text))

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
        return self.targetDeviceCombo.currentData() or "cpu"

    def dtype(self) -> str | None:
        return self.dtypeCombo.currentData()

    def pinned(self) -> bool:
        """Whether a move should pin: ticked, and offered for this target and model."""
        return self.pinnedCheck.isChecked() and self.pinnedCheck.isEnabled()

    def set_dtype(self, dtype: str | None) -> None:
        self.dtypeCombo.setCurrentIndex(max(0, self.dtypeCombo.findData(dtype)))

    def mode(self) -> str:
        return self.modeCombo.currentData()

    def input_shape_text(self) -> str:
        return self.inputShapeEdit.text().strip()

    def show_input_problem(self, problem: str | None) -> None:
        """Mark the input field as wrong (red, with the reason under it), or as fine."""
        wrong = problem is not None
        if self.inputShapeEdit.property("invalid") != wrong:
            self.inputShapeEdit.setProperty("invalid", wrong)
            self.inputShapeEdit.setStyleSheet(_INVALID_FIELD if wrong else "")
        self.inputShapeProblem.setText(problem or "")
        self.inputShapeProblem.setVisible(wrong)
        self.inputShapeEdit.setToolTip(f"{problem}\n\n{INPUT_TIP}" if wrong else INPUT_TIP)

    def show_progress(self, fraction: float | None, text: str) -> None:
        """``fraction`` None: busy without a measure of progress (a load)."""
        if fraction is None:
            self.progressBar.setRange(0, 0)
        else:
            self.progressBar.setRange(0, 1000)
            self.progressBar.setValue(round(1000 * fraction))
        self.progressBar.setFormat(text)

    def show_idle(self, text: str = "idle") -> None:
        self.progressBar.setRange(0, 1000)
        self.progressBar.setValue(0)
        self.progressBar.setFormat(text)


class _ElidedProgressBar(QProgressBar):
    """A progress bar whose text ends in "…" where it would be cut (a fit's verdicts, a
    noisy median at 1024 px); the tooltip has all of it."""

    def setFormat(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setFormat(text)
        self.setToolTip(text)

    def text(self) -> str:
        full = super().text()
        room = self.width() - 6  # the frame
        return self.fontMetrics().elidedText(full, Qt.TextElideMode.ElideRight, max(room, 0)) if room > 0 else full
