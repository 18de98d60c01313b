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
