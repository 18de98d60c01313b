"""Devices and the machine: which devices exist, how full they are, and what else runs there.

Owns: ``discovery`` (which devices exist and their names, memory readings, synchronise and
empty-cache per backend: cheap, called often), ``inventory`` (every device's snapshot in one go),
``nvml`` (the optional NVIDIA management library), ``other_processes`` (what other processes
hold on a GPU), ``device_events`` (per-sample CUDA/XPU events), ``environment`` (the report's
environment section), ``huge_pages`` (the CPU allocator's huge-page setting), ``prometheus``
(the ``devices --prometheus`` exposition), ``memory_limits`` (a container's and ``ulimit``'s
room) and ``host_files`` (where every reader of Linux's /proc and /sys opens its file).

May import: ``inspector.core.errors``, ``vocabulary``, ``units``, ``gc_pause``, ``atomic_write``, torch and psutil.
Never a model: nothing here knows what is loaded.

Face (``__all__``): the names the window and the CLI use, each imported from its module
when first read (``inspector.core.lazy_face``), so importing the package imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.core.lazy_face import lazy_names

if TYPE_CHECKING:
    from inspector.core.devices.discovery import (
        MemoryReading,
        available_device_ids,
        device_id,
        memory_reading,
        named_device,
    )
    from inspector.core.devices.inventory import DeviceInventory, DeviceSnapshot, discover_devices, free_memory_text
    from inspector.core.devices.other_processes import OtherProcessesMemory
    from inspector.core.devices.environment import driver_lines, version_lines
    from inspector.core.devices.prometheus import render_prometheus, write_prometheus
    from inspector.core.devices.huge_pages import prefer_huge_pages

__all__ = [
    "DeviceInventory",
    "DeviceSnapshot",
    "MemoryReading",
    "OtherProcessesMemory",
    "available_device_ids",
    "device_id",
    "discover_devices",
    "driver_lines",
    "free_memory_text",
    "memory_reading",
    "named_device",
    "prefer_huge_pages",
    "render_prometheus",
    "version_lines",
    "write_prometheus",
]

#: name -> the module that defines it ("module:name" where the face renames it).
_HOMES = {
    "DeviceInventory": "inventory",
    "DeviceSnapshot": "inventory",
    "MemoryReading": "discovery",
    "OtherProcessesMemory": "other_processes",
    "available_device_ids": "discovery",
    "device_id": "discovery",
    "discover_devices": "inventory",
    "driver_lines": "environment",
    "free_memory_text": "inventory",
    "memory_reading": "discovery",
    "named_device": "discovery",
    "prefer_huge_pages": "huge_pages",
    "render_prometheus": "prometheus",
    "version_lines": "environment",
    "write_prometheus": "prometheus",
}
__getattr__, __dir__ = lazy_names(globals(), _HOMES)
