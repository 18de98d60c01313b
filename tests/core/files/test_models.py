"""Model specs and model files: what loads, what is refused, and what the user is told."""

from __future__ import annotations

import io
import os
import pickle
import shlex
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
import torch
from torch import nn

from inspector.cli import exit_code
from inspector.core.errors import InputError
from inspector.core.files.load_errors import ModelLoadError, UntrustedFileError
from inspector.core.files.models import Net, example_model, load_model, parse_spec

# --------------------------------------------------------------------------- helpers


def write_py(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(source))
    return path


def assert_same_weights(left: nn.Module, right: nn.Module) -> None:
    left_state, right_state = left.state_dict(), right.state_dict()
    assert left_state.keys() == right_state.keys()
    for key in left_state:
        assert torch.equal(left_state[key].cpu(), right_state[key].cpu()), key


def trained_net() -> Net:
    """A Net whose weights differ from a fresh one, so 'loaded the file' is observable."""
    torch.manual_seed(1234)
    net = Net()
    with torch.no_grad():
        for parameter in net.parameters():
            parameter.add_(1.0)
    return net


NET_FILE = """
    import torch
    from torch import nn

    class Tiny(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(3, 2)
            self.fc2 = nn.Linear(2, 1)

        def forward(self, x):
            return self.fc2(self.fc1(x))

    def make():
        return Tiny()

    def make_with_input():
        return Tiny(), torch.ones(5, 3)
"""


class Payload:
    """A pickle that runs a command when unpickled: what a hostile checkpoint does."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {shlex.quote(str(self.marker))}",))


class TouchPayload:
    """The same attack without a shell: pathlib's touch creates the marker file."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


# --------------------------------------------------------------------------- example


def test_example_is_the_tutorial_net_with_its_optimizer_and_input():
    loaded = load_model("example")
    assert loaded.source == "example" and loaded.spec == "example"
    assert isinstance(loaded.module, Net)
    shapes = [tuple(p.shape) for p in loaded.module.parameters()]
    assert shapes == [(2, 3), (2,), (1, 2), (1,)]
    assert sum(p.numel() for p in loaded.module.parameters()) == 11
    assert sum(p.numel() * p.element_size() for p in loaded.module.parameters()) == 44
    assert isinstance(loaded.optimizer, torch.optim.SGD)
    assert loaded.optimizer.param_groups[0]["lr"] == 0.01
    assert loaded.optimizer.param_groups[0]["momentum"] == 0.9  # as in real training: a step leaves state
    assert loaded.example_input.shape == (64, 3)
    assert loaded.module(loaded.example_input).shape == (64, 1)


def test_default_spec_is_the_example():
    assert load_model().source == "example"
    assert example_model().class_name == "Net"


# --------------------------------------------------------------------------- factories


def test_factory_from_a_python_file(tmp_path):
    path = write_py(tmp_path, "my_models.py", NET_FILE)
    loaded = load_model(f"{path}:make")
    assert loaded.source == "factory"
    assert loaded.spec == f"{path}:make"
    assert loaded.class_name == "Tiny"
    assert loaded.example_input is None
    assert loaded.module(torch.ones(4, 3)).shape == (4, 1)


def test_factory_tuple_return_brings_its_example_input(tmp_path):
    path = write_py(tmp_path, "my_models.py", NET_FILE)
    loaded = load_model(f"{path}:make_with_input")
    assert torch.equal(loaded.example_input, torch.ones(5, 3))


def test_factory_list_of_tensors_becomes_a_tuple_of_positional_inputs(tmp_path):
    path = write_py(
        tmp_path,
        "two_inputs.py",
        """
        import torch
        from torch import nn

        class Add(nn.Module):
            def forward(self, a, b):
                return a + b

        def make():
            return Add(), [torch.ones(2), torch.zeros(2)]
        """,
    )
    loaded = load_model(f"{path}:make")
    assert isinstance(loaded.example_input, tuple) and len(loaded.example_input) == 2
    assert torch.equal(loaded.module(*loaded.example_input), torch.ones(2))


