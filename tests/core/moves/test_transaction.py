"""Moves are transactions: a failed or cancelled move leaves the model exactly as it was."""

from __future__ import annotations

import copy
import functools
import json

import pytest
import torch
from torch import nn

from inspector.cli import exit_code
from inspector.core.devices import discovery as devices
from inspector.core.moves import rollback
from inspector.core.errors import InputError
from inspector.core.files.models import LoadedModel, example_model
from inspector.core.moves.request import MoveRequest, call_code, parse_dtype
from inspector.core.moves.seam import Seam
from inspector.core.moves.transaction import move_model
from inspector.core.units import format_bytes

CAST = MoveRequest("to", dtype="float64")  # touches every floating tensor, runs on any machine


# ----------------------------------------------------------------------------- helpers


def _trained(optimizer: str = "sgd", device: str = "cpu") -> LoadedModel:
    """Conv + BatchNorm + Linear with grads populated and optimizer state present (a copy)."""
    template = _trained_template(optimizer, device)
    loaded = copy.deepcopy(template)
    for param, original in zip(loaded.module.parameters(), template.module.parameters()):
        param.grad = original.grad.clone()  # deepcopy leaves grads behind
    return loaded


@functools.cache
def _trained_template(optimizer: str, device: str) -> LoadedModel:
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 5)
    ).to(device)
    x = torch.randn(2, 3, 8, 8, device=device)
    if optimizer == "sgd":
        opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    else:
        opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for step in range(2):  # the first step creates optimizer state, the second leaves grads
        opt.zero_grad()
        net(x).square().mean().backward()
        if step == 0:
            opt.step()
    return LoadedModel(spec="test", module=net, optimizer=opt, example_input=x)


def _conversions(module: nn.Module) -> int:
    """How many tensors Module.to converts: each parameter, each grad, each buffer."""
    params = list(module.parameters())
    return len(params) + sum(p.grad is not None for p in params) + len(list(module.buffers()))


def _bytes(module: nn.Module) -> int:
    params = list(module.parameters())
    grads = [p.grad for p in params if p.grad is not None]
    return sum(t.nbytes for t in [*params, *grads, *module.buffers()])


def _record(module: nn.Module) -> dict:
    params = {
        name: (p, p.detach().clone(), p.grad, None if p.grad is None else p.grad.detach().clone())
        for name, p in module.named_parameters()
    }
    buffers = {name: (b, b.clone()) for name, b in module.named_buffers()}
    return {"params": params, "buffers": buffers}


def _same(tensor: torch.Tensor, saved: torch.Tensor) -> bool:
    return (
        tensor.device == saved.device
        and tensor.dtype == saved.dtype
        and torch.equal(tensor.detach(), saved)
    )


def _assert_unchanged(module: nn.Module, record: dict) -> None:
    params = dict(module.named_parameters())
    assert params.keys() == record["params"].keys()
    for name, param in params.items():
        original, values, grad, grad_values = record["params"][name]
        assert param is original, f"{name} is a different Parameter object"
        assert _same(param, values), f"{name} changed"
        assert param.grad is grad, f"{name}.grad is a different tensor object"
        if grad is not None:
            assert _same(param.grad, grad_values), f"{name}.grad changed"
    buffers = dict(module.named_buffers())
    assert buffers.keys() == record["buffers"].keys()
    for name, buf in buffers.items():
        original, values = record["buffers"][name]
        assert buf is original, f"buffer {name} was replaced"
        assert _same(buf, values), f"buffer {name} changed"


def _assert_optimizer_steps(loaded: LoadedModel) -> None:
    params = list(loaded.module.parameters())
    before = [p.detach().clone() for p in params]
    loaded.optimizer.zero_grad()
    loaded.module(loaded.example_input).square().mean().backward()
    loaded.optimizer.step()
    assert any(not torch.equal(b, p.detach()) for b, p in zip(before, params))
    # The optimizer still updates the module's own parameters, not detached copies.
    opt_params = [p for group in loaded.optimizer.param_groups for p in group["params"]]
    assert all(a is b for a, b in zip(opt_params, params))


@pytest.fixture(params=[False, True], ids=["set-data", "swap-tensors"])
def conversion(request):
    """Run under torch's default conversion (param.data = ...) and under swap_tensors."""
    previous = torch.__future__.get_swap_module_params_on_conversion()
    torch.__future__.set_swap_module_params_on_conversion(request.param)
    yield request.param
    torch.__future__.set_swap_module_params_on_conversion(previous)


