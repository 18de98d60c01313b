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
