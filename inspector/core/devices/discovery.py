"""Devices: which ones this process can use, how to name them, how full one is now, and the
few per-backend calls everyone needs.

All of it is cheap and safe to call often (the memory sampler runs ``memory_reading`` at up
to 20 Hz). A full snapshot of every device, read in one go, is ``inventory.discover_devices``.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import asdict, dataclass
from typing import Any

import psutil
import torch

from inspector.core.errors import InputError
from inspector.core.messages import Text
from inspector.core.vocabulary import FailureKind

_BACKENDS = ("cpu", "cuda", "mps", "xpu")
#: Accelerator backends in the order they are listed after the CPU.
ACCELERATORS = ("cuda", "mps", "xpu")



def _torch_build() -> str:
    return f"torch {torch.__version__}"


def unavailable_reason(device_type: str) -> str | None:
    """Why ``device_type`` cannot be used here, in words; None when it can."""
    if device_type == "cpu":
        return None
    if device_type == "cuda":
        if torch.version.cuda is None and getattr(torch.version, "hip", None) is None:
            return Text("device.no_cuda_build", build=_torch_build())
        if not torch.cuda.is_available():
            return Text("device.no_cuda_device")
        return None
    if device_type == "mps":
        mps = getattr(torch.backends, "mps", None)
        if mps is None or not mps.is_built():
            return Text("device.no_mps_build", build=_torch_build())
        if not mps.is_available():
            return Text("device.mps_unavailable")
        return None
    if device_type == "xpu":
        xpu = getattr(torch, "xpu", None)
        if xpu is None or not xpu.is_available():
            return Text("device.no_xpu", build=_torch_build())
        return None
    return Text("device.unknown_type", type=repr(device_type), choices=", ".join(_BACKENDS))


def built_accelerator() -> str | None:
    """The accelerator type this PyTorch build was compiled for (None for a CPU-only build)."""
    accel = getattr(torch, "accelerator", None)  # torch >= 2.6
    if accel is not None and hasattr(accel, "current_accelerator"):
        current = accel.current_accelerator()
        return None if current is None else current.type
    for device_type in ACCELERATORS:
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
    if accel is not None and hasattr(accel, "device_count") and built_accelerator() == device_type:
        return int(accel.device_count())
    return int(getattr(torch, device_type).device_count())


def available_device_ids() -> list[str]:
    """``"cpu"`` plus every accelerator present. Cheap: reads no memory or properties."""
    ids = ["cpu"]
    for device_type in ACCELERATORS:
        count = device_count(device_type)
        if device_type == "mps":
            ids += ["mps"] * count
        else:
            ids += [f"{device_type}:{i}" for i in range(count)]
    return ids


#: Device types PyTorch has one of, whatever the machine: an index past 0 names nothing
#: (``torch.device("cpu:1")`` is accepted and then means the CPU, silently).
SINGLE_DEVICE_TYPES = ("cpu", "mps")


def named_device(spec: str | torch.device) -> torch.device:
    """The device a user named, as PyTorch reads it, before asking whether it is here: the one
    reading of a device name for every command (the CLI's, the window's, the agent's).
    ``InputError`` (kind ``"device"``) for a name of no device (``''`` included) and for an
    index past 0 of a device type PyTorch has one of (``cpu:1``)."""
    try:
        device = torch.device(spec)
    except (RuntimeError, TypeError, ValueError) as exc:
        raise InputError(Text("fit.not_a_device", device=repr(spec)), detail=str(exc), kind=FailureKind.DEVICE) from None
    if device.type in SINGLE_DEVICE_TYPES and device.index not in (None, 0):
        raise InputError(Text("device.one_of_its_kind", device=str(spec), type=device.type), kind=FailureKind.DEVICE)
    return device


def resolve_device(spec: str | torch.device | int) -> torch.device:
    """Turn ``"cuda"``, ``"cuda:1"``, ``"cpu"``, ``"mps"``, ``0`` into a device that exists.

    Raises ``InputError`` (kind ``"device"``) with a message a user can act on, instead of
    PyTorch's bare ``AssertionError`` or ``RuntimeError`` further down.
    """
    if isinstance(spec, int):
        spec = f"cuda:{spec}"
    device = named_device(spec)
    reason = unavailable_reason(device.type)
    if reason is not None:
        raise InputError(Text("device.not_available", device=device, reason=reason), kind=FailureKind.DEVICE)
    if device.type in ("cuda", "xpu"):
        count = device_count(device.type)
        index = device.index if device.index is not None else 0
        if index >= count:
            present = ", ".join(f"{device.type}:{i}" for i in range(count))
            raise InputError(
                Text("device.no_such_index_one" if count == 1 else "device.no_such_index", device=device, count=count,
                     type=device.type.upper(), present=present),  # fmt: skip
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


def has_cuda_context(index: int) -> bool:
    """Whether this process has a CUDA context on GPU ``index`` (asking its free memory would make one)."""
    # Private torch API (present for years); if it goes away, assume a context exists, which
    # only costs the context creation that mem_get_info would do anyway.
    has_context = getattr(torch._C, "_cuda_hasPrimaryContext", None)
    if has_context is None:
        return True
    try:
        return bool(has_context(index))
    except RuntimeError:
        return True
