"""Plan the cluster (issue 48): one rank of DDP or FSDP2 traced with the engine's own layout, and
the plan proven on CPU ranks (gloo), each rank's measured peak within 15 % of its plan."""

from __future__ import annotations

import json
from pathlib import Path

import psutil
import pytest
import torch
from torch import nn

from inspector.core.errors import InputError
from inspector.core.files import load_model, parse_inputs
from inspector.core.measure.fit import FitRequest
from inspector.core.measure.fit_cluster import ClusterRequest, plan_cluster
from inspector.core.measure.fit_cluster_proof import ModelSource
from tests.hf_folders import CONFIGS

MiB = 1 << 20

#: The models of the proof, written to a file the ranks load (``models.py:mlp``, ``:tied``):
#: an MLP of blocks, and a model whose output layer shares the embedding's weight.
MODELS = '''
import torch
from torch import nn


def mlp(width=1024, blocks=4):
    return nn.Sequential(*[nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))
                           for _ in range(blocks)]), torch.randn(8, width)


class Tied(nn.Module):
    def __init__(self, vocab=8000, dim=512, layers=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 4 * dim), nn.GELU(),
                                                  nn.Linear(4 * dim, dim)) for _ in range(layers))
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, ids):
        x = self.embed(ids)
        for block in self.blocks:
            x = x + block(x)
        return self.head(x)


def tied():
    return Tied(), torch.randint(0, 8000, (4, 64))


def small_mlp():
    return mlp(width=256, blocks=2)


class FailsOnRankOne(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(64, 64)

    def forward(self, x):
        import torch.distributed as dist

        if dist.is_initialized() and dist.get_rank() == 1:
            raise RuntimeError("rank one refuses")
        return self.layer(x)


def fails_on_rank_one():
    return FailsOnRankOne(), torch.randn(4, 64)
'''

#: A tiny GPT-2 (transformers' config), large enough that a rank's peak is tens of MiB.
GPT2 = {**CONFIGS["gpt2"], "n_embd": 256, "n_layer": 4, "n_positions": 256, "n_ctx": 256, "vocab_size": 16000}


def models_file(root: Path) -> Path:
    path = root / "models.py"
    path.write_text(MODELS)
    return path


def gpt2_folder(root: Path) -> Path:
    folder = root / "gpt2"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(GPT2))
    return folder


def plan(spec: str, strategy: str, world: int, *, prove: bool = False, inputs: str | None = None, **fit) -> object:
    loaded = load_model(spec)
    request = FitRequest(device=fit.pop("device", "cpu"), optimizer=fit.pop("optimizer", "adamw"),
                         inputs=parse_inputs(inputs) if inputs else None, measure=prove, **fit)  # fmt: skip
    return plan_cluster(loaded, ClusterRequest(request, world, strategy, source=ModelSource.of(spec) if prove else None))


def full_bytes(spec: str) -> int:
    return sum(p.numel() * p.element_size() for p in load_model(spec).module.parameters())


# ----------------------------------------------------------------------------- the plan


def test_an_fsdp_rank_holds_its_shard_of_parameters_gradients_and_state(tmp_path):
    spec = f"{models_file(tmp_path)}:mlp"
    full = full_bytes(spec)
    result = plan(spec, "fsdp", 4)
    rank = result.rank
    # 4 blocks of Linear(1024, 4096) and back: every tensor divides by 4, so the shards are exact.
    assert rank.parameters_bytes == full // 4
    assert rank.gradients_bytes == full // 4  # one reduce-scatter output's views counted once
    assert rank.optimizer_state_bytes >= 2 * full // 4 and rank.optimizer_state_bytes < 2 * full // 4 + MiB
    assert result.blocks == 4 and result.buckets_bytes is None


def test_fsdp_frees_each_blocks_gathered_parameters_after_it_runs(tmp_path):
    # FSDP2 frees an all-gathered block by storage.resize_(0): were that not followed, every
    # block's full parameters would stay counted to the end of the step.
    spec = f"{models_file(tmp_path)}:mlp"
    full = full_bytes(spec)
    rank = plan(spec, "fsdp", 4).rank
    sharded = rank.parameters_bytes + rank.gradients_bytes + rank.optimizer_state_bytes
    assert rank.estimated_peak_bytes < sharded + full


def test_a_ddp_rank_is_the_single_card_step_plus_its_gradient_buckets(tmp_path):
    from inspector.core.measure.fit import estimate_fit

    spec = f"{models_file(tmp_path)}:tied"
    result = plan(spec, "ddp", 2)
    single = estimate_fit(load_model(spec), FitRequest(device="cpu", optimizer="adamw", measure=False))
    trainable = single.parameters_bytes  # the tied weight once, as DDP buckets it once
    assert result.buckets_bytes == trainable
    assert result.rank.estimated_peak_bytes == single.estimated_peak_bytes + trainable


