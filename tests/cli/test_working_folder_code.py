"""Issue 32, item 0: no code from the working folder or a model's folder runs while a file is read.

A downloaded model folder (and the folder the user works in) holds files named like every
module PyTorch or this app imports on demand (``triton.py``, ``tabulate.py``, ``z3.py``,
``safetensors.py``, ``torch.py``...); each leaves a mark if it runs. The CLI reads a clean
``torch.export`` program, a ``.safetensors`` file with ``--arch example``, benchmarks per
module and estimates a fit: in this process, as ``python -m inspector`` and as the console
script. No mark may appear, and no import may happen while either folder is on sys.path.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from torch import nn

from inspector.cli import main
from inspector.core.files.models import Net
from tests.decoys import decoys_that_ran, plant_decoys, watch_env, watched, watching


class _Small(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.fc(x))


def make_model_folder(folder: Path) -> Path:
    """A downloaded model's folder: a clean ``torch.export`` program and ``.safetensors`` weights."""
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    torch.export.save(torch.export.export(_Small(), (torch.randn(4, 3),)), str(folder / "exported.pt2"))
    save_file(Net().state_dict(), str(folder / "model.safetensors"))
    return folder


@pytest.fixture(scope="module")
def model_files(tmp_path_factory) -> Path:
    return make_model_folder(tmp_path_factory.mktemp("downloaded"))


@pytest.fixture
def hostile(tmp_path, model_files):
    """(working folder, model folder, marks): both folders full of decoys."""
    work, models, marks = tmp_path / "work", tmp_path / "models", tmp_path / "marks"
    work.mkdir()
    models.mkdir()
    for name in ("exported.pt2", "model.safetensors"):
        (models / name).write_bytes((model_files / name).read_bytes())
    plant_decoys(work, marks)
    plant_decoys(models, marks)
    return work, models, marks


#: (command, what its output shows when it worked), the model named relative to the working folder.
COMMANDS = {
    "inspect-pt2": (["inspect", "../models/exported.pt2"], "fc.weight"),
    "inspect-safetensors": (["inspect", "../models/model.safetensors", "--arch", "example"], "fc1.weight"),
    "bench-per-module": (["bench", "../models/exported.pt2", "--per-module", "--runs", "2", "--device", "cpu"], "GraphModule"),
    "fit": (["fit", "../models/model.safetensors", "--arch", "example", "--device", "cpu", "--optimizer", "sgd"],
            "measured peak"),
}  # fmt: skip


@pytest.mark.parametrize("command", list(COMMANDS))
def test_the_cli_runs_no_decoy_and_never_searches_the_working_or_model_folder(command, hostile, monkeypatch, capsys):
    work, models, marks = hostile
    monkeypatch.chdir(work)
    # The test process's own start may have put "" (the working folder) on sys.path: not the CLI's doing.
    monkeypatch.setattr(sys, "path", [entry for entry in sys.path if entry not in ("", ".")])
    argv, shown = COMMANDS[command]
    with watching([work, models]) as watch:
        code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert shown in out
    assert decoys_that_ran(marks) == []
    assert watch.seen == []  # no import at all while either folder was on sys.path
    assert str(work) not in sys.path and str(models) not in sys.path


#: What ``python -m inspector`` imports with the working folder first on sys.path before our
#: first line runs: runpy (frozen: no file can stand in for it) and the package itself.
#: ``python -P`` and the console script do neither.
PYTHONS_OWN = ("runpy", "inspector")


def _child(argv: list[str], work: Path, models: Path, tmp_path: Path) -> tuple[subprocess.CompletedProcess, list]:
    log = tmp_path / "watch.log"
    env = watch_env(tmp_path / "site", [work, models], log)
    done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=300)
    return done, watched(log)


def test_python_dash_m_drops_the_working_folder_before_reading_an_exported_program(hostile, tmp_path):
    """The issue's first case: a clean .pt2 opens without a prompt and ran tabulate.py, triton.py, z3.py."""
    work, models, marks = hostile
    argv, shown = COMMANDS["inspect-pt2"]
    done, seen = _child([sys.executable, "-m", "inspector", *argv], work, models, tmp_path)
    assert done.returncode == 0, done.stderr
    assert shown in done.stdout
    assert decoys_that_ran(marks) == []
    assert [name for name, _ in seen if name not in PYTHONS_OWN] == []


def _console_script() -> Path:
    script = Path(sys.executable).with_name("torch-device-inspector")
    if not script.exists():
        pytest.skip("the console script is not installed next to this Python")
    return script


def test_console_script_reads_safetensors_without_running_the_folders_safetensors_py(hostile, tmp_path):
    """With safetensors a dependency, `import safetensors` finds the package, never ./safetensors.py."""
    work, models, marks = hostile
    argv, shown = COMMANDS["inspect-safetensors"]
    done, seen = _child([str(_console_script()), *argv], work, models, tmp_path)
    assert done.returncode == 0, done.stderr
    assert shown in done.stdout
    assert decoys_that_ran(marks) == []
    assert seen == []


@pytest.mark.slow  # a cold start of torch each (~10 s): the in-process test covers the code path
@pytest.mark.parametrize("command", ["bench-per-module", "fit"])
@pytest.mark.parametrize("launcher", ["python -m", "console script"])
def test_every_launcher_and_command_runs_no_decoy(command, launcher, hostile, tmp_path):
    work, models, marks = hostile
    argv, shown = COMMANDS[command]
    start = [sys.executable, "-m", "inspector"] if launcher == "python -m" else [str(_console_script())]
    done, seen = _child([*start, *argv], work, models, tmp_path)
    assert done.returncode == 0, done.stderr
    assert shown in done.stdout
    assert decoys_that_ran(marks) == []
    assert [name for name, _ in seen if name not in PYTHONS_OWN] == []


def test_a_module_spec_is_not_looked_up_in_the_working_folder(tmp_path, monkeypatch, capsys):
    """`mymodels:make` names a module, not a folder: a mymodels.py here is pointed at, not run."""
    marks = tmp_path / "marks"
    marks.mkdir()
    (tmp_path / "tdi_here_models.py").write_text(
        f"open({str(marks / 'ran')!r}, 'w').close()\nimport torch\ndef make():\n    return torch.nn.Linear(3, 2)\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [entry for entry in sys.path if entry not in ("", ".")])
    code = main(["inspect", "tdi_here_models:make"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.startswith("error: no module named tdi_here_models") and "write tdi_here_models.py:make" in err
    assert not (marks / "ran").exists()
    # Named by its path it runs, with its folder on sys.path only while it does.
    code = main(["inspect", "tdi_here_models.py:make"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert (marks / "ran").exists() and "weight" in out
    assert all(os.path.realpath(entry or ".") != os.path.realpath(tmp_path) for entry in sys.path)
    sys.modules.pop("tdi_here_models", None)