@pytest.fixture(autouse=True)
def check_every_tensor(monkeypatch):
    """Cancel and progress before every tensor (by default, every few ms), so each
    failure index is reachable."""
    monkeypatch.setattr("inspector.core.moves.seam.CHECK_INTERVAL_S", 0.0)


class Injected(RuntimeError):
    pass


# ----------------------------------------------------------------------------- success


def test_cast_reports_call_bytes_and_memory(conversion):
    loaded = _trained()
    params_before = list(loaded.module.parameters())
    floating = [*loaded.module.parameters(), *(p.grad for p in loaded.module.parameters())]
    floating += [b for b in loaded.module.buffers() if b.is_floating_point()]
    floating_bytes = sum(t.nbytes for t in floating)

    result = move_model(loaded, CAST)

    assert result.ok and result.error is None
    assert result.call == "model.to(torch.float64)"
    assert (result.method, result.source, result.target, result.dtype) == (
        "to", "cpu", "cpu", "float64",
    )
    # num_batches_tracked (an integer buffer) is handed back as is: not copied, not counted.
    assert result.bytes == floating_bytes
    assert result.gbps is not None and result.gbps > 0
    assert set(result.memory_before) == set(result.memory_after) == {"cpu"}
    assert all(p.dtype == torch.float64 for p in loaded.module.parameters())
    assert all(p.grad.dtype == torch.float64 for p in loaded.module.parameters())
    assert loaded.module[1].num_batches_tracked.dtype == torch.int64
    assert all(a is b for a, b in zip(params_before, loaded.module.parameters()))
    json.dumps(result.to_dict())


def test_report_keys_are_present():
    entry = move_model(example_model(), CAST).to_dict()
    for key in ("call", "method", "source", "target", "seconds", "bytes", "gbps", "ok", "error"):
        assert key in entry
    assert entry["error"] is None


def test_progress_counts_every_tensor_up_to_the_total():
    loaded = _trained()
    total = _bytes(loaded.module)  # params, grads and buffers as they are before the move
    calls = []
    move_model(loaded, CAST, progress=lambda done, total: calls.append((done, total)))
    assert len(calls) == _conversions(loaded.module)
    dones = [done for done, _ in calls]
    assert dones == sorted(dones) and dones[0] > 0
    assert {t for _, t in calls} == {total}
    assert calls[-1] == (total, total)


def test_moving_to_where_the_model_is_copies_nothing():
    loaded = _trained()
    record = _record(loaded.module)
    pointers = [p.data_ptr() for p in loaded.module.parameters()]
    for request in (MoveRequest("to", "cpu"), MoveRequest("cpu")):
        result = move_model(loaded, request)
        assert result.ok
        assert result.bytes == 0 and result.gbps is None
        assert result.source == result.target == "cpu"
    assert [p.data_ptr() for p in loaded.module.parameters()] == pointers
    _assert_unchanged(loaded.module, record)


def test_tied_weights_are_counted_once_and_stay_tied(conversion):
    embedding = nn.Embedding(10, 4)
    head = nn.Linear(4, 10, bias=False)
    head.weight = embedding.weight
    model = nn.Sequential(embedding, head)
    loaded = LoadedModel(spec="tied", module=model)
    result = move_model(loaded, CAST)
    assert result.ok
    assert result.bytes == embedding.weight.numel() * 4  # float32 source bytes, once
    assert model[1].weight is model[0].weight
    assert model[0].weight.dtype == torch.float64


def test_example_input_follows_the_model():
    loaded = example_model()
    result = move_model(loaded, MoveRequest("to", "cpu", "float64"))
    assert result.ok
    assert loaded.example_input.dtype == torch.float64
    assert loaded.module(loaded.example_input).dtype == torch.float64

    tokens = torch.arange(4)
    loaded.example_input = (torch.randn(4, 3), tokens)
    assert move_model(loaded, MoveRequest("to", dtype="bf16")).ok
    floats, ints = loaded.example_input
    assert floats.dtype == torch.bfloat16
    assert ints is tokens  # integer inputs keep their dtype (and here, their very tensor)


