"""Devices: which ones exist, how full they are, and the few per-backend calls everyone needs.

Runtime helpers (``resolve_device``, ``synchronize``, ``empty_cache``, ``memory_reading``)
are cheap and safe to call often (the memory sampler runs at up to 20 Hz). Discovery
(``discover_devices``) builds a full snapshot of every device in one go.
"""

from __future__ import annotations

import functools
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import psutil
import torch

from inspector.core.errors import InputError
from inspector.core.devices.nvml import read_nvml
from inspector.core.units import first_line
from inspector.core.vocabulary import FailureKind

_BACKENDS = ("cpu", "cuda", "mps", "xpu")
#: Accelerator backends in the order they are listed after the CPU.
_ACCELERATORS = ("cuda", "mps", "xpu")


def _torch_build() -> str:
    return f"torch {torch.__version__}"


def unavailable_reason(device_type: str) -> str | None:
    """Why ``device_type`` cannot be used here, in words; None when it can."""
    if device_type == "cpu":
        return None
    if device_type == "cuda":
        if torch.version.cuda is None and getattr(torch.version, "hip", None) is None:
            return f"this PyTorch build has no CUDA support ({_torch_build()})"
        if not torch.cuda.is_available():
            return (
                "PyTorch has CUDA support but sees no CUDA device "
                "(check the NVIDIA driver and CUDA_VISIBLE_DEVICES)"
            )
        return None
    if device_type == "mps":
        mps = getattr(torch.backends, "mps", None)
        if mps is None or not mps.is_built():
            return f"this PyTorch build has no MPS (Apple GPU) support ({_torch_build()})"
        if not mps.is_available():
            return "MPS is built in but not available (needs macOS 12.3+ on Apple silicon)"
        return None
    if device_type == "xpu":
        xpu = getattr(torch, "xpu", None)
        if xpu is None or not xpu.is_available():
            return f"no Intel XPU is available to this PyTorch build ({_torch_build()})"
        return None
    return f"unknown device type {device_type!r} (expected one of {', '.join(_BACKENDS)})"


def _built_accelerator() -> str | None:
    """The accelerator type this PyTorch build was compiled for (None for a CPU-only build)."""
    accel = getattr(torch, "accelerator", None)  # torch >= 2.6
    if accel is not None and hasattr(accel, "current_accelerator"):
        current = accel.current_accelerator()
        return None if current is None else current.type
    for device_type in _ACCELERATORS:
        if unavailable_reason(device_type) is None:
            return device_type
    return None


def device_count(device_type: str) -> int:
    """How many devices of ``device_type`` this process can use (0 when none)."""
    if device_type == "cpu":
        return 1
    if unavailable_reason(device_type) is not None:
        return 0
    if device_type == "mps":
        return 1
    accel = getattr(torch, "accelerator", None)
    if accel is not None and hasattr(accel, "device_count") and _built_accelerator() == device_type:
        return int(accel.device_count())
    return int(getattr(torch, device_type).device_count())


def resolve_device(spec: str | torch.device | int) -> torch.device:
    """Turn ``"cuda"``, ``"cuda:1"``, ``"cpu"``, ``"mps"``, ``0`` into a device that exists.

    Raises ``InputError`` (kind ``"device"``) with a message a user can act on, instead of
    PyTorch's bare ``AssertionError`` or ``RuntimeError`` further down.
    """
    if isinstance(spec, int):
        spec = f"cuda:{spec}"
    try:
        device = torch.device(spec)
    except (RuntimeError, TypeError) as exc:
        raise InputError(
            f"{spec!r} is not a device name (try cpu, cuda, cuda:0, mps or xpu)",
            detail=str(exc),
            kind=FailureKind.DEVICE,
        ) from None
    reason = unavailable_reason(device.type)
    if reason is not None:
        raise InputError(f"{device} is not available: {reason}", kind=FailureKind.DEVICE)
    if device.type in ("cuda", "xpu"):
        count = device_count(device.type)
        index = device.index if device.index is not None else 0
        if index >= count:
            present = ", ".join(f"{device.type}:{i}" for i in range(count))
            raise InputError(
                f"{device} does not exist: this machine has {count} {device.type.upper()} "
                f"device{'s' if count != 1 else ''} ({present})",
                kind=FailureKind.DEVICE,
            )
        device = torch.device(device.type, index)
    return device


def device_id(device: torch.device | str) -> str:
    """Canonical id: ``cpu``, ``mps``, ``cuda:0``, ``xpu:1``."""
    device = torch.device(device)
    if device.type in ("cpu", "mps"):
        return device.type
    return f"{device.type}:{device.index if device.index is not None else 0}"


