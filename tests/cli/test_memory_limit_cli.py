"""`fit` and `devices` inside a container limited below the machine's free memory (issue 32,
item 12): the free figure is the container's room, `fit` says "NO" and runs no real step, and
the estimate is printed before any real step."""

from __future__ import annotations

import json

import pytest

from inspector.cli import main
from inspector.core.devices import memory_limits
from inspector.core.measure import fit
from tests.cgroup_trees import GIB, cgroup_v2

USED = 2 * GIB


@pytest.fixture
def container(tmp_path, monkeypatch):
    """A cgroup v2 with 1 KiB left (the example's step needs ~1.8 KiB), and a proof step that
    leaves a mark if it is ever started."""
    monkeypatch.setattr(memory_limits, "HOST_ROOT", cgroup_v2(tmp_path, {"/": (USED + 1024, USED)}, own="/"))
    proofs: list[str] = []

    def proof(*args, **kwargs):
        proofs.append("ran")
        return 1, "fake proof"

    monkeypatch.setattr(fit, "measure_peak", proof)
    return proofs


def test_fit_in_a_container_says_its_free_memory_and_does_not_fit(container, capsys):
    assert main(["fit", "example", "--optimizer", "sgd"]) == 0
    out = capsys.readouterr().out
    assert "  free             1.0 KiB (the container's memory limit (cgroup v2: 2.0 GiB, 2.0 GiB in use))" in out
    assert "  fits             NO (short by " in out
    assert "not measured: the estimate says it does not fit" in out
    assert "note: free memory for this process is 1.0 KiB, set by the container's memory limit" in out
    assert container == []  # no real step was tried


def test_fit_json_carries_the_limit(container, capsys):
    assert main(["fit", "example", "--optimizer", "sgd", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["free_bytes"], data["fits"], data["measured_peak_bytes"]) == (1024, False, None)
    assert data["free_limit"].startswith("the container's memory limit (cgroup v2")


def test_devices_shows_the_same_free_figure_and_names_the_limit(container, capsys):
    assert main(["devices"]) == 0
    out = capsys.readouterr().out
    cpu = next(line for line in out.splitlines() if line.startswith("cpu "))
    assert "1.0 KiB" in cpu
    assert "note: free for this process on cpu: 1.0 KiB, set by the container's memory limit (cgroup v2" in out
    assert main(["devices", "--json"]) == 0
    cpu_json = json.loads(capsys.readouterr().out)["devices"][0]
    assert cpu_json["free_bytes"] == 1024 and "cgroup v2" in cpu_json["free_limit"]


def test_the_estimate_is_on_screen_before_the_real_step_starts(tmp_path, monkeypatch, capsys):
    """Where the step fits, the proof runs; whatever happens in it (here: the process "killed"
    for memory, as the kernel does at a container's limit), the estimate was printed first."""

    class Killed(BaseException):
        pass

    seen: list[str] = []

    def killed(*args, **kwargs):
        seen.append(capsys.readouterr().out)  # what the user has on screen at this moment
        raise Killed

    monkeypatch.setattr(fit, "measure_peak", killed)
    main(["fit", "example", "--optimizer", "sgd"])  # (main turns even this into one error line)
    assert "  estimated peak   " in seen[0] and "  fits             yes" in seen[0]
    assert "measured peak" not in seen[0]


KILLED_IN_THE_REAL_STEP = '''
import os, signal, torch


class Dies(torch.nn.Module):
    """Fine on fake tensors (the estimate); killed as the kernel kills at a cgroup's limit
    as soon as it runs on real ones (the proof)."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 2)

    def forward(self, x):
        if type(x).__name__ != "FakeTensor":
            os.kill(os.getpid(), signal.SIGKILL)
        return self.fc(x)


def make():
    return Dies(), torch.randn(4, 3)
'''


def test_a_process_killed_in_the_real_step_has_printed_its_estimate(tmp_path):
    import signal
    import subprocess
    import sys

    factory = tmp_path / "dies.py"
    factory.write_text(KILLED_IN_THE_REAL_STEP)
    done = subprocess.run([sys.executable, "-m", "inspector", "fit", f"{factory}:make", "--optimizer", "sgd"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)  # fmt: skip
    assert done.returncode == -signal.SIGKILL
    assert "  estimated peak   " in done.stdout and "  fits             yes" in done.stdout
