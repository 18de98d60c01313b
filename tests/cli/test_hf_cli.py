"""Hugging Face folders on the command line: inspect and fit from config.json alone, bench with
weights, the folder's own code refused untrusted, hf: names from the local cache only."""

import json

import pytest

from inspector.cli import main
from tests.hf_folders import config_folder, parameters_in_closed_form, remote_code_folder, weights_folder

pytest.importorskip("transformers")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_inspect_lists_a_config_only_model_on_meta(capsys, tmp_path):
    folder = config_folder(tmp_path, "llama")
    code, out, _ = run(capsys, "inspect", str(folder), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["totals"]["elements"] == parameters_in_closed_form("llama") + 2 * 8  # and two rotary buffers
    assert set(data["totals"]["by_device"]) == {"meta"}


def test_fit_a_config_folder_on_a_named_gpu(capsys, tmp_path):
    folder = config_folder(tmp_path, "gpt2")
    code, out, _ = run(capsys, "fit", str(folder), "--gpu", "T4", "--dtype", "bfloat16", "--optimizer", "adamw",
                       "--input-shape", "2,64:int64", "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["parameters_bytes"] == 2 * parameters_in_closed_form("gpt2")
    assert data["named_device"] == "T4" and data["fits"] is True and data["reserved_peak_bytes"] > 0


def test_bench_runs_a_folder_with_weights(capsys, tmp_path):
    folder, _ = weights_folder(tmp_path, "bert")
    code, out, _ = run(capsys, "bench", str(folder), "--device", "cpu", "--runs", "3")
    assert code == 0 and "cpu     float32  forward  1x128" in out


def test_a_folder_that_needs_its_own_code_is_refused_without_trust(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("EVIL_MARKER", str(tmp_path / "ran"))
    code, _, err = run(capsys, "fit", str(remote_code_folder(tmp_path)), "--optimizer", "sgd")
    assert code == 2 and "EvilModel from modeling_evil.py" in err and "--trust" in err
    assert not (tmp_path / "ran").exists()


def test_an_hf_name_absent_from_the_cache_names_the_cache(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    code, _, err = run(capsys, "inspect", "hf:meta-llama/Meta-Llama-3-8B")
    assert code == 2 and str(tmp_path / "hub") in err and "nothing is downloaded" in err


def test_a_config_naming_no_class_is_built_as_its_causal_lm_and_every_output_says_so(capsys, tmp_path):
    folder = config_folder(tmp_path, "llama")
    config = json.loads((folder / "config.json").read_text())
    del config["architectures"]  # as LlamaConfig().save_pretrained writes it
    (folder / "config.json").write_text(json.dumps(config))
    code, out, _ = run(capsys, "fit", str(folder), "--optimizer", "sgd", "--no-measure", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["model_class"] == "LlamaForCausalLM"  # with its head: not the base LlamaModel
    assert data["parameters_bytes"] == 4 * parameters_in_closed_form("llama")
    assert any("names no model class (architectures): built LlamaForCausalLM" in n for n in data["notes"])
    code, out, _ = run(capsys, "fit", str(folder), "--optimizer", "sgd", "--no-measure")
    assert code == 0 and out.startswith(f"Will it fit? {folder} (LlamaForCausalLM) on cpu")
    assert "note: config.json names no model class (architectures): built LlamaForCausalLM" in out


def test_a_config_naming_no_class_whose_type_has_no_causal_lm_is_refused_with_the_choices(capsys, tmp_path):
    folder = tmp_path / "vit"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({
        "model_type": "vit", "hidden_size": 32, "num_hidden_layers": 1, "num_attention_heads": 2,
        "intermediate_size": 32, "image_size": 32, "patch_size": 8,
    }))  # fmt: skip
    code, out, err = run(capsys, "fit", str(folder), "--optimizer", "sgd", "--no-measure")
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1 and lines[0].startswith("error: ")
    assert "model_type 'vit' has no causal language model class" in lines[0]
    assert "ViTForImageClassification" in lines[0] and "ViTModel" in lines[0]


def test_use_cache_and_keep_output_are_options_said_in_the_answer(capsys, tmp_path):
    folder = config_folder(tmp_path, "llama")
    shape = ("--input-shape", "2,64:int64", "--no-measure", "--json")
    _, out, _ = run(capsys, "fit", str(folder), "--optimizer", "none", "--mode", "forward", *shape)
    plain = json.loads(out)
    _, out, _ = run(capsys, "fit", str(folder), "--optimizer", "none", "--mode", "forward", "--use-cache", *shape)
    cached = json.loads(out)
    assert plain["use_cache"] is False and cached["use_cache"] is True and plain["loop"] is None
    assert cached["estimated_peak_bytes"] - plain["estimated_peak_bytes"] == 2 * 2 * 2 * 2 * 64 * 16 * 4  # K, V
    code, out, _ = run(capsys, "fit", str(folder), "--optimizer", "sgd", "--keep-output", "--input-shape", "2,64:int64",
                       "--no-measure")  # fmt: skip
    assert code == 0 and "train-step (loop output-held), use_cache=False" in out.splitlines()[0]
    assert "note: loop: out = model(x); out.loss.backward(); optimizer.step()" in out
    code, out, err = run(capsys, "fit", str(folder), "--optimizer", "none", "--mode", "forward", "--keep-output")
    assert code == 2 and out == "" and "--keep-output plans a training loop" in err