def test_python_file_can_import_its_neighbours_and_sys_path_is_restored(tmp_path):
    write_py(tmp_path, "tdi_neighbour_width.py", "WIDTH = 7\n")
    path = write_py(
        tmp_path,
        "uses_neighbour.py",
        """
        from torch import nn
        from tdi_neighbour_width import WIDTH

        def make():
            return nn.Linear(WIDTH, 1)
        """,
    )
    path_before = list(sys.path)
    try:
        loaded = load_model(f"{path}:make")
    finally:
        sys.modules.pop("tdi_neighbour_width", None)
    assert loaded.module.in_features == 7
    assert sys.path == path_before


def test_bare_class_from_a_package_module_is_called_without_arguments():
    loaded = load_model("torch.nn:Identity")
    assert isinstance(loaded.module, nn.Identity)
    assert loaded.source == "factory"


def test_factory_from_a_package_module(tmp_path, monkeypatch):
    package = tmp_path / "tdi_pkg_models"
    package.mkdir()
    (package / "__init__.py").write_text("")
    write_py(package, "nets.py", NET_FILE)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        loaded = load_model("tdi_pkg_models.nets:make_with_input")
    finally:
        for name in ("tdi_pkg_models.nets", "tdi_pkg_models"):
            sys.modules.pop(name, None)
    assert loaded.class_name == "Tiny"
    assert loaded.example_input.shape == (5, 3)


FACTORY_FAILURES = {
    "raises": (
        "def make():\n    raise ValueError('no weights for you')\n",
        "make",
        "no weights for you",
    ),
    "not_a_module": ("def make():\n    return 'hello'\n", "make", "a str"),
    "bad_example_input": (
        "from torch import nn\ndef make():\n    return nn.Identity(), 'text'\n",
        "make",
        "example input",
    ),
    "missing_attribute": ("def make():\n    pass\n", "build", "no attribute 'build'"),
    "broken_file": ("def make(:\n", "make", "SyntaxError"),
    "raises_on_import": (
        "raise RuntimeError('import-time failure')\n",
        "make",
        "import-time failure",
    ),
    "exits_on_import": ("import sys\nsys.exit(3)\n", "make", "SystemExit"),
    "class_needs_arguments": (
        "from torch import nn\nclass Wide(nn.Linear):\n    pass\n",
        "Wide",
        "needs arguments",
    ),
}


@pytest.mark.parametrize("case", sorted(FACTORY_FAILURES))
def test_factory_failures_name_the_spec(tmp_path, case):
    source, attribute, words = FACTORY_FAILURES[case]
    path = tmp_path / f"tdi_failing_{case}.py"
    path.write_text(source)
    spec = f"{path}:{attribute}"
    modules_before = set(sys.modules)
    with pytest.raises(ModelLoadError) as caught:
        load_model(spec)
    message = str(caught.value)
    assert spec in message
    assert words in message
    assert "\n" not in message
    assert exit_code(caught.value) == 2 and caught.value.kind == "load"
    # Nothing of the failed file stays registered as a module.
    assert set(sys.modules) - modules_before == set()


def test_a_failed_reload_keeps_the_module_that_loaded_before(tmp_path):
    path = write_py(tmp_path, "edited.py", NET_FILE)
    first = load_model(f"{path}:make")
    registered = sys.modules[type(first.module).__module__]
    path.write_text("raise RuntimeError('half-edited')\n")
    with pytest.raises(ModelLoadError, match="half-edited"):
        load_model(f"{path}:make")
    assert sys.modules[type(first.module).__module__] is registered


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("tdi_no_such_module:make", "no module named tdi_no_such_module"),
        ("torch.nn:NoSuchLayer", "no attribute 'NoSuchLayer'"),
        ("torch:float32", "not a factory"),
        ("missing_dir/model.py:make", "no such file"),
    ],
)
def test_bad_module_specs_name_the_spec(spec, words):
    with pytest.raises(ModelLoadError) as caught:
        load_model(spec)
    assert spec in str(caught.value) and words in str(caught.value)


