from __future__ import annotations

import gc
import json

import numpy as np
import pytest
import torch
from torch import nn

from inspector.core.errors import Cancelled, InputError, InspectorError
from inspector.core.files.models import LoadedModel, Net, example_model, load_model
from inspector.core.measure import sampling, timing
from inspector.core.measure.model_input import make_input
from inspector.core.measure.run_control import RunControl
from inspector.core.measure.sampling import CHUNK_SAMPLES
from inspector.core.measure.timing import LatencyResult, measure_latency
from tests.fake_clock import FakeClock, TakesTime

DESIGN_LATENCY_KEYS = {
    "device", "dtype", "input_shape", "warmup_ms", "samples_ms",
    "median_ms", "mean_ms", "p5_ms", "p95_ms", "min_ms", "max_ms",
}


# ----------------------------------------------------------------- input shapes (parsing: test_inputs.py)


def test_make_input_from_a_shape_uses_the_models_dtype_and_device():
    loaded = example_model()
    loaded.module.double()
    x = make_input(loaded, (4, 3))
    assert x.shape == (4, 3) and x.dtype == torch.float64 and x.device.type == "cpu"


def test_make_input_casts_floating_example_inputs_and_keeps_integer_ones():
    class TwoInputs(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 3)

        def forward(self, ids, x):
            return self.emb(ids).sum(1) + x

    loaded = LoadedModel("two", TwoInputs().double(), example_input=(torch.tensor([[1, 2]]), torch.randn(1, 3)))
    ids, x = make_input(loaded)
    assert ids.dtype == torch.int64 and x.dtype == torch.float64


def test_no_input_and_no_shape_tells_the_user_to_give_a_shape():
    loaded = LoadedModel("bare", Net())
    with pytest.raises(InputError, match=r"--input-shape 1,3,224,224"):
        measure_latency(loaded, runs=1)


# ----------------------------------------------------------------- forward


def test_forward_keeps_every_sample_and_the_statistics_agree_with_them():
    result = measure_latency(example_model(), runs=25, warmup=4)
    samples = np.array(result.samples_ms)
    # 4 warm-up calls asked for; more where they were not yet steady (core.measure.warm_up)
    assert len(samples) == 25 and len(result.warmup_samples_ms) == result.warmup >= 4 and result.warmup_asked == 4
    assert result.warmup_ms == result.warmup_samples_ms[0]
    assert (samples > 0).all()
    assert result.median_ms == pytest.approx(np.median(samples))
    assert result.mean_ms == pytest.approx(samples.mean())
    assert result.std_ms == pytest.approx(samples.std(ddof=1))
    assert result.min_ms <= result.p5_ms <= result.median_ms <= result.p95_ms <= result.max_ms
    assert (result.device, result.dtype, result.input_shape, result.mode) == ("cpu", "float32", (64, 3), "forward")


def test_default_is_one_hundred_runs():
    assert len(measure_latency(example_model()).samples_ms) == 100


def test_to_dict_has_the_reports_keys_and_is_json_ready():
    d = measure_latency(example_model(), runs=3).to_dict()
    assert DESIGN_LATENCY_KEYS | {"mode", "warmup_samples_ms", "std_ms"} <= set(d)
    assert json.loads(json.dumps(d))["input_shape"] == [64, 3]


def test_input_shape_replaces_the_example_input():
    result = measure_latency(example_model(), runs=2, input_shape=(5, 3))
    assert result.input_shape == (5, 3)


class _Recorder(nn.Module):
    """Records, at every forward, the mode it ran in."""

    seen: list[tuple[bool, bool]] = []

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)
        self.bn = nn.BatchNorm1d(1)

    def forward(self, x):
        _Recorder.seen.append((self.training, torch.is_inference_mode_enabled()))
        return self.bn(self.fc(x))


def test_forward_runs_in_eval_and_inference_mode_and_restores_every_submodules_flag():
    model = _Recorder().train()
    model.bn.eval()  # a user's deliberate choice, which must survive
    running_mean = model.bn.running_mean.clone()
    _Recorder.seen.clear()
    measure_latency(LoadedModel("rec", model, example_input=torch.randn(8, 3)), runs=3, warmup=1)
    assert _Recorder.seen == [(False, True)] * 4
    assert model.training and model.fc.training and not model.bn.training
    assert torch.equal(model.bn.running_mean, running_mean)


