"""Will it fit: exact bytes per optimizer and dtype, an unallocatable model, the proof step."""

import resource

import pytest
import torch
from torch import nn

from inspector.core.errors import InputError
from inspector.core.measure.fit import OPTIMIZERS, FitRequest, estimate_fit
from inspector.core.files.inputs import parse_inputs
from inspector.core.files.models import LoadedModel, example_model
from tests.report_edge import typed

DTYPES = {"float32": 4, "float16": 2, "bfloat16": 2, "float64": 8}


def _mlp() -> LoadedModel:
    m = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    return LoadedModel(spec="mlp", module=m, example_input=torch.randn(8, 16))


class _Tied(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(50, 12)
        self.hidden = nn.Linear(12, 12)
        self.head = nn.Linear(12, 50, bias=False)
        self.head.weight = self.embed.weight  # one tensor, two names

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.head(torch.relu(self.hidden(self.embed(ids))))


def _tied() -> LoadedModel:
    return LoadedModel(spec="tied", module=_Tied(), example_input=torch.randint(0, 50, (4, 7)))


def _cnn() -> LoadedModel:
    m = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 5))
    return LoadedModel(spec="cnn", module=m, example_input=torch.randn(2, 3, 8, 8))


MODELS = {"mlp": _mlp, "tied": _tied, "cnn": _cnn, "example": example_model}


def _trainable(module: nn.Module) -> list[nn.Parameter]:
    return [p for p in module.parameters() if p.requires_grad]  # parameters() yields tied ones once


def _expected_state_bytes(optimizer: str, params: list[nn.Parameter], itemsize: int) -> int:
    """The layout the issue names, written out: what torch keeps per parameter."""
    elements = sum(p.numel() for p in params)
    if optimizer in ("none", "sgd"):
        return 0
    if optimizer == "sgd-momentum":
        return elements * itemsize  # momentum_buffer, in the parameter's dtype
    # Adam / AdamW: exp_avg + exp_avg_sq in the parameter's dtype, a float32 step per parameter.
    return 2 * elements * itemsize + 4 * len(params)


@pytest.mark.parametrize("model_name", sorted(MODELS))
@pytest.mark.parametrize("dtype", sorted(DTYPES))
def test_parameter_gradient_and_optimizer_bytes_are_exact_for_every_optimizer(model_name, dtype):
    loaded = MODELS[model_name]()
    itemsize = DTYPES[dtype]
    params = _trainable(loaded.module)
    elements = sum(p.numel() for p in params)
    for optimizer in OPTIMIZERS:
        result = estimate_fit(loaded, FitRequest(device="cpu", dtype=dtype, optimizer=optimizer, measure=False))
        assert result.parameters_bytes == elements * itemsize, optimizer
        assert result.gradients_bytes == elements * itemsize, optimizer
        assert result.optimizer_state_bytes == _expected_state_bytes(optimizer, params, itemsize), optimizer
        assert result.dtype == dtype and result.optimizer == optimizer and result.mode == "train-step"
        # Everything the step holds at once is at least the parameters and their gradients.
        assert result.estimated_peak_bytes >= result.parameters_bytes + result.gradients_bytes


def test_optimizer_state_matches_a_real_optimizer_step():
    # The reference here is torch itself: a real Adam step on the real model, bytes counted.
    loaded = _cnn()
    real = torch.optim.Adam(loaded.module.parameters())
    loaded.module(loaded.example_input).sum().backward()
    real.step()
    state = sum(v.nbytes for s in real.state.values() for v in s.values() if isinstance(v, torch.Tensor))
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam", measure=False))
    assert result.optimizer_state_bytes == state


def test_batchnorm_buffers_are_counted_apart_and_keep_their_integer_dtype():
    result = estimate_fit(_cnn(), FitRequest(device="cpu", dtype="bfloat16", optimizer="none", measure=False))
    # running_mean + running_var (8 each, now bfloat16) + num_batches_tracked (int64 scalar)
    assert result.buffers_bytes == 2 * 8 * 2 + 8


def test_forward_mode_holds_no_gradients_or_optimizer_state():
    result = estimate_fit(_mlp(), FitRequest(device="cpu", optimizer="adam", mode="forward", measure=False))
    assert result.gradients_bytes == 0 and result.optimizer_state_bytes == 0
    assert result.activations_bytes is not None and result.activations_bytes > 0
    assert any("forward mode" in n for n in result.notes)


def _real_tensor_peak(loaded: LoadedModel, optimizer: str) -> int:
    """The test's oracle for the estimate's exactness: the peak of the CPU allocator's tensor
    allocations over one real train step, from torch.profiler's memory events (the same kind
    of count as the estimate, which is why the product's proof reads the process instead)."""
    from torch.profiler import ProfilerActivity, profile

    from inspector.core.measure.fit_step import copy_with, input_templates, make_inputs, make_optimizer, real_maker, run_step

    cpu = torch.device("cpu")
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        module = copy_with(loaded.module, real_maker(cpu), torch.float32)
        step_optimizer = make_optimizer(optimizer, module, cpu)
        run_step(module, make_inputs(input_templates(loaded, None), torch.float32, cpu, real=True), step_optimizer, "train-step")
        del module, step_optimizer
    kind = torch._C._autograd.DeviceType.CPU
    events = sorted((int(e.start_ns()), int(e.nbytes())) for e in prof.profiler.kineto_results.events()
                    if e.name() == "[memory]" and e.device_type() == kind)
    current = peak = 0
    for _, size in events:
        current += size
        peak = max(peak, current)
    return peak


