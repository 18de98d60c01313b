"""Free host memory is the least of the machine's, the cgroup's and RLIMIT_AS's (issue 32,
item 12), read from fake /proc and /sys trees built here."""

from __future__ import annotations

import resource

import psutil

from inspector.core.devices import memory_limits
from inspector.core.devices.memory_limits import CGROUP, HOST, RLIMIT_AS, cgroup_memory, free_memory
from tests.cgroup_trees import GIB, V1_NO_LIMIT, cgroup_v1, cgroup_v2

HOST_FREE = 22 * GIB


def test_a_container_limited_to_3_gib_has_its_room_not_the_machines(tmp_path):
    root = cgroup_v2(tmp_path, {"/user.slice": ("max", 5 * GIB), "/user.slice/app.scope": (3 * GIB, 2 * GIB)})
    free = free_memory(root, host_available=HOST_FREE)
    assert (free.free_bytes, free.bound, free.cgroup_version) == (GIB, CGROUP, 2)
    assert free.reason == "the container's memory limit (cgroup v2: 3.0 GiB, 2.0 GiB in use)"
    assert free.host_available_bytes == HOST_FREE


def test_max_means_no_limit_and_the_machine_decides(tmp_path):
    root = cgroup_v2(tmp_path, {"/": ("max", GIB), "/user.slice/app.scope": ("max", GIB)})
    assert cgroup_memory(root) is None
    free = free_memory(root, host_available=HOST_FREE)
    assert (free.free_bytes, free.bound, free.reason) == (HOST_FREE, HOST, "the machine's available memory")


def test_a_tighter_parent_cgroup_wins(tmp_path):
    root = cgroup_v2(tmp_path, {"/user.slice": (4 * GIB, 3 * GIB + GIB // 2), "/user.slice/app.scope": (8 * GIB, GIB)})
    assert cgroup_memory(root).free_bytes == GIB // 2


def test_v2_inside_a_container_reads_the_mount_when_the_hosts_path_is_not_there(tmp_path):
    root = cgroup_v2(tmp_path, {"/": (3 * GIB, GIB)}, own="/system.slice/docker-0123.scope")
    assert cgroup_memory(root).free_bytes == 2 * GIB


def test_v1_limit_minus_usage_without_the_inactive_page_cache(tmp_path):
    root = cgroup_v1(tmp_path, limit=3 * GIB, used=2 * GIB, inactive_file=GIB // 2)
    found = cgroup_memory(root)
    assert (found.version, found.limit_bytes, found.used_bytes) == (1, 3 * GIB, 3 * GIB // 2)
    assert free_memory(root, host_available=HOST_FREE).free_bytes == 3 * GIB // 2


def test_v1_no_limit_is_no_limit(tmp_path):
    assert cgroup_memory(cgroup_v1(tmp_path, limit=V1_NO_LIMIT, used=GIB)) is None


def test_unreadable_or_garbage_files_mean_no_limit_never_an_error(tmp_path):
    assert cgroup_memory(tmp_path) is None  # no /proc at all (not Linux)
    root = cgroup_v2(tmp_path, {"/user.slice/app.scope": ("lots", "\x00\xff")})
    assert cgroup_memory(root) is None
    (tmp_path / "proc/self/cgroup").write_text("0::/../../../etc\n")
    assert cgroup_memory(root) is None


def test_rlimit_as_bounds_what_is_left_of_the_address_space(tmp_path, monkeypatch):
    vms = psutil.Process().memory_info().vms
    monkeypatch.setattr(resource, "getrlimit", lambda which: (vms + GIB, resource.RLIM_INFINITY))
    root = cgroup_v2(tmp_path, {"/user.slice/app.scope": (8 * GIB, GIB)})
    free = free_memory(root, host_available=HOST_FREE)
    assert free.bound == RLIMIT_AS and 0 < free.free_bytes <= GIB
    assert free.reason.startswith("the address-space limit (RLIMIT_AS ")


def test_the_default_root_is_the_hosts(monkeypatch, tmp_path):
    assert memory_limits.HOST_ROOT.as_posix() == "/"
    monkeypatch.setattr(memory_limits, "HOST_ROOT", cgroup_v2(tmp_path, {"/": (3 * GIB, 2 * GIB)}, own="/"))
    assert free_memory(host_available=HOST_FREE).free_bytes == GIB
