"""Hostile Hugging Face folders on the command line (issue 43, items 3, 4, 5, 6, 10, 11 and the
Low items): one ``error:`` line and exit 2, no connection attempted, nothing written, no
escape sequence reaching the terminal, no load left hanging."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from inspector.cli import main
from tests.hf_folders import config_folder, guard_sockets, llama_with, weights_folder
from tests.warm_python import run_python

pytest.importorskip("transformers")

REPO = Path(__file__).resolve().parents[2]
KERNEL = "kernels-community/flash-attn"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_child(tmp_path: Path, *argv: str, timeout: float = 120):
    """The CLI in its own process (its real stdout and stderr), in the test's folder."""
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    return run_python(["-m", "inspector", *argv], cwd=tmp_path, env=env, timeout=timeout)


def one_error_line(err: str) -> str:
    lines = err.strip("\n").splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err and "\x1b" not in err
    return lines[0]


# --------------------------------------------------------------------------- item 3


COMMANDS = {
    "inspect": ["inspect"],
    "fit": ["fit", "--gpu", "T4", "--optimizer", "adamw", "--input-shape", "1,8:int64"],
    "bench": ["bench", "--device", "cpu", "--runs", "2", "--output", "report.json"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_config_naming_a_hub_kernel_is_refused_offline(capsys, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    tried = guard_sockets(monkeypatch)
    folder = llama_with(tmp_path, "kernel", attn_implementation=KERNEL)
    argv = COMMANDS[command]
    code, out, err = run(capsys, argv[0], str(folder), *argv[1:])
    line = one_error_line(err)
    assert code == 2 and out == ""
    assert f"config.json's attn_implementation is '{KERNEL}', which is not built into transformers" in line
    assert "--trust" in line
    assert tried == [] and not (tmp_path / "report.json").exists()


def test_trusted_the_kernel_is_still_looked_for_offline_only(capsys, tmp_path, monkeypatch):
    tried = guard_sockets(monkeypatch)
    folder = llama_with(tmp_path, "kernel", attn_implementation=KERNEL)
    code, _, err = run(capsys, "inspect", str(folder), "--trust")
    assert tried == []  # the kernels library found the Hub offline: no socket, whatever it did next
    assert code == 0 or (code == 2 and "could not build the model" in err.splitlines()[-1])
    assert "\x1b" not in err and "Traceback" not in err


# --------------------------------------------------------------------------- item 4


def test_architectures_naming_a_function_of_transformers_is_refused(capsys, tmp_path):
    code, out, err = run(capsys, "inspect", str(llama_with(tmp_path, "seed", architectures=["set_seed"])))
    assert code == 2 and out == ""
    assert "architectures names 'set_seed', which is not a model class of transformers" in one_error_line(err)


# --------------------------------------------------------------------------- items 5 and 11


def test_a_billion_layers_is_one_line_at_once(tmp_path):
    llama_with(tmp_path, "deep", num_hidden_layers=10**9)
    done = run_child(tmp_path, "inspect", "deep", timeout=120)  # built, it would run for ever
    assert done.returncode == 2 and done.stdout == ""
    assert "num_hidden_layers is 1,000,000,000, more than 1,024" in one_error_line(done.stderr)


@pytest.mark.parametrize(("field", "value"), [("num_hidden_layers", -5), ("num_attention_heads", 0),
                                              ("hidden_size", 64.5), ("vocab_size", "1000")])  # fmt: skip
def test_fit_refuses_a_model_the_config_cannot_describe(capsys, tmp_path, field, value):
    folder = llama_with(tmp_path, "odd", **{field: value})
    code, out, err = run(capsys, "fit", str(folder), "--gpu", "T4", "--optimizer", "adamw")
    assert code == 2 and out == ""  # no "fits: yes" for a model with no layers
    assert f"config.json's {field} is " in one_error_line(err) and "must be a whole number" in err


@pytest.mark.parametrize("fields", [{"auto_map": None}, {"dtype": "<junk>"}, {"hidden_size": "64"}])
def test_bad_config_values_are_input_errors_not_crashes(capsys, tmp_path, fields):
    code, _, err = run(capsys, "inspect", str(llama_with(tmp_path, "bad", **fields)))
    line = one_error_line(err)
    assert code == 2 and "Error" not in line and "config.json's" in line


def test_a_weight_index_that_is_a_list_is_one_line(capsys, tmp_path):
    folder, _ = weights_folder(tmp_path, "gpt2", shard=True)
    (folder / "model.safetensors.index.json").write_text("[]")
    code, _, err = run(capsys, "inspect", str(folder))
    assert code == 2
    assert "model.safetensors.index.json is a list of 0 items, not a JSON object" in one_error_line(err)


# --------------------------------------------------------------------------- item 6


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX matter")
@pytest.mark.parametrize("which", ["shard", "config.json", "generation_config.json"])
def test_a_fifo_in_a_model_folder_is_refused_unopened(tmp_path, which):
    folder, _ = weights_folder(tmp_path, "gpt2", shard=True)
    if which == "shard":
        index = json.loads((folder / "model.safetensors.index.json").read_text())
        index["weight_map"] = dict.fromkeys(index["weight_map"], "shard.safetensors")
        (folder / "model.safetensors.index.json").write_text(json.dumps(index))
        which = "shard.safetensors"
    else:
        (folder / which).unlink()
    os.mkfifo(folder / which)
    done = run_child(tmp_path, "inspect", folder.name, timeout=120)  # opened, it would wait for ever
    assert done.returncode == 2
    assert f"{which} is not a regular file (a FIFO): refused without being opened" in one_error_line(done.stderr)


# --------------------------------------------------------------------------- item 10 and the Low items


def test_escape_sequences_in_a_config_never_reach_the_terminal(tmp_path):
    hostile = "\x1b]0;TITLE\x07\x1b[2J"
    llama_with(tmp_path, "rope", rope_scaling={"rope_type": hostile, "factor": 2.0})
    done = run_child(tmp_path, "inspect", "rope", timeout=120)
    for stream in (done.stdout, done.stderr):
        assert "\x1b" not in stream and "\x07" not in stream
    assert "\\x1b]0;TITLE\\x07\\x1b[2J" in done.stderr  # said, escaped
    assert done.returncode in (0, 2) and "Traceback" not in done.stderr


def test_a_load_says_nothing_of_torch_dtype(tmp_path):
    config_folder(tmp_path, "gpt2")  # no dtype in it: reading config.torch_dtype warned on every load
    done = run_child(tmp_path, "inspect", "gpt2", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "torch_dtype" not in done.stderr and "deprecated" not in done.stderr
