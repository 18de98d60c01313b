"""A failed move leaves every kind of module exactly as it was.

The matrix: module kinds x the tensor the failure hits (every one) x PyTorch's two
conversion paths (``param.data = ...`` and ``swap_tensors``) x optimizers (SGD with momentum,
Adam). After the failure the forward output is bitwise equal to before, every parameter is
the same object with the same data, attributes and hooks, buffers and grads are the same,
and the optimizer still steps the module's own parameters.
"""

from __future__ import annotations

import functools
import itertools
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import torch
from torch import nn
from torch.nn.utils import parametrizations
from torch.testing._internal.two_tensor import TwoTensor

from inspector.core.moves import seam
from inspector.core.moves import rollback
from inspector.core.files.models import LoadedModel
from inspector.core.moves.device_map import apply_device_map
from inspector.core.moves.device_map_file import parse_device_map
from inspector.core.moves.price import preview_move
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import move_model
from tests.fake_cuda import fake_cuda

CAST = MoveRequest("to", dtype="float64")


# ----------------------------------------------------------------------------- the kinds


class TwoTensorNet(nn.Module):
    """A parameter that is a tensor subclass holding two inner tensors."""

    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(TwoTensor(torch.randn(4, 3), torch.randn(4, 3)))
        self.bias = nn.Parameter(torch.randn(3))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight + self.bias