def test_python_file_without_factory_name_says_how_to_write_one(tmp_path):
    path = write_py(tmp_path, "model.py", NET_FILE)
    with pytest.raises(ModelLoadError, match=r"model\.py:make_model"):
        load_model(str(path))


def test_parse_spec_tells_files_factories_and_modules_apart(tmp_path):
    odd = tmp_path / "run:3.pt"  # an existing file wins even with a colon in its name
    odd.write_bytes(b"x")
    assert parse_spec(str(odd)).kind == "file"
    assert parse_spec("pkg.models:make") == ("module", "pkg.models", "make")
    assert parse_spec(r"C:\models\net.py:Net") == ("python_file", r"C:\models\net.py", "Net")
    assert parse_spec("weights/model.pt").kind == "file"
    with pytest.raises(InputError, match="empty model spec"):
        parse_spec("  ")


# --------------------------------------------------------------------------- files that load


def test_torchscript_archive(tmp_path):
    net = trained_net()
    path = tmp_path / "scripted.pt"
    torch.jit.save(torch.jit.script(net), str(path))
    loaded = load_model(str(path))
    assert loaded.source == "torchscript"
    assert loaded.example_input is None
    x = torch.randn(8, 3)
    assert torch.allclose(loaded.module(x), net(x))


def test_torch_export_program_brings_its_example_input(tmp_path):
    net = trained_net()
    path = tmp_path / "exported.pt2"
    torch.export.save(torch.export.export(net, (torch.randn(4, 3),)), str(path))
    loaded = load_model(str(path))
    assert loaded.source == "export"
    assert loaded.example_input.shape == (4, 3)
    x = torch.randn(4, 3)
    assert torch.allclose(loaded.module(x), net(x))


def test_state_dict_with_architecture_from_a_python_file(tmp_path):
    arch = write_py(tmp_path, "arch.py", NET_FILE)
    net = trained_net()
    path = tmp_path / "weights.pth"
    torch.save(net.state_dict(), path)
    loaded = load_model(str(path), architecture=f"{arch}:make_with_input")
    assert loaded.source == "state_dict"
    assert loaded.class_name == "Tiny"
    assert_same_weights(loaded.module, net)
    assert loaded.example_input.shape == (5, 3)  # the architecture's factory brought it


def test_state_dict_without_architecture_says_how_to_give_one(tmp_path):
    path = tmp_path / "weights.pth"
    torch.save(Net().state_dict(), path)
    with pytest.raises(ModelLoadError) as caught:
        load_model(str(path))
    message = str(caught.value)
    assert "architecture" in message and str(path) in message
    # Each front end names its own way to give it (CLI --arch, the window's field): not core.
    assert caught.value.kind == "architecture" and "--arch" not in message


def test_training_checkpoint_dict_is_understood(tmp_path):
    net = trained_net()
    path = tmp_path / "checkpoint.pt"
    torch.save({"epoch": 3, "model_state_dict": net.state_dict(), "loss": 0.25}, path)
    loaded = load_model(str(path), architecture="example")
    assert_same_weights(loaded.module, net)
    assert any("epoch" in note and "loss" in note for note in loaded.notes)


def test_data_parallel_prefix_is_removed(tmp_path):
    net = trained_net()
    path = tmp_path / "dp.pt"
    torch.save({f"module.{k}": v for k, v in net.state_dict().items()}, path)
    loaded = load_model(str(path), architecture="example")
    assert_same_weights(loaded.module, net)
    assert any("module." in note for note in loaded.notes)


def test_state_dict_that_does_not_fit_lists_every_problem(tmp_path):
    path = tmp_path / "wrong.pt"
    torch.save(
        {
            "fc1.weight": torch.zeros(5, 3),
            "fc2.bias": torch.zeros(1),
            "head.weight": torch.zeros(1),
        },
        path,
    )
    with pytest.raises(ModelLoadError) as caught:
        load_model(str(path), architecture="example")
    message = str(caught.value)
    assert "missing keys: fc1.bias, fc2.weight" in message
    assert "unexpected keys: head.weight" in message
    assert "fc1.weight (5, 3) in file vs (2, 3) in model" in message
    assert "\n" not in message


