""""Will it fit?": one step's memory on every device of the machine, and on a GPU the user
names (a preset, or a capacity), estimated, then proven where the device is here.

It only collects the question and shows the answers (the model worker, the model's sole owner,
runs the estimate and the proof; non-modal). "A GPU I name…" adds a row planned with the device's
rules and allowances (``core.measure.fit_devices``); "Largest batch" asks each row for the largest
batch that fits (``fit_batch``). Texts: "FitDialog", core's through ``core_text`` (``retranslate``).
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
    QGridLayout,
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

from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.core.errors import InputError
from inspector.core.measure import OPTIMIZERS, FitRequest, parse_capacity, presets
from inspector.core.files import parse_inputs
from inspector.core.units import format_bytes
from inspector.gui.common.i18n import Retranslates, core_text, fill, translate
from inspector.gui.common.screen_fit import fit_dialog, fit_height_to_contents, fit_table_to_rows
from inspector.gui.features.fit.cells import _MODES, _OPTIMIZER_LABELS, _outcome_text, answer_cells, shown_name
from inspector.gui.features.fit.cluster import ClusterChoice, drop_rank_rows, insert_rank_rows, plan_notes, shrink_table_to_screen
from inspector.gui.features.fit.step_choices import StepChoices

COLUMNS = (
    QT_TRANSLATE_NOOP("FitDialog", "Device"),
    QT_TRANSLATE_NOOP("FitDialog", "Input"),
    QT_TRANSLATE_NOOP("FitDialog", "Parameters"),
    QT_TRANSLATE_NOOP("FitDialog", "Gradients"),
    QT_TRANSLATE_NOOP("FitDialog", "Optimizer state"),
    QT_TRANSLATE_NOOP("FitDialog", "Activations"),
    QT_TRANSLATE_NOOP("FitDialog", "Estimated peak"),
    QT_TRANSLATE_NOOP("FitDialog", "Free"),
    QT_TRANSLATE_NOOP("FitDialog", "Fits"),
    QT_TRANSLATE_NOOP("FitDialog", "Margin"),
    QT_TRANSLATE_NOOP("FitDialog", "Measured peak"),
    QT_TRANSLATE_NOOP("FitDialog", "Measured / estimated"),
    QT_TRANSLATE_NOOP("FitDialog", "Largest batch"),
)
#: The "a GPU I name…" choices besides the presets: none, or a capacity typed in.
_NO_GPU = QT_TRANSLATE_NOOP("FitDialog", "no GPU named")
_CAPACITY = QT_TRANSLATE_NOOP("FitDialog", "a capacity…")
#: The choices (shown text, data): the texts translated where shown, dtype names as they are.
_DTYPES = (
    (QT_TRANSLATE_NOOP("FitDialog", "model's dtype"), None),
    ("float32", "float32"), ("bfloat16", "bfloat16"), ("float16", "float16"), ("float64", "float64"),
)  # fmt: skip
_FITS = QColor("#2e7d32")
_DOES_NOT_FIT = QColor("#c62828")


class FitDialog(Retranslates, QDialog):
    """Asks one question for every device listed; ``requested`` carries the FitRequests."""

    requested = Signal(object)  # tuple[FitRequest, ...]
    cancelRequested = Signal()  # Cancel pressed, or the dialog closed while its estimate runs

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fitDialog")
        self._devices: list[str] = ["cpu"]
        self._asking = False  # our estimate is running on the worker
        # What the dialog says, kept so a change of language can say it again: the status
        # ("hint", "estimating", "cancelling", "outcome", "failure") with its subject, and
        # the answers shown.
        self._status: tuple[str, Any] = ("hint", None)
        self._outcome: Any = None
        self._named_key: str | None = None  # the named device's row, while one is asked about
        self._named_shown = ""  # what that row is called ("RTX 4090, planned")

        self.namedCombo = QComboBox(self)
        self.namedCombo.setObjectName("fitNamedCombo")
        self.namedCombo.addItem(_NO_GPU, None)
        for preset in presets():
            self.namedCombo.addItem(preset.name, preset.name)
        self.namedCombo.addItem(_CAPACITY, "capacity")
        self.capacityEdit = QLineEdit(self)
        self.capacityEdit.setObjectName("fitCapacityEdit")
        self.capacityEdit.setEnabled(False)
        self.namedCombo.currentIndexChanged.connect(self._named_changed)

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
        self.measureCheck = QCheckBox(self)
        self.measureCheck.setObjectName("fitMeasureCheck")
        self.measureCheck.setChecked(True)
        self.step = StepChoices(self)  # the loop kept, the KV cache kept (fit --keep-output, --use-cache)
        self.estimateButton = QPushButton(self)
        self.estimateButton.setObjectName("fitEstimateButton")
        self.estimateButton.setDefault(True)
        self.estimateButton.clicked.connect(self.ask)
        self.maxBatchButton = QPushButton(self)
        self.maxBatchButton.setObjectName("fitMaxBatchButton")
        self.maxBatchButton.clicked.connect(self.ask_largest_batch)
        self.cancelButton = QPushButton(self)
        self.cancelButton.setObjectName("fitCancelButton")
        self.cancelButton.setEnabled(False)
        self.cancelButton.clicked.connect(self.cancel)

        self.cluster = ClusterChoice(self)  # GPUs (ranks) and the strategy: a distributed run's plan per row
        self.form_labels = [QLabel(self) for _ in range(5)]
        form = QGridLayout()  # two choices a row: the answer under them gets the height (issue 45)
        for i, field in enumerate((self.dtypeCombo, self.optimizerCombo, self.modeCombo, self.inputEdit)):
            form.addWidget(self.form_labels[i], i // 2, 2 * (i % 2))
            form.addWidget(field, i // 2, 2 * (i % 2) + 1)
        named = QHBoxLayout()
        named.addWidget(self.namedCombo)
        named.addWidget(self.capacityEdit, 1)
        form.addWidget(self.form_labels[4], 2, 0)
        form.addLayout(named, 2, 1)
        form.addWidget(self.cluster.label, 2, 2)  # two to a row, as the others: no height taken from the answer
        form.addWidget(self.cluster, 2, 3)
        form.setColumnStretch(1, 1)
        form.setColumnStretch(3, 1)
        row = QHBoxLayout()
        row.addWidget(self.measureCheck)
        row.addWidget(self.step)
        row.addStretch(1)
        row.addWidget(self.estimateButton)
        row.addWidget(self.maxBatchButton)
        row.addWidget(self.cancelButton)

        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("fitTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setAlternatingRowColors(True)

        self.status = QLabel(self)
        self.status.setObjectName("fitStatus")
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # model-supplied text stays text
        self.status.setWordWrap(True)
        self.notes = QLabel(self)
        self.notes.setObjectName("fitNotes")
        self.notes.setTextFormat(Qt.TextFormat.PlainText)
        self.notes.setWordWrap(True)
        # (secondary, a size smaller: every note within a 700-pixel screen in Chinese too, issue 45)
        self.notes.setStyleSheet(f"color: #5c6475; font-size: {self.notes.font().pointSizeF() * 0.9:.1f}pt;")

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        row.addWidget(buttons)  # beside the question's buttons: a row less above the answer

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(4)
        layout.addLayout(form)
        layout.addLayout(row)
        layout.addWidget(self.table)  # as tall as its rows (``_fit_to_answer``): nothing scrolls
        layout.addWidget(self.status)
        layout.addWidget(self.notes)
        self.resize(1120, 380)
        self.set_devices(self._devices)
        self.retranslate()
        fit_dialog(self, parent)  # narrower on a small screen: the table scrolls
        self._fit_to_answer()

    def retranslate(self) -> None:
        """Every text again in the language now installed, the answers shown included."""
        self.setWindowTitle(translate("FitDialog", "Will it fit?"))
        for index, (label, _value) in enumerate(_DTYPES):
            self.dtypeCombo.setItemText(index, translate("FitDialog", label))
        for index in range(self.optimizerCombo.count()):
            name = self.optimizerCombo.itemData(index)
            self.optimizerCombo.setItemText(index, translate("FitDialog", _OPTIMIZER_LABELS.get(name, name)))
        for index, (label, _value) in enumerate(_MODES):
            self.modeCombo.setItemText(index, translate("FitDialog", label))
        self.inputEdit.setPlaceholderText(translate("FitDialog", "the model's example input"))
        self.inputEdit.setToolTip(translate(
            "FitDialog", "e.g. 1,3,224,224; several inputs separated by ';', each may name a dtype (8,128:int64)"
        ))  # fmt: skip
        self.measureCheck.setText(translate("FitDialog", "prove it: run one real step where it fits"))
        self.estimateButton.setText(translate("FitDialog", "Estimate"))
        self.maxBatchButton.setText(translate("FitDialog", "Largest batch"))
        self.maxBatchButton.setToolTip(translate(
            "FitDialog", "The largest batch (the input's first dimension) that fits on each device whose memory is "
                         "known, found by steps traced on fake tensors"
        ))  # fmt: skip
        self.namedCombo.setItemText(0, translate("FitDialog", _NO_GPU))
        self.namedCombo.setItemText(self.namedCombo.count() - 1, translate("FitDialog", _CAPACITY))
        self.namedCombo.setToolTip(translate(
            "FitDialog", "Plan for a GPU you don't have: its memory from the presets, CUDA's allocator rules, and "
                         "stated allowances for the CUDA context and cuBLAS"
        ))  # fmt: skip
        self.capacityEdit.setPlaceholderText(translate("FitDialog", "e.g. 24GiB or 80GB"))
        self.cancelButton.setText(translate("FitDialog", "Cancel"))
        self.cancelButton.setToolTip(
            translate("FitDialog", "Stop the estimate or the proof now (the model is never touched)")
        )
        words = (translate("FitDialog", "dtype"), translate("FitDialog", "Optimizer"), translate("FitDialog", "Step"),
                 translate("FitDialog", "Input shape"), translate("FitDialog", "A GPU I name"))  # fmt: skip
        for form_label, text in zip(self.form_labels, words):
            form_label.setText(text)
        self.cluster.retranslate()
        self.step.retranslate()
        self.table.setHorizontalHeaderLabels([translate("FitDialog", c) for c in COLUMNS])
        if self._outcome is not None:
            self._show_rows(self._outcome)
        self._show_status()
        self._fit_to_answer()  # (the words' height and the notes' lines change with the language)

    # ----- the question

    def set_devices(self, devices: list[str]) -> None:
        """The machine's devices, one row each (answers arrive later)."""
        self._present = list(devices) or ["cpu"]
        self._devices = list(self._present)
        self._named_key = None  # its row goes with the others; the next question makes it again
        self._outcome = None  # its rows are cleared: a change of language keeps them so
        self.table.setRowCount(len(self._devices))
        for row, device in enumerate(self._devices):
            self._set_row(row, [device] + ["" for _ in COLUMNS[1:]])

    def set_input_shape(self, text: str) -> None:
        """Follow the window's input field, unless the user typed another input here since."""
        pushed = getattr(self, "_pushed_input", "")
        if not self.inputEdit.text() or self.inputEdit.text() == pushed:
            self.inputEdit.setText(text)
        self._pushed_input = text

    def requests(self, *, max_batch: bool = False) -> tuple[Any, ...]:
        """One request per device of the machine, and one for the GPU named, if any (each a
        ``ClusterRequest`` when more GPUs are asked); raises InputError for an input shape or a
        capacity that is not one."""
        text = self.inputEdit.text().strip()
        inputs = parse_inputs(text) if text else None
        asked = dict(
            dtype=self.dtypeCombo.currentData(), optimizer=self.optimizerCombo.currentData(),
            mode=self.modeCombo.currentData(), inputs=inputs, measure=self.measureCheck.isChecked(),
            max_batch=max_batch, **self.step.asked(),
        )  # fmt: skip
        requests = [self.cluster.wrap(FitRequest(device=device, **asked)) for device in self._present]
        named = self.named_request(asked)
        self._show_named_row(named)
        if named is not None:
            requests.append(self.cluster.wrap(named))
        return tuple(requests)

    def named_request(self, asked: dict[str, Any]) -> FitRequest | None:
        """The request for the GPU named in "a GPU I name…" (None when none is)."""
        choice = self.namedCombo.currentData()
        if choice is None:
            return None
        if choice == "capacity":
            capacity = parse_capacity(self.capacityEdit.text().strip() or "0")
            return FitRequest(device="cuda:0", capacity=capacity, **asked)
        kind = next(p.kind for p in presets() if p.name == choice)
        return FitRequest(device="cuda:0" if kind == "cuda" else kind, gpu=choice, **asked)

    def _named_changed(self) -> None:
        self.capacityEdit.setEnabled(self.namedCombo.currentData() == "capacity")

    def _show_named_row(self, request: FitRequest | None) -> None:
        """The named device's row (its key is what the answer's ``row_name`` will be)."""
        if self._named_key is not None and self._named_key in self._devices:
            row = self._devices.index(self._named_key)
            self._devices.pop(row)
            self.table.removeRow(row)
        self._named_key = None
        if request is not None:
            label = request.gpu if request.capacity is None else format_bytes(request.capacity)
            self._named_key = f"{label} ({request.device})"  # the row's key; shown as planned, never as cuda:0
            self._named_shown = fill(translate("FitDialog", "%1, planned"), label)
            self._set_row(self._row_of(self._named_key), [self._named_shown] + ["" for _ in COLUMNS[1:]])

    def ask(self) -> None:
        self._ask(max_batch=False)

    def ask_largest_batch(self) -> None:
        self._ask(max_batch=True)

    def _ask(self, *, max_batch: bool) -> None:
        try:
            requests = self.requests(max_batch=max_batch)
        except InputError as exc:
            self.show_failure(exc.message)
            return
        drop_rank_rows(self._devices, self.table)  # the last plan's ranks; this answer brings its own
        self._say("searching" if max_batch else "estimating")
        self.estimateButton.setEnabled(False)
        self._set_asking(True)
        self.requested.emit(requests)

    def cancel(self) -> None:
        if self._asking:
            self._say("cancelling")
            self.cancelRequested.emit()

    def set_busy(self, busy: bool) -> None:
        self.estimateButton.setEnabled(not busy)
        self.maxBatchButton.setEnabled(not busy)
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
        self.maxBatchButton.setEnabled(True)
        self._set_asking(False)
        self._outcome = outcome
        self._show_rows(outcome)
        self._say("outcome", outcome)

    def _show_rows(self, outcome: Any) -> None:
        """The answers in their rows, and the findings under the table."""
        notes: list[str] = []
        for result in outcome.results:
            row = self._row_of(getattr(result, "row_name", result.device))
            name = shown_name(result)
            self._set_row(row, answer_cells(result))
            self._colour_verdict(row, result.fits)
            for at, cells in insert_rank_rows(self._devices, self.table, row, result, len(COLUMNS)):
                self._set_row(at, cells)  # a plan's ranks, under its device's row
            built = getattr(result, "model_class", None)  # the class planned (a config may name none)
            if built:
                notes.append(fill(translate("FitDialog", "%1: planned as %2"), name, built))
            # A named device's capacity, rules and allowances first: what its verdict rests on.
            capacity = getattr(result, "capacity_source", None)
            told = (*((capacity,) if capacity else ()), *getattr(result, "rules", ()), *getattr(result, "allowances", ()),
                    *result.notes)  # fmt: skip
            notes += plan_notes(result) + [fill(translate("FitDialog", "%1: %2"), name, core_text(n)) for n in told]
            search = getattr(result, "batch_search", None)
            if search is not None:
                notes.append(fill(translate("FitDialog", "%1: largest batch %2, found in %3 traced steps"),
                                  name, str(search.batch), str(search.steps)))  # fmt: skip
            if result.measured_reason:  # how the peak was read (CPU: the process's RSS), or why not
                notes.append(fill(translate("FitDialog", "%1: measured peak — %2"),
                                  name, core_text(result.measured_reason)))  # fmt: skip
            if getattr(result, "measured_gap", None):  # over 15 % apart: what the estimate misses
                notes.append(fill(translate("FitDialog", "%1: %2"), name, core_text(result.measured_gap)))
        for device, failure in outcome.failures:
            # A failure is keyed by the request's device: the named device's, unless the machine has it too.
            named = self._named_key is not None and device not in self._present and self._named_key.endswith(f"({device})")
            row = self._row_of(self._named_key if named and self._named_key is not None else device)
            failed = fill(translate("FitDialog", "failed: %1"), core_text(failure.message))
            self._set_row(row, [self._named_shown if named else device, failed] + ["" for _ in COLUMNS[2:]])
        self.notes.setText("\n".join(dict.fromkeys(notes)))
        self._fit_to_answer()

    def _fit_to_answer(self) -> None:
        """Every row and note shown, within the screen (issue 45: 1½ rows showed, notes overlapped)."""
        fit_table_to_rows(self.table)
        fit_height_to_contents(self)
        shrink_table_to_screen(self, self.table)

    def show_failure(self, message: str) -> None:
        """Say ``message`` (core's, or the window's) in the status line."""
        self.estimateButton.setEnabled(True)
        self.maxBatchButton.setEnabled(True)
        self._set_asking(False)
        self._say("failure", message)

    def _say(self, what: str, subject: Any = None) -> None:
        self._status = (what, subject)
        self._show_status()

    def _show_status(self) -> None:
        what, subject = self._status
        style = ""
        if what == "estimating":
            text = translate("FitDialog", "Estimating…")
        elif what == "searching":
            text = translate("FitDialog", "Searching for the largest batch: one traced step per batch tried…")
        elif what == "cancelling":
            text = translate("FitDialog", "Cancelling…")
        elif what == "outcome":
            text = _outcome_text(subject)
        elif what == "failure":
            text = core_text(subject)
            # A cancel is the user's own doing, not an error: plain text for it (core's
            # messages are English underneath, whatever the window shows).
            style = "" if str(subject).startswith("cancelled") else "color: #c62828;"
        else:
            text = translate("FitDialog", "Choose the step, then Estimate: nothing is allocated for the estimate.")
        self.status.setText(text)
        self.status.setStyleSheet(style)

    def _row_of(self, device: str) -> int:
        if device not in self._devices:
            self._devices.append(device)
            self.table.setRowCount(len(self._devices))
            self._fit_to_answer()
        return self._devices.index(device)

    def _set_row(self, row: int, cells: list[str]) -> None:
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if column > 0:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, column, item)

    def _colour_verdict(self, row: int, fits: bool | None) -> None:
        item = self.table.item(row, COLUMNS.index(QT_TRANSLATE_NOOP("FitDialog", "Fits")))
        if item is not None and fits is not None:
            item.setForeground(_FITS if fits else _DOES_NOT_FIT)
            font = item.font()
            font.setBold(True)
            item.setFont(font)