def test_forward_on_the_wrong_shape_names_the_shape_given_and_the_one_expected():
    with pytest.raises(InputError) as info:
        measure_latency(example_model(), runs=1, input_shape=(64, 4))
    message = info.value.message
    assert "(64, 4)" in message and "mat1 and mat2" in message and "expects the last dimension to be 3" in message


def test_out_of_memory_in_the_model_is_an_operation_failure_not_bad_input():
    class Hungry(nn.Module):
        def forward(self, x):
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 20.00 GiB")

    with pytest.raises(InspectorError) as info:
        measure_latency(LoadedModel("hungry", Hungry(), example_input=torch.zeros(1)), runs=1)
    assert not isinstance(info.value, InputError) and info.value.kind == "oom"


@pytest.fixture
def collector_on():
    """Automatic collection on for the test (the window's tests leave it to a GUI timer)."""
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_garbage_collector_is_back_on_after_success_and_failure(collector_on):
    measure_latency(example_model(), runs=2)
    assert gc.isenabled()
    with pytest.raises(InputError):
        measure_latency(example_model(), runs=2, input_shape=(2, 7))
    assert gc.isenabled()


# ----------------------------------------------------------------- run count, time, callbacks


def test_min_time_measures_at_least_that_long_and_progress_ends_at_its_total():
    calls: list[tuple[int, int]] = []
    result = measure_latency(example_model(), min_time=0.02, control=RunControl(progress=lambda d, t: calls.append((d, t))))
    # Measured in whole ns, reported in ms: the floats' sum may round a hair under 20 ms.
    assert sum(result.samples_ms) >= 20.0 - 1e-9
    assert calls[0][0] == 0 and calls[-1] == (len(result.samples_ms), len(result.samples_ms))
    done = [d for d, _ in calls]
    assert done == sorted(set(done))  # rises with every chunk, never repeats or goes back
    assert all(b - a <= CHUNK_SAMPLES for a, b in zip(done, done[1:]))


def test_on_sample_streams_every_sample_in_order():
    streamed: list[tuple[int, float]] = []
    result = measure_latency(example_model(), runs=7, control=RunControl(on_sample=lambda i, ms: streamed.append((i, ms))))
    assert [i for i, _ in streamed] == list(range(7))
    assert tuple(ms for _, ms in streamed) == pytest.approx(result.samples_ms)


@pytest.mark.parametrize(
    "kwargs",
    [{"runs": 0}, {"runs": 2, "min_time": 1.0}, {"min_time": -1}, {"mode": "backward"}, {"warmup": 0}],
)
def test_bad_settings_are_input_errors(kwargs):
    with pytest.raises(InputError):
        measure_latency(example_model(), **kwargs)


def test_cancel_stops_between_samples_and_restores_the_train_flag(collector_on):
    loaded = example_model()
    loaded.module.train()
    streamed: list[int] = []
    with pytest.raises(Cancelled):
        measure_latency(
            loaded,
            runs=5 * CHUNK_SAMPLES,
            control=RunControl(on_sample=lambda i, ms: streamed.append(i), should_cancel=lambda: len(streamed) >= 5),
        )
    # Seen at the end of the chunk it was asked in: a few samples later, never the 5000 asked for.
    assert 5 <= len(streamed) <= 5 + CHUNK_SAMPLES
    assert loaded.module.training and gc.isenabled()


@pytest.mark.parametrize("repeat", [1, 3])
def test_stop_ends_the_run_early_keeping_its_samples_as_the_result(collector_on, repeat):
    """Issue 35: "stop and keep what was measured" (the window closed mid-benchmark)."""
    from inspector.core.session import BenchmarkRequest, LoadRequest, Session

    session = Session()
    session.load(LoadRequest("example"))
    session.loaded.module.train()
    streamed: list[int] = []
    result = session.measure(BenchmarkRequest(runs=5 * CHUNK_SAMPLES, repeat=repeat),
                             on_sample=lambda i, ms: streamed.append(i), should_stop=lambda: len(streamed) >= 5)  # fmt: skip
    # The chunk it was asked in ends the run: a few samples, not the 5000 asked for, nor more runs.
    assert 5 <= len(result.samples_ms) <= 5 + CHUNK_SAMPLES and len(result.samples_ms) == len(streamed)
    assert result.median_ms == pytest.approx(float(np.median(result.samples_ms)))
    [said] = [n for n in result.notes if getattr(n, "key", "") == "bench.stopped_early"]
    assert said.startswith(f"stopped early, as asked, after {len(result.samples_ms):,} samples")
    assert not any(getattr(n, "key", "") == "bench.stopped_at_time_cap" for n in result.notes)
    assert session.latencies[-1] is result  # in the session's report
    assert session.loaded.module.training and gc.isenabled()


