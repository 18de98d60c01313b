"""Issue 32, item 17: a ``.safetensors`` file is judged by its header before its data is read.

The files are generated here: a header that declares hundreds of MiB of tensors over a sparse
file (no disk used). Every tensor byte the loader reads passes through the safetensors
library's ``safe_open(...).get_tensor`` or ``safetensors.torch.load_file``; both are counted.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
import safetensors
import safetensors.torch
import torch

from inspector.core.files.load_errors import ArchitectureNeeded, ModelLoadError
from inspector.core.files.models import Net, load_model

MiB = 2**20


def write_declared(path: Path, tensors: dict[str, list[int]]) -> Path:
    """A valid float32 ``.safetensors`` file declaring ``tensors`` (name -> shape), its data a hole."""
    header: dict[str, dict] = {}
    offset = 0
    for name, shape in tensors.items():
        size = 4 * int(torch.Size(shape).numel())
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with path.open("wb") as stream:
        stream.write(struct.pack("<Q", len(text)) + text)
        stream.truncate(8 + len(text) + offset)
    return path


class BytesRead:
    """Counts the tensor bytes read through the safetensors library."""

    def __init__(self, monkeypatch) -> None:
        self.total = 0
        real_open, real_load = safetensors.safe_open, safetensors.torch.load_file
        counter = self

        class CountingOpen:
            def __init__(self, *args, **kwargs) -> None:
                self._handle = real_open(*args, **kwargs)

            def __enter__(self):
                self._handle.__enter__()
                return self

            def __exit__(self, *exc_info):
                return self._handle.__exit__(*exc_info)

            def get_tensor(self, name):
                tensor = self._handle.get_tensor(name)
                counter.total += tensor.nbytes
                return tensor

            def __getattr__(self, name):
                return getattr(self._handle, name)

        def counting_load(*args, **kwargs):
            tensors = real_load(*args, **kwargs)
            counter.total += sum(tensor.nbytes for tensor in tensors.values())
            return tensors

        monkeypatch.setattr(safetensors, "safe_open", CountingOpen)
        monkeypatch.setattr(safetensors.torch, "load_file", counting_load)


def test_keys_that_cannot_match_are_refused_from_the_header_alone(tmp_path, monkeypatch):
    path = write_declared(tmp_path / "huge.safetensors", {"encoder.embed.weight": [64, MiB]})  # 256 MiB declared
    read = BytesRead(monkeypatch)
    with pytest.raises(ModelLoadError) as refused:
        load_model(str(path), architecture="example")
    message = str(refused.value)
    assert "missing keys: fc1.weight" in message and "unexpected keys: encoder.embed.weight" in message
    assert read.total == 0


def test_shapes_that_cannot_match_are_refused_from_the_header_alone(tmp_path, monkeypatch):
    shapes = {key: list(value.shape) for key, value in Net().state_dict().items()}
    shapes["fc1.weight"] = [2, 16 * MiB]  # 128 MiB declared where the model has (2, 3)
    path = write_declared(tmp_path / "wide.safetensors", shapes)
    read = BytesRead(monkeypatch)
    with pytest.raises(ModelLoadError, match=r"fc1\.weight.*\(2, 16777216\).*\(2, 3\)"):
        load_model(str(path), architecture="example")
    assert read.total == 0


def test_without_an_architecture_the_file_is_counted_not_read(tmp_path, monkeypatch):
    path = write_declared(tmp_path / "huge.safetensors", {"a.weight": [32, MiB], "b.weight": [32, MiB]})
    read = BytesRead(monkeypatch)
    with pytest.raises(ArchitectureNeeded, match="2 "):
        load_model(str(path))
    assert read.total == 0


def test_weights_that_fit_are_read_once_and_loaded(tmp_path, monkeypatch):
    source = Net()
    path = tmp_path / "model.safetensors"
    safetensors.torch.save_file({f"module.{k}": v for k, v in source.state_dict().items()}, str(path))  # DDP's prefix
    read = BytesRead(monkeypatch)
    loaded = load_model(str(path), architecture="example")
    assert read.total == sum(tensor.nbytes for tensor in source.state_dict().values())
    for name, tensor in source.state_dict().items():
        assert torch.equal(loaded.module.state_dict()[name], tensor)
    assert any("'module.'" in note for note in loaded.notes)


def test_a_header_that_lies_about_its_data_is_refused_in_one_line(tmp_path):
    path = write_declared(tmp_path / "cut.safetensors", {"fc1.weight": [2, 3]})
    with path.open("r+b") as stream:  # the declared data is cut short
        stream.truncate(path.stat().st_size - 4)
    with pytest.raises(ModelLoadError, match="not a complete safetensors file"):
        load_model(str(path), architecture="example")
