"""Device discovery: the CPU, CUDA GPUs (faked on this machine), MPS, XPU and NVML figures."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
import torch

from inspector.core.devices.discovery import (
    available_device_ids,
    is_out_of_memory,
    memory_reading,
    resolve_device,
)
from inspector.core.devices.inventory import discover_devices
from inspector.core.errors import InputError
from tests.fake_cuda import GiB, MiB, OTHER_PID, fake_cuda, fake_nvml, no_nvml

NVML_KEYS = ("utilization_gpu_percent", "temperature_c", "power_draw_w", "other_processes_bytes")


def _pretend_built_for(monkeypatch, device_type: str | None):
    device = None if device_type is None else torch.device(device_type)
    monkeypatch.setattr(
        torch.accelerator, "current_accelerator", lambda check_available=False: device
    )


def _cpu_only_build(monkeypatch):
    """Make whatever torch is installed look like a CPU-only build."""
    monkeypatch.setattr(torch.version, "cuda", None)
    monkeypatch.setattr(torch.version, "hip", None, raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.backends.mps, "is_built", lambda: False)
    monkeypatch.setattr(torch.xpu, "is_available", lambda: False)
    _pretend_built_for(monkeypatch, None)


# ---------------------------------------------------------------- CPU


def test_cpu_snapshot_has_plausible_figures():
    inventory = discover_devices(with_nvml=False)
    cpu = inventory.devices[0]
    assert (cpu.id, cpu.type, cpu.index) == ("cpu", "cpu", None)
    assert cpu.name.strip()
    assert cpu.total_bytes > cpu.free_bytes > 0
    assert cpu.used_bytes == cpu.total_bytes - cpu.free_bytes
    assert cpu.allocated_bytes > 0  # this process's RSS
    assert cpu.peak_allocated_bytes >= cpu.allocated_bytes
    assert cpu.reserved_bytes is None
    assert cpu.details["cores"] >= 1


def test_cpu_only_build_lists_the_cpu_and_names_the_build(monkeypatch):
    _cpu_only_build(monkeypatch)
    inventory = discover_devices()
    assert inventory.ids() == ["cpu"]
    assert available_device_ids() == ["cpu"]
    no_cuda = f"this PyTorch build has no CUDA support (torch {torch.__version__})"
    assert inventory.notes == (f"no accelerator is listed: {no_cuda}",)


def test_cuda_build_without_a_visible_gpu_says_why(monkeypatch):
    _cpu_only_build(monkeypatch)
    monkeypatch.setattr(torch.version, "cuda", "12.8")
    _pretend_built_for(monkeypatch, "cuda")
    inventory = discover_devices()
    assert inventory.ids() == ["cpu"]
    assert "CUDA support but sees no CUDA device" in inventory.notes[0]
    with pytest.raises(InputError, match="cuda is not available: PyTorch has CUDA support"):
        resolve_device("cuda")


# ---------------------------------------------------------------- many GPUs (faked)


def test_eight_gpus_are_listed_after_the_cpu_with_their_own_figures(monkeypatch):
    gpus = fake_cuda(monkeypatch, count=8)
    inventory = discover_devices()
    assert inventory.ids() == ["cpu"] + [f"cuda:{i}" for i in range(8)]
    for gpu, snap in zip(gpus, inventory.devices[1:]):
        assert (snap.type, snap.index, snap.name) == ("cuda", gpu.index, "NVIDIA H200")
        assert snap.total_bytes == gpu.total_bytes
        assert snap.free_bytes == gpu.free_bytes
        assert snap.used_bytes == gpu.total_bytes - gpu.free_bytes
        assert snap.allocated_bytes == gpu.allocated_bytes
        assert snap.reserved_bytes == gpu.reserved_bytes
        assert snap.peak_allocated_bytes == gpu.peak_allocated_bytes
        assert snap.details["compute_capability"] == "9.0"
        assert snap.details["multiprocessors"] == 132
    assert inventory.notes == ()


def test_readings_follow_the_devices_as_they_change(monkeypatch):
    gpus = fake_cuda(monkeypatch, count=2)
    gpus[1].allocated_bytes = 7 * GiB
    gpus[1].name = "NVIDIA A100-SXM4-80GB"
    snap = discover_devices().get("cuda:1")
    assert (snap.name, snap.allocated_bytes) == ("NVIDIA A100-SXM4-80GB", 7 * GiB)
    assert memory_reading("cuda:1").allocated == 7 * GiB


def test_resolve_device_accepts_the_last_gpu_and_refuses_one_past_it(monkeypatch):
    fake_cuda(monkeypatch, count=8)
    assert resolve_device("cuda:7") == torch.device("cuda", 7)
    assert resolve_device("cuda") == torch.device("cuda", 0)
    expected = r"cuda:8 does not exist: this machine has 8 CUDA devices \(cuda:0, .*cuda:7\)"
    with pytest.raises(InputError, match=expected):
        resolve_device("cuda:8")
    assert available_device_ids() == ["cpu"] + [f"cuda:{i}" for i in range(8)]


def test_inventory_get_understands_short_ids_and_misses(monkeypatch):
    fake_cuda(monkeypatch, count=2)
    inventory = discover_devices()
    assert inventory.get("cuda").id == "cuda:0"
    assert inventory.get("cpu").type == "cpu"
    assert inventory.get("cuda:5") is None
    assert inventory.get("not a device") is None


def test_an_unreadable_gpu_is_still_listed_and_explained(monkeypatch):
    fake_cuda(monkeypatch, count=3)
    real_properties = torch.cuda.get_device_properties

    def broken_on_1(device=None):
        if device == 1:
            raise RuntimeError("CUDA error: uncorrectable ECC error encountered\nmore text")
        return real_properties(device)

    monkeypatch.setattr(torch.cuda, "get_device_properties", broken_on_1)
    inventory = discover_devices()
    assert inventory.ids() == ["cpu", "cuda:0", "cuda:1", "cuda:2"]
    assert inventory.get("cuda:1").name == "CUDA device 1"
    assert inventory.get("cuda:2").name == "NVIDIA H200"
    expected_note = "cuda:1 could not be read: CUDA error: uncorrectable ECC error encountered"
    assert expected_note in inventory.notes


def test_to_dict_is_json_with_the_cli_fields(monkeypatch):
    fake_cuda(monkeypatch, count=8)
    data = json.loads(json.dumps(discover_devices().to_dict()))
    assert [d["id"] for d in data["devices"]] == ["cpu"] + [f"cuda:{i}" for i in range(8)]
    for entry in data["devices"]:
        for key in ("id", "type", "name", "total_bytes", "free_bytes", "details"):
            assert key in entry
    assert data["devices"][8]["details"]["temperature_c"] == 42
    assert data["notes"] == []


# ---------------------------------------------------------------- NVML


def test_nvml_figures_appear_in_the_details(monkeypatch):
    fake_cuda(monkeypatch, count=8)
    details = discover_devices().get("cuda:3").details
    assert details["utilization_gpu_percent"] == 30
    assert details["utilization_memory_percent"] == 15
    assert details["temperature_c"] == 38
    assert details["power_draw_w"] == pytest.approx(130.0)
    assert details["power_limit_w"] == pytest.approx(700.0)
    # Only the other process counts: this one (with reserved memory there) is left out.
    assert details["other_processes_bytes"] == 3 * GiB
    assert details["other_processes_count"] == 1
    assert details["this_process_nvml_bytes"] > 0
    assert details["driver_version"] == "570.124.06"


def test_nvml_missing_module_changes_nothing_but_the_details(monkeypatch):
    fake_cuda(monkeypatch, count=2, nvml=False)
    no_nvml(monkeypatch)
    inventory = discover_devices()
    snap = inventory.get("cuda:1")
    assert snap.free_bytes is not None
    assert not any(key in snap.details for key in NVML_KEYS)
    assert any("nvml extra" in note for note in inventory.notes)


def test_nvml_that_cannot_start_changes_nothing_but_the_details(monkeypatch):
    gpus = fake_cuda(monkeypatch, count=2, nvml=False)
    fake_nvml(monkeypatch, gpus, init_error="NVMLError_LibraryNotFound")
    inventory = discover_devices()
    assert inventory.get("cuda:0").free_bytes == gpus[0].free_bytes
    assert not any(key in inventory.get("cuda:0").details for key in NVML_KEYS)
    assert any("NVML could not start (NVML Shared Library Not Found)" in n for n in inventory.notes)


def test_figures_a_gpu_does_not_support_are_left_out(monkeypatch):
    gpus = fake_cuda(monkeypatch, count=1, nvml=False)
    unsupported = ("nvmlDeviceGetPowerUsage", "nvmlDeviceGetTemperature")
    fake_nvml(monkeypatch, gpus, not_supported=unsupported)
    details = discover_devices().get("cuda:0").details
    assert "power_draw_w" not in details and "temperature_c" not in details
    assert details["utilization_gpu_percent"] == 0
    assert details["other_processes_count"] == 0


def test_other_processes_whose_memory_nvml_cannot_tell_are_counted_not_summed(monkeypatch):
    gpus = fake_cuda(monkeypatch, count=1)
    gpus[0].other_processes = [(OTHER_PID, None)]
    details = discover_devices().get("cuda:0").details
    assert details["other_processes_count"] == 1
    assert "other_processes_bytes" not in details


def test_a_gpu_this_process_has_not_touched_is_read_through_nvml(monkeypatch):
    # mem_get_info would create a CUDA context (hundreds of MiB) on that GPU; NVML does not.
    gpus = fake_cuda(monkeypatch, count=3)
    gpus[2].has_context = False
    real_mem_get_info = torch.cuda.mem_get_info

    def refuse_untouched(device=None):
        assert device != 2, "mem_get_info would create a CUDA context on cuda:2"
        return real_mem_get_info(device)

    monkeypatch.setattr(torch.cuda, "mem_get_info", refuse_untouched)
    inventory = discover_devices()
    assert inventory.get("cuda:2").details["memory_source"] == "nvml"
    assert inventory.get("cuda:2").free_bytes == gpus[2].free_bytes
    assert inventory.get("cuda:0").details["memory_source"] == "cuda"


def test_without_nvml_requested_none_is_read(monkeypatch):
    fake_cuda(monkeypatch, count=2)
    inventory = discover_devices(with_nvml=False)
    assert not any(key in inventory.get("cuda:1").details for key in NVML_KEYS)
    assert inventory.notes == ()


# ---------------------------------------------------------------- MPS and XPU (faked)


def test_mps_snapshot_reports_the_recommended_maximum(monkeypatch):
    _cpu_only_build(monkeypatch)
    monkeypatch.setattr(torch.backends.mps, "is_built", lambda: True)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: True)
    _pretend_built_for(monkeypatch, "mps")
    monkeypatch.setattr(torch.mps, "current_allocated_memory", lambda: 1 * GiB)
    monkeypatch.setattr(torch.mps, "driver_allocated_memory", lambda: 2 * GiB)
    monkeypatch.setattr(torch.mps, "recommended_max_memory", lambda: 16 * GiB)
    inventory = discover_devices()
    assert inventory.ids() == ["cpu", "mps"]
    mps = inventory.get("mps")
    assert (mps.total_bytes, mps.free_bytes, mps.allocated_bytes) == (16 * GiB, 14 * GiB, 1 * GiB)
    assert mps.details["recommended_max_bytes"] == 16 * GiB
    assert available_device_ids() == ["cpu", "mps"]


def test_xpu_snapshots_use_the_xpu_api(monkeypatch):
    _cpu_only_build(monkeypatch)
    _pretend_built_for(monkeypatch, "xpu")
    monkeypatch.setattr(torch.accelerator, "device_count", lambda: 2)
    monkeypatch.setattr(torch.xpu, "is_available", lambda: True)
    properties = SimpleNamespace(
        name="Intel(R) Data Center GPU Max 1550", total_memory=64 * GiB,
        driver_version="1.3.30049", max_compute_units=448,
    )
    monkeypatch.setattr(torch.xpu, "get_device_properties", lambda device=None: properties)
    monkeypatch.setattr(torch.xpu, "mem_get_info", lambda device=None: (60 * GiB, 64 * GiB))
    monkeypatch.setattr(torch.xpu, "memory_allocated", lambda device=None: 512 * MiB)
    monkeypatch.setattr(torch.xpu, "memory_reserved", lambda device=None: GiB)
    monkeypatch.setattr(torch.xpu, "max_memory_allocated", lambda device=None: GiB)
    inventory = discover_devices()
    assert inventory.ids() == ["cpu", "xpu:0", "xpu:1"]
    xpu = inventory.get("xpu:1")
    assert (xpu.name, xpu.free_bytes, xpu.used_bytes) == (properties.name, 60 * GiB, 4 * GiB)
    assert xpu.details["max_compute_units"] == 448


# ---------------------------------------------------------------- a real GPU


@pytest.mark.cuda
def test_real_cuda_snapshot_agrees_with_torch():
    keep = torch.empty(64 * MiB, dtype=torch.uint8, device="cuda:0")  # noqa: F841 (held)
    snap = discover_devices().get("cuda:0")
    free, total = torch.cuda.mem_get_info(0)
    assert snap.name == torch.cuda.get_device_name(0)
    assert snap.total_bytes == torch.cuda.get_device_properties(0).total_memory
    assert abs(snap.free_bytes - free) <= 64 * MiB
    assert abs(snap.total_bytes - total) <= 64 * MiB
    assert snap.allocated_bytes == torch.cuda.memory_allocated(0) >= 64 * MiB
    assert snap.reserved_bytes == torch.cuda.memory_reserved(0)
    assert snap.peak_allocated_bytes == torch.cuda.max_memory_allocated(0)
    major, minor = torch.cuda.get_device_capability(0)
    assert snap.details["compute_capability"] == f"{major}.{minor}"
    json.dumps(discover_devices().to_dict())


@pytest.mark.cuda
def test_real_nvml_figures_when_the_extra_is_installed():
    pynvml = pytest.importorskip("pynvml")
    try:
        pynvml.nvmlInit()
        pynvml.nvmlShutdown()
    except pynvml.NVMLError as exc:
        pytest.skip(f"NVML cannot start here: {exc}")
    torch.empty(1, device="cuda:0")
    inventory = discover_devices()
    details = inventory.get("cuda:0").details
    assert details["nvml_total_bytes"] >= inventory.get("cuda:0").total_bytes, inventory.notes
    assert details["driver_version"]


def test_memory_reading_of_an_untouched_gpu_creates_no_context(monkeypatch):
    from inspector.core.devices import discovery as devices

    gpus = fake_cuda(monkeypatch, count=2)
    gpus[1].has_context = False
    calls = []
    real = torch.cuda.mem_get_info
    monkeypatch.setattr(torch.cuda, "mem_get_info", lambda d=None: calls.append(d) or real(d))
    untouched = devices.memory_reading("cuda:1")
    assert calls == []  # mem_get_info would have created a context on cuda:1
    assert (untouched.allocated, untouched.reserved, untouched.used) == (0, 0, None)
    assert untouched.total == gpus[1].total_bytes
    used = devices.memory_reading("cuda:0")
    assert calls and used.used == gpus[0].total_bytes - gpus[0].free_bytes


# ---------------------------------------------------------------- out of memory


_CPU_ALLOCATOR_FAILED = (
    "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
    "you tried to allocate 1125899906842624 bytes. Error code 12 (Cannot allocate memory)"
)


@pytest.mark.parametrize(
    "exc",
    [
        torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB"),
        MemoryError(),
        RuntimeError(_CPU_ALLOCATOR_FAILED),
        RuntimeError("MPS backend out of memory (MPS allocated: 17.00 GB, other allocations: 1.00 GB)"),
        RuntimeError("XPU out of memory. Tried to allocate 1.00 GiB"),
        RuntimeError("CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported"),
        RuntimeError("CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`"),
    ],
    ids=["torch-oom", "python", "cpu-allocator", "mps", "xpu-old", "cuda-driver", "cublas"],
)
def test_out_of_memory_is_recognised_by_type_or_pytorchs_own_wording(exc):
    assert is_out_of_memory(exc)


@pytest.mark.parametrize(
    "exc",
    [
        ValueError("sequence too long: the KV cache would run out of memory"),
        RuntimeError("mat1 and mat2 shapes cannot be multiplied (64x4 and 3x2)"),
        RuntimeError("my layer: inputs this large run out of memory, use chunks"),
    ],
    ids=["value-error", "shape", "mentions-it"],
)
def test_other_errors_are_not_out_of_memory_even_when_they_mention_it(exc):
    assert not is_out_of_memory(exc)
