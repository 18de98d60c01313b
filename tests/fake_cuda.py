"""A fake CUDA backend (and fake NVML) for testing multi-GPU views on a CPU-only machine.

The fake replaces PyTorch's *API functions* (``torch.cuda.*``, ``torch.accelerator.*``,
``torch.version.cuda``), so the real discovery code in ``inspector.core.devices.discovery`` and
``inventory`` runs against it. Only discovery and memory figures are faked: moving a tensor to a fake GPU still
fails, because no kernel runs here.

Use it from any test::

    from tests.fake_cuda import fake_cuda

    def test_eight_gpus(monkeypatch):
        gpus = fake_cuda(monkeypatch, count=8)   # also installs a matching fake NVML
        gpus[3].allocated_bytes = 5 * GiB        # change a figure; the next reading sees it
        ...

or take the ``eight_fake_gpus`` fixture (import it into the test module, or a conftest).
"""

from __future__ import annotations

import os
import sys
import types
import uuid as uuid_lib
from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest
import torch

GiB = 1 << 30
MiB = 1 << 20
#: What torch reports as total_memory for an H200 (about 139.8 GiB).
H200_TOTAL_BYTES = 150_109_978_624
#: A PID no real process of the test run has: "another process" on the fake GPUs.
OTHER_PID = 999_999_001


@dataclass
class FakeGpu:
    """One fake GPU. Every figure may be changed by a test; readings see it at once."""

    index: int
    name: str
    total_bytes: int
    free_bytes: int
    allocated_bytes: int
    reserved_bytes: int
    peak_allocated_bytes: int
    uuid: str
    major: int = 9
    minor: int = 0
    multiprocessors: int = 132
    has_context: bool = True
    # NVML figures
    utilization_gpu: int = 0
    utilization_memory: int = 0
    temperature_c: int = 40
    power_mw: int = 100_000
    power_limit_mw: int = 700_000
    #: NVML's own numbering (dcgm-exporter's "gpu" and "device" labels); None: the CUDA index,
    #: as when CUDA_VISIBLE_DEVICES is unset and the order is PCI bus order.
    nvml_index: int | None = None
    minor_number: int | None = None
    #: (pid, bytes or None) of processes on this GPU; this process is added automatically
    #: with its reserved bytes when it has any.
    other_processes: list[tuple[int, int | None]] = field(default_factory=list)

    @property
    def nvml_uuid(self) -> str:
        return f"GPU-{self.uuid}"


class FakeCuda(list):
    """The fake GPUs, indexable like a list: ``gpus[7].name``."""

    driver_version = "570.124.06"


def fake_cuda(
    monkeypatch: pytest.MonkeyPatch,
    count: int = 8,
    *,
    name: str = "NVIDIA H200",
    total_bytes: int = H200_TOTAL_BYTES,
    nvml: bool = True,
) -> FakeCuda:
    """Make PyTorch report ``count`` CUDA GPUs; returns them for tests to inspect or change.

    GPU ``i`` has ``i`` GiB used by another process, ``i * 256 MiB`` allocated by this one
    (twice that reserved), so each row of a view is tell-apart. ``nvml=True`` installs a fake
    ``pynvml`` that knows the same GPUs (see ``fake_nvml``).
    """
    gpus = FakeCuda(
        FakeGpu(
            index=i,
            name=name,
            total_bytes=total_bytes,
            free_bytes=total_bytes - (i + 1) * GiB - 2 * i * 256 * MiB,
            allocated_bytes=i * 256 * MiB,
            reserved_bytes=2 * i * 256 * MiB,
            peak_allocated_bytes=i * 512 * MiB,
            uuid=str(uuid_lib.uuid5(uuid_lib.NAMESPACE_DNS, f"fake-gpu-{i}.inspector.test")),
            utilization_gpu=10 * i % 100,
            utilization_memory=5 * i % 100,
            temperature_c=35 + i,
            power_mw=100_000 + 10_000 * i,
            other_processes=[(OTHER_PID, i * GiB)] if i else [],
        )
        for i in range(count)
    )
    _patch_torch(monkeypatch, gpus)
    if nvml:
        fake_nvml(monkeypatch, gpus)
    return gpus


@pytest.fixture
def eight_fake_gpus(monkeypatch: pytest.MonkeyPatch) -> FakeCuda:
    return fake_cuda(monkeypatch, count=8)