def test_overwrite_flag_new_parameters_are_rolled_back_too():
    """Under torch's overwrite flag Module.to makes new Parameter objects; rollback undoes it."""
    loaded = _trained()
    record = _record(loaded.module)
    previous = torch.__future__.get_overwrite_module_params_on_conversion()
    torch.__future__.set_overwrite_module_params_on_conversion(True)
    try:
        seen = []
        result = move_model(loaded, CAST, should_cancel=lambda: len(seen) == 5 or seen.append(1))
    finally:
        torch.__future__.set_overwrite_module_params_on_conversion(previous)
    assert result.error.kind == "cancelled"
    _assert_unchanged(loaded.module, record)


# ----------------------------------------------------------------------------- rollback


N_CONVERSIONS = _conversions(_trained().module)


def _assert_rolled_back(loaded: LoadedModel, record: dict, example_input, result, kind: str):
    assert not result.ok
    assert result.error.kind == kind
    assert "as it was before" in result.error.message
    assert "\n" not in result.error.message
    assert result.gbps is None
    _assert_unchanged(loaded.module, record)
    assert loaded.example_input is example_input
    _assert_optimizer_steps(loaded)


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
@pytest.mark.parametrize("k", range(N_CONVERSIONS))
def test_cancel_at_every_tensor_rolls_back(conversion, optimizer, k):
    loaded = _trained(optimizer)
    record, example_input = _record(loaded.module), loaded.example_input
    asked = []

    def should_cancel():
        asked.append(1)
        return len(asked) == k + 1

    result = move_model(loaded, CAST, should_cancel=should_cancel)
    _assert_rolled_back(loaded, record, example_input, result, "cancelled")


@pytest.mark.parametrize("k", range(N_CONVERSIONS))
def test_out_of_memory_at_every_tensor_rolls_back(conversion, k):
    loaded = _trained("adam")
    record, example_input = _record(loaded.module), loaded.example_input
    reports = []

    def progress(done, total):
        reports.append(done)
        if len(reports) == k + 1:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 MiB")

    result = move_model(loaded, CAST, progress=progress)
    _assert_rolled_back(loaded, record, example_input, result, "oom")


@pytest.mark.parametrize("k", range(N_CONVERSIONS + 1))
def test_converter_failure_at_every_tensor_rolls_back(conversion, monkeypatch, k):
    """Failures from PyTorch itself, not our callbacks; k == N fails on the example input."""
    loaded = _trained("sgd")
    record, example_input = _record(loaded.module), loaded.example_input
    original_to = torch.Tensor.to
    sources: list[torch.Tensor] = []

    @functools.wraps(original_to)  # a wrapper named "to", as libraries that patch it do
    def failing_to(self, *args, **kwargs):
        # Count tensors, not calls: the seam sees this wrapper once more per tensor. By
        # identity, holding them: an id can be reused by a tensor made during the move.
        if not any(t is self for t in sources):
            sources.append(self)
            if len(sources) == k + 1:
                raise Injected(f"injected failure at tensor {k}")
        return original_to(self, *args, **kwargs)

    monkeypatch.setattr(torch.Tensor, "to", failing_to)
    result = move_model(loaded, CAST)
    monkeypatch.undo()
    _assert_rolled_back(loaded, record, example_input, result, "error")
    assert f"injected failure at tensor {k}" in result.error.message
    assert result.error.message.startswith("model.to(torch.float64) failed:")


def test_out_of_memory_message_says_needed_and_free():
    loaded = _trained()
    floating = [*loaded.module.parameters(), *(p.grad for p in loaded.module.parameters())]
    floating += [b for b in loaded.module.buffers() if b.is_floating_point()]
    needed = sum(t.numel() * 8 for t in floating)  # float64 copies of every floating tensor

    def progress(done, total):
        raise torch.OutOfMemoryError("out of memory")

    result = move_model(loaded, CAST, progress=progress)
    assert result.error.kind == "oom"
    assert f"needed {format_bytes(needed)}" in result.error.message
    assert "was free" in result.error.message
    assert "OutOfMemoryError" in result.error.detail


def test_interrupt_still_rolls_back_and_propagates():
    loaded = _trained()
    record = _record(loaded.module)
    seen = []

    def progress(done, total):
        seen.append(done)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        move_model(loaded, CAST, progress=progress)
    _assert_unchanged(loaded.module, record)


# ----------------------------------------------------------------------------- devices


