"""The device inventory: every device this process can use, each read in one go (the
``devices`` command, the Devices panel, a report's environment), per backend: the CPU, CUDA
(and ROCm), MPS and XPU.

Never raises on a machine without an accelerator, and never creates a CUDA context on a GPU
this process has not touched (NVML tells its free memory instead, where it can).
"""

from __future__ import annotations

import functools
import os
import platform
import sys
from dataclasses import asdict, dataclass, field
from typing import Any

import psutil
import torch

from inspector.core.devices import host_files
from inspector.core.devices.discovery import (
    ACCELERATORS,
    built_accelerator,
    device_count,
    device_id,
    has_cuda_context,
    unavailable_reason,
)
from inspector.core.devices.memory_limits import free_memory
from inspector.core.devices.nvml import read_nvml
from inspector.core.messages import Text
from inspector.core.units import first_line, format_bytes


@dataclass(frozen=True)
class DeviceSnapshot:
    """One device, read in one go. Bytes; None where the backend cannot tell.

    ``free_bytes`` is, for the CPU, what this process may still take (the least of the
    machine's available RAM, its cgroup's room and ``RLIMIT_AS``: ``memory_limits``), and
    ``free_limit`` says which of them sets it; for a GPU, the driver's free memory;
    ``used_bytes`` covers the whole device (or system); ``allocated_bytes`` is this process
    (the CPU's is the resident set size); ``reserved_bytes`` is this process's allocator cache.
    ``details`` holds backend extras as plain JSON values.
    """

    id: str
    type: str
    index: int | None
    name: str
    total_bytes: int | None
    free_bytes: int | None
    used_bytes: int | None
    allocated_bytes: int | None
    reserved_bytes: int | None
    peak_allocated_bytes: int | None
    details: dict[str, Any] = field(default_factory=dict)
    #: What sets ``free_bytes`` when it is not the device's own figure (the CPU: "the
    #: container's memory limit (cgroup v2: 3.0 GiB, 2.1 GiB in use)"); None otherwise.
    free_limit: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # copies ``details`` too, so callers may change the result


@dataclass(frozen=True)
class DeviceInventory:
    """Every device this process can use: the CPU first, then cuda:0.., mps, xpu:0.."""

    devices: tuple[DeviceSnapshot, ...]
    notes: tuple[str, ...] = ()

    def get(self, device_id: str) -> DeviceSnapshot | None:
        """The snapshot for ``device_id`` (``"cuda"`` means ``"cuda:0"``); None if absent."""
        wanted = _canonical_id(device_id)
        return next((d for d in self.devices if d.id == wanted), None)

    def ids(self) -> list[str]:
        return [d.id for d in self.devices]

    def to_dict(self) -> dict[str, Any]:
        return {"devices": [d.to_dict() for d in self.devices], "notes": list(self.notes)}


def free_memory_text(snapshot: DeviceSnapshot) -> str | None:
    """"free for this process on cpu: 2.1 GiB, set by the container's memory limit (…)": the
    figure ``fit`` compares with, and what sets it; None where no limit is known."""
    if snapshot.free_bytes is None or not snapshot.free_limit:
        return None
    return Text("device.free_line", device=snapshot.id, free=format_bytes(snapshot.free_bytes), bound=snapshot.free_limit)


def _canonical_id(spec: str) -> str | None:
    try:
        return device_id(spec)
    except (RuntimeError, TypeError):
        return None



def discover_devices(*, with_nvml: bool = True) -> DeviceInventory:
    """Snapshot every device. Never raises on a machine without an accelerator.

    ``with_nvml`` adds NVML figures (utilisation, temperature, power, other processes'
    memory) to NVIDIA GPUs where the nvml extra and a driver are present.
    """
    notes: list[str] = []
    snapshots = [_cpu_snapshot()]
    if device_count("cuda"):
        snapshots += _cuda_snapshots(with_nvml, notes)
    if device_count("mps"):
        snapshots.append(_mps_snapshot())
    if device_count("xpu"):
        snapshots += [_xpu_snapshot(i, notes) for i in range(device_count("xpu"))]
    if len(snapshots) == 1:
        notes.append(Text("device.no_accelerator_listed", reason=_no_accelerator_reason()))
    return DeviceInventory(tuple(snapshots), tuple(notes))


def _no_accelerator_reason() -> str:
    # Name the backend the build was made for; a CPU-only build is asked about CUDA, the
    # backend most users expect (and about MPS on a Mac).
    built = built_accelerator()
    if built is not None and built not in ACCELERATORS:
        return Text("device.build_not_inspected", backend=built)
    if built is not None:
        return unavailable_reason(built) or Text("device.none_visible", backend=built)
    if sys.platform == "darwin":
        return unavailable_reason("mps") or Text("device.none_visible", backend="MPS")
    return unavailable_reason("cuda") or Text("device.none_visible", backend="CUDA")