def synchronize(device: torch.device | str) -> None:
    """Wait for all queued work on ``device``; a no-op for the CPU."""
    device = torch.device(device)
    if device.type == "cpu":
        return
    accel = getattr(torch, "accelerator", None)
    if accel is not None and hasattr(accel, "synchronize"):
        current = accel.current_accelerator()
        if current is not None and current.type == device.type:
            accel.synchronize(device)
            return
    backend = getattr(torch, device.type, None)
    if backend is not None and hasattr(backend, "synchronize"):
        if device.type == "mps":
            backend.synchronize()
        else:
            backend.synchronize(device)


def empty_cache(device: torch.device | str) -> None:
    """Give cached, unused blocks of ``device``'s allocator back to the driver."""
    device = torch.device(device)
    if device.type == "cpu" or unavailable_reason(device.type) is not None:
        return
    backend = getattr(torch, device.type, None)
    if backend is not None and hasattr(backend, "empty_cache"):
        backend.empty_cache()


#: How PyTorch words running out of memory where it raises a plain RuntimeError: the MPS
#: allocator, older XPU/CUDA builds, a failed driver allocation (cuBLAS handle, pinned host
#: memory) and the CPU allocator (after an "[enforce fail at alloc_cpu.cpp:N] ..." prefix).
_OOM_MESSAGE = re.compile(
    r"^(?:(?:CUDA|HIP|XPU|MTIA|MPS backend) out of memory"
    r"|(?:CUDA|HIP) error: out of memory)"
    r"|DefaultCPUAllocator: can't allocate memory"
    r"|CUBLAS_STATUS_ALLOC_FAILED|CUDNN_STATUS_ALLOC_FAILED"
)


def is_out_of_memory(exc: BaseException) -> bool:
    """True when ``exc`` is PyTorch (or Python) running out of memory on some device.

    By type where PyTorch gives one; else only by PyTorch's own wording at the start of a
    RuntimeError, so a model's error that merely mentions "out of memory" is not taken
    for one.
    """
    # torch.OutOfMemoryError appeared in 2.5; torch.cuda.OutOfMemoryError is the same class.
    oom_type = getattr(torch, "OutOfMemoryError", None) or torch.cuda.OutOfMemoryError
    if isinstance(exc, (oom_type, MemoryError)):
        return True
    return isinstance(exc, RuntimeError) and _OOM_MESSAGE.search(str(exc).lstrip()) is not None


@dataclass(frozen=True)
class MemoryReading:
    """One device's memory at one instant. Bytes; None where the backend cannot tell.

    For accelerators, ``allocated``/``reserved`` are this process's tensors and allocator
    cache, ``used``/``total`` the whole device as the driver sees it. For the CPU,
    ``allocated`` is this process's resident set size (RSS) and ``used``/``total`` the system's.
    ``other_processes``: what other processes hold on a GPU, where NVML tells it (the
    samplers add it, ``core.devices.other_processes``); None elsewhere.
    """

    device: str
    timestamp: float
    allocated: int | None
    reserved: int | None
    used: int | None
    total: int | None
    other_processes: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_process: psutil.Process | None = None


def _this_process() -> psutil.Process:
    """This process, made once (a new ``psutil.Process`` reads /proc twice more: a third of a
    CPU reading's cost, at 10 Hz on each side of a remote session); anew after a fork."""
    global _process
    if _process is None or _process.pid != os.getpid():
        _process = psutil.Process()
    return _process


def memory_reading(device: torch.device | str) -> MemoryReading:
    """Read ``device``'s memory now. Never raises for a device that exists."""
    device = torch.device(device)
    now = time.time()
    ident = device_id(device)
    if device.type == "cpu":
        vm = psutil.virtual_memory()
        rss = _this_process().memory_info().rss
        return MemoryReading(ident, now, rss, None, vm.total - vm.available, vm.total)
    if device.type == "mps":
        mps = torch.mps
        allocated = mps.current_allocated_memory()
        driver = mps.driver_allocated_memory()
        total = mps.recommended_max_memory() if hasattr(mps, "recommended_max_memory") else None
        return MemoryReading(ident, now, allocated, driver, driver, total)
    backend = getattr(torch, device.type)
    index = device.index if device.index is not None else 0
    if device.type == "cuda" and not has_cuda_context(index):
        # Nothing of this process lives there, and mem_get_info would create a context
        # (hundreds of MiB) on a GPU the user never touched: report what is known for free.
        total = torch.cuda.get_device_properties(index).total_memory
        return MemoryReading(ident, now, 0, 0, None, total)
    allocated = backend.memory_allocated(index)
    reserved = backend.memory_reserved(index)
    try:
        free, total = backend.mem_get_info(index)
        used = total - free
    except (RuntimeError, AttributeError):
        used = total = None
    return MemoryReading(ident, now, allocated, reserved, used, total)


