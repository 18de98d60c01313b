"""``bench`` keeps its own cap when a forward never returns (issue 32, item 11).

The model's forward sleeps in a loop until a file appears (as a model waiting on something
that never comes would); the watchdog's cap and grace are patched tiny, and its exit is
replaced by one that records the status and lets the forward return, so pytest lives on.
"""

from __future__ import annotations

import pytest

from inspector.cli import main, watchdog

HANGING = (
    "import os, time\n"
    "import torch\n\n"
    "class Hanging(torch.nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = torch.nn.Linear(3, 1)\n\n"
    "    def forward(self, x):\n"
    "        while not os.path.exists({release!r}):\n"
    "            time.sleep(0.01)\n"
    "        return self.fc(x)\n\n"
    "def make():\n"
    "    return Hanging(), torch.randn(2, 3)\n"
)


@pytest.mark.cpu_only
def test_a_forward_that_never_returns_ends_bench_past_its_cap_in_one_line(tmp_path, monkeypatch, capsys):
    release = tmp_path / "release"
    factory = tmp_path / "hanging.py"
    factory.write_text(HANGING.format(release=str(release)))
    left: list[int] = []

    def leave(status: int) -> None:  # what os._exit would do, without ending pytest
        left.append(status)
        release.touch()

    monkeypatch.setattr(watchdog, "CAP_S", 0.05)
    monkeypatch.setattr(watchdog, "GRACE_S", 0.05)
    monkeypatch.setattr(watchdog, "_leave", leave)
    main(["bench", f"{factory}:make", "--device", "cpu", "--runs", "3"])
    err = capsys.readouterr().err
    assert left == [1]
    (line,) = [line for line in err.splitlines() if "has not returned" in line]
    assert line.startswith("error: the benchmark on cpu has not returned") and "cannot be interrupted" in line


@pytest.mark.cpu_only
def test_a_benchmark_that_ends_in_time_leaves_no_watchdog_behind(monkeypatch, capsys):
    left: list[int] = []
    monkeypatch.setattr(watchdog, "_leave", left.append)
    assert main(["bench", "example", "--device", "cpu", "--runs", "3"]) == 0
    assert left == [] and "has not returned" not in capsys.readouterr().err