# ----- CPU


def _cpu_snapshot() -> DeviceSnapshot:
    vm = psutil.virtual_memory()
    free = free_memory(host_available=int(vm.available))
    rss = psutil.Process().memory_info().rss
    peak = _peak_rss_bytes()
    details = {
        "cores": psutil.cpu_count(logical=True) or os.cpu_count() or 1,
        "physical_cores": psutil.cpu_count(logical=False),
        "torch_threads": torch.get_num_threads(),
        "architecture": platform.machine(),
    }
    capability = getattr(torch.backends.cpu, "get_cpu_capability", None)
    if capability is not None:
        details["vector_capability"] = capability()  # e.g. "AVX512": the kernels torch picks
    return DeviceSnapshot(
        id="cpu",
        type="cpu",
        index=None,
        name=cpu_model_name(),
        total_bytes=vm.total,
        free_bytes=free.free_bytes,  # in a container, its limit's room: what fit compares with
        used_bytes=vm.total - vm.available,
        allocated_bytes=rss,
        reserved_bytes=None,
        # The kernel updates the peak lazily; it can trail the RSS read a moment ago.
        peak_allocated_bytes=max(peak, rss) if peak is not None else None,
        details=details,
        free_limit=free.reason,
    )


@functools.lru_cache(maxsize=1)  # it cannot change while we run, and macOS needs a subprocess
def cpu_model_name() -> str:
    """The CPU's marketing name, e.g. "AMD EPYC 7B13". psutil offers no CPU model name. Nor is
    py-cpuinfo taken for it: its brand string comes from these same three places (/proc/cpuinfo,
    sysctl's machdep.cpu.brand_string, the registry's ProcessorNameString), and get_cpu_info()
    gets it by starting ``python cpuinfo.py --json`` (not through ``core.launcher``), which
    then runs wmic, lscpu, dmesg and CPUID for fields nothing here shows."""
    if sys.platform.startswith("linux"):
        try:
            with host_files.open_text("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
                for line in cpuinfo:
                    key, _, value = line.partition(":")
                    if key.strip() == "model name" and value.strip():
                        return value.strip()
        except OSError:
            pass  # no /proc (a sandbox): fall through
    elif sys.platform == "darwin":
        # platform.processor() says only "arm" on Apple silicon; sysctl has "Apple M2 Pro".
        from inspector.core import launcher

        try:
            name = launcher.run_program(["sysctl", "-n", "machdep.cpu.brand_string"], timeout=2).strip()
            if name:
                return name
        except (OSError, launcher.SubprocessError):
            pass
    elif sys.platform == "win32":
        # platform.processor() says "Intel64 Family 6 Model 154 Stepping 3, GenuineIntel".
        try:
            import winreg

            with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, r"HARDWARE\DESCRIPTION\System\CentralProcessor\0") as key:
                name = str(winreg.QueryValueEx(key, "ProcessorNameString")[0]).strip()
            if name:
                return name
        except OSError:
            pass
    # platform.processor() runs ``uname -p`` (a program found on PATH) on Linux and macOS; on
    # Windows it reads an environment variable.
    kind = platform.processor() if sys.platform == "win32" else ""
    return kind or platform.machine() or "CPU"


def _peak_rss_bytes() -> int | None:
    """This process's peak resident set size. psutil has it only on Windows (peak_wset)."""
    peak = getattr(psutil.Process().memory_info(), "peak_wset", None)
    if peak is not None:
        return int(peak)
    try:
        import resource  # Unix only
    except ImportError:
        return None
    max_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return max_rss if sys.platform == "darwin" else max_rss * 1024  # Linux reports KiB


# ----- CUDA (and ROCm, which PyTorch also calls "cuda")


def _cuda_snapshots(with_nvml: bool, notes: list[str]) -> list[DeviceSnapshot]:
    count = device_count("cuda")
    properties = [_cuda_properties(i, notes) for i in range(count)]
    uuids = [_cuda_uuid(p) for p in properties]
    nvml_figures: dict[str, dict[str, Any]] = {}
    if with_nvml and not _is_rocm():  # NVML knows NVIDIA GPUs only
        reading = read_nvml([u for u in uuids if u])
        nvml_figures = reading.figures
        notes.extend(reading.notes)
    return [
        _cuda_snapshot(i, properties[i], nvml_figures.get(uuids[i] or "", {}))
        for i in range(count)
    ]


def _is_rocm() -> bool:
    return getattr(torch.version, "hip", None) is not None


def _cuda_properties(index: int, notes: list[str]) -> torch._C._CudaDeviceProperties | None:
    try:
        return torch.cuda.get_device_properties(index)
    except (RuntimeError, AssertionError) as exc:
        notes.append(Text("device.unreadable", device=f"cuda:{index}", error=first_line(exc)))
        return None