class _CallLog(nn.Module):
    """A tiny model that writes each forward call into a shared log."""

    def __init__(self, log: list[str]):
        super().__init__()
        self.linear = nn.Linear(3, 1)
        self.log = log

    def forward(self, x):
        self.log.append("call")
        return self.linear(x)


def test_samples_are_timed_back_to_back_with_the_callbacks_between_chunks(monkeypatch):
    # The app's own code between two calls (plot streaming, progress, the cancel check)
    # would land in the next call's caches: the window's figure read 3.6 % above
    # torch.utils.benchmark's on a 20 µs model. Calls now run back to back in chunks.
    monkeypatch.setattr(sampling, "_CHUNK_NS", 10**15)  # chunks end by count only: no clock in the test
    monkeypatch.setattr(sampling, "CHUNK_SAMPLES", 100)  # a few hundred calls, not 10,000
    log: list[str] = []
    loaded = LoadedModel("call-log", _CallLog(log), example_input=torch.zeros(2, 3))
    runs = 2 * 100 + 7
    result = measure_latency(
        loaded,
        runs=runs,
        warmup=1,
        control=RunControl(
            on_sample=lambda i, ms: log.append("sample"),
            progress=lambda done, total: log.append("progress"),
            should_cancel=lambda: log.append("cancel?") is not None,
        ),
    )
    timed = log[log.index("progress") + 1 :]  # after warm-up and the first progress(0, total)
    bursts = "".join("c" if e == "call" else "." for e in timed).split(".")
    calls_per_chunk = [len(b) for b in bursts if b]
    # A first chunk that started slow gives its first calls to the warm-up (a busy machine, the
    # caches): as many more calls come at the end. On a quiet machine none are (7 at the end).
    absorbed = len(result.warmup_samples_ms) - log[: log.index("progress")].count("call")
    assert 0 <= absorbed <= 100 - 7
    assert calls_per_chunk == [100, 100, 7 + absorbed] and len(result.samples_ms) == runs
    assert timed.count("sample") == runs and timed.count("cancel?") == len(calls_per_chunk)


def test_host_clock_samples_leave_out_the_clocks_own_cost(monkeypatch):
    # A sample reads the clock before and after the call, so it holds one gap between two
    # reads (~60 ns here, +0.3 % on a 20 µs call) that torch.utils.benchmark's loop-timed
    # blocks do not: that gap is measured and taken off. Every read of this clock costs
    # 70 ns and every call 10 µs: the samples are the 10 µs, warm-up calls included.
    clock = FakeClock(read_ns=70)
    monkeypatch.setattr(sampling, "_clock", clock)
    loaded = LoadedModel("takes-time", TakesTime(clock, call_ns=10_000), example_input=torch.zeros(2, 3))
    result = measure_latency(loaded, runs=30, warmup=2)
    assert result.samples_ms == pytest.approx([0.01] * 30, rel=1e-9)
    assert result.warmup_samples_ms == pytest.approx([0.01] * 2, rel=1e-9) and result.median_ms == pytest.approx(0.01)