def test_cuda_without_cuda_explains_to_device(monkeypatch):
    real = devices.unavailable_reason
    monkeypatch.setattr(
        devices,
        "unavailable_reason",
        lambda kind: "this PyTorch build has no CUDA support" if kind == "cuda" else real(kind),
    )
    loaded = _trained()
    record = _record(loaded.module)
    result = move_model(loaded, MoveRequest("cuda"))
    assert not result.ok and result.error.kind == "device"
    message = result.error.message
    assert message.startswith("model.cuda() needs a CUDA GPU")
    assert "no CUDA support" in message
    assert 'torch.device("cuda:0" if torch.cuda.is_available() else "cpu")' in message
    assert "AssertionError" not in message + result.error.detail
    _assert_unchanged(loaded.module, record)


def test_absent_cuda_index_is_a_device_failure():
    loaded = _trained()
    record = _record(loaded.module)
    for request, call in [
        (MoveRequest("cuda", "cuda:7"), "model.cuda(7)"),
        (MoveRequest("cuda", "7"), "model.cuda(7)"),
        (MoveRequest("to", "cuda:7"), "cuda:7"),
    ]:
        result = move_model(loaded, request)
        assert not result.ok and result.error.kind == "device", request
        assert call in result.error.message
        assert result.source == "cpu"
    _assert_unchanged(loaded.module, record)


@pytest.mark.parametrize("kind", ["mps", "xpu"])
def test_absent_backend_is_a_device_failure(kind):
    if devices.unavailable_reason(kind) is None:
        pytest.skip(f"{kind} is present here")
    loaded = _trained()
    record = _record(loaded.module)
    result = move_model(loaded, MoveRequest("to", kind, "float16"))
    assert not result.ok and result.error.kind == "device"
    assert kind in result.error.message and "not available" in result.error.message
    assert result.dtype == "float16"
    _assert_unchanged(loaded.module, record)


def test_pinned_is_ignored_with_a_note_where_it_cannot_help():
    loaded = _trained()
    for request in (MoveRequest("cpu", pinned=True), MoveRequest("to", dtype="fp64", pinned=True)):
        result = move_model(loaded, request)
        assert result.ok and not result.pinned
        assert result.note.startswith("pinned ignored")


def test_a_failed_rollback_cleanup_still_returns_the_failure(monkeypatch):
    """A sticky CUDA error makes synchronize/empty_cache raise after the model is restored."""
    loaded = _trained()
    record, example_input = _record(loaded.module), loaded.example_input
    broken = []

    def sticky(ident):
        if broken:
            raise RuntimeError("CUDA error: an illegal memory access was encountered\nmore text")

    monkeypatch.setattr(devices, "synchronize", sticky)
    monkeypatch.setattr(devices, "empty_cache", sticky)

    def cancel_and_break():
        broken.append(True)
        return True

    result = move_model(loaded, CAST, should_cancel=cancel_and_break)
    _assert_rolled_back(loaded, record, example_input, result, "cancelled")
    assert result.error.message == "the move was cancelled; the model is as it was before"
    assert "the model was restored, but freeing the target's memory afterwards failed" in result.note
    assert "cpu: CUDA error: an illegal memory access was encountered" in result.note


@pytest.mark.parametrize(
    ("request_", "target", "call"),
    [
        (MoveRequest("cpu"), None, "model.cpu()"),
        (MoveRequest("cuda"), None, "model.cuda()"),
        (MoveRequest("cuda", "cuda:1"), None, "model.cuda(1)"),
        (MoveRequest("cuda", " 2 "), None, "model.cuda(2)"),
        (MoveRequest("cuda", "mps"), None, "model.cuda('mps')"),  # not a move: still shown
        (MoveRequest("to", dtype="bf16"), None, "model.to(torch.bfloat16)"),
        (MoveRequest("to", "cuda"), None, "model.to('cuda')"),
        (MoveRequest("to", "cuda"), torch.device("cuda", 0), "model.to('cuda:0')"),
        (MoveRequest("to", "cuda:0", "fp16", pinned=True), None,
         "model.to('cuda:0', dtype=torch.float16, non_blocking=True)"),
        (MoveRequest("to", "cpu", "double", pinned=True), None, "model.to('cpu', dtype=torch.float64)"),
        (MoveRequest("to", "cpu", "int8"), None, "model.to('cpu', dtype='int8')"),
    ],
)
def test_call_code_writes_the_call_each_request_makes(request_, target, call):
    assert call_code(request_, target) == call


