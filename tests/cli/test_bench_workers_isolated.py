"""Issue 43, item 1: ``bench --repeat`` and ``bench --against`` start their workers through
``core.launcher``, so a folder's ``inspector.py`` (or ``inspector/``, ``sitecustomize.py``,
``usercustomize.py``) never runs in place of the app, in the working folder or on a
``PYTHONPATH`` the parent ignored (``python -I``), and the runs still find the user's files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli import build_parser
from inspector.cli.bench_repeats import NOT_PASSED_ON, PASSED_ON, absolute_spec, worker_argv
from tests.cli.test_bench_against import MODELS  # small() and wider(), the --against pair
from tests.decoys import decoys_that_ran


def plant(folder: Path, marks: Path) -> None:
    """The app's name as a module and as a package, and the files Python runs at start-up from
    a folder on its path: each leaves a mark if it runs."""
    marks.mkdir(parents=True, exist_ok=True)
    for name in ("inspector.py", "inspector/__init__.py", "sitecustomize.py", "usercustomize.py"):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"open({str(marks / name.replace('/', '_'))!r}, 'w').close()\n")


@pytest.fixture
def hostile(tmp_path):
    """(the working folder, marks): the decoys and the user's own models.py beside them."""
    work, marks = tmp_path / "work", tmp_path / "marks"
    plant(work, marks)
    (work / "models.py").write_text(MODELS)
    return work, marks


def _cli(python_flags: list[str], argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    # -P (or -I): the parent itself finds the installed app; its workers must too.
    return subprocess.run([sys.executable, *python_flags, "-m", "inspector", *argv], cwd=cwd,
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=600)  # fmt: skip


def test_repeat_runs_its_workers_as_the_app_from_a_folder_of_decoys(hostile):
    work, marks = hostile
    done = _cli(["-P"], ["bench", "example", "--device", "cpu", "--runs", "20", "--repeat", "2", "--output", "r.json"], work)
    assert done.returncode == 0, done.stderr
    assert decoys_that_ran(marks) == []
    assert "failed" not in done.stderr and "2 runs in fresh processes" in done.stderr
    entry = json.loads((work / "r.json").read_text())["latency"][0]  # the relative output, where the user said
    assert [len(run) for run in entry["runs_ms"]] == [20, 20]


def test_against_runs_its_rounds_as_the_app_with_the_users_relative_files(hostile):
    work, marks = hostile
    done = _cli(["-P"], ["bench", "models.py:small", "--against", "models.py:wider", "--device", "cpu",
                         "--repeat", "2", "--min-time", "0.02", "--json"], work)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert decoys_that_ran(marks) == []
    assert "failed" not in done.stderr
    [row] = json.loads(done.stdout)["latency"]
    assert row["runs_a"] == row["runs_b"] == 2  # round 2 came back from its worker


def test_a_pythonpath_the_isolated_parent_ignores_is_ignored_by_its_workers(hostile, tmp_path):
    work, marks = hostile
    evil = tmp_path / "evil"
    plant(evil, marks)
    done = _cli(["-I"], ["bench", "example", "--device", "cpu", "--runs", "20", "--repeat", "2"], work,
                PYTHONPATH=str(evil), PYTHONSTARTUP=str(evil / "sitecustomize.py"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert decoys_that_ran(marks) == []
    assert "failed" not in done.stderr and "2 runs in fresh processes" in done.stderr


def test_every_option_of_bench_is_passed_on_to_a_worker_or_named_as_not():
    """A new option of bench must say how a worker gets it (a path made absolute, a value…)."""
    parser = build_parser()
    bench = next(action for action in parser._subparsers._group_actions[0].choices.values() if action.prog.endswith(" bench"))
    dests = {action.dest for action in bench._actions}
    assert dests - set(PASSED_ON) - NOT_PASSED_ON == set()


def test_a_workers_command_has_every_path_absolute_and_reads_back_the_same(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "w.safetensors").write_bytes(b"")
    parser = build_parser()
    argv = ["--trust", "bench", "w.safetensors", "--arch", "models.py:small", "--device", "cpu", "--device", "cpu",
            "--min-time", "0.1", "--output", "out/r.json", "--trace", "t.json", "--input-shape=-1,8",
            "--against", "models.py:wider", "--against-output", "b.json", "--repeat", "3"]  # fmt: skip
    args = parser.parse_args(argv)
    again = parser.parse_args(worker_argv(args, "--pair-worker=2"))
    assert again.spec == str(tmp_path / "w.safetensors") and again.arch == f"{tmp_path / 'models.py'}:small"
    assert again.against == f"{tmp_path / 'models.py'}:wider"
    assert (again.output, again.trace, again.against_output) == tuple(str(tmp_path / n) for n in ("out/r.json", "t.json", "b.json"))
    assert again.device == ["cpu", "cpu"] and again.min_time == 0.1 and again.input_shape == "-1,8"
    assert again.trust and again.repeat == 3 and again.pair_worker == 2
    # Specs that name no file stay as they are.
    assert [absolute_spec(s) for s in ("example", "hf:org/name", "torchvision.models:resnet18")] == [
        "example", "hf:org/name", "torchvision.models:resnet18"]