def test_without_device_events_each_sample_waits_for_the_device_on_both_sides(monkeypatch):
    # An MPS model (no events there): the host clock, the device synchronised before the call
    # (outside the sample) and after it (inside: the device's work is part of the call).
    clock = FakeClock(read_ns=70)
    syncs: list[int] = []

    def synchronize(device):
        syncs.append(clock.now)
        clock.now += 1_000  # the device finishing its queued work

    monkeypatch.setattr(sampling, "_clock", clock)
    monkeypatch.setattr(timing, "_accelerators", lambda module: {torch.device("mps")})
    monkeypatch.setattr(timing, "synchronize", synchronize)
    loaded = LoadedModel("takes-time", TakesTime(clock, call_ns=10_000), example_input=torch.zeros(2, 3))
    result = measure_latency(loaded, runs=6, warmup=1)
    assert result.timer == "host clock" and len(syncs) == 2 * (1 + 6)
    assert result.samples_ms == pytest.approx([0.011] * 6, rel=1e-9)  # the call and the wait after it


def test_a_clock_that_costs_more_than_the_call_never_gives_a_negative_sample(monkeypatch):
    clock = FakeClock(read_ns=500)
    monkeypatch.setattr(sampling, "_clock", clock)
    monkeypatch.setattr(sampling, "clock_cost_ns", lambda clock: 900)  # a cost estimate above one gap
    loaded = LoadedModel("takes-time", TakesTime(clock, call_ns=100), example_input=torch.zeros(2, 3))
    assert measure_latency(loaded, runs=5, warmup=1).samples_ms == (0.0,) * 5


# ----------------------------------------------------------------- train-step


def _state(loaded: LoadedModel) -> dict[str, torch.Tensor]:
    """Every tensor a train step could touch, cloned."""
    out = {f"p.{n}": p.detach().clone() for n, p in loaded.module.named_parameters()}
    out.update({f"g.{n}": p.grad.clone() for n, p in loaded.module.named_parameters() if p.grad is not None})
    for i, (p, s) in enumerate(loaded.optimizer.state.items() if loaded.optimizer else ()):
        out.update({f"o.{i}.{k}": v.clone() for k, v in s.items() if isinstance(v, torch.Tensor)})
    return out


def _assert_bitwise_equal(before: dict, after: dict) -> None:
    assert before.keys() == after.keys()
    for name in before:
        assert torch.equal(before[name], after[name]), name


def _trained_with_adam() -> LoadedModel:
    loaded = example_model()
    loaded.optimizer = torch.optim.Adam(loaded.module.parameters(), lr=0.1)
    loaded.module(loaded.example_input).sum().backward()
    loaded.optimizer.step()  # now there is optimizer state (exp_avg, exp_avg_sq, step) and grads
    return loaded


def test_train_step_leaves_parameters_grads_and_optimizer_state_bitwise_unchanged():
    loaded = _trained_with_adam()
    before = _state(loaded)
    assert any(k.startswith("o.") for k in before) and any(k.startswith("g.") for k in before)
    result = measure_latency(loaded, mode="train-step", runs=5)
    _assert_bitwise_equal(before, _state(loaded))
    assert result.mode == "train-step" and len(result.samples_ms) == 5
    assert any("Adam" in note for note in result.notes)
    assert loaded.module.training  # the user's flag, untouched


def test_train_step_really_trains_the_copy_in_train_mode():
    model = _Recorder().eval()
    _Recorder.seen.clear()
    loaded = LoadedModel("rec", model, example_input=torch.randn(8, 3))
    measure_latency(loaded, mode="train-step", runs=2, warmup=1)
    assert _Recorder.seen == [(True, False)] * 3
    assert not model.training


def test_train_step_without_an_optimizer_uses_sgd_on_a_copy_and_says_so():
    loaded = example_model()
    loaded.optimizer = None
    before = _state(loaded)
    result = measure_latency(loaded, mode="train-step", runs=3)
    _assert_bitwise_equal(before, _state(loaded))
    assert any("SGD(lr=0.01)" in note for note in result.notes)


def test_train_step_works_even_when_called_under_no_grad():
    with torch.no_grad():
        result = measure_latency(example_model(), mode="train-step", runs=2)
    assert len(result.samples_ms) == 2


def test_train_step_on_a_frozen_model_is_a_clear_input_error():
    loaded = example_model()
    loaded.optimizer = None
    loaded.module.requires_grad_(False)
    with pytest.raises(InputError, match="trainable"):
        measure_latency(loaded, mode="train-step", runs=1)