def test_safetensors_with_architecture(tmp_path):
    safetensors_torch = pytest.importorskip("safetensors.torch")
    net = trained_net()
    path = tmp_path / "model.safetensors"
    safetensors_torch.save_file(net.state_dict(), str(path))
    loaded = load_model(str(path), architecture="example")
    assert loaded.source == "safetensors"
    assert_same_weights(loaded.module, net)


def test_safetensors_with_tied_weights(tmp_path):
    safetensors_torch = pytest.importorskip("safetensors.torch")
    arch = write_py(
        tmp_path,
        "tied.py",
        """
        from torch import nn

        class Tied(nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = nn.Linear(4, 4)
                self.decoder = nn.Linear(4, 4)
                self.decoder.weight = self.encoder.weight
        """,
    )
    source = load_model(f"{arch}:Tied").module
    path = tmp_path / "tied.safetensors"
    safetensors_torch.save_model(source, str(path))  # stores one name per shared tensor
    loaded = load_model(str(path), architecture=f"{arch}:Tied")
    assert_same_weights(loaded.module, source)
    assert loaded.module.decoder.weight is loaded.module.encoder.weight


def test_truncated_safetensors_says_so(tmp_path):
    safetensors_torch = pytest.importorskip("safetensors.torch")
    path = tmp_path / "cut.safetensors"
    safetensors_torch.save_file(Net().state_dict(), str(path))
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(ModelLoadError, match="not a complete safetensors file"):
        load_model(str(path), architecture="example")


# --------------------------------------------------------------------------- trust


@pytest.mark.parametrize("zip_format", [True, False], ids=["zip", "legacy"])
def test_pickled_module_is_refused_without_trust_and_loads_with_it(tmp_path, zip_format):
    net = trained_net()
    path = tmp_path / "whole.pt"
    torch.save(net, path, _use_new_zipfile_serialization=zip_format)
    with pytest.raises(UntrustedFileError) as caught:
        load_model(str(path))
    refusal = caught.value
    assert "inspector.core.files.models.Net" in refusal.wanted
    assert "inspector.core.files.models.Net" in str(refusal) and "--trust" in str(refusal)
    assert refusal.path == str(path) and refusal.kind == "untrusted"
    loaded = load_model(str(path), trust=True)
    assert loaded.source == "pickle" and isinstance(loaded.module, Net)
    assert_same_weights(loaded.module, net)


@pytest.mark.parametrize("payload", [Payload, TouchPayload], ids=["os.system", "Path.touch"])
@pytest.mark.parametrize("zip_format", [True, False], ids=["zip", "legacy"])
def test_malicious_checkpoint_is_refused_and_runs_nothing(tmp_path, payload, zip_format):
    marker = tmp_path / "pwned"
    path = tmp_path / "innocent.pt"
    checkpoint = {"state_dict": Net().state_dict(), "extra": payload(marker)}
    torch.save(checkpoint, path, _use_new_zipfile_serialization=zip_format)
    with pytest.raises(UntrustedFileError) as default_refusal:
        load_model(str(path))
    with pytest.raises(UntrustedFileError):
        load_model(str(path), trust=False, architecture="example")
    assert not marker.exists()
    assert default_refusal.value.wanted  # it names what it wanted to run
    # The fixture is really hostile: trusting it runs the payload.
    try:
        load_model(str(path), trust=True, architecture="example")
    except ModelLoadError:
        pass
    assert marker.exists()


