"""Code snippets: each compiles, and the move snippets do what move_model does."""

from __future__ import annotations

import dataclasses
import statistics
import time

import pytest
import torch
from torch import nn

from inspector.core.errors import InputError
from inspector.core.files.models import LoadedModel, Net, example_model
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import move_model
from inspector.core.report.snippets import benchmark_snippet, measurement_snippet, move_snippet
from inspector.core.measure import sampling
from inspector.core.measure.timing import measure_latency
from tests.fake_clock import FakeClock, TakesTime

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
@pytest.mark.parametrize("device", ["cpu", "cuda:0", "mps", "xpu"])
def test_benchmark_snippet_compiles(device, mode):
    code = benchmark_snippet(device, "bf16", (1, 3, 224, 224), mode)
    compile(code, "<snippet>", "exec")
    assert "torch.randn(1, 3, 224, 224" in code and "dtype=torch.bfloat16" in code
    # Not a different measurement (the old blocked_autorange recipe): the app's own loop.
    assert "blocked_autorange" not in code and "for _ in range(3):" in code and "for _ in range(100):" in code
    kind = device.split(":")[0]
    if kind in ("cuda", "xpu"):  # timed by device events, as the app times them
        assert f"torch.{kind}.Event(enable_timing=True)" in code and "start.elapsed_time(end)" in code
    else:
        assert "time.perf_counter_ns()" in code and ("synchronize" in code) == (kind != "cpu")


class _Counting(Net):
    """The example Net, counting its forward calls."""

    calls = 0

    def forward(self, x):
        type(self).calls += 1
        return super().forward(x)


def _run(code, model):
    printed = []
    namespace = {"model": model, "print": printed.append}
    exec(code, namespace)
    return namespace, printed


@pytest.mark.parametrize("mode", ["forward", "train-step"])
def test_the_snippet_repeats_the_measurement_the_app_made(mode):
    """Executed on the example, it makes the app's calls: the same warm-ups and runs, mode and input."""
    loaded = example_model()
    result = measure_latency(loaded, mode=mode, runs=7, warmup=2)
    code = measurement_snippet(result)
    assert "x = torch.randn(64, 3, device=device, dtype=torch.float32)" in code
    model = _Counting()
    _Counting.calls = 0
    namespace, printed = _run(code, model)
    # The warm-up calls the app made (the 2 asked, or more until the calls were steady), then the runs.
    assert result.warmup >= 2 and _Counting.calls == result.warmup + 7
    assert len(namespace["samples_ms"]) == 7 and all(ms > 0 for ms in namespace["samples_ms"])
    median, mean = statistics.median(namespace["samples_ms"]), statistics.mean(namespace["samples_ms"])
    assert printed == [f"median {median:.4f} ms (mean {mean:.4f} ms) over 7 samples"]
    if mode == "forward":
        assert not model.training  # eval, under inference_mode
    else:
        assert model.training and all(p.grad is None for p in model.parameters())  # a copy was trained


def test_the_snippet_takes_the_clocks_own_cost_off_each_sample_as_the_app_does(monkeypatch):
    # One clock for both: every read costs 70 ns, every call 10 µs. The app's samples and the
    # snippet's are both the 10 µs, not 10.07.
    clock = FakeClock(read_ns=70)
    monkeypatch.setattr(sampling, "_clock", clock)
    monkeypatch.setattr(time, "perf_counter_ns", clock)
    loaded = LoadedModel("takes-time", TakesTime(clock, call_ns=10_000), example_input=torch.zeros(2, 3))
    result = measure_latency(loaded, runs=9, warmup=1)
    namespace, printed = _run(measurement_snippet(result), loaded.module)
    assert result.samples_ms == pytest.approx([0.01] * 9, rel=1e-9)
    assert namespace["samples_ms"] == pytest.approx(result.samples_ms, rel=1e-9)
    assert printed == ["median 0.0100 ms (mean 0.0100 ms) over 9 samples"]


def test_a_minimum_time_measurement_gives_a_minimum_time_snippet():
    result = measure_latency(example_model(), min_time=0.02, warmup=1)
    code = measurement_snippet(result)
    assert "while measured_ms < 20.0 and len(samples_ms) < 100_000:" in code and "range(1):" in code
    namespace, _ = _run(code, Net())
    assert sum(namespace["samples_ms"]) >= 20.0