def test_the_proof_step_on_the_cpu_is_the_process_s_own_reading():
    m = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 256))
    loaded = LoadedModel(spec="mlp", module=m, example_input=torch.randn(32, 256))
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adamw"))
    assert result.fits is True and result.free_bytes is not None
    assert result.measured_peak_bytes is not None, result.measured_reason
    assert "process peak RSS over one real step" in result.measured_reason
    # The estimate itself is exact against the real step's tensor allocations.
    assert 0.99 <= _real_tensor_peak(loaded, "adamw") / result.estimated_peak_bytes <= 1.01
    # The proof ran on a copy: the user's model has no grads and no optimizer afterwards.
    assert all(p.grad is None for p in m.parameters())


def _fifty_gigabytes() -> nn.Module:
    with torch.device("meta"):
        return nn.Sequential(*[nn.Linear(16384, 16384) for _ in range(50)])  # 53.7 GB in float32


def test_a_fifty_gigabyte_meta_model_is_answered_without_allocating_it():
    loaded = LoadedModel(spec="big", module=_fifty_gigabytes())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam", inputs=(((4, 16384), None),)))
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert result.parameters_bytes == 50 * (16384 * 16384 + 16384) * 4
    assert result.optimizer_state_bytes == 2 * result.parameters_bytes + 4 * 100
    assert result.fits is False and result.margin_bytes < 0
    assert result.measured_peak_bytes is None and "does not fit" in result.measured_reason
    assert grown_kib < 512 * 1024  # far below the 50 GB a real allocation would need
    assert all(p.device.type == "meta" for p in loaded.module.parameters())


def test_tied_weights_count_once():
    loaded = _tied()
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="sgd", mode="forward", measure=False))
    expected = (50 * 12 + 12 * 12 + 12) * 4  # the head shares the embedding's weight
    assert result.parameters_bytes == expected


@pytest.mark.cpu_only
def test_an_absent_device_gets_an_estimate_but_no_fit_verdict():
    result = estimate_fit(example_model(), FitRequest(device="cuda", optimizer="adam"))
    assert result.device == "cuda:0" and result.device_present is False
    assert result.fits is None and result.free_bytes is None and result.measured_peak_bytes is None
    assert result.parameters_bytes == 44
    assert "not present" in result.notes[0]


def test_two_inputs_for_a_transformer_and_a_clear_error_for_one():
    loaded = LoadedModel(spec="tr", module=nn.Transformer(d_model=16, nhead=2, num_encoder_layers=1,
                                                          num_decoder_layers=1, dim_feedforward=32))
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam", inputs=parse_inputs("5,2,16; 4,2,16"),
                                             measure=False))
    assert result.input_shapes == ((5, 2, 16), (4, 2, 16))
    assert result.activations_bytes > 0
    with pytest.raises(Exception, match=r"could not estimate the train-step on cpu with input \(5, 2, 16\).*tgt"):
        estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam", inputs=parse_inputs("5,2,16")))


def test_input_syntax_and_bad_requests_are_clear():
    assert parse_inputs("8,128:int64") == (((8, 128), "int64"),)
    with pytest.raises(InputError, match="not an input dtype"):
        parse_inputs("8,128:complex")
    with pytest.raises(InputError, match="unknown optimizer"):
        estimate_fit(example_model(), FitRequest(device="cpu", optimizer="lion"))
    with pytest.raises(InputError, match="not a device name"):
        estimate_fit(example_model(), FitRequest(device="gpu0", optimizer="sgd"))


def test_a_model_without_input_still_gets_its_training_state_estimated():
    loaded = LoadedModel(spec="bare", module=nn.Linear(10, 10))
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam"))
    assert result.activations_bytes is None and result.optimizer_state_bytes == 2 * 440 + 2 * 4
    assert result.measured_peak_bytes is None and "input" in result.measured_reason


def test_the_foreach_optimizer_path_cuda_takes_is_estimated_as_measured(monkeypatch):
    # On CUDA torch steps with the foreach kernels (their temporaries are part of the peak);
    # the CPU can run them too, so the estimate of that path is checked here against a real step.
    import inspector.core.measure.fit_step as fit_step

    monkeypatch.setattr(fit_step, "_foreach_default", lambda device: True)
    m = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 128))
    loaded = LoadedModel(spec="mlp", module=m, example_input=torch.randn(16, 128))
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adamw", measure=False))
    assert 0.99 <= _real_tensor_peak(loaded, "adamw") / result.estimated_peak_bytes <= 1.01


def test_fit_results_render_in_the_report():
    from inspector.core.report.html_view import render_html
    from inspector.core.report.markdown_view import render_markdown
    from inspector.core.report.timing_report import build_report

    loaded = example_model()
    result = estimate_fit(loaded, FitRequest(device="cpu", dtype="bfloat16", optimizer="adam", measure=False))
    report = build_report(loaded, fit=[result])
    assert report["fit"][0]["optimizer_state_bytes"] == 2 * 22 + 16
    assert "| cpu | bfloat16 | adam | train-step | 64x3 | 22 B | 22 B | 60 B |" in render_markdown(typed(report))
    assert "<h2>Will it fit?</h2>" in render_html(typed(report))


def test_an_lstm_is_estimated_exactly_without_onednn_and_flagged_with_it():
    lstm = nn.LSTM(8, 16, num_layers=2)
    loaded = LoadedModel(spec="lstm", module=lstm, example_input=torch.randn(5, 3, 8))
    params = sum(p.numel() for p in lstm.parameters()) * 4
    with torch.backends.mkldnn.flags(enabled=False):  # the plain kernels: no hidden workspace
        result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam", measure=False))
        real = _real_tensor_peak(loaded, "adam")
    assert result.parameters_bytes == params and result.optimizer_state_bytes == 2 * params + 4 * 8
    assert 0.99 <= real / result.estimated_peak_bytes <= 1.01
    assert any("recurrent layers" in n for n in result.notes)