def evil_export_archive(tmp_path: Path, marker: Path) -> Path:
    """A real .pt2 whose pickled members (.pt) are replaced by a hostile pickle."""
    clean = tmp_path / "clean.pt2"
    torch.export.save(torch.export.export(Net(), (torch.randn(2, 3),)), str(clean))
    buffer = io.BytesIO()
    torch.save(Payload(marker), buffer)
    path = tmp_path / "evil.pt2"
    with zipfile.ZipFile(clean) as source, zipfile.ZipFile(path, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith(".pt"):
                data = buffer.getvalue()
            target.writestr(info.filename, data)
    return path


def test_malicious_export_archive_is_refused_and_runs_nothing(tmp_path):
    marker = tmp_path / "pwned"
    path = evil_export_archive(tmp_path, marker)
    with pytest.raises(UntrustedFileError) as caught:
        load_model(str(path))
    assert not marker.exists()
    assert any("system" in name for name in caught.value.wanted)
    try:  # the fixture is really hostile: torch.export.load itself would run it
        load_model(str(path), trust=True)
    except ModelLoadError:
        pass
    assert marker.exists()


def test_trusted_pickle_whose_class_is_gone_says_what_is_missing(tmp_path):
    arch = write_py(tmp_path, "gone.py", NET_FILE)
    module = load_model(f"{arch}:make").module
    path = tmp_path / "whole.pt"
    torch.save(module, path)
    sys.modules.pop(type(module).__module__)
    with pytest.raises(ModelLoadError, match="cannot be imported here"):
        load_model(str(path), trust=True)


# --------------------------------------------------------------------------- broken files


def _checkpoint_cut_in_half(tmp_path: Path) -> Path:
    path = tmp_path / "cut.pt"
    torch.save(Net().state_dict(), path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def _empty(tmp_path: Path) -> Path:
    path = tmp_path / "empty.pt"
    path.write_bytes(b"")
    return path


def _garbage(tmp_path: Path) -> Path:
    path = tmp_path / "garbage.pth"
    path.write_bytes(bytes(range(256)) * 8)
    return path


def _legacy_cut_in_half(tmp_path: Path) -> Path:
    path = tmp_path / "legacy_cut.pt"
    torch.save(Net().state_dict(), path, _use_new_zipfile_serialization=False)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def _torchscript_cut_in_half(tmp_path: Path) -> Path:
    path = tmp_path / "scripted_cut.pt"
    torch.jit.save(torch.jit.script(Net()), str(path))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


@pytest.mark.parametrize(
    "make_file",
    [_checkpoint_cut_in_half, _empty, _garbage, _legacy_cut_in_half, _torchscript_cut_in_half],
    ids=["truncated", "empty", "garbage", "legacy-truncated", "torchscript-truncated"],
)
def test_broken_files_say_they_are_not_complete_checkpoints(tmp_path, make_file):
    path = make_file(tmp_path)
    with pytest.raises(ModelLoadError) as caught:
        load_model(str(path), architecture="example")
    message = str(caught.value)
    assert message.startswith(f"not a complete PyTorch checkpoint: {path} (")
    assert "Errno" not in message and "\n" not in message
    assert not isinstance(caught.value, UntrustedFileError)


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.pt"
    with pytest.raises(ModelLoadError, match=f"^no such file: {path}$"):
        load_model(str(path))


def test_folder_is_not_a_model_file(tmp_path):
    with pytest.raises(ModelLoadError, match="is a folder"):
        load_model(str(tmp_path))


def test_file_holding_something_else_says_what_it_holds(tmp_path):
    path = tmp_path / "numbers.pt"
    torch.save([1, 2, 3], path)
    with pytest.raises(ModelLoadError, match="holds a list of 3 items, not a model"):
        load_model(str(path))


# --------------------------------------------------------------------------- GPU-saved files


def _save_claiming_cuda(obj, path: Path, monkeypatch) -> None:
    """torch.save, with every storage tagged as living on cuda:0 (as a GPU machine writes)."""
    with monkeypatch.context() as patch:
        patch.setattr(torch.serialization, "location_tag", lambda storage: "cuda:0")
        torch.save(obj, path)
    with zipfile.ZipFile(path) as archive:
        data_pkl = next(name for name in archive.namelist() if name.endswith("data.pkl"))
        assert b"cuda:0" in archive.read(data_pkl)


def test_cuda_saved_state_dict_opens_on_the_cpu(tmp_path, monkeypatch):
    net = trained_net()
    path = tmp_path / "gpu_weights.pt"
    _save_claiming_cuda(net.state_dict(), path, monkeypatch)
    if not torch.cuda.is_available():  # the file really claims CUDA: a plain load fails here
        with pytest.raises(RuntimeError, match="CUDA"):
            torch.load(path, weights_only=True)
    loaded = load_model(str(path), architecture="example")
    assert {p.device.type for p in loaded.module.parameters()} == {"cpu"}
    assert_same_weights(loaded.module, net)


def test_cuda_saved_pickled_module_opens_on_the_cpu_when_trusted(tmp_path, monkeypatch):
    net = trained_net()
    path = tmp_path / "gpu_model.pt"
    _save_claiming_cuda(net, path, monkeypatch)
    loaded = load_model(str(path), trust=True)
    assert {p.device.type for p in loaded.module.parameters()} == {"cpu"}
    assert_same_weights(loaded.module, net)


@pytest.mark.cuda
def test_real_cuda_checkpoints_load_on_the_cpu(tmp_path):
    net = trained_net().cuda()
    torch.save(net.state_dict(), tmp_path / "sd.pt")
    torch.save(net, tmp_path / "whole.pt")
    torch.jit.save(torch.jit.script(net), str(tmp_path / "scripted.pt"))
    loaded = [
        load_model(str(tmp_path / "sd.pt"), architecture="example"),
        load_model(str(tmp_path / "whole.pt"), trust=True),
        load_model(str(tmp_path / "scripted.pt")),
    ]
    for model in loaded:
        assert {p.device.type for p in model.module.parameters()} == {"cpu"}
        assert_same_weights(model.module, net)


def test_module_spec_that_is_really_a_local_file_points_at_it(tmp_path, monkeypatch):
    write_py(tmp_path, "tdi_local_models.py", NET_FILE)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ModelLoadError, match=r"write tdi_local_models\.py:make"):
        load_model("tdi_local_models:make")


def test_zip_that_pytorch_did_not_write(tmp_path):
    path = tmp_path / "photos.pt"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("holiday/cat.txt", "meow")
    expected = "not a complete PyTorch checkpoint: .*not one PyTorch wrote"
    with pytest.raises(ModelLoadError, match=expected):
        load_model(str(path))


def test_aotinductor_package_is_named_and_not_run(tmp_path):
    path = tmp_path / "compiled.pt2"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("compiled/archive_format", "pt2")
        archive.writestr("compiled/data/aotinductor/model/model.so", b"\x7fELF")
    with pytest.raises(ModelLoadError, match="AOTInductor package"):
        load_model(str(path))


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
def test_intact_checkpoint_that_weights_only_cannot_read_asks_for_trust(tmp_path):
    net = trained_net()
    path = tmp_path / "protocol4.pt"
    torch.save(net.state_dict(), path, pickle_protocol=4)
    try:
        torch.load(path, weights_only=True)
    except pickle.UnpicklingError:
        pass
    else:
        pytest.skip("this torch's weights-only loader reads pickle protocol 4")
    with pytest.raises(UntrustedFileError) as caught:
        load_model(str(path), architecture="example")
    assert "--trust" in str(caught.value)
    loaded = load_model(str(path), trust=True, architecture="example")
    assert_same_weights(loaded.module, net)


def test_garbage_that_starts_like_a_pickle_is_not_called_untrusted(tmp_path):
    path = tmp_path / "noise.pt"
    path.write_bytes(bytes([0x80, 2]) + bytes(range(200)))
    with pytest.raises(ModelLoadError, match="^not a complete PyTorch checkpoint") as caught:
        load_model(str(path))
    assert not isinstance(caught.value, UntrustedFileError)