def test_a_move_that_cannot_start_shows_the_same_call_as_its_message():
    loaded = _trained()
    for request, call in [
        (MoveRequest("cuda", "cuda:97"), "model.cuda(97)"),
        (MoveRequest("cuda", "97"), "model.cuda(97)"),
        (MoveRequest("to", "cuda:97", "bf16"), "model.to('cuda:97', dtype=torch.bfloat16)"),
    ]:
        result = move_model(loaded, request)
        assert not result.ok and result.error.kind == "device"
        assert result.call == call
    # The cuda messages name the call they failed on, as written in the result.
    assert move_model(loaded, MoveRequest("cuda", "97")).error.message.startswith("model.cuda(97) ")


def test_the_cpu_allocator_failing_is_out_of_memory():
    loaded = _trained()
    record, example_input = _record(loaded.module), loaded.example_input

    def progress(done, total):
        raise RuntimeError(
            "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
            "you tried to allocate 1125899906842624 bytes. Error code 12 (Cannot allocate memory)"
        )

    result = move_model(loaded, CAST, progress=progress)
    _assert_rolled_back(loaded, record, example_input, result, "oom")
    assert result.error.message.startswith("out of memory on cpu: model.to(torch.float64) needed ")


@pytest.mark.parametrize(
    "request_",
    [
        MoveRequest("gpu"),
        MoveRequest("to"),
        MoveRequest("to", "cpu", "int8"),
        MoveRequest("cuda", dtype="float16"),
        MoveRequest("cpu", device="cuda:0"),
        MoveRequest("cuda", device="cpu"),
    ],
)
def test_requests_that_are_not_moves_raise_input_error(request_):
    loaded = _trained()
    record = _record(loaded.module)
    with pytest.raises(InputError) as info:
        move_model(loaded, request_)
    assert exit_code(info.value) == 2
    _assert_unchanged(loaded.module, record)


@pytest.mark.parametrize(
    ("name", "dtype"),
    [
        ("bf16", torch.bfloat16),
        ("bfloat16", torch.bfloat16),
        ("torch.bfloat16", torch.bfloat16),
        ("fp16", torch.float16),
        ("half", torch.float16),
        ("float32", torch.float32),
        ("FP64", torch.float64),
        ("double", torch.float64),
    ],
)
def test_parse_dtype(name, dtype):
    assert parse_dtype(name) is dtype


@pytest.mark.parametrize("name", ["int8", "float8", "", "torch.long"])
def test_parse_dtype_refuses_what_a_model_cannot_be_cast_to(name):
    with pytest.raises(InputError, match="not a dtype"):
        parse_dtype(name)


# ----------------------------------------------------------------------------- CUDA


@pytest.mark.cuda
def test_cuda_round_trip_keeps_values_and_parameters(conversion):
    loaded = _trained()
    record = _record(loaded.module)
    total = _bytes(loaded.module)

    to_gpu = move_model(loaded, MoveRequest("to", "cuda:0"))
    assert to_gpu.ok, to_gpu.error
    assert (to_gpu.call, to_gpu.source, to_gpu.target) == ("model.to('cuda:0')", "cpu", "cuda:0")
    assert to_gpu.bytes == total and to_gpu.gbps is not None
    assert {"cpu", "cuda:0"} <= set(to_gpu.memory_before) and "cuda:0" in to_gpu.memory_after
    assert all(p.is_cuda and p.grad.is_cuda for p in loaded.module.parameters())
    assert all(b.is_cuda for b in loaded.module.buffers())
    assert loaded.example_input.is_cuda
    loaded.module(loaded.example_input)  # a forward works where the model now is

    back = move_model(loaded, MoveRequest("cpu"))
    assert back.ok and back.call == "model.cpu()" and back.source == "cuda:0"
    assert back.bytes == total
    again = move_model(loaded, MoveRequest("cuda", "0"))
    assert again.ok and again.call == "model.cuda(0)" and again.target == "cuda:0"
    assert move_model(loaded, MoveRequest("cuda")).bytes == 0  # already there: a no-op
    assert move_model(loaded, MoveRequest("cpu")).ok
    _assert_unchanged_values(loaded.module, record)
    _assert_optimizer_steps(loaded)


def _assert_unchanged_values(module: nn.Module, record: dict) -> None:
    """Same Parameter objects and values after a round trip (grads become new tensors)."""
    for name, param in module.named_parameters():
        original, values, _, grad_values = record["params"][name]
        assert param is original
        assert _same(param, values) and _same(param.grad, grad_values)


