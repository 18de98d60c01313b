"""Core's texts about devices: why one cannot be used, what the device list and NVML report."""

from __future__ import annotations

#: Why a device cannot be used (``devices.discovery``).
DEVICES: dict[str, str] = {
    # ----- devices (devices.discovery: why a device cannot be used)
    "device.no_cuda_build": "this PyTorch build has no CUDA support ({build})",
    "device.no_cuda_device": (
        "PyTorch has CUDA support but sees no CUDA device (check the NVIDIA driver and CUDA_VISIBLE_DEVICES)"
    ),
    "device.no_mps_build": "this PyTorch build has no MPS (Apple GPU) support ({build})",
    "device.mps_unavailable": "MPS is built in but not available (needs macOS 12.3+ on Apple silicon)",
    "device.no_xpu": "no Intel XPU is available to this PyTorch build ({build})",
    "device.unknown_type": "unknown device type {type} (expected one of {choices})",
    "device.not_available": "{device} is not available: {reason}",
    "device.no_such_index": "{device} does not exist: this machine has {count} {type} devices ({present})",
    "device.no_such_index_one": "{device} does not exist: this machine has 1 {type} device ({present})",
    "device.one_of_its_kind": "{device} is not a device: PyTorch's {type} is one device, {type} (index 0 at most)",
}

#: The device list's and NVML's notes (``devices.inventory``, ``devices.nvml``).
INVENTORY: dict[str, str] = {
    # ----- the device list and NVML (devices.inventory, nvml: the Devices panel's notes)
    "device.no_accelerator_listed": "no accelerator is listed: {reason}",
    "device.build_not_inspected": "this PyTorch build targets {backend} devices, which this app does not inspect",
    "device.none_visible": "no {backend} device is visible",
    "device.unreadable": "{device} could not be read: {error}",
    "device.nvml_missing": (
        "GPU utilisation, temperature, power and other processes' memory need the nvml extra ({hint})"
    ),
    "device.nvml_not_started": "NVML figures are missing: NVML could not start ({error})",
    "device.nvml_unknown_gpus": "NVML does not know the GPU(s) with UUID {uuids}; their NVML figures are missing",
    # ----- what bounds the host memory this process may still take (devices.memory_limits)
    "device.memory_bound_host": "the machine's available memory",
    "device.memory_bound_cgroup": "the container's memory limit (cgroup v{version}: {limit}, {used} in use)",
    "device.memory_bound_rlimit": "the address-space limit (RLIMIT_AS {limit}, {used} of address space in use)",
    "device.free_line": "free for this process on {device}: {free}, set by {bound}",
    # ----- whether large CPU tensors get huge pages (devices.huge_pages: every report's environment)
    "device.huge_pages_unavailable": "huge pages: not available on this system",
    "device.huge_pages_kernel_never": "huge pages: off in the kernel (transparent_hugepage=never)",
    "device.huge_pages_off": "huge pages: off ({why}; the kernel gives them only when asked)",
    "device.huge_pages_not_set": "{variable} is not set",
    "device.huge_pages_neither": "{variable} is neither 0 nor 1",
    "device.huge_pages_on": "huge pages: on for CPU tensors of 2 MiB or more (kernel mode {mode})",
}
