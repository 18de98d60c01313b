"""Issue 43, item 7: ``bench --repeat``'s worker ends with its parent. SIGTERM or SIGHUP (a
job scheduler, a closed ssh session, ``kill PID``) or SIGKILL to the ``bench`` left the running
worker measuring on its own, re-parented to PID 1; now no worker survives any of them."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from tests.processes import gone, wait_for

#: The model: run 1 (the parent's load) is quick; a worker's load stays busy, as a long
#: measurement does (up to --min-time 3,600 s), and says so with a file.
SLOW_IN_WORKERS = """
import os, time
import torch

HERE = os.path.dirname(os.path.abspath(__file__))

def make():
    if os.path.exists(os.path.join(HERE, "parent-loaded")):  # a worker: measure for ever
        open(os.path.join(HERE, f"worker-{os.getpid()}"), "w").close()
        end = time.monotonic() + 600
        while time.monotonic() < end:
            sum(range(1000))
    open(os.path.join(HERE, "parent-loaded"), "w").close()
    return torch.nn.Linear(3, 2), torch.randn(4, 3)
"""


def _measuring_worker(folder, parent: subprocess.Popen) -> int | None:
    """The pid of the parent's worker once it is measuring (its model loaded), else None."""
    try:
        children = {child.pid for child in psutil.Process(parent.pid).children(recursive=True)}
    except psutil.NoSuchProcess:
        return None
    started = [int(path.name.split("-")[1]) for path in folder.glob("worker-*")]
    return next((pid for pid in started if pid in children), None)


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGKILL"])
def test_no_worker_outlives_its_parent(name, tmp_path):
    number = getattr(signal, name)
    (tmp_path / "slow.py").write_text(SLOW_IN_WORKERS)
    parent = subprocess.Popen(
        [sys.executable, "-I", "-m", "inspector", "bench", "slow.py:make", "--device", "cpu", "--runs", "5", "--repeat", "3"],
        cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True,  # our terminal's signals stay ours
    )  # fmt: skip
    worker, folder = None, None
    try:
        assert wait_for(lambda: _measuring_worker(tmp_path, parent) is not None or parent.poll() is not None, 300)
        worker = _measuring_worker(tmp_path, parent)
        assert worker is not None, f"no worker started: {parent.communicate(timeout=60)[1]}"
        folder = Path(psutil.Process(worker).cwd())  # the worker's own, the app's choice
        assert folder.name.startswith("tdi-worker-") and folder != tmp_path
        parent.send_signal(number)
        parent.wait(timeout=120)
        assert parent.returncode == -number  # it died of the signal, as it did before: only its worker goes too
        assert wait_for(lambda: gone(worker), 60), f"the worker outlived its parent's {name}"
        if number != signal.SIGKILL:  # a signal the parent handles: it removed the worker's folder too
            assert not folder.exists()
    finally:
        if folder is not None:  # SIGKILL leaves it (empty): not the test's to leave behind
            shutil.rmtree(folder, ignore_errors=True)
        if parent.poll() is None:
            parent.kill()
            parent.wait(timeout=60)
        if worker is not None and not gone(worker):  # the test failed: leave nothing running
            psutil.Process(worker).kill()
