"""The one gate that starts processes (issue 43, items 1 and 7): a worker of this app starts
isolated, with the parent's own flags, by the app's own path, in a folder of its own, and
ends when its parent does; no other module of the app starts a process."""

from __future__ import annotations

import ast
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from inspector.core import launcher
from tests.decoys import decoys_that_ran
from tests.processes import gone, wait_for

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "inspector"
GATE = APP / "core" / "launcher.py"

# ---------------------------------------------------------------------- only the gate starts processes

#: Modules that start processes (imported, or named as ``x.y`` / ``from x import y``).
_PROCESS_MODULES = {"subprocess", "multiprocessing", "pty", "_posixsubprocess", "torch.multiprocessing"}
#: Names that start one wherever they come from.
_PROCESS_NAMES = {"QProcess", "ProcessPoolExecutor", "create_subprocess_exec", "create_subprocess_shell"}
#: ``os`` functions that start a program or a process.
_OS_STARTS = ("system", "popen", "spawn", "exec", "fork", "posix_spawn", "startfile")


def _starts(node: ast.AST) -> str | None:
    """What ``node`` starts a process with, if it does."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in _PROCESS_MODULES or alias.name.split(".")[0] in _PROCESS_MODULES:
                return f"import {alias.name}"
    if isinstance(node, ast.ImportFrom) and node.module:
        if node.module in _PROCESS_MODULES or node.module.split(".")[0] in _PROCESS_MODULES:
            return f"from {node.module} import …"
        for alias in node.names:
            if f"{node.module}.{alias.name}" in _PROCESS_MODULES or alias.name in _PROCESS_NAMES:
                return f"from {node.module} import {alias.name}"
            if node.module == "os" and alias.name.startswith(_OS_STARTS):
                return f"from os import {alias.name}"
    if isinstance(node, ast.Attribute):
        if node.attr in _PROCESS_NAMES or node.attr == "multiprocessing":
            return f"….{node.attr}"
        if isinstance(node.value, ast.Name) and node.value.id == "os" and node.attr.startswith(_OS_STARTS):
            return f"os.{node.attr}"
    if isinstance(node, ast.Name) and node.id in _PROCESS_NAMES:
        return node.id
    return None


def process_starts(root: Path, *, allowed: Path | None = None) -> list[str]:
    """Every place under ``root`` (but ``allowed``) that starts a process, as ``file:line: what``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if allowed is not None and path == allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            what = _starts(node)
            if what is not None:
                found.append(f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}: {what}")
    return found


def test_no_module_but_the_gate_starts_a_process():
    assert process_starts(APP, allowed=GATE) == []


def test_the_scan_sees_every_road_to_a_process(tmp_path):
    roads = ["import subprocess", "import multiprocessing.pool", "from subprocess import run", "import pty",
             "from torch import multiprocessing", "import torch.multiprocessing as mp", "os.system('x')",
             "os.popen('x')", "os.execv('x', [])", "os.spawnl(0, 'x')", "os.fork()", "os.posix_spawn('x', [], {})",
             "from os import fork", "from PySide6.QtCore import QProcess", "QtCore.QProcess()",
             "from concurrent.futures import ProcessPoolExecutor", "asyncio.create_subprocess_exec('x')"]  # fmt: skip
    for index, line in enumerate(roads):
        (tmp_path / f"m{index}.py").write_text(f"import os\n{line}\n")
    assert len(process_starts(tmp_path)) == len(roads)
    (tmp_path / "fine.py").write_text('"subprocess"\nNAMES = {"os.system": 1}\nos.getpid()\n')
    assert len(process_starts(tmp_path)) == len(roads)  # a string naming one starts nothing


# ---------------------------------------------------------------------- how a worker starts


def _plant(folder: Path, marks: Path) -> None:
    """The decoys of issue 43: the app's name as a module and a package, and the files Python
    itself runs at start-up from a folder on its path. Each leaves a mark if it runs."""
    marks.mkdir(parents=True, exist_ok=True)
    for name in ("inspector.py", "inspector/__init__.py", "sitecustomize.py", "usercustomize.py"):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"open({str(marks / name.replace('/', '_'))!r}, 'w').close()\n")


