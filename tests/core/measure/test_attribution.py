"""Per-module attribution: FLOPs, output shapes and bytes against their references.

Timing is not asserted here (machines are shared): benchmarks/attribution_overhead.py prints
the hooks' overhead and the leaves' self-time sum against the plain forward median.
"""

import gc

import pytest
import torch
from torch import nn
from torch.utils.flop_counter import FlopCounterMode

from inspector.core.measure.attribution import measure_attribution
from inspector.core.errors import Cancelled
from inspector.core.files.models import LoadedModel
from inspector.core.report.html_view import render_html
from inspector.core.report.markdown_view import render_markdown
from inspector.core.report.timing_report import build_report


def _mlp() -> LoadedModel:
    m = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 10))
    return LoadedModel(spec="mlp", module=m, example_input=torch.randn(8, 32))


def _cnn() -> LoadedModel:
    m = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 5))
    return LoadedModel(spec="cnn", module=m, example_input=torch.randn(2, 3, 8, 8))


def _lstm() -> LoadedModel:
    return LoadedModel(spec="lstm", module=nn.LSTM(8, 16, batch_first=True), example_input=torch.randn(2, 5, 8))


def _transformer() -> LoadedModel:
    m = nn.Transformer(d_model=16, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=32)
    return LoadedModel(spec="tr", module=m, example_input=(torch.randn(5, 2, 16), torch.randn(4, 2, 16)))


MODELS = {"mlp": _mlp, "cnn": _cnn, "lstm": _lstm, "transformer": _transformer}


def _reference_flops(loaded: LoadedModel) -> tuple[int, dict[str, int]]:
    args = loaded.example_input if isinstance(loaded.example_input, tuple) else (loaded.example_input,)
    loaded.module.eval()
    with torch.inference_mode(), FlopCounterMode(display=False) as counter:
        loaded.module(*args)
    loaded.module.train()
    return counter.get_total_flops(), {k: sum(v.values()) for k, v in counter.get_flop_counts().items()}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_flops_equal_flop_counter_modes_total_and_per_module(name):
    loaded = MODELS[name]()
    total, per_module = _reference_flops(loaded)
    result = measure_attribution(loaded, runs=2, warmup=1)
    assert result.total_flops == total
    root = next(m for m in result.modules if m.name == "")
    assert root.flops == total and root.depth == 0
    root_class = type(loaded.module).__name__
    for m in result.modules:
        key = f"{root_class}.{m.name}" if m.name else root_class
        assert m.flops == per_module.get(key, 0), m.name


def test_mlp_rows_in_call_order_with_shapes_and_bytes():
    result = measure_attribution(_mlp(), runs=3, warmup=1)
    rows = {m.name: m for m in result.modules}
    assert [m.name for m in result.modules] == ["", "0", "1", "2", "3"]  # the model before its children
    assert rows["0"].output_shapes == ((8, 64),) and rows["3"].output_shapes == ((8, 10),)
    assert rows["0"].flops == 2 * 8 * 32 * 64  # FlopCounterMode counts a multiply-add as 2
    assert rows["0"].activation_bytes == 8 * 64 * 4
    assert rows["1"].activation_bytes == 8 * 64 * 4  # ReLU (not in place) makes a new tensor
    assert rows["2"].activation_bytes == 0  # Dropout in eval returns its input: nothing new
    assert rows["0"].parameters_bytes == (32 * 64 + 64) * 4
    assert rows[""].parameters_bytes == ((32 * 64 + 64) + (64 * 10 + 10)) * 4
    assert all(m.is_leaf for name, m in rows.items() if name) and not rows[""].is_leaf
    assert result.samples == 3 and all(m.calls == 1 for m in result.modules)
    # Leaves run one after another inside the forward: their summed self time cannot exceed it.
    assert 0 < result.leaf_self_ms <= result.forward_with_hooks_ms
    for m in result.modules:
        assert 0 <= m.self_ms <= m.median_ms  # self time is a part of the module's call
        assert m.device == "cpu"


@pytest.mark.parametrize("name", ["cnn", "lstm", "transformer"])
def test_output_shapes_equal_what_torchinfo_reports(name):
    torchinfo = pytest.importorskip("torchinfo")
    loaded = MODELS[name]()
    args = loaded.example_input if isinstance(loaded.example_input, tuple) else (loaded.example_input,)
    loaded.module.eval()
    summary = torchinfo.summary(loaded.module, input_data=list(args), verbose=0, mode="eval")
    expected = {id(layer.module): list(layer.output_size) for layer in summary.summary_list if layer.output_size}
    result = measure_attribution(loaded, runs=1, warmup=1)
    by_module = dict(loaded.module.named_modules())
    compared = 0
    for m in result.modules:
        reference = expected.get(id(by_module[m.name]))
        if reference is not None:
            # torchinfo lists the first output tensor (an LSTM's sequence, not its states).
            assert list(m.output_shapes[0]) == reference, m.name
            compared += 1
    assert compared >= 1


