"""The CPU proof of "will it fit?" is an independent reading (the process's peak RSS over one
real step, its baseline taken off), named for what it is; where it differs from the estimate
by more than 15 %, the finding says which memory the estimate does not count."""

import numpy as np
import pytest
import torch
from torch import nn

from inspector.core.files.models import LoadedModel
from inspector.core.measure import peak_gap, process_peak
from inspector.core.measure.fit import FitRequest, estimate_fit
from inspector.core.placement.storage_counter import StorageCounter

MIB = 1 << 20

linux_peak = pytest.mark.skipif(process_peak.unavailable_reason() is not None,
                                reason="the process's peak RSS cannot be reset here (Linux's clear_refs)")


class _NumpyScratch(nn.Module):
    """A forward that touches a NumPy buffer of ``mib`` MiB between two operators: memory no
    tensor owns, which the estimate (it counts tensors) cannot see, and the process holds."""

    def __init__(self, mib: int) -> None:
        super().__init__()
        self.lin = nn.Linear(64, 64)
        self.elements = mib * MIB // 8

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.lin(x)
        scratch = np.ones(self.elements)  # written whole: every page resident
        scale = float(scratch[-1])
        del scratch
        return y * scale


@linux_peak
def test_memory_the_estimate_cannot_see_is_in_the_measured_peak_and_named():
    loaded = LoadedModel(spec="scratch", module=_NumpyScratch(48), example_input=torch.randn(32, 64))
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam"))
    assert result.estimated_peak_bytes < MIB  # the tensors: a few KiB
    assert result.measured_peak_bytes is not None, result.measured_reason
    assert result.measured_peak_bytes >= 46 * MIB  # the buffer, page by page
    assert result.ratio > 40
    assert "process peak RSS over one real step" in result.measured_reason
    gap = result.measured_gap
    assert gap is not None and gap.startswith("the process's peak is ")
    # Named where it happened: Python code between the Linear's matmul and the multiply.
    assert "touched by Python code after aten.addmm.default" in gap
    named = gap.split("touched by Python code after aten.addmm.default")[0].rsplit(";", 1)[-1].split(":")[-1]
    assert "MiB" in named and 46 <= float(named.strip().split()[0]) <= 50
    assert result.to_dict()["measured_gap"] == gap


@linux_peak
def test_an_mlp_step_is_read_from_the_process_not_from_the_estimates_bookkeeping():
    m = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 512))
    loaded = LoadedModel(spec="mlp", module=m, example_input=torch.randn(256, 512))
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adamw"))
    assert result.measured_peak_bytes is not None and result.ratio is not None
    assert result.measured_peak_bytes % 4096 == 0  # whole pages: the kernel's count, not storages'
    assert result.measured_peak_bytes != result.estimated_peak_bytes
    assert 0.7 <= result.ratio <= 2.0  # the same step, read another way
    # The proof ran on copies: the user's model has no grads afterwards.
    assert all(p.grad is None for p in m.parameters())


def _conv() -> LoadedModel:
    """A convolution whose output (8 MiB) dwarfs its input: on the CPU oneDNN computes it in
    its blocked layout and copies it back, inside the operator."""
    torch.manual_seed(0)
    return LoadedModel(spec="conv", module=nn.Sequential(nn.Conv2d(3, 64, 3, padding=1)),
                       example_input=torch.randn(8, 3, 64, 64))


@linux_peak
@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="no oneDNN in this torch build")
def test_a_convolution_s_gap_names_onednn_s_copy_of_its_output():
    with torch.backends.mkldnn.flags(enabled=True):
        result = estimate_fit(_conv(), FitRequest(device="cpu", mode="forward"))
    output = 8 * 64 * 64 * 64 * 4
    assert result.estimated_peak_bytes < output + MIB  # the output and the input
    assert result.measured_peak_bytes is not None and result.ratio > 1.6  # and oneDNN's copy
    assert result.measured_gap is not None
    assert "inside aten.convolution.default by oneDNN: its copies of the activations in its blocked layout" in (
        result.measured_gap)


