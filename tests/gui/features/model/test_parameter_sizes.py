"""The parameter tree says plainly what is meta, quantized or sparse, and counts real bytes."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pytestqt")

import torch  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from torch import nn  # noqa: E402

from inspector.core.placement.tensor_rows import snapshot  # noqa: E402
from inspector.gui.features.model.panel import ParametersPanel  # noqa: E402
from tests.gui.helpers import tree_rows  # noqa: E402


class Mixed(nn.Module):
    """A quantized Linear, a sparse buffer, a complex64 parameter and a meta submodule."""

    def __init__(self) -> None:
        super().__init__()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.q = torch.ao.quantization.quantize_dynamic(nn.Sequential(nn.Linear(64, 32)), {nn.Linear})
        mask = torch.zeros(1000, 1000)
        mask[0, :10] = 1
        self.register_buffer("mask", mask.to_sparse())
        self.w = nn.Parameter(torch.randn(4, 4, dtype=torch.complex64))
        with torch.device("meta"):
            self.lazy = nn.Linear(100, 100, bias=False)


@pytest.fixture
def panel(qtbot):
    panel = ParametersPanel()
    qtbot.addWidget(panel)
    panel.set_placement(snapshot(Mixed()))
    return panel


def test_each_storage_kind_reads_plainly_in_the_size_column(panel, qtmodeltester):
    qtmodeltester.check(panel.model)
    rows = tree_rows(panel.model)
    assert rows["w"]["Dtype"] == "complex64" and rows["w"]["Size"] == "128 B"
    assert rows["mask"]["Size"] == "200 B (sparse coo; dense 3.8 MiB)"
    assert rows["lazy.weight"]["Size"] == "0 B (would be 39.1 KiB)"
    weight = rows["q.0._packed_params.weight"]
    assert (weight["Dtype"], weight["Size"]) == ("qint8", "2.0 KiB (quantized)")


def test_tooltips_explain_the_storage(panel):
    def tip(name: str) -> str:
        return panel.model.find(name).siblingAtColumn(5).data(Qt.ItemDataRole.ToolTipRole)

    assert "nothing allocated; 39.1 KiB once materialised" in tip("lazy.weight")
    assert "sparse coo: 200 B of indices and values (3.8 MiB if dense)" in tip("mask")
    assert "quantized: 2.0 KiB of integer storage" in tip("q.0._packed_params.weight")


def test_totals_count_allocated_bytes_and_show_meta_apart(panel):
    text = panel.totals.text()
    # 128 (complex) + 200 (sparse) + 2048 + 128 (quantized weight, bias); meta holds nothing.
    assert "<b>2.4 KiB</b> (+ 39.1 KiB on meta, not allocated)" in text
    assert "<b>meta</b> 0 B (would be 39.1 KiB)" in text