def test_the_smallest_count_that_fits_fits_and_the_one_below_does_not(tmp_path):
    spec = f"{models_file(tmp_path)}:mlp"
    loaded = load_model(spec)
    request = FitRequest(device="cpu", optimizer="adamw", capacity=300 * MiB, measure=False)
    found = plan_cluster(loaded, ClusterRequest(request, 1, "fsdp", min_gpus=True))
    assert found.gpu_search is not None and found.gpu_search.gpus == found.gpus
    assert found.rank.fits is True
    below = plan_cluster(loaded, ClusterRequest(request, found.gpus - 1, "fsdp"))
    assert below.rank.fits is False


@pytest.mark.parametrize("strategy, world, shard, words", [
    ("fsdp", 0, None, "positive whole number"),
    ("fsdp-hybrid", 6, 4, "divide the 6 rank(s)"),
    ("ddp", 4, 2, "shard group of fsdp-hybrid"),
    ("zero4", 2, None, "not a strategy"),
])  # fmt: skip
def test_a_layout_the_engine_refuses_is_bad_input(tmp_path, strategy, world, shard, words):
    loaded = load_model(f"{models_file(tmp_path)}:small_mlp")
    request = ClusterRequest(FitRequest(device="cpu", optimizer="adamw", measure=False), world, strategy, shard_size=shard)
    with pytest.raises(InputError) as caught:
        plan_cluster(loaded, request)
    assert words in str(caught.value)


def test_ddp_refuses_a_model_with_nothing_to_train(tmp_path):
    spec = f"{models_file(tmp_path)}:small_mlp"
    loaded = load_model(spec)
    for p in loaded.module.parameters():
        p.requires_grad_(False)
    with pytest.raises(InputError, match="DDP needs a parameter that requires a gradient"):
        plan_cluster(loaded, ClusterRequest(FitRequest(device="cpu", optimizer="none", measure=False), 2, "ddp"))


def test_no_process_group_is_left_behind_by_a_plan(tmp_path):
    import torch.distributed as dist

    plan(f"{models_file(tmp_path)}:small_mlp", "fsdp", 8)
    assert not dist.is_initialized()


# ----------------------------------------------------------------------------- the proof


def test_more_ranks_than_this_machine_proves_are_planned_without_proof(tmp_path):
    result = plan(f"{models_file(tmp_path)}:small_mlp", "fsdp", 64, prove=True)
    assert result.measured == ()
    assert "planned without proof: 64 ranks are more than this machine proves" in result.measured_reason


def test_two_fsdp_ranks_measure_within_15_percent_of_their_plan(tmp_path):
    result = plan(f"{models_file(tmp_path)}:mlp", "fsdp", 2, prove=True)
    assert len(result.measured) == 2, result.measured_reason
    for ratio in result.ratios():
        assert 0.85 <= ratio <= 1.15, (result.measured, result.rank.estimated_peak_bytes)


def test_a_failing_rank_ends_the_others_and_says_which(tmp_path):
    before = {child.pid for child in psutil.Process().children(recursive=True)}
    result = plan(f"{models_file(tmp_path)}:fails_on_rank_one", "ddp", 2, prove=True)
    assert result.measured == ()
    assert "rank 1 failed: rank one refuses" in result.measured_reason
    left = {child.pid for child in psutil.Process().children(recursive=True)} - before
    assert not left


@pytest.mark.slow
@pytest.mark.parametrize("model", ["gpt2", "mlp", "tied"])
@pytest.mark.parametrize("strategy", ["ddp", "fsdp"])
@pytest.mark.parametrize("world", [2, 4])
def test_every_rank_measures_within_15_percent_of_its_plan(tmp_path, model, strategy, world):
    if model == "gpt2":
        spec, inputs = str(gpt2_folder(tmp_path)), "4,128:int64"
    else:
        spec, inputs = f"{models_file(tmp_path)}:{model}", None
    result = plan(spec, strategy, world, prove=True, inputs=inputs)
    assert len(result.measured) == world, result.measured_reason
    for ratio in result.ratios():
        assert 0.85 <= ratio <= 1.15, (result.measured, result.rank.estimated_peak_bytes)


def test_the_models_here_build(tmp_path):
    # The file the ranks load is the one planned (a typo there would fail every proof alike).
    loaded = load_model(f"{models_file(tmp_path)}:tied")
    assert isinstance(loaded.module, nn.Module)
    assert loaded.module.head.weight is loaded.module.embed.weight
    assert torch.is_tensor(loaded.example_input)


def test_a_cancel_while_the_ranks_run_ends_every_rank(tmp_path):
    # Cancel (the window's button, Ctrl-C's flag) asked once the ranks exist: none outlives the call.
    me = psutil.Process()
    before = {child.pid for child in me.children(recursive=True)}
    started: list[int] = []

    def cancel() -> bool:
        started.extend(child.pid for child in me.children(recursive=True) if child.pid not in before)
        return bool(started)

    spec = f"{models_file(tmp_path)}:mlp"
    request = FitRequest(device="cpu", optimizer="adamw")
    result = plan_cluster(load_model(spec), ClusterRequest(request, 2, "fsdp", source=ModelSource.of(spec)),
                          should_cancel=cancel)  # fmt: skip
    assert started and result.measured == ()
    assert {child.pid for child in me.children(recursive=True)} - before == set()
