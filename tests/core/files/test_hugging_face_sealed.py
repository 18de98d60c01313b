"""Issue 43 (review): a class transformers ships can reach past the config's names by itself
(RWKV's builder runs ``ninja --version``, then asks the Hub's ``kernels`` for a kernel). A load
runs sealed: on the loading thread no process starts and no connection opens."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading

import pytest

from inspector.core.files import load_model
from inspector.core.files.hugging_face import sealed

RWKV = {"architectures": ["RwkvForCausalLM"], "model_type": "rwkv", "vocab_size": 100, "hidden_size": 32,
        "num_hidden_layers": 2, "attention_hidden_size": 32, "intermediate_size": 64, "context_length": 64}  # fmt: skip


def test_inside_a_sealed_load_no_process_starts_and_no_connection_opens_on_that_thread(tmp_path):
    mark = tmp_path / "ran"
    with sealed.sealed() as refused:
        with pytest.raises(OSError):
            subprocess.run([sys.executable, "-c", f"open({str(mark)!r}, 'w')"], check=False)
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", 9), timeout=1)
        # another thread is not the load's: it is left alone
        other: list[int] = []
        thread = threading.Thread(target=lambda: other.append(subprocess.run(["true"], check=False).returncode))
        thread.start()
        thread.join()
    assert not mark.exists() and other == [0]
    assert refused[0].startswith(sys.executable) and refused[1].startswith(("socket.connect", "socket.getaddrinfo"))
    assert subprocess.run(["true"], check=False).returncode == 0  # and after the load, nothing is refused


def test_a_model_whose_builder_runs_a_program_is_built_without_it(tmp_path, monkeypatch):
    """RWKV's builder runs ``ninja --version`` from PATH: a ``ninja`` there that leaves a mark never runs."""
    bin_folder, mark = tmp_path / "bin", tmp_path / "ninja-ran"
    bin_folder.mkdir()
    ninja = bin_folder / "ninja"
    ninja.write_text(f"#!/bin/sh\ntouch {mark}\necho 1.11.1\n")
    ninja.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_folder}:{os.environ.get('PATH', '')}")
    folder = tmp_path / "rwkv"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(RWKV))
    loaded = load_model(str(folder))
    assert type(loaded.module).__name__ == "RwkvForCausalLM"
    refused = [note for note in loaded.notes if "tried to run" in note]
    assert not mark.exists() and refused, loaded.notes
    assert "ninja --version: refused" in refused[0]