def test_a_cuda_events_measurement_gives_an_events_snippet():
    """What a GPU measurement shows (no GPU here: the result is what measure_latency returns there)."""
    result = measure_latency(example_model(), runs=5)
    on_gpu = dataclasses.replace(result, device="cuda:0", timer="cuda events", runs=250, warmup=3)
    code = measurement_snippet(on_gpu)
    compile(code, "<snippet>", "exec")
    assert 'device = torch.device("cuda:0")' in code and "for _ in range(250):" in code
    assert "torch.cuda.Event(enable_timing=True)" in code and "torch.cuda.synchronize(device)" in code


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


def test_the_snippets_lines_fit_the_code_panel() -> None:
    """The Code panel shows ~80 columns at 1024 px: a comment cut at its edge is lost."""
    for mode in ("forward", "train-step"):
        code = benchmark_snippet(mode=mode, device="cpu", input_shape=(64, 3), dtype="float32", runs=100)
        comments = [line for line in code.splitlines() if line.lstrip().startswith("#")]
        assert comments and all(len(line) <= 100 for line in comments), max(comments, key=len)


def _code_only(code: str) -> list[tuple[int, str]]:
    """``code``'s tokens but its comments: what runs."""
    import io
    import tokenize

    return [(t.type, t.string) for t in tokenize.generate_tokens(io.StringIO(code).readline)
            if t.type not in (tokenize.COMMENT, tokenize.NL)]  # fmt: skip


def _comments(code: str) -> list[str]:
    import io
    import tokenize

    return [t.string for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type == tokenize.COMMENT]


def _say_in_another_language(text):
    """A translation as the window's may be: other words, other line breaks (each template's
    id kept so the test can tell them apart)."""
    return f"译文 {text.key}\n第二行 {dict(text.args)}" if text.key.startswith("snippet.") else str(text)


@pytest.mark.parametrize("mode", ["forward", "train-step"])
@pytest.mark.parametrize("device", ["cpu", "cuda:0"])
@pytest.mark.parametrize("min_time", [None, 0.25])
def test_a_snippet_in_another_language_changes_its_comments_only(device, mode, min_time):
    # The window says a snippet's comments in its language (say=core_text); the code stays
    # as it is, token for token, and still compiles, whatever the translation's line breaks.
    runs = None if min_time else 50
    english = benchmark_snippet(device, "float32", (2, 3), mode, runs=runs, min_time=min_time,
                                inputs=(((2, 3), "float32"), ((4,), "int64")))  # fmt: skip
    said = benchmark_snippet(device, "float32", (2, 3), mode, runs=runs, min_time=min_time,
                             inputs=(((2, 3), "float32"), ((4,), "int64")), say=_say_in_another_language)  # fmt: skip
    compile(said, "<snippet>", "exec")
    assert _code_only(said) == _code_only(english)
    comments = _comments(said)
    assert comments and all("译文 snippet." in c or "第二行" in c for c in comments)
    # a comment on lines of its own keeps the translation's line breaks; one after code, one line
    assert any(c.startswith("# 第二行") for c in comments) and len(comments) >= len(_comments(english))
    assert not any(c.startswith("#  ") for c in comments)
    if min_time:
        assert "{'seconds': '0.25'}" in said  # the argument, as core made it


@pytest.mark.parametrize("request_", REQUESTS, ids=repr)
def test_a_move_snippet_in_another_language_changes_its_comments_only(request_):
    english, said = move_snippet(request_), move_snippet(request_, say=_say_in_another_language)
    compile(said, "<snippet>", "exec")
    assert _code_only(said) == _code_only(english)
    assert len(_comments(said)) == len(_comments(english))  # a comment after code stays on its line
    assert all(c.startswith("# 译文 snippet.") and "第二行" in c for c in _comments(said))


def test_a_translated_benchmark_snippet_still_measures(monkeypatch):
    # Run, not only compiled: the translated snippet measures the model as the English one does.
    code = benchmark_snippet("cpu", "float32", (4, 3), "forward", runs=5, warmup=1, say=_say_in_another_language)
    _namespace, printed = _run(code, Net())
    assert len(printed) == 1 and printed[0].startswith("median ") and "over 5 samples" in printed[0]
