"""Devices: which ones exist, how full they are, and the few per-backend calls everyone needs.

Runtime helpers (``resolve_device``, ``synchronize``, ``empty_cache``, ``memory_reading``)
are cheap and safe to call often (the memory sampler runs at up to 20 Hz). Discovery
(``discover_devices``) builds a full snapshot of every device in one go.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import psutil
import torch

from inspector.core.errors import InputError

_BACKENDS = ("cpu", "cuda", "mps", "xpu")


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


def device_count(device_type: str) -> int:
    if device_type == "cpu":
        return 1
    if unavailable_reason(device_type) is not None:
        return 0
    if device_type == "mps":
        return 1
    return getattr(torch, device_type).device_count()


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
            kind="device",
        ) from None
    reason = unavailable_reason(device.type)
    if reason is not None:
        raise InputError(f"{device} is not available: {reason}", kind="device")
    if device.type in ("cuda", "xpu"):
        count = device_count(device.type)
        index = device.index if device.index is not None else 0
        if index >= count:
            present = ", ".join(f"{device.type}:{i}" for i in range(count))
            raise InputError(
                f"{device} does not exist: this machine has {count} {device.type.upper()} "
                f"device{'s' if count != 1 else ''} ({present})",
                kind="device",
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


@dataclass(frozen=True)
class MemoryReading:
    """One device's memory at one instant. Bytes; None where the backend cannot tell.

    For accelerators, ``allocated``/``reserved`` are this process's tensors and allocator
    cache, ``used``/``total`` the whole device as the driver sees it. For the CPU,
    ``allocated`` is this process's resident set size (RSS) and ``used``/``total`` the system's.
    """

    device: str
    timestamp: float
    allocated: int | None
    reserved: int | None
    used: int | None
    total: int | None

    def to_dict(self) -> dict:
        return asdict(self)


def memory_reading(device: torch.device | str) -> MemoryReading:
    """Read ``device``'s memory now. Never raises for a device that exists."""
    device = torch.device(device)
    now = time.time()
    ident = device_id(device)
    if device.type == "cpu":
        vm = psutil.virtual_memory()
        rss = psutil.Process().memory_info().rss
        return MemoryReading(ident, now, rss, None, vm.total - vm.available, vm.total)
    if device.type == "mps":
        mps = torch.mps
        allocated = mps.current_allocated_memory()
        driver = mps.driver_allocated_memory()
        total = mps.recommended_max_memory() if hasattr(mps, "recommended_max_memory") else None
        return MemoryReading(ident, now, allocated, driver, driver, total)
    backend = getattr(torch, device.type)
    index = device.index if device.index is not None else 0
    allocated = backend.memory_allocated(index)
    reserved = backend.memory_reserved(index)
    try:
        free, total = backend.mem_get_info(index)
        used = total - free
    except (RuntimeError, AttributeError):
        used = total = None
    return MemoryReading(ident, now, allocated, reserved, used, total)