def _cuda_uuid(properties: torch._C._CudaDeviceProperties | None) -> str | None:
    uuid = getattr(properties, "uuid", None)  # absent on some ROCm builds
    return str(uuid) if uuid is not None else None


def _cuda_snapshot(index: int, properties: torch._C._CudaDeviceProperties | None, nvml: dict[str, Any]) -> DeviceSnapshot:
    details: dict[str, Any] = {}
    name, total = f"CUDA device {index}", None
    if properties is not None:
        name, total = properties.name, int(properties.total_memory)
        details["compute_capability"] = f"{properties.major}.{properties.minor}"
        details["multiprocessors"] = int(properties.multi_processor_count)
        arch: str = getattr(properties, "gcnArchName", "")  # not on every build
        if _is_rocm() and arch:
            details["gcn_arch"] = arch
        uuid = _cuda_uuid(properties)
        if uuid:
            details["uuid"] = uuid
    free, source = _cuda_free_bytes(index, nvml)
    if source is not None:
        details["memory_source"] = source
    if total is None:
        total = nvml.get("nvml_total_bytes")
    details.update(nvml)
    return _gpu_snapshot("cuda", index, name, total, free, details)


def _gpu_snapshot(
    device_type: str, index: int, name: str, total: int | None, free: int | None, details: dict[str, Any]
) -> DeviceSnapshot:
    """A numbered GPU (``cuda:N``, ``xpu:N``): the driver's figures given, this process's
    read from the backend's allocator statistics (which create no CUDA context)."""
    backend = getattr(torch, device_type)
    return DeviceSnapshot(
        id=f"{device_type}:{index}",
        type=device_type,
        index=index,
        name=name,
        total_bytes=total,
        free_bytes=free,
        used_bytes=total - free if total is not None and free is not None else None,
        allocated_bytes=backend.memory_allocated(index),
        reserved_bytes=backend.memory_reserved(index),
        peak_allocated_bytes=backend.max_memory_allocated(index),
        details=details,
    )


def _cuda_free_bytes(index: int, nvml: dict[str, Any]) -> tuple[int | None, str | None]:
    """Free memory per the driver, and where it came from ("cuda" or "nvml").

    ``torch.cuda.mem_get_info`` creates a CUDA context (a few hundred MiB) on a GPU that has
    none, so discovery alone would occupy every GPU of the machine. NVML reports the driver's
    free memory without one, so it is used for GPUs this process has not touched yet.
    """
    if "nvml_free_bytes" in nvml and not has_cuda_context(index):
        return nvml["nvml_free_bytes"], "nvml"
    try:
        # Creates a context on `index` if it has none: accepted when NVML cannot tell.
        free, _total = torch.cuda.mem_get_info(index)
        return int(free), "cuda"
    except RuntimeError:  # e.g. the GPU is too full to create a context
        if "nvml_free_bytes" in nvml:
            return nvml["nvml_free_bytes"], "nvml"
        return None, None




# ----- MPS (Apple GPUs)


def _mps_snapshot() -> DeviceSnapshot:
    mps = torch.mps
    allocated = mps.current_allocated_memory()
    driver = mps.driver_allocated_memory()
    limit = mps.recommended_max_memory() if hasattr(mps, "recommended_max_memory") else None
    details = {"driver_allocated_bytes": driver, "unified_memory": True}
    if limit is not None:
        details["recommended_max_bytes"] = limit
    return DeviceSnapshot(
        id="mps",
        type="mps",
        index=None,
        name=f"{cpu_model_name()} GPU (MPS)",
        # MPS shares system RAM; the recommended maximum is what Metal advises this process
        # to stay under, so "free" is the room left below it.
        total_bytes=limit,
        free_bytes=max(limit - driver, 0) if limit is not None else None,
        used_bytes=driver,
        allocated_bytes=allocated,
        reserved_bytes=driver,
        peak_allocated_bytes=None,  # torch.mps keeps no peak
        details=details,
    )


# ----- XPU (Intel GPUs)


def _xpu_snapshot(index: int, notes: list[str]) -> DeviceSnapshot:
    xpu = torch.xpu
    details: dict[str, Any] = {}
    name, total = f"XPU device {index}", None
    try:
        properties = xpu.get_device_properties(index)
    except (RuntimeError, AssertionError) as exc:
        notes.append(Text("device.unreadable", device=f"xpu:{index}", error=first_line(exc)))
        properties = None
    if properties is not None:
        name, total = properties.name, int(properties.total_memory)
        for key in ("driver_version", "max_compute_units", "gpu_eu_count", "platform_name"):
            value = getattr(properties, key, None)
            if value is not None:
                details[key] = value
    free = None
    if hasattr(xpu, "mem_get_info"):
        try:
            free, total_from_driver = (int(v) for v in xpu.mem_get_info(index))
            total = total if total is not None else total_from_driver
        except RuntimeError:
            free = None
    return _gpu_snapshot("xpu", index, name, total, free, details)

