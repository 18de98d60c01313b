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
from tests.report_edge import typed


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
    md = render_markdown(typed(report))
    assert "**Top modules**" in md and "| 0 | Conv2d | cpu | 2x8x6x6 |" in md
    page = render_html(typed(report))
    assert "<h2>Top modules</h2>" in page and "2x8x6x6" in page
    # A plain report has neither key.
    assert "modules" not in build_report(loaded)


def test_a_hostile_modules_section_renders_as_dashes():
    report = build_report(_mlp().__class__(spec="x", module=nn.Linear(2, 2)))
    report["modules"] = [{"name": "<script>", "self_ms": "NaN", "output_shapes": "boom", "flops": [1]}, 7, None]
    page = render_html(typed(report))
    assert "&lt;script&gt;" in page and "<script>" not in page
    assert "**Top modules**" in render_markdown(typed(report))


# --------------------------------------------------------------------------- the hooks' cost and the flags
# On a fake clock (tests/module_clock.py): hooks and modules take exactly the time a test says.


def _pair(leaf_ns: int, hook_read_ns: int, monkeypatch, **work) -> LoadedModel:
    from inspector.core.measure import attribution
    from tests.module_clock import CLOCK, Pair, Work

    monkeypatch.setattr(attribution, "_clock", CLOCK)
    monkeypatch.setattr(CLOCK, "hook_read_ns", hook_read_ns)
    return LoadedModel(spec="pair", module=Pair(Work(leaf_ns, **work), Work(leaf_ns, **work)), example_input=torch.zeros(2))


def _keys(result) -> list[str]:
    return [w.key for w in result.warnings]


def test_the_hooks_cost_is_measured_and_taken_out_of_every_time(monkeypatch):
    """Two leaves of 20 µs under a parent whose own code takes 1 µs; each hook costs 1 µs.
    Raw, the self times add up to 46 µs (1.12× the 41 µs forward, and the parent's own 1 µs
    reads as 4 µs); with the hooks' cost taken out, every figure is the module's own."""
    result = measure_attribution(_pair(20_000, 1_000, monkeypatch), runs=5, warmup=1)
    assert (result.hook_inner_ms, result.hook_outer_ms) == (0.001, 0.001)  # one read inside a module, one outside
    rows = {m.name: m for m in result.modules}
    assert (rows[""].self_ms, rows[""].median_ms) == (0.001, 0.041)
    assert all((rows[n].self_ms, rows[n].median_ms) == (0.020, 0.020) for n in ("first", "second"))
    assert result.forward_without_hooks_ms == 0.041 and result.forward_with_hooks_ms == 0.047
    assert result.raw_self_sum_ms == pytest.approx(0.046) and result.self_sum_ms == pytest.approx(0.041)
    assert result.sum_ratio == pytest.approx(1.0) and rows[""].share == pytest.approx(1.0)
    assert result.module_calls == 3 and result.hook_cost_per_call_ms == pytest.approx(0.002)
    assert result.warnings == ()  # a model of a few ms, say, whose figures hold: no flag
    assert result.to_dict()["warnings"] == [] and result.to_dict()["self_sum_ms"] == result.self_sum_ms


def test_hooks_that_cost_more_than_the_modules_are_said_in_words(monkeypatch):
    """The example's case: modules of 1 µs, hooks of 2 µs a read (4 µs a call): the forward takes
    5× as long with them, and the figures are the hooks' cost more than the modules'."""
    result = measure_attribution(_pair(1_000, 2_000, monkeypatch), runs=5, warmup=1)
    assert result.overhead_ratio == pytest.approx(5.0) and result.sum_ratio == pytest.approx(1.0)
    (warning,) = result.warnings
    assert warning.key == "modules.hooks_dominate"
    assert warning.startswith("the hooks add 4.0 µs per module call, more than the modules' own time")
    assert "mostly the hooks' cost" in warning and "5.00×" in warning


def test_hooks_that_make_the_forward_half_as_long_again_are_said_too(monkeypatch):
    result = measure_attribution(_pair(5_000, 1_000, monkeypatch), runs=5, warmup=1)  # 11 µs, 17 µs with hooks
    assert _keys(result) == ["modules.hooks_large"] and "1.55×" in result.warnings[0]


def test_module_times_that_add_up_to_more_than_the_forward_are_flagged(monkeypatch):
    """Modules that wait 1 ms whenever the hooks are on (as a hook waiting for the GIL would):
    their self times add up to ~287× the forward measured without hooks."""
    result = measure_attribution(_pair(3_000, 10_000, monkeypatch, hooked_ns=1_000_000), runs=5, warmup=1)
    assert result.self_sum_ms > 1.1 * result.forward_without_hooks_ms
    assert _keys(result) == ["modules.hooks_dominate", "modules.sum_exceeds"]
    assert result.warnings[1].startswith("the modules' self times add up to 286.71× the forward measured without hooks")


def test_shares_are_of_the_models_own_time_so_its_row_is_100_percent_and_none_is_more(monkeypatch):
    """The same hooked run, whose modules' times are 287x the plain forward: the model's row read
    28,671 % as a share of the plain forward (125.7 % for the Transformer preset); a share is of
    the model's own time in the same samples, a child's at most its parent's (issue 45 item 3)."""
    result = measure_attribution(_pair(3_000, 10_000, monkeypatch, hooked_ns=1_000_000), runs=5, warmup=1)
    rows = {m.name: m for m in result.modules}
    assert rows[""].share == 1.0
    assert all(0 <= m.share <= rows[""].share for m in result.modules)
    assert rows["first"].share + rows["second"].share <= 1.0


