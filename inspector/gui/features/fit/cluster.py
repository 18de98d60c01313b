""""Will it fit?" for a distributed run (issue 48): the GPU count and the strategy asked, each
row's request made a ``ClusterRequest`` (``core.measure.fit_cluster``), and a plan's rank rows
under its device's row: each CPU rank's measured peak beside the plan where the proof ran (on
the model worker, as the single-card proof runs: cancellable, the window never waits), else one
row for every rank. Texts: context "FitDialog"."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSpinBox, QTableWidget, QWidget

from inspector.core.measure import ClusterRequest, FitRequest
from inspector.core.units import format_bytes
from inspector.gui.common.i18n import Retranslates, core_text, fill, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.screen_fit import MARGIN, fit_height_to_contents

#: The strategies (shown text, the CLI's name).
STRATEGIES = (
    (QT_TRANSLATE_NOOP("FitDialog", "DDP: a replica per rank"), "ddp"),
    (QT_TRANSLATE_NOOP("FitDialog", "FSDP2: sharded"), "fsdp"),
    (QT_TRANSLATE_NOOP("FitDialog", "HSDP: sharded per node"), "fsdp-hybrid"),
)
#: The most GPUs asked for here (``fit --min-gpus`` searches as far).
MOST_GPUS = 4096
#: What a window manager's title bar takes above a dialog (the screen's room is for its frame).
TITLE_BAR = 32
#: A rank row's key starts so: never a device's id, so set_devices and a new question find them.
RANK_KEY = "\x00rank "


class ClusterChoice(Retranslates, QWidget):
    """"GPUs (ranks)": 1 asks about one device, as before; more plans that many ranks with the strategy."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(parent)
        self.gpusSpin = QSpinBox(self)
        self.gpusSpin.setObjectName("fitGpusSpin")
        self.gpusSpin.setRange(1, MOST_GPUS)
        self.strategyCombo = QComboBox(self)
        self.strategyCombo.setObjectName("fitStrategyCombo")
        for label, value in STRATEGIES:
            self.strategyCombo.addItem(label, value)
        self.strategyCombo.setCurrentIndex(1)  # FSDP, fit's default
        self.gpusSpin.valueChanged.connect(self._count_changed)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.gpusSpin)
        row.addWidget(self.strategyCombo, 1)
        self._count_changed()
        self.retranslate()

    def retranslate(self) -> None:
        self.label.setText(translate("FitDialog", "GPUs (ranks)"))
        self.gpusSpin.setToolTip(translate(
            "FitDialog", "1: one device. More: what each rank of a torch.distributed run holds, planned per device "
                         "row; on the CPU, proven on that many CPU ranks (gloo) when the proof is asked"
        ))  # fmt: skip
        for index, (label, _value) in enumerate(STRATEGIES):
            self.strategyCombo.setItemText(index, translate("FitDialog", label))

    def _count_changed(self) -> None:
        self.strategyCombo.setEnabled(self.gpusSpin.value() > 1)

    def wrap(self, request: FitRequest) -> FitRequest | ClusterRequest:
        """``request`` as one rank's of the run asked for; itself for one GPU."""
        if self.gpusSpin.value() <= 1:
            return request
        return ClusterRequest(fit=request, gpus=self.gpusSpin.value(), strategy=str(self.strategyCombo.currentData()))


def insert_rank_rows(devices: list[str], table: QTableWidget, row: int, result: Any, columns: int) -> list[tuple[int, list[str]]]:
    """A plan's rows, inserted under its device's ``row`` (each rank measured, else one for every
    rank): (their rows, their cells). Cells: the rank, its planned peak under Estimated peak,
    its reading under Measured peak."""
    plan = getattr(result, "cluster", None)
    if plan is None:
        return []
    key = f"{RANK_KEY}{result.row_name} "

    def cells(name: str, planned: int, measured: str, ratio: str) -> list[str]:
        shown = [""] * columns
        shown[0], shown[6], shown[10], shown[11] = name, format_bytes(planned), measured, ratio
        return shown

    if not plan.ranks:
        every = fill(translate("FitDialog", "  every rank of %1"), str(plan.gpus))
        rows = [(key + "each", cells(every, result.estimated_peak_bytes, "—", "—"))]
    else:
        rows = [(key + str(r.rank), cells(fill(translate("FitDialog", "  rank %1"), str(r.rank)), r.planned_peak_bytes,
                                          format_bytes(r.measured_peak_bytes), f"{r.ratio:.3f}" if r.ratio is not None else "—"))
                for r in plan.ranks]  # fmt: skip
    placed = []
    for offset, (name, shown) in enumerate(rows, start=1):
        if name in devices:  # (the same answer shown again: a change of language)
            placed.append((devices.index(name), shown))
            continue
        devices.insert(row + offset, name)
        table.insertRow(row + offset)
        placed.append((row + offset, shown))
    return placed


def plan_notes(result: Any) -> list[str]:
    """A plan's layout notes (DDP's buckets, FSDP2's blocks, what NCCL adds), named by the run,
    so the rows planned alike say them once."""
    plan = getattr(result, "cluster", None)
    if plan is None:
        return []
    run = fill(translate("FitDialog", "%1 ranks (%2)"), str(plan.gpus), plan.strategy)
    return [fill(translate("FitDialog", "%1: %2"), run, core_text(n)) for n in plan.notes]


def drop_rank_rows(devices: list[str], table: QTableWidget) -> None:
    """The last answer's rank rows gone (a new question makes its own)."""
    for row in reversed(range(len(devices))):
        if devices[row].startswith(RANK_KEY):
            devices.pop(row)
            table.removeRow(row)


def shrink_table_to_screen(dialog: QWidget, table: QTableWidget) -> None:
    """Where the rows and the notes together are taller than the screen, the table gives up
    rows (it scrolls, two rows kept) so that no note is cut; then the dialog fits again."""
    layout, screen = dialog.layout(), dialog.screen()
    if layout is None or screen is None:
        return
    room = screen.availableGeometry().height() - 2 * MARGIN - TITLE_BAR
    need = layout.totalHeightForWidth(dialog.width()) if layout.hasHeightForWidth() else layout.totalSizeHint().height()
    scroll = table.horizontalScrollBar()
    least = (table.horizontalHeader().height() + 2 * table.verticalHeader().defaultSectionSize() + 2 * table.frameWidth()
             + (scroll.sizeHint().height() if scroll.maximum() > 0 else 0))  # fmt: skip
    if need > room and table.height() > least:
        table.setFixedHeight(max(least, table.height() - (need - room)))
        fit_height_to_contents(dialog)