@linux_peak
def test_a_convolution_without_onednn_names_the_kernel_s_own_buffer():
    with torch.backends.mkldnn.flags(enabled=False):  # the slow path unfolds its input (im2col)
        result = estimate_fit(_conv(), FitRequest(device="cpu", mode="forward"))
    assert result.measured_peak_bytes is not None and result.ratio > 1.15
    assert "inside aten.convolution.default for the kernel's own use" in result.measured_gap  # im2col
    assert "oneDNN:" not in result.measured_gap


def test_without_a_resettable_peak_the_cpu_is_not_measured_and_says_why(monkeypatch):
    monkeypatch.setattr(process_peak, "_CLEAR_REFS", "/nonexistent/clear_refs")
    m = nn.Sequential(nn.Linear(8, 8))
    result = estimate_fit(LoadedModel(spec="m", module=m, example_input=torch.randn(2, 8)),
                          FitRequest(device="cpu", optimizer="sgd"))
    assert result.measured_peak_bytes is None and result.ratio is None and result.measured_gap is None
    assert result.measured_reason.startswith("not measured: the process's peak memory cannot be reset")


@linux_peak
def test_a_small_step_says_the_reading_is_coarse_and_draws_no_finding():
    m = nn.Sequential(nn.Linear(16, 16))
    result = estimate_fit(LoadedModel(spec="m", module=m, example_input=torch.randn(4, 16)),
                          FitRequest(device="cpu", optimizer="sgd"))
    assert result.measured_peak_bytes is not None and result.measured_gap is None
    assert "a step under 1 MiB is within this reading's noise" in result.measured_reason


# ----------------------------------------------------------------- the finding's words


def _watched(peak: int, outside: dict[tuple[str, bool], int]) -> peak_gap.OperatorMemory:
    watched = peak_gap.OperatorMemory(StorageCounter(torch.device("cpu")), 0)
    watched.peak, watched.outside = peak, dict(outside)
    return watched


def test_a_gap_is_explained_only_over_15_percent_and_a_mebibyte():
    assert not peak_gap.worth_explaining(100 * MIB, 114 * MIB)
    assert peak_gap.worth_explaining(100 * MIB, 116 * MIB)
    assert peak_gap.worth_explaining(100 * MIB, 84 * MIB)
    assert not peak_gap.worth_explaining(100 << 10, 900 << 10)  # +800 %, but under a MiB


def test_the_finding_splits_what_the_allocator_kept_from_what_operators_allocated():
    watched = _watched(82 * MIB, {("aten.convolution_backward.default", True): 24 * MIB,
                                  ("aten.relu.default", True): 100 << 10,
                                  ("aten.addmm.default", False): 6 * MIB})
    text = peak_gap.explain(80 * MIB, 120 * MIB, watched, trimmed=True)
    assert text.startswith("the process's peak is 40.0 MiB (+50 %) above the estimate")
    assert "38.0 MiB freed during the step and kept resident by the C allocator (malloc)" in text
    assert "the step peaks at 82.0 MiB" in text
    conv = "24.0 MiB allocated inside aten.convolution_backward.default outside any tensor"
    if torch.backends.mkldnn.is_available() and torch.backends.mkldnn.enabled:
        conv = conv.replace("outside any tensor", "by oneDNN: its copies of the activations in its blocked layout")
    else:
        conv = conv.replace("outside any tensor", "for the kernel's own use")
    assert conv in text
    assert "6.0 MiB touched by Python code after aten.addmm.default" in text
    assert "aten.relu" not in text  # under 10 % of the gap: not named
    # a Text the window translates part by part
    assert text.key == "fit.gap_above" and text.args["parts"].key == "list.semicolon"


def test_a_peak_below_the_estimate_says_rss_counts_pages_touched():
    text = peak_gap.explain(100 * MIB, 50 * MIB, None, trimmed=False)
    assert text.startswith("the process's peak is 50.0 MiB (-50 %) below the estimate")
    assert "pages touched, not bytes allocated" in text


def test_a_gap_nothing_accounts_for_says_so():
    text = peak_gap.explain(10 * MIB, 20 * MIB, _watched(19 * MIB, {}), trimmed=False)
    assert "no operator or stretch of Python code accounts for it" in text