def test_cancelled_train_step_leaves_the_model_untouched(monkeypatch):
    monkeypatch.setattr(sampling, "CHUNK_SAMPLES", 10)  # cancel checks after every 10 steps
    loaded = _trained_with_adam()
    before = _state(loaded)
    count = iter(range(100))
    with pytest.raises(Cancelled):
        measure_latency(loaded, mode="train-step", runs=50, control=RunControl(should_cancel=lambda: next(count) >= 4))
    _assert_bitwise_equal(before, _state(loaded))


def test_result_is_frozen():
    result = measure_latency(example_model(), runs=1)
    assert isinstance(result, LatencyResult)
    with pytest.raises(AttributeError):
        result.median_ms = 0.0


# ----------------------------------------------------------------- saved models


class _NormNet(nn.Module):
    """Linear + BatchNorm + Dropout: a forward in train mode would show (stats, dropout)."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 4)
        self.norm = nn.BatchNorm1d(4)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.norm(self.linear(x)))


def _buffers(module: nn.Module) -> dict[str, torch.Tensor]:
    return {n: b.clone() for n, b in module.named_buffers()}


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_an_exported_program_benchmarks_forward_and_train_step(tmp_path):
    """ExportedProgram.module() raises NotImplementedError from eval()/train(): not an input error."""
    path = tmp_path / "net.pt2"
    torch.export.save(torch.export.export(_NormNet(), (torch.randn(8, 3),)), str(path))
    loaded = load_model(str(path))
    params, buffers = _state(loaded), _buffers(loaded.module)

    forward = measure_latency(loaded, runs=3)
    step = measure_latency(loaded, mode="train-step", runs=3)

    for result in (forward, step):
        assert len(result.samples_ms) == 3 and result.input_shape == (8, 3)
        assert any("an exported program runs in the mode it was exported in" in n for n in result.notes)
    _assert_bitwise_equal(params, _state(loaded))
    # Exported in training mode, its forward updates BatchNorm's statistics: they are put back.
    _assert_bitwise_equal(buffers, _buffers(loaded.module))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_torchscript_model_benchmarks_forward_and_train_step(tmp_path):
    path = tmp_path / "net.pt"
    torch.jit.save(torch.jit.script(_NormNet()), str(path))
    loaded = load_model(str(path))
    assert loaded.source == "torchscript" and loaded.module.training
    params, buffers = _state(loaded), _buffers(loaded.module)

    forward = measure_latency(loaded, runs=3, input_shape=(8, 3))
    # A scripted module's deepcopy gives non-leaf parameters, which no optimizer takes.
    step = measure_latency(loaded, mode="train-step", runs=3, input_shape=(8, 3))

    assert len(forward.samples_ms) == len(step.samples_ms) == 3
    assert any("SGD(lr=0.01) on a copy" in n for n in step.notes)
    assert loaded.module.training  # eval() for the forward, then the flag back
    _assert_bitwise_equal(params, _state(loaded))
    _assert_bitwise_equal(buffers, _buffers(loaded.module))  # eval(): no statistics updated


def test_a_model_whose_eval_is_not_implemented_runs_in_its_own_mode_with_a_note():
    class NoModes(Net):
        def eval(self):
            raise NotImplementedError("Calling eval() is not supported yet.")

    result = measure_latency(LoadedModel("no-modes", NoModes(), example_input=torch.zeros(2, 3)), runs=2)
    assert len(result.samples_ms) == 2
    assert any("model.eval() is not supported by this model" in n for n in result.notes)


class _FailingBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("backward kernel missing for this layer")


def test_only_a_failing_forward_call_is_blamed_on_the_input():
    class BadBackward(Net):
        def forward(self, x):
            return _FailingBackward.apply(super().forward(x))

    loaded = LoadedModel("bad-backward", BadBackward(), example_input=torch.zeros(2, 3))
    assert measure_latency(loaded, runs=1).samples_ms  # the forward itself is fine
    with pytest.raises(InspectorError) as backward:
        measure_latency(loaded, mode="train-step", runs=1)
    assert not isinstance(backward.value, InputError)
    assert backward.value.message == "the training step failed on cpu: backward kernel missing for this layer"

    def broken_callback(index, ms):
        raise ValueError("the plot went away")

    with pytest.raises(InspectorError) as callback:
        measure_latency(example_model(), runs=2, control=RunControl(on_sample=broken_callback))
    assert not isinstance(callback.value, InputError) and "input" not in callback.value.message

    class BrokenEval(Net):
        def eval(self):
            raise RuntimeError("eval() needs a calibration file")

    with pytest.raises(InspectorError) as eval_failed:
        measure_latency(LoadedModel("broken-eval", BrokenEval(), example_input=torch.zeros(2, 3)), runs=1)
    assert not isinstance(eval_failed.value, InputError)
    assert "calibration file" in eval_failed.value.message


def test_a_forward_that_fails_mid_measurement_is_reported_as_it_would_be_in_warm_up():
    # Past the warm-up, samples come from the lean CPU loop: a failure there reads the same.
    class FailsLater(Net):
        calls = 0

        def forward(self, x):
            type(self).calls += 1
            if type(self).calls > 5:
                raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)")
            return super().forward(x)

    loaded = LoadedModel("fails-later", FailsLater(), example_input=torch.zeros(2, 3))
    with pytest.raises(InputError) as failed:
        measure_latency(loaded, runs=10, warmup=3)
    assert failed.value.message.startswith("the model's forward pass failed on an input of shape (2, 3)")
    assert "expects the last dimension to be 4, not 3" in failed.value.message

    class BackwardFailsLater(Net):
        calls = 0

        def forward(self, x):
            type(self).calls += 1
            out = super().forward(x)
            return _FailingBackward.apply(out) if type(self).calls > 5 else out

    with pytest.raises(InspectorError) as backward:
        measure_latency(LoadedModel("b", BackwardFailsLater(), example_input=torch.zeros(2, 3)), mode="train-step", runs=10, warmup=3)
    assert not isinstance(backward.value, InputError) and backward.value.message.startswith("the training step failed")


def test_a_models_own_error_that_mentions_memory_is_not_taken_for_out_of_memory():
    class Picky(nn.Module):
        def forward(self, x):
            raise ValueError("sequence too long: the KV cache would run out of memory")

    with pytest.raises(InputError) as info:
        measure_latency(LoadedModel("picky", Picky(), example_input=torch.zeros(1)), runs=1)
    assert info.value.kind == "input" and "KV cache" in info.value.message


# ----------------------------------------------------------------- CUDA


@pytest.mark.cuda
def test_cuda_forward_and_train_step_report_the_gpu_and_leave_the_model_alone():
    loaded = _trained_with_adam()
    loaded.module.cuda()
    loaded.optimizer.load_state_dict(loaded.optimizer.state_dict())  # state follows the params
    before = _state(loaded)
    forward = measure_latency(loaded, runs=5)
    step = measure_latency(loaded, mode="train-step", runs=5)
    assert forward.device == "cuda:0" and step.device == "cuda:0"
    assert len(forward.samples_ms) == 5 and forward.min_ms > 0
    _assert_bitwise_equal(before, _state(loaded))


def test_a_results_statistics_are_its_samples_and_cannot_disagree_with_them():
    """As torch.utils.benchmark's Measurement derives its from raw_times (issue 37): a result
    given other samples has their figures, and the wire still sends them to older clients."""
    import dataclasses

    import numpy as np

    from inspector.core.files.models import example_model
    from inspector.core.measure.timing import LatencyResult, measure_latency
    from inspector.core.remote.wire import decode, encode

    result = measure_latency(example_model(), runs=12)
    other = dataclasses.replace(result, samples_ms=(1.0, 2.0, 3.0, 4.0, 100.0))
    assert other.median_ms == 3.0 and other.max_ms == 100.0 and other.min_ms == 1.0
    assert other.p95_ms == float(np.percentile(other.samples_ms, 95))
    assert "median_ms" not in {f.name for f in dataclasses.fields(LatencyResult)}
    sent = encode(other)
    assert sent["median_ms"] == 3.0  # for a client of protocol 1.2 or older, which reads it as a field
    back = decode(LatencyResult, sent, "latency")
    assert back.samples_ms == other.samples_ms and back.median_ms == 3.0
    without = {k: v for k, v in sent.items() if k not in LatencyResult.__wire_also__}
    assert decode(LatencyResult, without, "latency").p95_ms == other.p95_ms  # the samples say it
