"""Sizes that tell the truth: what a tensor really holds, and what kind of storage holds it.

Meta tensors hold nothing (their would-be size is shown apart), a dynamically quantized
Linear is its int8 storage (not 0 B), a sparse buffer is its indices and values (not its
dense size), and a complex64 model is complex64 (not float32) in every output.
"""

from __future__ import annotations

import json
import warnings

import pytest
import torch

from inspector.cli import main
from inspector.core.files.models import LoadedModel
from inspector.core.placement.tensor_rows import snapshot
from inspector.core.report.markdown_view import render_markdown
from inspector.core.report.timing_report import build_report
from inspector.core.placement.tensor_bytes import allocated_bytes, storage_kind
from tests.report_edge import typed

MODELS = '''
import warnings
import torch
from torch import nn


def meta():
    with torch.device("meta"):
        return nn.Linear(100, 100)


def quantized():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.ao.quantization is deprecated, still shipped
        model = torch.ao.quantization.quantize_dynamic(nn.Sequential(nn.Linear(64, 32)), {nn.Linear}, dtype=torch.qint8)
    return model, torch.randn(2, 64)


class Masked(nn.Module):
    def __init__(self):
        super().__init__()
        mask = torch.zeros(1000, 1000)
        mask[0, :10] = 1
        self.register_buffer("mask", mask.to_sparse())
        self.w = nn.Parameter(torch.randn(4, 4, dtype=torch.complex64))

    def forward(self, x):
        return x @ self.w


def masked():
    return Masked()
'''


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    path = tmp_path_factory.mktemp("models") / "sizes.py"
    path.write_text(MODELS)
    namespace: dict = {}
    exec(compile(MODELS, str(path), "exec"), namespace)  # the same factories, in this process
    namespace["path"] = path
    return namespace


def inspect_json(capsys, spec: str) -> dict:
    assert main(["inspect", spec, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def inspect_text(capsys, spec: str) -> str:
    assert main(["inspect", spec]) == 0
    return capsys.readouterr().out


# ----------------------------------------------------------------- meta


def test_a_meta_model_holds_no_bytes_and_says_what_it_would_take(models, capsys):
    p = snapshot(models["meta"]())
    weight, bias = p.tensors
    assert (weight.bytes, weight.dense_bytes, weight.storage) == (0, 40_000, "meta")
    assert (p.totals.bytes, p.totals.meta_bytes, p.totals.by_device) == (0, 40_400, {"meta": 0})

    text = inspect_text(capsys, f"{models['path']}:meta")
    assert "10,100 elements, 0 B (+ 39.5 KiB on meta, not allocated)" in text.splitlines()[0]
    assert "0 B (would be 39.1 KiB)" in text
    assert "By device: meta 0 B (would be 39.5 KiB)" in text
    data = inspect_json(capsys, f"{models['path']}:meta")
    assert data["totals"]["bytes"] == 0 and data["totals"]["meta_bytes"] == 40_400
    assert {(t["storage"], t["bytes"], t["dense_bytes"]) for t in data["tensors"]} == {("meta", 0, 40_000), ("meta", 0, 400)}


def test_a_meta_model_in_the_report_is_not_counted_as_allocated(models):
    report = build_report(LoadedModel("meta", models["meta"]()))
    assert report["model"]["bytes"] == 0 and report["model"]["meta_bytes"] == 40_400
    assert "0 B; meta: 0 B); 39.5 KiB more on meta, not allocated" in render_markdown(typed(report))


# ----------------------------------------------------------------- quantized


def test_a_dynamically_quantized_linear_is_its_int8_storage_not_zero(models, capsys):
    model, _ = models["quantized"]()
    assert list(model.parameters()) == []  # what made it read as 0 B
    p = snapshot(model)
    rows = {r.name: r for r in p.tensors}
    weight, bias = rows["0._packed_params.weight"], rows["0._packed_params.bias"]
    assert (weight.dtype, weight.storage, weight.bytes, weight.shape) == ("qint8", "quantized", 32 * 64, (32, 64))
    assert (bias.dtype, bias.bytes) == ("float32", 32 * 4)
    assert p.totals.bytes == 32 * 64 + 32 * 4
    assert p.totals.by_dtype == {"qint8": 2048, "float32": 128}

    text = inspect_text(capsys, f"{models['path']}:quantized")
    assert "2 tensors, 2,080 elements, 2.1 KiB" in text.splitlines()[0]
    assert "2.0 KiB (quantized)" in text
    data = inspect_json(capsys, f"{models['path']}:quantized")
    assert data["totals"]["bytes"] == 2176
    assert [t["storage"] for t in data["tensors"]] == ["quantized", "dense"]


def test_a_per_channel_quantized_tensor_counts_its_scales_and_zero_points():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q = torch.quantize_per_channel(torch.randn(10, 20), torch.rand(10) + 0.1, torch.zeros(10, dtype=torch.long), 0, torch.qint8)
    assert storage_kind(q) == "quantized"
    assert allocated_bytes(q) == 200 + 10 * 8 + 10 * 8  # int8 values, float64 scales, int64 zero points


# ----------------------------------------------------------------- sparse and complex


def test_a_sparse_buffer_is_its_indices_and_values_not_its_dense_size(models, capsys):
    p = snapshot(models["masked"]())
    mask = next(r for r in p.tensors if r.name == "mask")
    # 10 non-zeros: 2x10 int64 indices + 10 float32 values.
    assert (mask.storage, mask.bytes, mask.dense_bytes) == ("sparse_coo", 2 * 10 * 8 + 10 * 4, 4_000_000)
    text = inspect_text(capsys, f"{models['path']}:masked")
    assert "200 B (sparse coo; dense 3.8 MiB)" in text
    assert "3.8 MiB" not in text.splitlines()[0]


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta")
def test_compressed_sparse_layouts_count_their_index_arrays():
    dense = torch.zeros(100, 100)
    dense[3, :5] = 1
    csr = dense.to_sparse_csr()
    assert storage_kind(csr) == "sparse_csr"
    assert allocated_bytes(csr) == 101 * 8 + 5 * 8 + 5 * 4
    csc = dense.to_sparse_csc()
    assert allocated_bytes(csc) == 101 * 8 + 5 * 8 + 5 * 4


def test_a_complex64_model_is_complex64_everywhere(models, capsys):
    p = snapshot(models["masked"]())
    w = next(r for r in p.tensors if r.name == "w")
    assert (w.dtype, w.bytes) == ("complex64", 16 * 8)
    assert p.totals.by_dtype["complex64"] == 128
    spec = f"{models['path']}:masked"
    assert main(["bench", spec, "--device", "cpu", "--runs", "3", "--input-shape", "2,4", "--json"]) == 0
    out, err = capsys.readouterr()
    entry = json.loads(out)["latency"][0]
    assert entry["dtype"] == "complex64", err
    assert json.loads(out)["model"]["by_dtype"]["complex64"] == 128


def test_a_model_with_a_sparse_buffer_can_be_moved(models, capsys):
    """The move engine identified tensors by data pointer, which sparse tensors lack."""
    spec = f"{models['path']}:masked"
    assert main(["inspect", spec, "--to", "cpu", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["move"]["ok"] and data["totals"]["bytes"] == 128 + 200
