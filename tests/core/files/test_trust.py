"""Files that would run code or touch the disk at load are refused before anything of them runs.

Every hostile file is built here, from a clean one PyTorch wrote, and every payload would
create a file in the test's own folder: the tests assert it was not created (and, where
cheap, that it is created once the user trusts the file, so the payload is real).
"""

from __future__ import annotations

import io
import json
import os
import pickle
import shlex
import warnings
import zipfile
from pathlib import Path

import pytest
import torch
from torch import nn

from inspector.core.files.trust import pickle_globals, torchscript_risks
from inspector.core.files.load_errors import ModelLoadError, UntrustedFileError
from inspector.core.files.models import load_model


class _Shell:
    """Unpickling this runs ``touch target`` (what an attacker's pickle does)."""

    def __init__(self, target: Path) -> None:
        self.command = f"touch {shlex.quote(str(target))}"

    def __reduce__(self):
        return (os.system, (self.command,))


def _members(path: Path) -> tuple[str, dict[str, bytes]]:
    with zipfile.ZipFile(path) as archive:
        top = archive.namelist()[0].partition("/")[0]
        return top, {info.filename: archive.read(info) for info in archive.infolist()}


def _write_zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


# --------------------------------------------------------------------------- torch.export


class _WithConstant(nn.Module):
    """A linear layer plus a lifted tensor constant: a constants config with one entry."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.offset = torch.ones(2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lin(x) + self.offset + x.shape[0] // 2


@pytest.fixture(scope="module")
def clean_pt2(tmp_path_factory) -> Path:
    """A real exported program: a tensor constant and a dynamic batch (shape expressions)."""
    path = tmp_path_factory.mktemp("export") / "clean.pt2"
    program = torch.export.export(
        _WithConstant(), (torch.randn(4, 3),), dynamic_shapes=({0: torch.export.Dim("batch")},)
    )
    torch.export.save(program, str(path))
    return path


def test_a_clean_exported_program_with_constants_and_dynamic_shapes_opens_without_trust(clean_pt2):
    loaded = load_model(str(clean_pt2))
    assert loaded.source == "export"
    assert loaded.module(torch.randn(6, 3)).shape == (6, 2)


def _with_constant_entry(clean: Path, out: Path, fqn: str, entry: dict, record: str, data: bytes) -> Path:
    top, members = _members(clean)
    config_name = f"{top}/data/constants/model_constants_config.json"
    config = json.loads(members[config_name])
    config["config"][fqn] = entry
    members[config_name] = json.dumps(config).encode()
    members[f"{top}/data/constants/{record}"] = data
    return _write_zip(out, members)


def test_pickled_constant_in_a_sub_folder_is_refused_and_runs_nothing(clean_pt2, tmp_path):
    """The hole: path_name "opaque_obj_q/c" ends in "c", yet torch.export.load pickle.loads it."""
    target = tmp_path / "created-by-payload"
    entry = {"path_name": "opaque_obj_q/c", "is_param": False, "use_pickle": True, "tensor_meta": None}
    path = _with_constant_entry(clean_pt2, tmp_path / "opaque.pt2", "q", entry, "opaque_obj_q/c", pickle.dumps(_Shell(target)))

    with pytest.raises(UntrustedFileError) as caught:
        load_model(str(path))
    assert "constant q" in str(caught.value) and "--trust" in str(caught.value)
    assert not target.exists()

    with pytest.raises(ModelLoadError):  # trusted: torch really runs it (then fails on it)
        load_model(str(path), trust=True)
    assert target.exists()


def test_pickled_tensor_constant_naming_a_function_is_refused_with_its_name(clean_pt2, tmp_path):
    target = tmp_path / "created-by-payload"
    blob = io.BytesIO()
    torch.save(_Shell(target), blob)
    entry = {"path_name": "tensor_9", "is_param": False, "use_pickle": True, "tensor_meta": None}
    path = _with_constant_entry(clean_pt2, tmp_path / "pickled.pt2", "p", entry, "tensor_9", blob.getvalue())

    with pytest.raises(UntrustedFileError, match=r"posix\.system") as caught:
        load_model(str(path))
    assert "posix.system" in caught.value.wanted[0]
    assert not target.exists()


def test_torchscript_object_constant_needs_trust(clean_pt2, tmp_path):
    entry = {"path_name": "custom_obj_0", "is_param": False, "use_pickle": True, "tensor_meta": None}
    path = _with_constant_entry(clean_pt2, tmp_path / "custom.pt2", "obj", entry, "custom_obj_0", b"\x80\x02N.")
    with pytest.raises(UntrustedFileError, match="TorchScript object in constant obj"):
        load_model(str(path))


def test_an_unreferenced_member_named_like_a_pickle_is_not_read_and_not_refused(clean_pt2, tmp_path):
    """Trust is decided from the config torch reads, not from the archive's file names."""
    top, members = _members(clean_pt2)
    members[f"{top}/data/constants/opaque_obj_0"] = pickle.dumps(_Shell(tmp_path / "never"))
    path = _write_zip(tmp_path / "decoy.pt2", members)
    assert load_model(str(path)).source == "export"
    assert not (tmp_path / "never").exists()


def _with_graph_edit(clean: Path, out: Path, old: str, new: str) -> Path:
    top, members = _members(clean)
    name = f"{top}/models/model.json"
    text = members[name].decode()
    assert old in text
    members[name] = text.replace(old, new).encode()
    return _write_zip(out, members)