@pytest.mark.cuda
def test_cuda_cast_and_move_together():
    loaded = _trained()
    result = move_model(loaded, MoveRequest("to", "cuda:0", "bf16"))
    assert result.ok and result.call == "model.to('cuda:0', dtype=torch.bfloat16)"
    assert all(p.dtype == torch.bfloat16 and p.is_cuda for p in loaded.module.parameters())
    assert loaded.example_input.dtype == torch.bfloat16 and loaded.example_input.is_cuda


@pytest.mark.cuda
@pytest.mark.parametrize("method", ["to", "cuda"])
def test_cuda_pinned_path(method):
    loaded = _trained()
    record = _record(loaded.module)
    request = MoveRequest(method, "cuda:0", pinned=True)
    result = move_model(loaded, request)
    assert result.ok, result.error
    assert result.pinned and result.note == ""
    if method == "to":
        assert result.call == "model.to('cuda:0', non_blocking=True)"
    assert result.bytes == _bytes(loaded.module)
    assert move_model(loaded, MoveRequest("cpu")).ok
    _assert_unchanged_values(loaded.module, record)


@pytest.mark.cuda
@pytest.mark.parametrize("k", range(N_CONVERSIONS))
def test_cuda_cancel_at_every_tensor_frees_the_gpu(conversion, k):
    loaded = _trained("adam")
    record = _record(loaded.module)
    torch.cuda.synchronize()
    allocated = torch.cuda.memory_allocated()
    asked = []
    result = move_model(
        loaded,
        MoveRequest("to", "cuda:0"),
        should_cancel=lambda: asked.append(1) or len(asked) == k + 1,
    )
    assert result.error.kind == "cancelled"
    _assert_unchanged(loaded.module, record)
    assert torch.cuda.memory_allocated() == allocated
    _assert_optimizer_steps(loaded)


@pytest.mark.cuda
def test_cuda_out_of_memory_rolls_back_and_says_how_much():
    torch.cuda.empty_cache()
    loaded = LoadedModel(
        spec="big", module=nn.Sequential(*(nn.Linear(4096, 4096) for _ in range(4)))
    )  # 4 x 64 MiB on the host
    record = _record(loaded.module)
    # Leave less free on the GPU than the model needs: take the rest with one allocation.
    free, _ = torch.cuda.mem_get_info()
    reserve = torch.empty(free - 160 * 2**20, dtype=torch.uint8, device="cuda")
    try:
        allocated = torch.cuda.memory_allocated()
        reserved = torch.cuda.memory_reserved()
        result = move_model(loaded, MoveRequest("to", "cuda:0"))
        assert not result.ok and result.error.kind == "oom", result.error
        assert "needed 256.1 MiB" in result.error.message
        assert "was free" in result.error.message
        _assert_unchanged(loaded.module, record)
        # The half-made copies are gone and the cache was given back.
        assert torch.cuda.memory_allocated() == allocated
        assert torch.cuda.memory_reserved() <= reserved
    finally:
        del reserve
        torch.cuda.empty_cache()


def test_pinned_cuda_method_copies_each_pinned_tensor_without_blocking(monkeypatch):
    """``model.cuda()``'s own per-tensor ``t.cuda(i)`` blocks; on the pinned path the seam copies
    each pinned tensor with ``to(device, non_blocking=True)`` instead (here onto meta, with a
    stand-in for pinning: this build has no CUDA)."""
    calls: list[dict] = []
    real_to = torch.Tensor.to

    def recording_to(self, *args, **kwargs):
        calls.append(kwargs)
        return real_to(self, *args, **kwargs)

    monkeypatch.setattr(torch.Tensor, "pin_memory", lambda self: self.clone())
    monkeypatch.setattr(torch.Tensor, "is_pinned", lambda self: False)
    monkeypatch.setattr(torch.Tensor, "to", recording_to)
    module = nn.Linear(3, 2)
    snapshot = rollback.Snapshot(module)
    log = rollback.ConversionLog(swap=False)
    seam = Seam(log, 0, None, None, pin=True, copy_to=torch.device("meta"))

    def blocking_cuda(t):
        raise AssertionError("the blocking per-tensor copy ran")

    with seam.install(module):
        module._apply(blocking_cuda)
    assert seam.pinned_any and {p.device.type for p in module.parameters()} == {"meta"}
    assert calls and all(c.get("non_blocking") is True for c in calls)
    log.restore()
    snapshot.restore()  # rolls back as a move does
    assert {p.device.type for p in module.parameters()} == {"cpu"}