def test_a_worker_starts_isolated_by_the_apps_path_in_a_folder_of_its_own(tmp_path):
    hostile, marks = tmp_path / "hostile", tmp_path / "marks"
    _plant(hostile, marks)
    code = (f"import sys; sys.path.append({str(REPO)!r})\n"
            "from inspector.core.launcher import run_app_worker\n"
            "done = run_app_worker('tests.launcher_children:report', ['a b', '-x', 'rel/path'])\n"
            "print(done.stdout, end=''); sys.exit(done.returncode)\n")  # fmt: skip
    # The parent as `PYTHONPATH=evil python -I …` in the hostile folder, with flags of its own.
    env = {**os.environ, "PYTHONPATH": str(hostile), "PYTHONSTARTUP": str(hostile / "sitecustomize.py")}
    done = subprocess.run([sys.executable, "-I", "-X", "utf8", "-W", "ignore::UserWarning", "-c", code],
                          cwd=hostile, env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert decoys_that_ran(marks) == []
    assert seen["isolated"] == 1
    assert "utf8" in seen["xoptions"] and "ignore::UserWarning" in seen["warnoptions"]  # the parent's own flags
    assert seen["inspector"] == os.path.realpath(launcher.__file__).replace(os.path.join("core", "launcher.py"), "__init__.py")
    assert seen["argv"] == ["a b", "-x", "rel/path"]  # as given, one argument each
    assert os.path.realpath(seen["cwd"]) != os.path.realpath(hostile) and seen["cwd_entries"] == []
    assert not os.path.exists(seen["cwd"])  # the worker's folder is removed after it
    assert all(os.path.isabs(entry) and os.path.realpath(entry) != os.path.realpath(hostile) for entry in seen["path"])


def test_the_parents_flags_are_passed_on_with_isolation_as_dash_I(monkeypatch):
    monkeypatch.setattr(subprocess, "_args_from_interpreter_flags", lambda: ["-E", "-s", "-P", "-X", "dev", "-Werror", "-O"])
    assert launcher.interpreter_flags() == ["-I", "-X", "dev", "-Werror", "-O"]


def test_the_import_path_leaves_out_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", ["", ".", "relative", str(tmp_path), str(tmp_path / "."), "/usr/lib/python3", "/usr/lib/python3"])
    assert launcher.import_path() == ["/usr/lib/python3"]


# ---------------------------------------------------------------------- a worker ends with its parent


@pytest.mark.skipif(os.name != "posix", reason="the pipe a worker watches is POSIX's")
def test_the_pipe_alone_ends_a_worker_whose_parent_was_killed(tmp_path):
    """The worker clears the kernel's parent-death signal (as macOS never had it): the end of
    its parent's pipe still ends it, busy as it is."""
    pid_file = tmp_path / "worker.pid"
    code = (f"import sys; sys.path.append({str(REPO)!r})\n"
            "from inspector.core.launcher import run_app_worker\n"
            f"run_app_worker('tests.launcher_children:stay_without_deathsig', [{str(pid_file)!r}])\n")
    parent = subprocess.Popen([sys.executable, "-I", "-c", code], cwd=tmp_path, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)  # fmt: skip
    try:
        assert wait_for(lambda: pid_file.exists() or parent.poll() is not None, 300)
        assert pid_file.exists(), f"the worker never started: {parent.communicate()[1]}"
        worker = int(pid_file.read_text())
        assert not gone(worker)
        folder = psutil.Process(worker).cwd()  # left behind by a parent killed outright: removed here
        parent.kill()  # SIGKILL: no handler of the parent's runs
        parent.wait(timeout=60)
        assert wait_for(lambda: gone(worker), 60), "the worker outlived its parent"
        shutil.rmtree(folder, ignore_errors=True)
    finally:
        parent.kill()
        parent.wait(timeout=60)
        if pid_file.exists() and not gone(int(pid_file.read_text())):  # the test failed: leave nothing behind
            psutil.Process(int(pid_file.read_text())).kill()


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_the_handlers_leave_a_signal_the_user_ignores_or_handles_alone():
    """``nohup bench --repeat 5``: SIGHUP ignored stays ignored (the workers carry on); a
    default one is handled while workers run, and given back afterwards."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with launcher._ended_on_signals():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        with launcher._ended_on_signals():
            assert signal.getsignal(signal.SIGHUP) is launcher._end_workers_then_die
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGHUP, before)


def test_a_program_the_user_named_starts_without_pythons_start_up_variables(tmp_path, monkeypatch):
    """A command the user typed may be a Python program (``torch-device-inspector agent`` on
    this machine): ``PYTHONPATH`` or ``PYTHONSTARTUP`` in the app's own environment must not
    make it run a folder's ``sitecustomize.py``; other variables (a proxy, ``LANG``) pass."""
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "sitecustomize.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\n")
    monkeypatch.setenv("PYTHONPATH", str(evil))
    monkeypatch.setenv("PYTHONSTARTUP", str(evil / "sitecustomize.py"))
    monkeypatch.setenv("TDI_KEPT", "yes")
    shown = launcher.run_program(
        [sys.executable, "-c", "import os, sys; print(os.environ.get('PYTHONPATH'), os.environ.get('TDI_KEPT'))"],
        timeout=60,
    )
    assert shown.split() == ["None", "yes"]
    process = launcher.start_program([sys.executable, "-c", "pass"])
    assert process.wait(timeout=60) == 0
    assert not (tmp_path / "ran").exists()
    # An environment the caller passes is its choice, used as given.
    assert launcher.program_environment({"PYTHONPATH": "x"}) == {"PYTHONPATH": "x"}
