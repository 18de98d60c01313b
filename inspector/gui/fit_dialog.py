""""Will it fit?": one step's memory on every device of the machine, estimated, then proven.

The dialog only collects the question and shows the answers: the estimate and the proof
run on the model worker (the sole owner of the model), which the window asks on the
dialog's behalf. Non-modal, so the window stays usable while it is open.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.core.errors import InputError
from inspector.core.measure.fit import OPTIMIZERS, FitRequest
from inspector.core.files.inputs import parse_inputs
from inspector.core.units import format_bytes

COLUMNS = (
    "Device", "Parameters", "Gradients", "Optimizer state", "Activations", "Estimated peak",
    "Free", "Fits", "Margin", "Measured peak", "Measured / estimated",
)  # fmt: skip
_DTYPES = (("model's dtype", None), ("float32", "float32"), ("bfloat16", "bfloat16"), ("float16", "float16"), ("float64", "float64"))
_MODES = (("train step", "train-step"), ("forward", "forward"))
_FITS = QColor("#2e7d32")
_DOES_NOT_FIT = QColor("#c62828")


class FitDialog(QDialog):
    """Asks one question for every device listed; ``requested`` carries the FitRequests."""

    requested = Signal(object)  # tuple[FitRequest, ...]
    cancelRequested = Signal()  # Cancel pressed, or the dialog closed while its estimate runs

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fitDialog")
        self.setWindowTitle("Will it fit?")
        self._devices: list[str] = ["cpu"]
        self._asking = False  # our estimate is running on the worker

        self.dtypeCombo = QComboBox(self)
        self.dtypeCombo.setObjectName("fitDtypeCombo")
        for label, value in _DTYPES:
            self.dtypeCombo.addItem(label, value)
        self.optimizerCombo = QComboBox(self)
        self.optimizerCombo.setObjectName("fitOptimizerCombo")
        for name in OPTIMIZERS:
            self.optimizerCombo.addItem(name, name)
        self.optimizerCombo.setCurrentIndex(OPTIMIZERS.index("adam"))
        self.modeCombo = QComboBox(self)
        self.modeCombo.setObjectName("fitModeCombo")
        for label, value in _MODES:
            self.modeCombo.addItem(label, value)
        self.inputEdit = QLineEdit(self)
        self.inputEdit.setObjectName("fitInputEdit")
        self.inputEdit.setPlaceholderText("the model's example input")
        self.inputEdit.setToolTip("e.g. 1,3,224,224; several inputs separated by ';', each may name a dtype (8,128:int64)")
        self.measureCheck = QCheckBox("prove it: run one real step where it fits", self)
        self.measureCheck.setObjectName("fitMeasureCheck")
        self.measureCheck.setChecked(True)
        self.estimateButton = QPushButton("Estimate", self)
        self.estimateButton.setObjectName("fitEstimateButton")
        self.estimateButton.setDefault(True)
        self.estimateButton.clicked.connect(self.ask)
        self.cancelButton = QPushButton("Cancel", self)
        self.cancelButton.setObjectName("fitCancelButton")
        self.cancelButton.setToolTip("Stop the estimate or the proof now (the model is never touched)")
        self.cancelButton.setEnabled(False)
        self.cancelButton.clicked.connect(self.cancel)

        form = QFormLayout()
        form.addRow("dtype", self.dtypeCombo)
        form.addRow("Optimizer", self.optimizerCombo)
        form.addRow("Step", self.modeCombo)
        form.addRow("Input shape", self.inputEdit)
        row = QHBoxLayout()
        row.addWidget(self.measureCheck)
        row.addStretch(1)
        row.addWidget(self.estimateButton)
        row.addWidget(self.cancelButton)

        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("fitTable")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setAlternatingRowColors(True)

        self.status = QLabel("Choose the step, then Estimate: nothing is allocated for the estimate.", self)
        self.status.setObjectName("fitStatus")
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # model-supplied text stays text
        self.status.setWordWrap(True)
        self.notes = QLabel(self)
        self.notes.setObjectName("fitNotes")
        self.notes.setTextFormat(Qt.TextFormat.PlainText)
        self.notes.setWordWrap(True)
        self.notes.setStyleSheet("color: #5c6475;")

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.notes)
        layout.addWidget(buttons)
        self.resize(1120, 380)
        self.set_devices(self._devices)

    # ----- the question

    def set_devices(self, devices: list[str]) -> None:
        """The machine's devices, one row each (answers arrive later)."""
        self._devices = list(devices) or ["cpu"]
        self.table.setRowCount(len(self._devices))
        for row, device in enumerate(self._devices):
            self._set_row(row, [device] + ["" for _ in COLUMNS[1:]])

    def set_input_shape(self, text: str) -> None:
        """Follow the window's input field, unless the user typed another input here since."""
        pushed = getattr(self, "_pushed_input", "")
        if not self.inputEdit.text() or self.inputEdit.text() == pushed:
            self.inputEdit.setText(text)
        self._pushed_input = text

    def requests(self) -> tuple[FitRequest, ...]:
        """One request per device; raises InputError for an input shape that is not one."""
        text = self.inputEdit.text().strip()
        inputs = parse_inputs(text) if text else None
        return tuple(
            FitRequest(
                device=device,
                dtype=self.dtypeCombo.currentData(),
                optimizer=self.optimizerCombo.currentData(),
                mode=self.modeCombo.currentData(),
                inputs=inputs,
                measure=self.measureCheck.isChecked(),
            )
            for device in self._devices
        )

    def ask(self) -> None:
        try:
            requests = self.requests()
        except InputError as exc:
            self.show_failure(exc.message)
            return
        self.status.setText("Estimating…")
        self.status.setStyleSheet("")
        self.estimateButton.setEnabled(False)
        self._set_asking(True)
        self.requested.emit(requests)

    def cancel(self) -> None:
        if self._asking:
            self.status.setText("Cancelling…")
            self.cancelRequested.emit()

    def set_busy(self, busy: bool) -> None:
        self.estimateButton.setEnabled(not busy)
        if not busy:
            self._set_asking(False)

    def _set_asking(self, asking: bool) -> None:
        self._asking = asking
        self.cancelButton.setEnabled(asking)

    def closeEvent(self, event: Any) -> None:  # noqa: N802 -- Qt's name
        self.cancel()  # closing the dialog abandons its question
        super().closeEvent(event)

    # ----- the answers

    def show_outcome(self, outcome: Any) -> None:
        """A ``workers.FitOutcome``: each device's answer in its row, failures by name."""
        self.estimateButton.setEnabled(True)
        self._set_asking(False)
        notes: list[str] = []
        for result in outcome.results:
            row = self._row_of(result.device)
            self._set_row(row, _cells(result))
            self._colour_verdict(row, result.fits)
            notes += [f"{result.device}: {n}" for n in result.notes]
            if result.measured_peak_bytes is None and result.measured_reason:
                notes.append(f"{result.device}: measured peak — {result.measured_reason}")
        for device, failure in outcome.failures:
            row = self._row_of(device)
            self._set_row(row, [device, f"failed: {failure.message}"] + ["" for _ in COLUMNS[2:]])
        first = outcome.results[0] if outcome.results else None
        if first is not None:
            shapes = ", ".join("x".join(map(str, s)) for s in first.input_shapes) or "no input"
            self.status.setText(
                f"One {first.mode} in {first.dtype} with optimizer {first.optimizer}, input {shapes}: "
                f"estimated without allocating (FakeTensorMode + MemTracker) in {outcome.seconds:.2f} s."
            )
        else:
            self.status.setText("No device could be estimated.")
        self.status.setStyleSheet("")
        self.notes.setText("\n".join(dict.fromkeys(notes)))

    def show_failure(self, message: str) -> None:
        self.estimateButton.setEnabled(True)
        self._set_asking(False)
        self.status.setText(message)
        # A cancel is the user's own doing, not an error: plain text for it.
        self.status.setStyleSheet("" if message.startswith("cancelled") else "color: #c62828;")

    def _row_of(self, device: str) -> int:
        if device not in self._devices:
            self._devices.append(device)
            self.table.setRowCount(len(self._devices))
        return self._devices.index(device)

    def _set_row(self, row: int, cells: list[str]) -> None:
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if column > 0:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, column, item)

    def _colour_verdict(self, row: int, fits: bool | None) -> None:
        item = self.table.item(row, COLUMNS.index("Fits"))
        if item is not None and fits is not None:
            item.setForeground(_FITS if fits else _DOES_NOT_FIT)
            font = item.font()
            font.setBold(True)
            item.setFont(font)


def _cells(result: Any) -> list[str]:
    if result.fits is None:
        verdict = "unknown"
    else:
        verdict = "yes" if result.fits else "NO"
    margin = "—"
    if result.margin_bytes is not None:
        margin = ("" if result.margin_bytes >= 0 else "−") + format_bytes(abs(result.margin_bytes))
    ratio = f"{result.ratio:.3f}" if result.ratio is not None else "—"
    return [
        result.device,
        format_bytes(result.parameters_bytes),
        format_bytes(result.gradients_bytes),
        format_bytes(result.optimizer_state_bytes),
        format_bytes(result.activations_bytes),
        format_bytes(result.estimated_peak_bytes),
        format_bytes(result.free_bytes),
        verdict,
        margin,
        format_bytes(result.measured_peak_bytes),
        ratio,
    ]