def test_recorded_shapes_for_the_cnn_without_torchinfo():
    rows = {m.name: m for m in measure_attribution(_cnn(), runs=1, warmup=1).modules}
    assert rows["0"].output_shapes == ((2, 8, 6, 6),)
    assert rows["3"].output_shapes == ((2, 288),) and rows["3"].activation_bytes == 0  # Flatten: a view
    assert rows["4"].output_shapes == ((2, 5),)


def test_lstm_lists_all_its_outputs():
    (row,) = measure_attribution(_lstm(), runs=1, warmup=1).modules
    assert row.output_shapes == ((2, 5, 16), (1, 2, 16), (1, 2, 16))


def test_the_model_is_left_as_it_was():
    loaded = _cnn()
    loaded.module.train()
    loaded.module[1].eval()  # a frozen BatchNorm the user set
    before = {k: v.clone() for k, v in loaded.module.state_dict().items()}
    measure_attribution(loaded, runs=2, warmup=1)
    assert loaded.module.training and not loaded.module[1].training
    assert all(not m._forward_hooks and not m._forward_pre_hooks for m in loaded.module.modules())
    after = loaded.module.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)  # eval: running stats untouched


def test_the_collector_waits_during_the_samples_and_is_back_on_after():
    """A collection inside a sample is noise; after success or a cancel the collector is as
    it was (on here; the window's tests leave it off)."""
    was = gc.isenabled()
    gc.enable()
    try:
        seen: list[bool] = []
        measure_attribution(_mlp(), runs=2, warmup=1, should_cancel=lambda: seen.append(gc.isenabled()) or False)
        assert seen and not any(seen) and gc.isenabled()
        with pytest.raises(Cancelled):
            measure_attribution(_mlp(), runs=5, should_cancel=lambda: True)
        assert gc.isenabled()
    finally:
        if not was:
            gc.disable()


def test_cancel_stops_and_removes_the_hooks():
    loaded = _mlp()
    with pytest.raises(Cancelled):
        measure_attribution(loaded, runs=50, should_cancel=lambda: True)
    assert all(not m._forward_hooks for m in loaded.module.modules())


def test_overhead_is_stated_against_plain_forwards_of_the_same_run():
    result = measure_attribution(_mlp(), runs=3, warmup=1)
    assert result.forward_without_hooks_ms > 0 and result.forward_with_hooks_ms > 0
    assert result.overhead_ratio == pytest.approx(result.forward_with_hooks_ms / result.forward_without_hooks_ms)
    assert result.to_dict()["overhead_ratio"] == result.overhead_ratio


def test_global_hooks_never_time_another_model():
    other = nn.Linear(4, 4)
    seen = []
    other.register_forward_hook(lambda *_: seen.append(1))

    class Wrapper(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = nn.Linear(4, 4)

        def forward(self, x):
            other(x)  # a module that is not part of this model runs inside its forward
            return self.inner(x)

    result = measure_attribution(LoadedModel(spec="w", module=Wrapper(), example_input=torch.randn(2, 4)), runs=2, warmup=1)
    assert [m.name for m in result.modules] == ["", "inner"]
    assert seen  # it did run: only our own hooks ignored it


def test_report_carries_modules_with_contract_keys_and_shows_the_top_ones():
    loaded = _cnn()
    result = measure_attribution(loaded, runs=2, warmup=1)
    report = build_report(loaded, attribution=[result])
    keys = {"name", "type", "output_shapes", "median_ms", "self_ms", "flops", "activation_bytes", "parameters_bytes"}
    assert len(report["modules"]) == len(result.modules) == 6
    assert all(keys <= set(m) for m in report["modules"])
    assert report["attribution"][0]["total_flops"] == result.total_flops
    md = render_markdown(report)
    assert "**Top modules**" in md and "| 0 | Conv2d | cpu | 2x8x6x6 |" in md
    page = render_html(report)
    assert "<h2>Top modules</h2>" in page and "2x8x6x6" in page
    # A plain report has neither key.
    assert "modules" not in build_report(loaded)


def test_a_hostile_modules_section_renders_as_dashes():
    report = build_report(_mlp().__class__(spec="x", module=nn.Linear(2, 2)))
    report["modules"] = [{"name": "<script>", "self_ms": "NaN", "output_shapes": "boom", "flops": [1]}, 7, None]
    page = render_html(report)
    assert "&lt;script&gt;" in page and "<script>" not in page
    assert "**Top modules**" in render_markdown(report)
