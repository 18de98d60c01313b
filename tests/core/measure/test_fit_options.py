"""What people change when a model does not fit: mixed precision (autocast, float32 master
weights) and activation checkpointing, as fit options traced in the same step."""

import pytest
import torch
from torch import nn

from inspector.core.errors import InputError
from inspector.core.files.models import LoadedModel, load_model
from inspector.core.measure.fit import FitRequest, estimate_fit
from tests.hf_folders import config_folder, parameters_in_closed_form, weights_folder


def _mlp(batch: int = 64) -> LoadedModel:
    m = nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 256))
    return LoadedModel(spec="mlp", module=m, example_input=torch.randn(batch, 256))


def test_mixed_precision_keeps_float32_weights_and_halves_what_the_forward_keeps():
    plain = estimate_fit(_mlp(4096), FitRequest(device="cpu", optimizer="adamw", measure=False))
    mixed = estimate_fit(_mlp(4096), FitRequest(device="cpu", optimizer="adamw", amp="bfloat16", measure=False))
    params = (256 * 1024 + 1024 + 1024 * 256 + 256) * 4
    # Master weights, their gradients and AdamW's moments all stay float32 ...
    assert mixed.dtype == "float32" and mixed.parameters_bytes == plain.parameters_bytes == params
    assert mixed.gradients_bytes == params and mixed.optimizer_state_bytes == plain.optimizer_state_bytes
    # ... while the forward computes in bfloat16: what it keeps for the backward (fc1's and the ReLU's
    # outputs, 4096 x 1024 each) is half the size; autocast adds bfloat16 copies of the weights it casts
    # (1 MiB here, which outweighs the saving at a batch of 64).
    assert plain.activations_bytes == 2 * 4096 * 1024 * 4
    assert mixed.activations_bytes < 0.6 * plain.activations_bytes
    assert mixed.amp == "bfloat16" and any("autocast to bfloat16" in n for n in mixed.notes)
    assert mixed.to_dict()["amp"] == "bfloat16"


def test_float16_training_says_the_scaler_is_not_counted():
    result = estimate_fit(_mlp(), FitRequest(device="cpu", optimizer="adam", amp="float16", measure=False))
    assert any("GradScaler" in n for n in result.notes)
    with pytest.raises(InputError, match="not an input dtype|unknown|float8"):
        estimate_fit(_mlp(), FitRequest(device="cpu", optimizer="adam", amp="float8", measure=False))


def test_checkpointing_a_hugging_face_model_keeps_fewer_activations_and_the_same_state(tmp_path):
    loaded = load_model(str(config_folder(tmp_path, "llama")))
    ask = {"device": "cpu", "optimizer": "adamw", "inputs": (((4, 256), "int64"),), "measure": False}
    plain = estimate_fit(loaded, FitRequest(**ask))
    checkpointed = estimate_fit(loaded, FitRequest(**ask, checkpointing=True))
    assert checkpointed.checkpointing and checkpointed.to_dict()["checkpointing"] is True
    assert checkpointed.parameters_bytes == plain.parameters_bytes == 4 * parameters_in_closed_form("llama")
    assert checkpointed.optimizer_state_bytes == plain.optimizer_state_bytes
    assert checkpointed.activations_bytes < 0.7 * plain.activations_bytes
    assert checkpointed.estimated_peak_bytes < plain.estimated_peak_bytes
    assert not getattr(loaded.module, "is_gradient_checkpointing", False)  # only the copy was switched


def test_checkpointing_needs_a_model_with_the_switch():
    with pytest.raises(InputError, match="Sequential has no activation checkpointing switch"):
        estimate_fit(_mlp(), FitRequest(device="cpu", optimizer="sgd", checkpointing=True, measure=False))


def test_the_real_step_runs_with_both_options(tmp_path):
    folder, _ = weights_folder(tmp_path, "llama")
    loaded = load_model(str(folder))
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adamw", amp="bfloat16", checkpointing=True,
                                             inputs=(((2, 64), "int64"),)))  # fmt: skip
    assert result.measured_peak_bytes is not None, result.measured_reason


# ------------------------------------------------------------------ the KV cache, the loop, the host's state
# (tiny Llama: 2 layers, 2 KV heads of 16, vocabulary 1,000; a 4 x 128 batch of token ids)

TOKENS = (((4, 128), "int64"),)
KV_CACHE = 2 * 2 * 4 * 2 * 128 * 16 * 4  # layers x (K, V) x batch x KV heads x tokens x head size x float32
LOGITS = 4 * 128 * 1000 * 4  # batch x tokens x vocabulary x float32