class ExtraApply(nn.Module):
    """A custom ``_apply`` that converts two extra tensors: one rebound, one in place."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(4, 3)
        self.scale = torch.rand(3) + 0.5  # a plain attribute, not a buffer
        self.shift = torch.randn(3)

    def _apply(self, fn: Callable[[torch.Tensor], torch.Tensor], recurse: bool = True) -> nn.Module:
        super()._apply(fn, recurse)
        self.scale = fn(self.scale)
        self.shift.data = fn(self.shift)
        return self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x) * self.scale + self.shift


class Attention(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.attn = nn.MultiheadAttention(4, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.attn(x, x, x)[0]


class Recurrent(nn.Module):
    def __init__(self, cls: type[nn.RNNBase]) -> None:
        super().__init__()
        self.rnn = cls(3, 4, num_layers=2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.rnn(x)[0]


class Tied(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.head = nn.Linear(4, 10, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.embed(x))


class OddStrides(nn.Module):
    """Parameters a fresh ``Linear`` never has: a transposed weight, a channels-last
    convolution, and two parameters that are views into one shared storage (as cuDNN's
    flattened RNN weights are), one of them at an offset; and two buffers a storage alone
    cannot rebuild: a negative view (its sign is a bit, not in the storage) and one element
    expanded at an offset (stride 0: as many elements as its storage holds, all one)."""

    def __init__(self) -> None:
        super().__init__()
        self.transposed = nn.Parameter(torch.randn(3, 4).t())
        self.conv = nn.Conv2d(2, 3, 2).to(memory_format=torch.channels_last)
        shared = torch.randn(16)
        self.first = nn.Parameter(shared[:8].view(2, 4))
        self.second = nn.Parameter(shared[8:].view(4, 2))
        self.register_buffer("negated", torch._neg_view(torch.randn(2)))
        self.register_buffer("expanded", torch.randn(2).as_strided((2,), (0,), 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        image = self.conv(x.view(2, 2, 2, 2).contiguous(memory_format=torch.channels_last)).flatten(1)
        hidden = x[:, :4] @ self.transposed + image
        out = hidden @ self.first[:, :3].t() + x[:, 4:] @ self.second
        return out * self.negated + self.expanded


def _tokens() -> torch.Tensor:
    return torch.tensor([[0, 3, 5], [7, 0, 9]])


@dataclass(frozen=True)
class Kind:
    build: Callable[[], nn.Module]
    example: Callable[[], torch.Tensor]


KINDS: dict[str, Kind] = {
    "linear": Kind(lambda: nn.Linear(4, 3), lambda: torch.randn(2, 4)),
    "conv-batchnorm": Kind(
        lambda: nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3), nn.Flatten(), nn.Linear(12, 2)),
        lambda: torch.randn(2, 2, 4, 4),
    ),
    "lstm": Kind(lambda: Recurrent(nn.LSTM), lambda: torch.randn(5, 2, 3)),
    "gru": Kind(lambda: Recurrent(nn.GRU), lambda: torch.randn(5, 2, 3)),
    "rnn": Kind(lambda: Recurrent(nn.RNN), lambda: torch.randn(5, 2, 3)),
    "embedding-padding": Kind(
        lambda: nn.Sequential(nn.Embedding(10, 4, padding_idx=0), nn.Linear(4, 2)), _tokens
    ),
    "multihead-attention": Kind(Attention, lambda: torch.randn(3, 2, 4)),
    "two-tensor": Kind(TwoTensorNet, lambda: torch.randn(2, 4)),
    "weight-norm": Kind(lambda: parametrizations.weight_norm(nn.Linear(4, 3)), lambda: torch.randn(2, 4)),
    "spectral-norm": Kind(lambda: parametrizations.spectral_norm(nn.Linear(4, 3)), lambda: torch.randn(2, 4)),
    "tied": Kind(Tied, _tokens),
    "custom-apply": Kind(ExtraApply, lambda: torch.randn(2, 4)),
    "odd-strides": Kind(OddStrides, lambda: torch.randn(2, 8)),
}


def _build(kind: str, optimizer: str) -> LoadedModel:
    """A tiny trained model: optimizer state made, grads left in place, in eval mode."""
    torch.manual_seed(0)
    spec = KINDS[kind]
    model = spec.build()
    x = spec.example()
    if optimizer == "sgd":
        opt: torch.optim.Optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    else:
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(2):  # the first step makes optimizer state, the second leaves grads
        opt.zero_grad()
        model(x).float().square().mean().backward()
        if step == 0:
            opt.step()
    model.eval()  # spectral norm's power iteration and batch-norm statistics stay put
    return LoadedModel(spec=kind, module=model, optimizer=opt, example_input=x)


@functools.cache
def _tensor_count(kind: str) -> int:
    """How many tensors a cast of this kind hands to Tensor.to (grads included)."""
    return _converted(_build(kind, "sgd").module, lambda module: module.to(torch.float64))


def _converted(module: nn.Module, convert: Callable[[nn.Module], Any]) -> int:
    """How many distinct tensors ``convert(module)`` hands to Tensor.to."""
    seen: list[torch.Tensor] = []
    original_to = torch.Tensor.to

    @functools.wraps(original_to)
    def counting_to(self: torch.Tensor, *args: Any, **kwargs: Any) -> Any:
        if not _seen(self, seen):
            seen.append(self)
        return original_to(self, *args, **kwargs)

    torch.Tensor.to = counting_to  # type: ignore[method-assign]
    try:
        convert(module)
    finally:
        torch.Tensor.to = original_to  # type: ignore[method-assign]
    return len(seen)


def _seen(tensor: torch.Tensor, seen: list[torch.Tensor]) -> bool:
    """By identity, holding the tensors: a grad's Python object is made on first access and
    can reuse the ``id`` of a buffer the move already replaced, so counting ids miscounted
    (a kind's count, so the matrix, changed from run to run)."""
    return any(t is tensor for t in seen)


MATRIX = [(kind, k) for kind in KINDS for k in range(_tensor_count(kind))]


# ----------------------------------------------------------------------------- checks


@dataclass
class Before:
    output: torch.Tensor
    params: dict[str, tuple[nn.Parameter, torch.Tensor, torch.Tensor | None, torch.Tensor | None, dict]]
    buffers: dict[str, tuple[torch.Tensor, torch.Tensor]]
    attributes: dict[int, dict[str, Any]]


def _forward(loaded: LoadedModel) -> torch.Tensor:
    with torch.no_grad():
        return _values(loaded.module(loaded.example_input))


def _values(t: torch.Tensor) -> torch.Tensor:
    """A plain copy of a tensor's values (both inner tensors of a TwoTensor)."""
    if isinstance(t, TwoTensor):
        return torch.stack([t.a.detach().clone(), t.b.detach().clone()])
    return t.detach().clone()


def _same(t: torch.Tensor, saved: torch.Tensor) -> bool:
    values = _values(t)
    # A clone keeps a dense tensor's strides: a transposed or channels-last one comes back so.
    strides = isinstance(t, TwoTensor) or values.stride() == saved.stride()
    return values.dtype == saved.dtype and values.device == saved.device and strides and torch.equal(values, saved)


def _record(loaded: LoadedModel) -> Before:
    module = loaded.module
    params = {}
    for name, p in module.named_parameters():
        p.tagged = f"tag of {name}"  # an attribute a user (or a library) set
        grad = p.grad
        params[name] = (p, _values(p), grad, None if grad is None else _values(grad), dict(p.__dict__))
    buffers = {name: (b, _values(b)) for name, b in module.named_buffers()}
    # Weak references as their referents: a live one to a parameter blocks swap_tensors.
    attributes = {id(m): {k: _strong(v) for k, v in m.__dict__.items()} for m in module.modules()}
    return Before(_forward(loaded), params, buffers, attributes)


def _strong(value: Any) -> Any:
    if isinstance(value, list) and value and isinstance(value[0], weakref.ref):
        return _Referents(r() for r in value)
    return value


class _Referents(tuple):
    """What a list of weak references pointed to."""


def _hooked(loaded: LoadedModel) -> list[str]:
    """A grad hook on every parameter; the list fills as backward runs them."""
    fired: list[str] = []
    for name, p in loaded.module.named_parameters():
        p.register_hook(functools.partial(lambda name, grad: fired.append(name), name))
    return fired


def _assert_as_before(loaded: LoadedModel, before: Before) -> None:
    module = loaded.module
    assert torch.equal(_forward(loaded), before.output), "the forward output changed"
    params = dict(module.named_parameters())
    assert params.keys() == before.params.keys()
    for name, p in params.items():
        original, values, grad, grad_values, attributes = before.params[name]
        assert p is original, f"{name} is a different Parameter object"
        assert type(p) is type(original)
        assert _same(p, values), f"{name} changed"
        assert p.requires_grad
        assert p.__dict__ == attributes, f"{name} lost its attributes"
        assert p.grad is grad, f"{name}.grad is a different tensor"
        if grad is not None:
            assert _same(p.grad, grad_values), f"{name}.grad changed"
    buffers = dict(module.named_buffers())
    assert buffers.keys() == before.buffers.keys()
    for name, (original, values) in before.buffers.items():
        assert buffers[name] is original, f"buffer {name} was replaced"
        assert _same(buffers[name], values), f"buffer {name} changed"
    for m in module.modules():
        now = m.__dict__
        saved = before.attributes[id(m)]
        assert now.keys() == saved.keys(), f"{type(m).__name__} attributes changed"
        for key, value in saved.items():
            if isinstance(value, _Referents):
                # An RNN's weak references to its weights: made afresh, to the same weights.
                assert all(r() is w for r, w in zip(now[key], value, strict=True))
            elif isinstance(value, (torch.Tensor, list)):
                assert now[key] is value, f"{type(m).__name__}.{key} was replaced"


def _assert_trains(loaded: LoadedModel, fired: list[str]) -> None:
    module = loaded.module.train()
    params = list(module.parameters())
    before = [_values(p) for p in params]
    loaded.optimizer.zero_grad()
    module(loaded.example_input).float().square().mean().backward()
    assert set(fired) == {name for name, _ in module.named_parameters()}, "a grad hook did not fire"
    loaded.optimizer.step()
    assert any(not torch.equal(b, _values(p)) for b, p in zip(before, params)), "the step changed nothing"
    opt_params = [p for group in loaded.optimizer.param_groups for p in group["params"]]
    assert len(opt_params) == len(params) and all(a is b for a, b in zip(opt_params, params))


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """Tiny models: one thread is faster than waking a pool on a shared machine."""
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


@pytest.fixture(params=[False, True], ids=["set-data", "swap-tensors"])
def conversion(request: pytest.FixtureRequest) -> Any:
    previous = torch.__future__.get_swap_module_params_on_conversion()
    torch.__future__.set_swap_module_params_on_conversion(request.param)
    yield request.param
    torch.__future__.set_swap_module_params_on_conversion(previous)


class Injected(RuntimeError):
    pass


def _failing_at(k: int) -> Callable[..., Any]:
    """A ``Tensor.to`` that fails on the k-th distinct tensor it converts."""
    original_to = torch.Tensor.to
    sources: list[torch.Tensor] = []

    @functools.wraps(original_to)
    def failing_to(self: torch.Tensor, *args: Any, **kwargs: Any) -> Any:
        if not _seen(self, sources):
            sources.append(self)
            if len(sources) == k + 1:
                raise Injected(f"injected failure at tensor {k}")
        return original_to(self, *args, **kwargs)

    return failing_to


# ----------------------------------------------------------------------------- the matrix


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
@pytest.mark.parametrize(("kind", "k"), MATRIX, ids=[f"{kind}-{k}" for kind, k in MATRIX])
def test_failure_at_every_tensor_leaves_the_module_as_it_was(conversion, optimizer, kind, k, monkeypatch):
    loaded = _build(kind, optimizer)
    before = _record(loaded)
    fired = _hooked(loaded)
    monkeypatch.setattr(torch.Tensor, "to", _failing_at(k))
    result = move_model(loaded, CAST)
    monkeypatch.undo()
    assert not result.ok and result.error.kind == "error"
    assert f"injected failure at tensor {k}" in result.error.message
    _assert_as_before(loaded, before)
    _assert_trains(loaded, fired)


@pytest.mark.parametrize("entries", ["storage", "tensor"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_cancel_before_every_tensor_leaves_the_module_as_it_was(conversion, kind, entries, monkeypatch):
    """``entries``: small originals are logged as storage objects, big ones (over
    ``STORAGE_ENTRY_MAX_BYTES``, none in these tiny models) as Tensor aliases: both rebuilt."""
    monkeypatch.setattr(seam, "CHECK_INTERVAL_S", 0.0)
    if entries == "tensor":
        monkeypatch.setattr(rollback, "STORAGE_ENTRY_MAX_BYTES", 0)
    for k in range(_tensor_count(kind)):
        loaded = _build(kind, "adam")
        before = _record(loaded)
        fired = _hooked(loaded)
        asked: list[int] = []
        result = move_model(loaded, CAST, should_cancel=lambda: asked.append(1) or len(asked) == k + 1)
        assert result.error is not None and result.error.kind == "cancelled", (kind, k)
        _assert_as_before(loaded, before)
        _assert_trains(loaded, fired)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_moves_and_still_works(conversion, kind):
    loaded = _build(kind, "sgd")
    result = move_model(loaded, CAST)
    assert result.ok, result.error
    assert all(p.dtype == torch.float64 for p in loaded.module.parameters())
    assert _forward(loaded).dtype == torch.float64
    assert result.peak_bytes["cpu"] > 0


def test_parameters_sharing_one_storage_share_it_again_after_a_rollback(conversion, monkeypatch):
    loaded = _build("odd-strides", "sgd")
    module = loaded.module
    storage = module.first.untyped_storage().data_ptr()
    monkeypatch.setattr(seam, "CHECK_INTERVAL_S", 0.0)
    calls = iter(range(1_000))
    result = move_model(loaded, CAST, should_cancel=lambda: next(calls) == 4)
    assert result.error is not None and result.error.kind == "cancelled"
    assert module.first.untyped_storage().data_ptr() == storage == module.second.untyped_storage().data_ptr()
    assert module.second.storage_offset() == 8 and module.transposed.stride() == (1, 4)
    assert module.conv.weight.is_contiguous(memory_format=torch.channels_last)


def test_a_recurrent_module_after_a_rollback_matches_a_fresh_copy(monkeypatch):
    """The bug that started this: an LSTM's forward raised after a rolled-back cast."""
    monkeypatch.setattr(seam, "CHECK_INTERVAL_S", 0.0)
    loaded = _build("lstm", "sgd")
    expected = _forward(loaded)
    result = move_model(loaded, CAST, should_cancel=iter([False, False, True]).__next__)
    assert result.error.kind == "cancelled"
    assert torch.equal(_forward(loaded), expected)
    assert loaded.module.rnn._flat_weights[0] is loaded.module.rnn.weight_ih_l0


# ----------------------------------------------------------------------------- what is said before


def test_preview_states_the_peak_before_a_cast():
    loaded = _build("linear", "sgd")
    model_bytes = sum(t.nbytes for t in [*loaded.module.parameters(), *(p.grad for p in loaded.module.parameters())])
    preview = preview_move(loaded, CAST)
    assert preview.model_bytes == {"cpu": model_bytes}
    assert preview.copy_bytes == {"cpu": 2 * model_bytes}  # float64 copies
    assert preview.peak_bytes == {"cpu": 3 * model_bytes}
    assert preview.refusal is None and preview.warnings == ()
    result = move_model(loaded, CAST)
    assert result.peak_bytes == preview.peak_bytes


def test_a_custom_apply_is_named_before_the_move():
    loaded = _build("custom-apply", "sgd")
    preview = preview_move(loaded, CAST)
    assert len(preview.warnings) == 1 and preview.warnings[0].startswith("ExtraApply has its own _apply()")
    result = move_model(loaded, CAST)
    assert result.ok and result.warnings == preview.warnings
    for kind in ("lstm", "weight-norm", "tied", "two-tensor"):
        assert preview_move(_build(kind, "sgd"), CAST).warnings == (), kind


@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_sparse_tensors_move_and_roll_back(conversion, layout, monkeypatch):
    monkeypatch.setattr(seam, "CHECK_INTERVAL_S", 0.0)
    dense = torch.tensor([[0.0, 1.5], [2.0, 0.0]])
    sparse = dense.to_sparse() if layout == "coo" else dense.to_sparse_csr()
    module = nn.Linear(2, 2)
    module.register_buffer("mask", sparse)
    loaded = LoadedModel(spec="sparse", module=module)
    buffer = module.mask
    weight = module.weight.detach().clone()

    result = move_model(loaded, CAST, should_cancel=iter([False, False, True]).__next__)
    assert result.error.kind == "cancelled"
    assert module.mask is buffer and module.weight.dtype == torch.float32
    assert torch.equal(module.weight.detach(), weight)

    result = move_model(loaded, CAST)
    assert result.ok, result.error
    assert module.mask.dtype == torch.float64 and module.mask.layout == sparse.layout
    assert torch.equal(module.mask.to_dense(), dense.double())
    assert result.bytes > 0


def test_quantized_modules_are_refused_a_device_move_before_it_starts(monkeypatch):
    fake_cuda(monkeypatch, count=1)  # the refusal comes before any copy, so a fake GPU will do
    model = nn.Sequential(torch.ao.nn.quantized.Linear(4, 4))
    loaded = LoadedModel(spec="quantized", module=model)
    preview = preview_move(loaded, MoveRequest("to", "cuda:0"))
    assert preview.refusal is not None and "quantized" in preview.refusal
    result = move_model(loaded, MoveRequest("to", "cuda:0"))
    assert not result.ok and result.error.kind == "refused"
    assert result.error.message == preview.refusal
    # A cast leaves quantized weights alone, as Module.to does: allowed, with a warning.
    cast = move_model(loaded, CAST)
    assert cast.ok and any("packed" in w for w in cast.warnings)


def test_the_gpu_checks_lstm_rollback_logic_holds_on_the_cpu():
    """benchmarks/gpu_check.py runs this on CUDA where a GPU is lent; here its logic is checked."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "benchmarks" / "gpu_check.py"
    spec = importlib.util.spec_from_file_location("gpu_check", path)
    gpu_check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gpu_check)
    results = gpu_check.lstm_rollback("cpu")
    assert len(results) == 3
    assert all(ok for _, ok, _ in results), results


@pytest.mark.parametrize("kind", ["torchscript", "transformer"])
def test_scripted_and_transformer_models_roll_back_at_every_tensor(kind, monkeypatch):
    """TorchScript keeps parameters in C++ behind dict-like wrappers; a Transformer has
    many kinds of layers. Both roll back exactly wherever the move is cancelled."""
    monkeypatch.setattr(seam, "CHECK_INTERVAL_S", 0.0)
    torch.manual_seed(0)
    if kind == "torchscript":
        model: nn.Module = torch.jit.script(nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2)))
        inputs: tuple[torch.Tensor, ...] = (torch.randn(2, 4),)
    else:
        model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16)
        model.eval()
        inputs = (torch.randn(5, 2, 8), torch.randn(4, 2, 8))
    loaded = LoadedModel(spec=kind, module=model, example_input=inputs)
    with torch.no_grad():
        expected = model(*inputs)
    params = list(model.parameters())
    values = [p.detach().clone() for p in params]
    for k in range(len(params)):
        asked: list[int] = []
        result = move_model(loaded, CAST, should_cancel=lambda: asked.append(1) or len(asked) == k + 1)
        assert result.error is not None and result.error.kind == "cancelled", k
        assert all(a is b for a, b in zip(model.parameters(), params, strict=True))
        assert all(torch.equal(p.detach(), v) and p.dtype == v.dtype for p, v in zip(params, values))
        with torch.no_grad():
            assert torch.equal(model(*inputs), expected), k
    assert move_model(loaded, CAST).ok
    with torch.no_grad():
        assert model(*loaded.example_input).dtype == torch.float64


def _many_small() -> LoadedModel:
    with torch.no_grad():
        model = nn.Sequential(*[nn.Linear(4, 4) for _ in range(500)])  # 1,000 tensors
    return LoadedModel(spec="many", module=model)


def test_by_default_progress_and_cancel_come_every_few_ms_not_every_tensor():
    loaded = _many_small()
    total = sum(p.nbytes for p in loaded.module.parameters())
    calls: list[tuple[int, int]] = []
    asked: list[int] = []
    result = move_model(
        loaded, CAST, progress=lambda d, t: calls.append((d, t)), should_cancel=lambda: asked.append(1) or False
    )
    assert result.ok
    assert 1 <= len(asked) < 1000  # before the first tensor, then every CHECK_INTERVAL_S
    assert calls[-1] == (total, total)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    # A cancel asked for before the move starts stops it before any tensor is converted.
    loaded = _many_small()
    stopped = move_model(loaded, CAST, should_cancel=lambda: True)
    assert stopped.error.kind == "cancelled" and stopped.bytes == 0
    assert all(p.dtype == torch.float32 for p in loaded.module.parameters())


def test_seconds_are_the_calls_not_our_callbacks(monkeypatch):
    """A slow progress callback (a GUI busy repainting) does not inflate the receipt."""
    import time

    monkeypatch.setattr(seam, "CHECK_INTERVAL_S", 0.0)
    loaded = _many_small()
    slept: list[float] = []

    def slow_progress(done: int, total: int) -> None:
        if len(slept) < 20:
            time.sleep(0.005)
            slept.append(0.005)

    start = time.perf_counter()
    result = move_model(loaded, CAST, progress=slow_progress)
    wall = time.perf_counter() - start
    assert result.ok and len(slept) == 20
    assert result.seconds <= wall - sum(slept)


def test_a_rollback_that_breaks_says_the_model_is_not_as_before(monkeypatch):
    """A bug in the rollback must not turn into "as it was before", nor into an exception."""
    monkeypatch.setattr(seam, "CHECK_INTERVAL_S", 0.0)
    loaded = _build("linear", "sgd")

    def broken(self: object) -> None:
        raise RuntimeError("restore broke\nmore text")

    monkeypatch.setattr(rollback.ConversionLog, "restore", broken)
    result = move_model(loaded, CAST, should_cancel=iter([False, True]).__next__)
    assert not result.ok and result.error.kind == "error"
    message = result.error.message
    assert "could not restore the model (restore broke)" in message
    assert "as it was before" not in message and "\n" not in message


# ----------------------------------------------------------------------------- device maps


#: The whole model onto the meta device: every parameter, grad and buffer is converted (no
#: GPU here; meta tensors are real conversions, with new tensor types on the default path).
WHOLE_TO_META = parse_device_map({"": "meta"})


@functools.cache
def _map_tensor_count(kind: str) -> int:
    """How many tensors applying ``WHOLE_TO_META`` to this kind hands to Tensor.to."""

    def apply(module: nn.Module) -> None:
        assert apply_device_map(module, WHOLE_TO_META).ok

    return _converted(_build(kind, "adam").module, apply)


MAP_MATRIX = [(kind, k) for kind in KINDS for k in range(_map_tensor_count(kind))]


@pytest.mark.parametrize(("kind", "k"), MAP_MATRIX, ids=[f"{kind}-{k}" for kind, k in MAP_MATRIX])
def test_a_device_map_failing_at_every_tensor_leaves_the_module_as_it_was(conversion, kind, k, monkeypatch):
    """The move matrix, for a device map: same devices, dtypes, values, Parameter objects,
    attributes, hooks and grads (an RNN's flat weights too), and it still trains."""
    loaded = _build(kind, "adam")
    before = _record(loaded)
    fired = _hooked(loaded)
    monkeypatch.setattr(torch.Tensor, "to", _failing_at(k))
    result = apply_device_map(loaded.module, WHOLE_TO_META)
    monkeypatch.undo()
    assert not result.ok and result.error.kind == "error"
    assert f"injected failure at tensor {k}" in result.error.message
    assert result.error.message.endswith("the model is as it was before")
    _assert_as_before(loaded, before)
    _assert_trains(loaded, fired)


def test_a_device_map_onto_a_gpu_that_fails_leaves_every_kind_as_it_was(conversion, monkeypatch):
    """The model on the meta device but for its last parameter, which goes to a (fake) GPU no
    tensor can reach: that conversion fails, after the others have moved."""
    for kind in KINDS:
        loaded = _build(kind, "adam")  # before the fake: Adam's step asks the real accelerator
        before = _record(loaded)
        fired = _hooked(loaded)
        last = list(dict(loaded.module.named_parameters()))[-1]
        entries = {"": "meta", last: 1}  # its last parameter onto the GPU, all else onto meta
        with monkeypatch.context() as patched:
            fake_cuda(patched, count=2)  # listed, but no tensor can go there
            result = apply_device_map(loaded.module, parse_device_map(entries))
        assert not result.ok and result.error.message.endswith("the model is as it was before"), kind
        _assert_as_before(loaded, before)
        _assert_trains(loaded, fired)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_takes_a_device_map(conversion, kind):
    """On success the model is wholly where the map says, tied weights still one Parameter,
    and an RNN's flat weights are its own parameters (as after ``Module.to``)."""
    loaded = _build(kind, "sgd")
    module = loaded.module
    ties = [(a, b) for (a, p), (b, q) in itertools.combinations(module.named_parameters(remove_duplicate=False), 2) if p is q]
    result = apply_device_map(module, WHOLE_TO_META)
    assert result.ok, result.error
    assert {t.device.type for t in itertools.chain(module.parameters(), module.buffers())} == {"meta"}
    params = dict(module.named_parameters(remove_duplicate=False))
    assert all(params[a] is params[b] for a, b in ties)
    for rnn in (m for m in module.modules() if isinstance(m, nn.RNNBase)):
        assert all(w is getattr(rnn, name) for w, name in zip(rnn._flat_weights, rnn._flat_weights_names, strict=True))
