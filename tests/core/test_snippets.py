"""Code snippets: each compiles, and the move snippets do what move_model does."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from inspector.core.errors import InputError
from inspector.core.models import LoadedModel, Net
from inspector.core.moves import MoveRequest, move_model
from inspector.core.snippets import benchmark_snippet, move_snippet

REQUESTS = [
    MoveRequest("to", "cuda:0", "bfloat16"),
    MoveRequest("to", "cuda:1"),
    MoveRequest("to", "cuda"),
    MoveRequest("to", "cuda:0", pinned=True),
    MoveRequest("to", "mps", "fp16"),
    MoveRequest("to", "xpu"),
    MoveRequest("to", "cpu"),
    MoveRequest("to", "cpu", "float64"),
    MoveRequest("to", dtype="bf16"),
    MoveRequest("cuda"),
    MoveRequest("cuda", "1"),
    MoveRequest("cuda", "cuda:1", pinned=True),
    MoveRequest("cpu"),
]


def _model() -> nn.Module:
    return nn.Sequential(Net(), nn.BatchNorm1d(1))  # parameters and buffers


def _placement(model: nn.Module) -> list[tuple[str, torch.device, torch.dtype]]:
    tensors = [*model.named_parameters(), *model.named_buffers()]
    return [(name, t.device, t.dtype) for name, t in tensors]


@pytest.mark.parametrize("request_", REQUESTS, ids=repr)
def test_move_snippet_compiles(request_):
    compile(move_snippet(request_), "<snippet>", "exec")


def test_move_snippet_reads_like_the_tutorial():
    assert move_snippet(MoveRequest("to", "cuda:0", "bfloat16")) == (
        'device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")\n'
        "model = model.to(device, dtype=torch.bfloat16)"
    )
    assert move_snippet(MoveRequest("cuda", "cuda:0")) == (
        "model = model.cuda(0)  # needs a CUDA GPU; prefer .to(device)"
    )
    assert move_snippet(MoveRequest("cuda")).startswith("model = model.cuda()  #")
    assert move_snippet(MoveRequest("cpu")) == "model = model.cpu()"


@pytest.mark.parametrize(
    "request_",
    [
        MoveRequest("to", "cpu"),
        MoveRequest("to", "cpu", "float64"),
        MoveRequest("to", "cpu", "bf16"),
        MoveRequest("to", dtype="float16"),
        MoveRequest("to", dtype="float64", pinned=True),
        MoveRequest("cpu"),
    ],
    ids=repr,
)
def test_move_snippet_does_what_move_model_does(request_):
    torch.manual_seed(0)
    by_snippet = _model()
    by_move = _model()
    by_move.load_state_dict(by_snippet.state_dict())
    namespace = {"torch": torch, "model": by_snippet}

    exec(move_snippet(request_), namespace)
    result = move_model(LoadedModel(spec="test", module=by_move), request_)

    assert result.ok
    assert _placement(namespace["model"]) == _placement(by_move)
    for a, b in zip(namespace["model"].state_dict().values(), by_move.state_dict().values()):
        assert torch.equal(a, b)


def test_move_snippet_to_an_absent_accelerator_falls_back_to_cpu():
    if torch.cuda.device_count() > 1:
        pytest.skip("cuda:1 exists here")
    namespace = {"torch": torch, "model": _model()}
    exec(move_snippet(MoveRequest("to", "cuda:1", "float64")), namespace)
    assert {device for _, device, _ in _placement(namespace["model"])} == {torch.device("cpu")}
    assert namespace["model"][0].fc1.weight.dtype == torch.float64


@pytest.mark.parametrize("mode", ["forward", "train-step"])
@pytest.mark.parametrize("device", ["cpu", "cuda:0", "mps"])
def test_benchmark_snippet_compiles(device, mode):
    code = benchmark_snippet(device, "bf16", (1, 3, 224, 224), mode)
    compile(code, "<snippet>", "exec")
    assert "benchmark.Timer(" in code
    assert "num_threads=torch.get_num_threads()" in code
    assert "torch.randn(1, 3, 224, 224" in code and "dtype=torch.bfloat16" in code


@pytest.mark.parametrize("mode", ["forward", "train-step"])
def test_benchmark_snippet_runs_on_cpu(mode):
    """Pasted after a model is defined, it measures: a Measurement with a positive median."""
    code = benchmark_snippet("cpu", "float32", (8, 3), mode)
    # Shorten the run only; the recipe is otherwise exactly what a user pastes.
    code = code.replace("min_run_time=1.0", "min_run_time=0.05")
    namespace = {"torch": torch, "model": Net(), "print": lambda *args: None}
    exec(code, namespace)
    measurement = namespace["measurement"]
    assert measurement.median > 0
    assert measurement.task_spec.sub_label == "cpu"
    if mode == "forward":
        assert not namespace["model"].training
    else:
        assert all(p.grad is not None for p in namespace["model"].parameters())


@pytest.mark.parametrize(
    "call",
    [
        lambda: move_snippet(MoveRequest("to")),
        lambda: move_snippet(MoveRequest("to", "cpu", "int8")),
        lambda: move_snippet(MoveRequest("cuda", "cpu")),
        lambda: move_snippet(MoveRequest("gpu")),
        lambda: move_snippet(MoveRequest("cuda", dtype="float16")),
        lambda: benchmark_snippet("cpu", "float32", (1, 3), "inference"),
        lambda: benchmark_snippet("not-a-device", "float32", (1, 3)),
        lambda: benchmark_snippet("cpu", "float32", ()),
    ],
)
def test_snippets_refuse_bad_input(call):
    with pytest.raises(InputError):
        call()


@pytest.mark.cuda
def test_move_snippet_on_cuda_matches_move_model():
    request = MoveRequest("to", "cuda:0", "bfloat16")
    torch.manual_seed(0)
    by_snippet, by_move = _model(), _model()
    by_move.load_state_dict(by_snippet.state_dict())
    namespace = {"torch": torch, "model": by_snippet}
    exec(move_snippet(request), namespace)
    assert move_model(LoadedModel(spec="test", module=by_move), request).ok
    assert _placement(namespace["model"]) == _placement(by_move)