def _patch_torch(monkeypatch: pytest.MonkeyPatch, gpus: FakeCuda) -> None:
    def gpu(device=None) -> FakeGpu:
        index = _index(device)
        if not 0 <= index < len(gpus):
            raise AssertionError("Invalid device id")  # what torch.cuda raises
        return gpus[index]

    def properties(device=None):
        g = gpu(device)
        return SimpleNamespace(
            name=g.name, major=g.major, minor=g.minor, total_memory=g.total_bytes,
            multi_processor_count=g.multiprocessors, uuid=g.uuid, is_integrated=0,
            gcnArchName="",
        )

    def reset_peak(device=None):
        g = gpu(device)
        g.peak_allocated_bytes = g.allocated_bytes

    monkeypatch.setattr(torch.version, "cuda", "12.8")
    monkeypatch.setattr(torch.version, "hip", None, raising=False)
    cuda_fakes = {
        "is_available": lambda: True,
        "device_count": lambda: len(gpus),
        "current_device": lambda: 0,
        "get_device_properties": properties,
        "get_device_name": lambda device=None: gpu(device).name,
        "get_device_capability": lambda device=None: (gpu(device).major, gpu(device).minor),
        "mem_get_info": lambda device=None: (gpu(device).free_bytes, gpu(device).total_bytes),
        "memory_allocated": lambda device=None: gpu(device).allocated_bytes,
        "memory_reserved": lambda device=None: gpu(device).reserved_bytes,
        "max_memory_allocated": lambda device=None: gpu(device).peak_allocated_bytes,
        "reset_peak_memory_stats": reset_peak,
        "synchronize": lambda device=None: None,
        "empty_cache": lambda: None,
    }
    for attribute, fake in cuda_fakes.items():
        monkeypatch.setattr(torch.cuda, attribute, fake)
    accelerator_fakes = {
        "current_accelerator": lambda check_available=False: torch.device("cuda"),
        "device_count": lambda: len(gpus),
        "is_available": lambda: True,
        "current_device_index": lambda: 0,
        "synchronize": lambda device=None: None,
    }
    accel = getattr(torch, "accelerator", None)
    if accel is not None:
        for attribute, fake in accelerator_fakes.items():
            monkeypatch.setattr(accel, attribute, fake, raising=False)
    monkeypatch.setattr(
        torch._C, "_cuda_hasPrimaryContext", lambda index: gpu(index).has_context, raising=False
    )


def _index(device) -> int:
    if device is None:
        return 0
    if isinstance(device, int):
        return device
    device = torch.device(device)
    return device.index if device.index is not None else 0


# ---------------------------------------------------------------- NVML


def fake_nvml(
    monkeypatch: pytest.MonkeyPatch,
    gpus: FakeCuda,
    *,
    init_error: str | None = None,
    not_supported: tuple[str, ...] = (),
) -> types.ModuleType:
    """Install a fake ``pynvml`` module that knows ``gpus`` (by their UUIDs).

    ``init_error``: name of the NVMLError subclass ``nvmlInit`` raises (e.g.
    ``"NVMLError_LibraryNotFound"``: no driver). ``not_supported``: NVML function names that
    raise ``NVMLError_NotSupported`` (as on MIG slices or some boards).
    """
    module = types.ModuleType("pynvml")

    class NVMLError(Exception):
        pass

    errors = {
        name: type(name, (NVMLError,), {})
        for name in ("NVMLError_NotFound", "NVMLError_NotSupported",
                     "NVMLError_LibraryNotFound", "NVMLError_DriverNotLoaded")
    }
    module.NVMLError = NVMLError
    for error_name, error_class in errors.items():
        setattr(module, error_name, error_class)
    module.NVML_TEMPERATURE_GPU = 0
    by_uuid = {g.nvml_uuid: g for g in gpus}

    def handle(uuid: str) -> FakeGpu:
        if uuid not in by_uuid:
            raise errors["NVMLError_NotFound"]("Not Found")
        return by_uuid[uuid]

    def init():
        if init_error is not None:
            raise errors[init_error]("NVML Shared Library Not Found")

    def processes(g: FakeGpu):
        listed = list(g.other_processes)
        if g.reserved_bytes:
            listed.append((os.getpid(), g.reserved_bytes + 500 * MiB))  # + context
        return [SimpleNamespace(pid=pid, usedGpuMemory=used) for pid, used in listed]

    functions = {
        "nvmlInit": init,
        "nvmlShutdown": lambda: None,
        "nvmlSystemGetDriverVersion": lambda: gpus.driver_version,
        "nvmlDeviceGetHandleByUUID": handle,
        "nvmlDeviceGetUtilizationRates": lambda g: SimpleNamespace(
            gpu=g.utilization_gpu, memory=g.utilization_memory),
        "nvmlDeviceGetTemperature": lambda g, sensor: g.temperature_c,
        "nvmlDeviceGetPowerUsage": lambda g: g.power_mw,
        "nvmlDeviceGetEnforcedPowerLimit": lambda g: g.power_limit_mw,
        "nvmlDeviceGetMemoryInfo": lambda g: SimpleNamespace(
            total=g.total_bytes + 512 * MiB, free=g.free_bytes,
            used=g.total_bytes + 512 * MiB - g.free_bytes),
        "nvmlDeviceGetComputeRunningProcesses": processes,
        "nvmlDeviceGetGraphicsRunningProcesses": lambda g: [],
        "nvmlDeviceGetIndex": lambda g: g.index if g.nvml_index is None else g.nvml_index,
        "nvmlDeviceGetMinorNumber": lambda g: g.index if g.minor_number is None else g.minor_number,
    }
    for function_name, function in functions.items():
        if function_name in not_supported:
            function = _raiser(errors["NVMLError_NotSupported"])
        setattr(module, function_name, function)
    monkeypatch.setitem(sys.modules, "pynvml", module)
    return module


def no_nvml(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``import pynvml`` fail, as where the nvml extra is not installed."""
    monkeypatch.setitem(sys.modules, "pynvml", None)


def _raiser(error_class):
    def raise_it(*args, **kwargs):
        raise error_class("Not Supported")

    return raise_it