def test_a_forward_whose_time_is_in_no_modules_median_is_flagged(monkeypatch):
    """Three leaves of 10 µs, one of them 50 µs slower in every forward, in turns (as when
    another process takes the CPU at a different module each time): each leaf's median is its
    fast time, so the self times add up to 30 µs of an 80 µs forward."""
    from tests.module_clock import CLOCK, Work

    monkeypatch.setattr(attribution_module(), "_clock", CLOCK)
    monkeypatch.setattr(CLOCK, "hook_read_ns", 0)
    leaves = [Work(10_000, every=3, extra_ns=50_000) for _ in range(3)]
    for offset, leaf in enumerate(leaves):
        leaf.count = offset  # out of step: exactly one of them is slow in each forward
    model = nn.Sequential(*leaves)
    result = measure_attribution(LoadedModel(spec="turns", module=model, example_input=torch.zeros(2)), runs=6, warmup=1)
    assert result.forward_without_hooks_ms == 0.08 and result.self_sum_ms == pytest.approx(0.03)
    assert _keys(result) == ["modules.sum_short"] and "only 0.38×" in result.warnings[0]


def test_a_disturbed_run_is_flagged(monkeypatch):
    result = measure_attribution(_pair(20_000, 0, monkeypatch, every=5, extra_ns=400_000), runs=20, warmup=1)
    assert max(result.hooked_tail, result.plain_tail) >= 2
    assert _keys(result) == ["modules.disturbed"] and result.warnings[0].startswith("the per-module run was disturbed")


def test_self_times_stay_within_zero_and_their_inclusive_time_whatever_is_taken_out(monkeypatch):
    from inspector.core.measure import attribution

    monkeypatch.setattr(attribution, "_hook_cost", lambda sync: (50_000.0, 80_000.0))  # far more than the hooks cost
    result = measure_attribution(_mlp(), runs=3, warmup=1)
    assert all(0 <= m.self_ms <= m.median_ms for m in result.modules)
    assert all(m.median_ms >= 0 and m.share >= 0 for m in result.modules)


def test_a_flag_is_shown_next_to_the_modules_in_every_view_of_the_report(monkeypatch):
    import json

    from inspector.core.report.csv_tables import TABLE_BY_NAME
    from inspector.core.report.csv_view import table_csv

    def attribution_csv(report: dict) -> str:
        return table_csv(TABLE_BY_NAME["attribution.csv"], report)

    loaded = _pair(3_000, 10_000, monkeypatch, hooked_ns=1_000_000)
    report = json.loads(json.dumps(build_report(loaded, attribution=[measure_attribution(loaded, runs=3, warmup=1)])))
    (entry,) = report["attribution"]
    assert entry["sum_ratio"] > 1.1 and len(entry["warnings"]) == 2
    assert entry["warnings"][1].startswith("the modules' self times add up to")
    md = render_markdown(typed(report))
    top = md.index("**Top modules**")
    flag = md.index("> ⚠ per-module figures not reliable: cpu: the hooks add")
    assert top < flag < md.index("| Module |")  # above the table it is about
    assert "> ⚠ per-module figures not reliable: cpu: the modules' self times add up to" in md
    assert "the hooks' own cost, 20.0 µs a module call (measured on empty modules), is taken out" in md
    page = render_html(typed(report))
    assert "<b>⚠ Per-module figures not reliable:</b> cpu: the hooks add" in page
    assert "the hooks add" in attribution_csv(report).splitlines()[1]  # the run's row in the .zip's attribution.csv
    # A report whose figures hold says nothing of the kind.
    steady = _pair(20_000, 1_000, monkeypatch)
    calm = build_report(steady, attribution=[measure_attribution(steady, runs=3, warmup=1)])
    assert "not reliable" not in render_markdown(typed(calm)) and "not reliable" not in render_html(typed(calm))
    assert attribution_csv(calm).splitlines()[1].endswith(",")  # its warnings cell empty


def attribution_module():
    from inspector.core.measure import attribution

    return attribution


def test_a_remote_run_brings_its_figures_and_says_its_flags_on_this_side(monkeypatch):
    """The agent sends the figures; the flags are worked out from them where they are shown,
    as core's texts (so the window says them in its language)."""
    from inspector.core.measure.attribution import Attribution
    from inspector.core.remote.wire import decode, encode

    result = measure_attribution(_pair(1_000, 2_000, monkeypatch), runs=3, warmup=1)
    back = decode(Attribution, encode(result), "attribution")
    assert back == result and [w.key for w in back.warnings] == ["modules.hooks_dominate"]
    assert back.warnings == result.warnings


def test_the_hooks_cost_is_the_lesser_of_a_calibration_before_and_one_after_the_samples(monkeypatch):
    """A calibration that something disturbed (the window's thread holding the GIL, another
    process) reads high; disturbances only ever add time, so the lesser reading is kept."""
    from inspector.core.measure import attribution

    readings = iter([(9_000.0, 30_000.0), (1_000.0, 1_000.0)])  # before (disturbed), after
    monkeypatch.setattr(attribution, "_hook_cost", lambda sync: next(readings))
    result = measure_attribution(_mlp(), runs=2, warmup=1)
    assert (result.hook_inner_ms, result.hook_outer_ms) == (0.001, 0.001)