# ---------------------------------------------------------------- discovery


@dataclass(frozen=True)
class DeviceSnapshot:
    """One device, read in one go. Bytes; None where the backend cannot tell.

    ``free_bytes`` is the available RAM for the CPU and the driver's free memory for a GPU;
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


def _canonical_id(spec: str) -> str | None:
    try:
        return device_id(spec)
    except (RuntimeError, TypeError):
        return None


def available_device_ids() -> list[str]:
    """``"cpu"`` plus every accelerator present. Cheap: reads no memory or properties."""
    ids = ["cpu"]
    for device_type in _ACCELERATORS:
        count = device_count(device_type)
        if device_type == "mps":
            ids += ["mps"] * count
        else:
            ids += [f"{device_type}:{i}" for i in range(count)]
    return ids


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
        notes.append(f"no accelerator is listed: {_no_accelerator_reason()}")
    return DeviceInventory(tuple(snapshots), tuple(notes))


def _no_accelerator_reason() -> str:
    # Name the backend the build was made for; a CPU-only build is asked about CUDA, the
    # backend most users expect (and about MPS on a Mac).
    built = _built_accelerator()
    if built is not None and built not in _ACCELERATORS:
        return f"this PyTorch build targets {built} devices, which this app does not inspect"
    if built is not None:
        return unavailable_reason(built) or f"no {built} device is visible"
    if sys.platform == "darwin":
        return unavailable_reason("mps") or "no MPS device is visible"
    return unavailable_reason("cuda") or "no CUDA device is visible"


# ----- CPU


def _cpu_snapshot() -> DeviceSnapshot:
    vm = psutil.virtual_memory()
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
        free_bytes=vm.available,
        used_bytes=vm.total - vm.available,
        allocated_bytes=rss,
        reserved_bytes=None,
        # The kernel updates the peak lazily; it can trail the RSS read a moment ago.
        peak_allocated_bytes=max(peak, rss) if peak is not None else None,
        details=details,
    )


@functools.lru_cache(maxsize=1)  # it cannot change while we run, and macOS needs a subprocess
def cpu_model_name() -> str:
    """The CPU's marketing name, e.g. "AMD EPYC 7B13". psutil offers no CPU model name."""
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
                for line in cpuinfo:
                    key, _, value = line.partition(":")
                    if key.strip() == "model name" and value.strip():
                        return value.strip()
        except OSError:
            pass  # no /proc (sandbox): fall through
    elif sys.platform == "darwin":
        # platform.processor() says only "arm" on Apple silicon; sysctl has "Apple M2 Pro".
        try:
            name = subprocess.run(
                ["sysctl", "-n", "machdep.cpu.brand_string"],
                capture_output=True, text=True, timeout=2, check=True,
            ).stdout.strip()
            if name:
                return name
        except (OSError, subprocess.SubprocessError):
            pass
    return platform.processor() or platform.machine() or "CPU"


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
        notes.append(f"cuda:{index} could not be read: {first_line(exc)}")
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
    return DeviceSnapshot(
        id=f"cuda:{index}",
        type="cuda",
        index=index,
        name=name,
        total_bytes=total,
        free_bytes=free,
        used_bytes=total - free if total is not None and free is not None else None,
        # These three read this process's allocator statistics and create no CUDA context.
        allocated_bytes=torch.cuda.memory_allocated(index),
        reserved_bytes=torch.cuda.memory_reserved(index),
        peak_allocated_bytes=torch.cuda.max_memory_allocated(index),
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


def has_cuda_context(index: int) -> bool:
    # Private torch API (present for years); if it goes away, assume a context exists, which
    # only costs the context creation that mem_get_info would do anyway.
    has_context = getattr(torch._C, "_cuda_hasPrimaryContext", None)
    if has_context is None:
        return True
    try:
        return bool(has_context(index))
    except RuntimeError:
        return True


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
        notes.append(f"xpu:{index} could not be read: {first_line(exc)}")
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
    return DeviceSnapshot(
        id=f"xpu:{index}",
        type="xpu",
        index=index,
        name=name,
        total_bytes=total,
        free_bytes=free,
        used_bytes=total - free if total is not None and free is not None else None,
        allocated_bytes=xpu.memory_allocated(index),
        reserved_bytes=xpu.memory_reserved(index),
        peak_allocated_bytes=xpu.max_memory_allocated(index),
        details=details,
    )

