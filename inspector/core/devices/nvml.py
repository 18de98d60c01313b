"""NVML figures for NVIDIA GPUs: utilisation, temperature, power, and other processes' memory.

Optional: needs the ``nvml`` extra (package nvidia-ml-py, module ``pynvml``) and an NVIDIA
driver. Without either, ``read_nvml`` returns no figures and a note saying why; it never raises.

Why not ``torch.cuda.utilization()`` and friends (which also wrap pynvml)? They map a CUDA
index to an NVML index by position in ``CUDA_VISIBLE_DEVICES`` (ignoring
``CUDA_DEVICE_ORDER``), start NVML once per figure, and offer no per-process memory. Here a
GPU is found by its UUID, which names the same device whatever the ordering or masking, and
also finds MIG instances; NVML is started once per reading.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from inspector.core.messages import Text

INSTALL_HINT = "pip install 'torch-device-inspector[nvml]'"
_MISSING_MODULE_NOTE = Text("device.nvml_missing", hint=INSTALL_HINT)


@dataclass(frozen=True)
class NvmlReading:
    """Figures per GPU, keyed by the bare CUDA UUID (``str(props.uuid)``), plus notes."""

    figures: dict[str, dict[str, Any]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


def read_nvml(uuids: Sequence[str]) -> NvmlReading:
    """Read NVML figures for the GPUs with these UUIDs (as torch reports them)."""
    try:
        import pynvml  # imported here: the extra is optional, and tests swap the module
    except ImportError:
        return NvmlReading(notes=(_MISSING_MODULE_NOTE,))
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as exc:
        return NvmlReading(notes=(Text("device.nvml_not_started", error=exc),))
    try:
        return _read_started(pynvml, uuids)
    finally:
        try:
            pynvml.nvmlShutdown()
        except pynvml.NVMLError:
            pass


def _read_started(pynvml: Any, uuids: Sequence[str]) -> NvmlReading:
    driver = _maybe(pynvml, lambda: _text(pynvml.nvmlSystemGetDriverVersion()))
    figures: dict[str, dict[str, Any]] = {}
    unmatched: list[str] = []
    for uuid in uuids:
        handle = _handle_for(pynvml, uuid)
        if handle is None:
            unmatched.append(uuid)
            continue
        found = _device_figures(pynvml, handle)
        if driver is not None:
            found["driver_version"] = driver
        figures[uuid] = found
    notes: tuple[str, ...] = ()
    if unmatched:
        notes = (Text("device.nvml_unknown_gpus", uuids=", ".join(unmatched)),)
    return NvmlReading(figures, notes)


def _handle_for(pynvml: Any, uuid: str) -> Any | None:
    # torch prints the UUID bare; NVML wants "GPU-..." for a whole GPU, "MIG-..." for a MIG slice.
    candidates = [uuid] if uuid.startswith(("GPU-", "MIG-")) else [f"GPU-{uuid}", f"MIG-{uuid}"]
    for candidate in candidates:
        handle = _maybe(pynvml, lambda: pynvml.nvmlDeviceGetHandleByUUID(candidate))
        if handle is not None:
            return handle
    return None


def _device_figures(pynvml: Any, handle: Any) -> dict[str, Any]:
    """Every figure this GPU offers; ones it lacks (MIG slices, some boards) are left out."""
    found: dict[str, Any] = {}
    rates = _maybe(pynvml, lambda: pynvml.nvmlDeviceGetUtilizationRates(handle))
    if rates is not None:
        found["utilization_gpu_percent"] = int(rates.gpu)
        found["utilization_memory_percent"] = int(rates.memory)
    temperature = _maybe(
        pynvml, lambda: pynvml.nvmlDeviceGetTemperature(handle, pynvml.NVML_TEMPERATURE_GPU)
    )
    if temperature is not None:
        found["temperature_c"] = int(temperature)
    power = _maybe(pynvml, lambda: pynvml.nvmlDeviceGetPowerUsage(handle))
    if power is not None:
        found["power_draw_w"] = power / 1000  # NVML reports milliwatts
    limit = _maybe(pynvml, lambda: pynvml.nvmlDeviceGetEnforcedPowerLimit(handle))
    if limit is not None:
        found["power_limit_w"] = limit / 1000
    memory = _maybe(pynvml, lambda: pynvml.nvmlDeviceGetMemoryInfo(handle))
    if memory is not None:
        found["nvml_total_bytes"] = int(memory.total)
        found["nvml_free_bytes"] = int(memory.free)
        found["nvml_used_bytes"] = int(memory.used)
    # Where NVML (so DCGM and dcgm-exporter) numbers this GPU: its index ("gpu" label) and the
    # minor number of its /dev/nvidiaN ("device" label). Neither is the CUDA ordinal, which
    # CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER renumber.
    index = _maybe(pynvml, lambda: pynvml.nvmlDeviceGetIndex(handle))
    if index is not None:
        found["nvml_index"] = int(index)
    minor = _maybe(pynvml, lambda: pynvml.nvmlDeviceGetMinorNumber(handle))
    if minor is not None:
        found["minor_number"] = int(minor)
    found.update(_process_figures(pynvml, handle))
    return found


def _process_figures(pynvml: Any, handle: Any) -> dict[str, Any]:
    """Memory of the processes on this GPU, ours apart from the others.

    In a container NVML reports host PIDs, so our own PID may not match and this process then
    counts among the "other" ones.
    """
    used_by_pid: dict[int, int | None] = {}
    supported = False
    for query in (pynvml.nvmlDeviceGetComputeRunningProcesses,
                  pynvml.nvmlDeviceGetGraphicsRunningProcesses):
        processes = _maybe(pynvml, lambda: query(handle))
        if processes is None:
            continue
        supported = True
        for process in processes:
            # usedGpuMemory is None where the driver cannot tell (e.g. Windows WDDM); a
            # process using both compute and graphics appears in both lists.
            previous = used_by_pid.get(process.pid)
            used = process.usedGpuMemory
            used_by_pid[process.pid] = used if previous is None else max(previous, used or 0)
    if not supported:
        return {}
    own_pid = os.getpid()
    others = [used for pid, used in used_by_pid.items() if pid != own_pid]
    figures: dict[str, Any] = {"other_processes_count": len(others)}
    known = [used for used in others if used is not None]
    if known or not others:
        figures["other_processes_bytes"] = int(sum(known))
    own = used_by_pid.get(own_pid)
    if own is not None:
        figures["this_process_nvml_bytes"] = int(own)
    return figures


def _maybe(pynvml: Any, read: Callable[[], Any]) -> Any | None:
    """``read()``, or None when NVML says no (not supported, not found, GPU lost...)."""
    try:
        return read()
    except pynvml.NVMLError:
        return None


def _text(value: str | bytes) -> str:
    # Older nvidia-ml-py releases return bytes, newer ones str.
    return value.decode() if isinstance(value, bytes) else value
