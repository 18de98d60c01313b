"""The machine and the software versions, said once for every front end.

``version_lines`` are the ``--version`` lines and the About box's; ``collect_environment``
is the report's ``environment`` section; ``driver_lines`` sums up the GPU drivers an
inventory names. Qt is the front end's business: the caller passes its own toolkit line,
so this module (like all of ``inspector.core``) never imports Qt.
"""

from __future__ import annotations

import platform
from typing import Any

import psutil
import torch

import inspector
from inspector.core.devices import inventory as device_inventory
from inspector.core.devices.inventory import DeviceInventory, cpu_model_name
from inspector.core.devices.huge_pages import huge_pages_state


def torch_build() -> list[str]:
    """The accelerator back ends this torch was built for ("CUDA 12.8", "MPS", ...)."""
    build = []
    if torch.version.cuda:
        build.append(f"CUDA {torch.version.cuda}")
    hip = getattr(torch.version, "hip", None)
    if hip:
        build.append(f"ROCm {hip}")
    xpu = getattr(torch.version, "xpu", None)
    if xpu:
        build.append(f"XPU {xpu}")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_built():
        build.append("MPS")
    return build or ["CPU-only build"]


def version_lines(toolkit: str | None = None) -> list[str]:
    """The app, Python and torch versions, one line each, then ``toolkit`` (the Qt line) if given."""
    lines = [
        f"torch-device-inspector {inspector.__version__}",
        f"Python {platform.python_version()} ({platform.python_implementation()}, {platform.system()} {platform.machine()})",
        f"torch {torch.__version__} ({', '.join(torch_build())})",
    ]
    if toolkit is not None:
        lines.append(toolkit)
    return lines


def driver_lines(inventory: DeviceInventory | None) -> list[str]:
    """One line on the GPU drivers in use: their versions, or why there are none."""
    if inventory is None:
        return ["devices: not read yet"]
    drivers = sorted({str(d.details["driver_version"]) for d in inventory.devices if d.details.get("driver_version")})
    gpus = [d for d in inventory.devices if d.type != "cpu"]
    count = f"{len(gpus)} device{'s' if len(gpus) != 1 else ''}"
    if drivers:
        return [f"GPU driver {', '.join(drivers)} ({count})"]
    if gpus:
        return [f"GPU driver: not reported ({count})"]
    return [f"GPU driver: none in use — {note}" for note in inventory.notes[:1]] or ["GPU driver: none in use"]


def os_name() -> str:
    """``platform.platform()``'s words (``Linux-6.1.0-x86_64-with-glibc2.36``, ``macOS-14.5-arm64``)
    without its processor part: reading that runs ``uname -p``, a program found on PATH (a
    planted ``uname`` in a folder on it would run, outside the app's one launcher)."""
    system, release, machine = platform.system(), platform.release(), platform.machine()
    if system == "Darwin" and platform.mac_ver()[0]:  # (a property list read, no program)
        system, release = "macOS", platform.mac_ver()[0]
    parts = [system, release, machine]
    if system == "Linux":
        libc = "".join(platform.libc_ver())  # (read from the interpreter's own file)
        if libc:
            parts += ["with", libc]
    return "-".join(part for part in parts if part)


def collect_environment() -> dict[str, Any]:
    """Python, PyTorch, CUDA/cuDNN/driver where present, the OS and CPU, and the devices
    (the timing report's ``environment`` section)."""
    cudnn = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
    devices = _devices()
    return {
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "hip": getattr(torch.version, "hip", None),
        "cudnn": str(cudnn) if cudnn is not None else None,
        "driver": _driver_version(devices),
        "os": os_name(),
        "machine": platform.machine(),
        "cpu": cpu_model_name(),
        "cpu_logical_cores": psutil.cpu_count(logical=True),
        "cpu_physical_cores": psutil.cpu_count(logical=False),
        "torch_threads": torch.get_num_threads(),
        "torch_interop_threads": torch.get_num_interop_threads(),
        "system_memory_bytes": psutil.virtual_memory().total,
        # Moves and large allocations cost less with them: figures carry the setting.
        "cpu_huge_pages": huge_pages_state(),
        "devices": devices,
    }


def _devices() -> dict[str, Any]:
    """Every device, as ``discover_devices().to_dict()`` gives it."""
    try:
        # Looked up on the module at call time, so a test (or a caller) can stand in for it.
        return device_inventory.discover_devices().to_dict()
    except Exception as exc:  # noqa: BLE001 -- a report without device details is still worth saving
        return {"devices": [], "notes": [f"device discovery failed: {exc}"]}


def _driver_version(devices: dict[str, Any]) -> str | None:
    entries = devices.get("devices", [])
    for entry in entries if isinstance(entries, list) else []:
        for key in ("driver_version", "driver"):
            value = entry.get(key) if isinstance(entry, dict) else None
            if not value and isinstance(entry, dict):
                value = (entry.get("details") or {}).get(key)
            if value:
                return str(value)
    if torch.version.cuda is None or not torch.cuda.is_available():
        return None
    try:
        from inspector.core.devices.nvml import read_nvml

        uuids = [str(torch.cuda.get_device_properties(i).uuid) for i in range(torch.cuda.device_count())]
        for figures in read_nvml(uuids).figures.values():
            if figures.get("driver_version"):
                return str(figures["driver_version"])
    except Exception:  # noqa: BLE001 -- the driver version is a nicety; never fail a report over it
        return None
    return None
