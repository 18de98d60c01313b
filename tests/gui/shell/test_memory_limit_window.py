"""The window's Devices panel inside a container (issue 32, item 12): the CPU row's tooltip
gives the free figure `fit` and `devices` use, and says the container's limit sets it."""

from __future__ import annotations

from PySide6.QtCore import Qt

from inspector.core.devices import memory_limits
from tests.cgroup_trees import GIB, cgroup_v2


def test_the_cpu_row_says_the_containers_limit_sets_its_free_memory(make_window, monkeypatch, tmp_path):
    monkeypatch.setattr(memory_limits, "HOST_ROOT", cgroup_v2(tmp_path, {"/": (3 * GIB, 2 * GIB)}, own="/"))
    window = make_window()
    table = window.devices.table
    tip = table.model().index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "free for this process: 1.0 GiB, set by the container's memory limit (cgroup v2: 3.0 GiB, 2.0 GiB in use)" in tip