def test_code_in_a_shape_expression_is_refused_and_runs_nothing(clean_pt2, tmp_path):
    """torch.export.load hands every expr_str to sympy.sympify, which evals it."""
    target = tmp_path / "created-by-payload"
    payload = f"__import__('os').system('touch {target}')"
    text = json.loads(_members(clean_pt2)[1][f"{_members(clean_pt2)[0]}/models/model.json"])
    symbol = next(_expressions(text))
    path = _with_graph_edit(clean_pt2, tmp_path / "sympify.pt2", json.dumps(symbol), json.dumps(payload))

    with pytest.raises(UntrustedFileError, match="shape expression"):
        load_model(str(path))
    assert not target.exists()

    try:
        load_model(str(path), trust=True)
    except ModelLoadError:
        pass
    assert target.exists()  # the payload is real


def _expressions(value):
    if isinstance(value, dict):
        if isinstance(value.get("expr_str"), str):
            yield value["expr_str"]
        for item in value.values():
            yield from _expressions(item)
    elif isinstance(value, list):
        for item in value:
            yield from _expressions(item)


@pytest.mark.parametrize(
    "target, named",
    [
        ("torch.ops.aten.from_file.default", "from_file"),
        ("torch.ops.aten.save.default", "save"),
        ("torch.ops._c10d_functional.all_reduce.default", "_c10d_functional"),
        ("torch.os.system", "torch.os.system"),
        ("_operator.methodcaller", "_operator.methodcaller"),
    ],
)
def test_graph_calling_files_processes_or_arbitrary_functions_is_refused(clean_pt2, tmp_path, target, named):
    path = _with_graph_edit(clean_pt2, tmp_path / "op.pt2", '"torch.ops.aten.linear.default"', json.dumps(target))
    with pytest.raises(UntrustedFileError) as caught:
        load_model(str(path))
    assert named in str(caught.value)


# --------------------------------------------------------------------------- TorchScript


class _SetStateWritesAFile(nn.Module):
    """Its scripted __setstate__ creates a shared-memory file at the path kept in its state."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(2))
        self.path = path

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.weight

    @torch.jit.export
    def __getstate__(self) -> tuple[torch.Tensor, bool, str]:
        return (self.weight, self.training, self.path)

    @torch.jit.export
    def __setstate__(self, state: tuple[torch.Tensor, bool, str]) -> None:
        self.training = state[1]
        self.path = state[2]
        self.weight = state[0] + torch.from_file(state[2], shared=True, size=2)


class _ForwardWritesAFile(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + torch.from_file("/nonexistent/inspector-test", shared=True, size=1)


@pytest.fixture(scope="module")
def scripted_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("script")
    target = folder / "created-at-load"
    torch.jit.script(_SetStateWritesAFile(str(target))).save(str(folder / "setstate.pt"))
    torch.jit.script(_ForwardWritesAFile()).save(str(folder / "forward.pt"))
    assert not target.exists()
    return folder, target


def test_torchscript_whose_setstate_writes_a_file_is_refused_and_writes_nothing(scripted_files):
    folder, target = scripted_files
    with pytest.raises(UntrustedFileError) as caught:
        load_model(str(folder / "setstate.pt"))
    message = str(caught.value)
    assert "__setstate__" in message and "from_file" in message and "--trust" in message
    assert not target.exists()

    assert load_model(str(folder / "setstate.pt"), trust=True).source == "torchscript"
    assert target.exists()  # trusted, torch.jit.load ran it: the refusal was not a false alarm


def test_torchscript_whose_graph_calls_from_file_is_refused(scripted_files):
    folder, _ = scripted_files
    with pytest.raises(UntrustedFileError, match=r"torch\.from_file"):
        load_model(str(folder / "forward.pt"))


def test_code_edited_into_a_torchscript_archive_is_found(tmp_path):
    """An attacker writes the code/ sources by hand: what torch would compile is what is read."""
    clean = tmp_path / "clean.pt"
    torch.jit.script(nn.Linear(2, 2)).save(str(clean))
    _, members = _members(clean)
    source = next(name for name in members if name.endswith(".py"))
    members[source] += b"\n  def __setstate__(self, state: Tuple[Tensor, Tensor, bool]) -> NoneType:\n    return None\n"
    path = _write_zip(tmp_path / "edited.pt", members)
    assert any("__setstate__" in risk for risk in torchscript_risks(path))


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(lambda: torch.jit.script(nn.LSTM(4, 8)), id="scripted-lstm"),
        pytest.param(
            lambda: torch.jit.script(nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU())),
            id="scripted-cnn-batchnorm",
        ),
        pytest.param(
            lambda: torch.jit.trace(
                nn.Transformer(d_model=16, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16).eval(),
                (torch.randn(5, 2, 16), torch.randn(4, 2, 16)),
            ),
            id="traced-transformer",
        ),
    ],
)
def test_plain_scripted_and_traced_models_open_without_trust(tmp_path, build):
    path = tmp_path / "model.pt"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        build().save(str(path))
    assert load_model(str(path)).source == "torchscript"


# --------------------------------------------------------------------------- raw pickles


@pytest.mark.parametrize("protocol", [0, 2, 5])
def test_raw_pickle_naming_a_function_is_refused_with_its_name_and_no_warning(tmp_path, protocol):
    target = tmp_path / "created-by-payload"
    path = tmp_path / "model.pkl"
    path.write_bytes(pickle.dumps(_Shell(target), protocol=protocol))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PyTorch's "Detected pickle protocol" would fail here
        with pytest.raises(UntrustedFileError) as caught:
            load_model(str(path))
    assert caught.value.wanted == ("posix.system",)
    assert "posix.system" in str(caught.value) and "--trust" in str(caught.value)
    assert not target.exists()


def test_pickle_globals_sees_names_pushed_through_the_memo():
    data = pickle.dumps([os.system, os.system, Path], protocol=4)
    assert pickle_globals(data) == ["posix.system", "pathlib.Path"]