def test_a_forward_holds_no_kv_cache_unless_asked_and_says_which(tmp_path):
    pytest.importorskip("transformers")
    loaded = load_model(str(config_folder(tmp_path, "llama")))  # its config says use_cache: true (the default)
    plain = estimate_fit(loaded, FitRequest(device="cpu", mode="forward", inputs=TOKENS, measure=False))
    cached = estimate_fit(loaded, FitRequest(device="cpu", mode="forward", inputs=TOKENS, measure=False, use_cache=True))
    # A plain forward keeps no cache; asked for, the cache is every layer's keys and values, exactly.
    assert cached.estimated_peak_bytes - plain.estimated_peak_bytes == KV_CACHE
    assert plain.use_cache is False and plain.to_dict()["use_cache"] is False and cached.use_cache is True
    assert any("use_cache=False" in n and "--use-cache" in n for n in plain.notes)
    assert any("use_cache=True" in n for n in cached.notes)
    # A model that takes no use_cache is said to take none.
    assert estimate_fit(_mlp(), FitRequest(device="cpu", mode="forward", measure=False)).use_cache is None


def test_the_loop_that_holds_its_output_through_backward_is_planned_with_the_logits_held(tmp_path):
    pytest.importorskip("transformers")
    loaded = load_model(str(config_folder(tmp_path, "llama")))
    trainer = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adamw", inputs=TOKENS, measure=False))
    held = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adamw", inputs=TOKENS, measure=False,
                                           keep_output=True))  # fmt: skip
    assert trainer.loop == "output-freed" and held.loop == "output-held" and held.to_dict()["loop"] == "output-held"
    assert any("as transformers' Trainer does" in n and "--keep-output" in n for n in trainer.notes)
    # out = model(x); out.loss.backward(): the logits live through the backward, in every step.
    assert held.estimated_peak_bytes - trainer.estimated_peak_bytes == LOGITS
    assert held.later_step_peak_bytes - trainer.later_step_peak_bytes == LOGITS
    assert estimate_fit(loaded, FitRequest(device="cpu", mode="forward", inputs=TOKENS, measure=False)).loop is None
    with pytest.raises(InputError, match="--keep-output plans a training loop"):
        estimate_fit(loaded, FitRequest(device="cpu", mode="forward", inputs=TOKENS, measure=False, keep_output=True))


def test_a_held_output_is_freed_when_the_next_forward_returns():
    from inspector.core.measure.fit_trace import later_step, live_peak

    # Before the step: a parameter (0). The step: an activation (1), the output (2, held), a gradient (3).
    events = [("alloc", 0, 100), ("alloc", 1, 10), ("alloc", 2, 1000), ("free", 1, 0), ("alloc", 3, 100)]
    later = later_step(events, 1, state=[], grads=[3], held=[2], forward_end=3)
    # The next step's output (2 renumbered) exists while the first one's is still held, then that one goes.
    assert later == [("free", 3, 0), ("alloc", 5, 10), ("alloc", 6, 1000), ("free", 2, 0), ("free", 5, 0),
                     ("alloc", 7, 100)]  # fmt: skip
    assert live_peak(events + later, start=len(events)) == 100 + 10 + 1000 + 1000 + 100 - 100 + 0


def test_adamw_step_counts_live_on_the_host_unless_capturable_or_fused():
    from inspector.core.measure.fit_step import host_state

    m = nn.Linear(8, 8)
    m(torch.randn(2, 8)).sum().backward()
    default, capturable = torch.optim.AdamW(m.parameters()), torch.optim.AdamW(m.parameters(), capturable=True)
    default.step()
    assert [t.device.type for t in host_state(default)] == ["cpu", "cpu"]  # torch.tensor(0.0): the CPU's
    assert list(host_state(capturable)) == [] and list(host_state(None)) == []
    # Planned for a GPU, the step counts are not on it; planned for the CPU they are (4 B each).
    loaded = _mlp()
    params = (256 * 1024 + 1024 + 1024 * 256 + 256) * 4
    gpu = estimate_fit(loaded, FitRequest(device="cuda", optimizer="adamw", capacity=4 << 30, measure=False))
    cpu = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adamw", measure=False))
    assert gpu.optimizer_state_bytes == 2 * params and cpu.optimizer_state_bytes == 2 * params + 4 * 4
