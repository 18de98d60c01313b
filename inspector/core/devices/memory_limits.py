"""How much memory this process may still take on the host: the least of what limits it.

``psutil.virtual_memory().available`` is the machine's figure. Inside a container
(``docker run --memory 3g``, a Kubernetes pod, a systemd slice) the kernel kills the process
at its cgroup's limit long before the machine runs out, and ``ulimit -v`` (``RLIMIT_AS``)
makes allocations fail at a cap on the address space. So the free memory ``devices``, ``fit``
and the window show is the least of:

- the machine's available memory;
- for the process's cgroup and each cgroup above it: its limit minus its usage (v2:
  ``memory.max`` - ``memory.current``; v1: ``memory.limit_in_bytes`` -
  ``memory.usage_in_bytes``), the usage without the inactive page cache the kernel drops
  before it kills (``inactive_file`` in ``memory.stat``, as ``docker stats`` and the
  kubelet count it);
- ``RLIMIT_AS``'s soft limit minus the process's virtual size.

``root`` (``HOST_ROOT``, ``/``, when not given) lets tests lay out a fake ``/proc`` and
``/sys/fs/cgroup``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import psutil

from inspector.core.devices import host_files
from inspector.core.messages import Text
from inspector.core.units import format_bytes

#: cgroup v1 writes "no limit" as a page-rounded 2**63 - 1; anything this large is none.
_NO_LIMIT = 1 << 62
#: No cgroup file is read beyond this many bytes (they are one number, or a short table).
_READ_AT_MOST = 64 * 1024

HOST, CGROUP, RLIMIT_AS = "host", "cgroup", "rlimit_as"

#: Where ``/proc`` and ``/sys`` are read from when no ``root`` is given (tests point it at a fake tree).
HOST_ROOT = Path("/")


@dataclass(frozen=True)
class FreeMemory:
    """``free_bytes``: the least of the figures below; ``bound``: which one it is (``HOST``,
    ``CGROUP`` or ``RLIMIT_AS``); ``reason``: that said for a person."""

    free_bytes: int
    bound: str
    reason: str
    host_available_bytes: int
    cgroup_limit_bytes: int | None = None
    cgroup_used_bytes: int | None = None
    cgroup_version: int | None = None
    rlimit_as_bytes: int | None = None
    virtual_bytes: int | None = None


@dataclass(frozen=True)
class CgroupMemory:
    """The tightest cgroup on the way up from this process's: its limit and usage."""

    version: int
    limit_bytes: int
    used_bytes: int

    @property
    def free_bytes(self) -> int:
        return max(self.limit_bytes - self.used_bytes, 0)


def free_memory(root: Path | None = None, *, host_available: int | None = None) -> FreeMemory:
    """What this process may still allocate on the host, and what sets that figure."""
    available = int(psutil.virtual_memory().available) if host_available is None else host_available
    choice = FreeMemory(available, HOST, Text("device.memory_bound_host"), available)
    cgroup = cgroup_memory(root)
    if cgroup is not None and cgroup.free_bytes < choice.free_bytes:
        reason = Text("device.memory_bound_cgroup", version=cgroup.version, limit=format_bytes(cgroup.limit_bytes),
                      used=format_bytes(cgroup.used_bytes))  # fmt: skip
        choice = FreeMemory(cgroup.free_bytes, CGROUP, reason, available)
    rlimit, virtual = address_space_limit()
    if rlimit is not None and virtual is not None and max(rlimit - virtual, 0) < choice.free_bytes:
        reason = Text("device.memory_bound_rlimit", limit=format_bytes(rlimit), used=format_bytes(virtual))
        choice = FreeMemory(max(rlimit - virtual, 0), RLIMIT_AS, reason, available)
    return FreeMemory(
        choice.free_bytes, choice.bound, choice.reason, available,
        cgroup_limit_bytes=cgroup.limit_bytes if cgroup else None,
        cgroup_used_bytes=cgroup.used_bytes if cgroup else None,
        cgroup_version=cgroup.version if cgroup else None,
        rlimit_as_bytes=rlimit, virtual_bytes=virtual,
    )  # fmt: skip


def address_space_limit() -> tuple[int | None, int | None]:
    """(``RLIMIT_AS``'s soft limit or None when unlimited, this process's virtual size)."""
    try:
        import resource
    except ImportError:  # Windows has no rlimits
        return None, None
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft < 0:
        return None, None
    return int(soft), int(psutil.Process().memory_info().vms)


def cgroup_memory(root: Path | None = None) -> CgroupMemory | None:
    """The cgroup (this process's or one above it) with the least room left; None outside
    any memory-limited cgroup, or where the files cannot be read (not Linux)."""
    root = HOST_ROOT if root is None else root
    membership = _read(root / "proc/self/cgroup")
    if membership is None:
        return None
    v1_path = v2_path = None
    for line in membership.splitlines():
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if "memory" in controllers.split(","):
            v1_path = path
        elif number == "0" and controllers == "":
            v2_path = path
    if v1_path is not None:
        return _tightest(root / "sys/fs/cgroup/memory", v1_path, 1)
    if v2_path is not None:
        return _tightest(root / "sys/fs/cgroup", v2_path, 2)
    return None


def _tightest(mount: Path, path: str, version: int) -> CgroupMemory | None:
    """The least room among the cgroup at ``path`` under ``mount`` and its ancestors.

    In a container the cgroup's own folder is the mount itself (the namespace hides the
    host's path that ``/proc/self/cgroup`` may still show), so a path not found under the
    mount is read at the mount."""
    parts = [p for p in PurePosixPath(path).parts if p not in ("/", ".", "..")]
    folder = mount.joinpath(*parts) if parts and mount.joinpath(*parts).is_dir() else mount
    best: CgroupMemory | None = None
    while True:
        found = _read_cgroup(folder, version)
        if found is not None and (best is None or found.free_bytes < best.free_bytes):
            best = found
        if folder == mount or mount not in folder.parents:
            return best
        folder = folder.parent


def _read_cgroup(folder: Path, version: int) -> CgroupMemory | None:
    limit_file, usage_file = ("memory.max", "memory.current") if version == 2 else (
        "memory.limit_in_bytes", "memory.usage_in_bytes")  # fmt: skip
    limit, usage = _number(folder / limit_file), _number(folder / usage_file)
    if limit is None or usage is None or limit >= _NO_LIMIT:  # "max": no limit here
        return None
    inactive = _stat_field(folder / "memory.stat", "total_inactive_file" if version == 1 else "inactive_file")
    return CgroupMemory(version, limit, max(usage - (inactive or 0), 0))


def _number(path: Path) -> int | None:
    text = _read(path)
    if text is None:
        return None
    try:
        return int(text.strip())
    except ValueError:  # "max", or garbage
        return None


def _stat_field(path: Path, name: str) -> int | None:
    text = _read(path)
    for line in (text or "").splitlines():
        key, _, value = line.partition(" ")
        if key == name:
            try:
                return int(value.strip())
            except ValueError:
                return None
    return None


def _read(path: Path) -> str | None:
    try:
        with host_files.open_text(path, encoding="ascii", errors="replace") as f:
            return f.read(_READ_AT_MOST)
    except OSError:
        return None
