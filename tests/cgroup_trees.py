"""Fake ``/proc/self/cgroup`` and ``/sys/fs/cgroup`` trees in a folder, as a container would
show them (``docker run --memory 3g``): for ``devices.memory_limits``' ``root``."""

from __future__ import annotations

from pathlib import Path

GIB = 1 << 30
#: What cgroup v1 writes for "no limit": 2**63 - 1 rounded down to a page.
V1_NO_LIMIT = 9223372036854771712


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def cgroup_v2(root: Path, levels: dict[str, tuple[int | str, int]], own: str = "/user.slice/app.scope") -> Path:
    """A v2 tree: the process in ``own``; ``levels`` maps a cgroup path ("/" the mount) to its
    (memory.max, memory.current); "max" means no limit."""
    _write(root / "proc/self/cgroup", f"0::{own}\n")
    for path, (limit, used) in levels.items():
        folder = root / "sys/fs/cgroup" / path.strip("/")
        _write(folder / "memory.max", f"{limit}\n")
        _write(folder / "memory.current", f"{used}\n")
    return root


def cgroup_v1(root: Path, limit: int, used: int, inactive_file: int = 0, own: str = "/docker/0123abcd") -> Path:
    """A v1 container: /proc/self/cgroup names the host's path, the mount is the container's own
    cgroup (so ``own`` is not found under it)."""
    _write(root / "proc/self/cgroup", f"12:pids:{own}\n4:memory:{own}\n2:cpu,cpuacct:{own}\n0::/\n")
    folder = root / "sys/fs/cgroup/memory"
    _write(folder / "memory.limit_in_bytes", f"{limit}\n")
    _write(folder / "memory.usage_in_bytes", f"{used}\n")
    _write(folder / "memory.stat", f"cache 0\ninactive_file {inactive_file}\ntotal_inactive_file {inactive_file}\n")
    return root
