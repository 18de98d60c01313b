"""Hugging Face model folders: built from config.json alone on the meta device, or with their
safetensors weights; hf:ORG/NAME from the local cache only; a folder's own code refused untrusted."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from inspector.core.files.load_errors import ModelLoadError, UntrustedFileError
from inspector.core.files.models import load_model, parse_spec, resolved_spec
from inspector.core.measure.fit import FitRequest, estimate_fit
from tests.hf_folders import CONFIGS, config_folder, parameters_in_closed_form, remote_code_folder, weights_folder

pytest.importorskip("transformers")

KINDS = sorted(CONFIGS)


def test_a_folder_with_a_config_and_hf_names_are_model_specs(tmp_path):
    folder = config_folder(tmp_path, "llama")
    assert parse_spec(str(folder)) == ("hf_folder", str(folder), "")
    assert parse_spec("hf:meta-llama/Meta-Llama-3-8B") == ("hf_cache", "meta-llama/Meta-Llama-3-8B", "")
    assert resolved_spec(str(folder)) == os.path.realpath(folder)
    (tmp_path / "empty").mkdir()
    assert parse_spec(str(tmp_path / "empty")).kind == "file"  # no config.json: not a model folder


@pytest.mark.parametrize("kind", KINDS)
def test_a_config_alone_builds_the_model_on_meta_with_its_exact_parameters(tmp_path, kind):
    loaded = load_model(str(config_folder(tmp_path, kind)))
    assert loaded.source == "huggingface"
    parameters = list(loaded.module.parameters())
    assert all(p.device.type == "meta" for p in parameters)  # nothing allocated
    assert sum(p.numel() for p in parameters) == parameters_in_closed_form(kind)
    ids = loaded.example_input  # token ids by default, below the vocabulary
    assert ids.dtype == torch.int64 and ids.shape[0] == 1 and 0 <= int(ids.min()) and int(ids.max()) < 1000
    assert any("config.json alone" in n for n in loaded.notes) and any("token ids" in n for n in loaded.notes)


@pytest.mark.parametrize("kind", KINDS)
def test_fit_on_a_config_alone_counts_the_exact_bytes_with_adamw(tmp_path, kind):
    loaded = load_model(str(config_folder(tmp_path, kind)))
    n = parameters_in_closed_form(kind)
    tensors = len(list(loaded.module.parameters()))
    result = estimate_fit(loaded, FitRequest(device="cpu", dtype="bfloat16", optimizer="adamw", measure=False,
                                             inputs=(((2, 64), "int64"),)))  # fmt: skip
    assert result.parameters_bytes == 2 * n and result.gradients_bytes == 2 * n
    assert result.optimizer_state_bytes == 2 * 2 * n + 4 * tensors  # two bfloat16 moments, a float32 step each
    assert result.activations_bytes > 0 and result.input_shapes == ((2, 64),)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shard", [False, True])
def test_weights_load_from_safetensors_one_file_or_shards(tmp_path, kind, shard):
    folder, saved = weights_folder(tmp_path, kind, shard=shard)
    assert (folder / ("model.safetensors.index.json" if shard else "model.safetensors")).is_file()
    loaded = load_model(str(folder))
    state = loaded.module.state_dict()
    for name, value in saved.items():
        assert torch.equal(state[name], value), name
    assert all(p.device.type == "cpu" for p in loaded.module.parameters())
    assert any(n.startswith("weights loaded from model") for n in loaded.notes)


def test_a_loaded_model_runs_and_its_fit_is_proven_by_a_real_step(tmp_path):
    folder, _ = weights_folder(tmp_path, "gpt2")
    loaded = load_model(str(folder))
    out = loaded.module(loaded.example_input)
    assert out.logits.shape == (1, 128, 1000)
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adamw", inputs=(((2, 32), "int64"),)))
    assert result.measured_peak_bytes is not None and result.measured_reason.startswith("process peak RSS")


def test_only_pickled_weights_are_not_read(tmp_path):
    folder = config_folder(tmp_path, "bert")
    (folder / "pytorch_model.bin").write_bytes(b"not read")
    loaded = load_model(str(folder))
    assert all(p.device.type == "meta" for p in loaded.module.parameters())
    assert any("pytorch_model.bin" in n and "only safetensors are read" in n for n in loaded.notes)


COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _cache(root: Path, name: str, config_kind: str | None) -> Path:
    repo = root / ("models--" + name.replace("/", "--"))
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(COMMIT)
    snapshot = repo / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    if config_kind:
        config_folder(snapshot.parent, config_kind).rename(snapshot / "x")
        (snapshot / "x" / "config.json").rename(snapshot / "config.json")
    return snapshot


def test_hf_names_come_from_the_local_cache_only(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    _cache(tmp_path / "hub", "tiny/llama", "llama")
    loaded = load_model("hf:tiny/llama")
    assert sum(p.numel() for p in loaded.module.parameters()) == parameters_in_closed_form("llama")
    with pytest.raises(ModelLoadError, match=r"not in the local Hugging Face cache \(.*hub\); nothing is downloaded"):
        load_model("hf:meta-llama/Meta-Llama-3-8B")
    with pytest.raises(ModelLoadError, match="not a Hugging Face model name"):
        load_model("hf:../../etc")


def test_the_cache_follows_hf_home_without_hf_hub_cache(tmp_path, monkeypatch):
    from inspector.core.files.hugging_face import cache_root

    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    assert cache_root() == tmp_path / "home" / "hub"


def test_a_config_that_needs_the_folders_code_is_refused_without_trust(tmp_path, monkeypatch):
    folder = remote_code_folder(tmp_path)
    marker = tmp_path / "ran"
    monkeypatch.setenv("EVIL_MARKER", str(marker))
    with pytest.raises(UntrustedFileError) as refused:
        load_model(str(folder))
    message = str(refused.value)
    assert "EvilModel from modeling_evil.py" in message and "EvilConfig from configuration_evil.py" in message
    assert "--trust" in message and "nothing of it ran" in message
    assert not marker.exists()


def test_trusted_the_folders_code_runs(tmp_path):
    folder = remote_code_folder(tmp_path)
    marker = tmp_path / "ran"
    env = {**os.environ, "EVIL_MARKER": str(marker), "HF_MODULES_CACHE": str(tmp_path / "modules")}
    done = subprocess.run([sys.executable, "-m", "inspector", "inspect", str(folder), "--trust", "--json"],
                          capture_output=True, text=True, env=env, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert marker.read_text() == "ran" and '"linear.weight"' in done.stdout


def test_without_transformers_a_folder_says_which_extra_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(ModelLoadError, match=r"needs transformers \(pip install 'torch-device-inspector\[hf\]'\)"):
        load_model(str(config_folder(tmp_path, "gpt2")))


def test_an_unknown_model_type_is_said_plainly(tmp_path):
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "no-such-model"}')
    with pytest.raises(ModelLoadError, match="does not know the model type 'no-such-model'"):
        load_model(str(folder))
    (folder / "config.json").write_text("[1, 2")
    with pytest.raises(ModelLoadError, match="config.json could not be read"):
        load_model(str(folder))
