"""Device memory in the Prometheus text exposition format (version 0.0.4).

Gauges in bytes, one sample per device, labelled as dcgm-exporter labels its GPUs so a
Grafana board can join the two: ``device`` (our id: ``cpu``, ``cuda:0``), ``uuid`` (the
GPU's ``GPU-…`` UUID, empty for the CPU), ``host``, plus ``name`` (the model name). A
figure the backend cannot tell is left out rather than written as 0.

Hand-written rather than via prometheus_client: the format is a few lines, and a GPU
server running ``devices --prometheus`` from a cron job should not need another package.
The tests parse the output with prometheus_client's own parser.
"""

from __future__ import annotations

import math
import socket
from collections.abc import Iterable, Sequence

from inspector.core.devices.inventory import DeviceInventory, DeviceSnapshot

PREFIX = "torch_device_inspector"

#: metric suffix -> (DeviceSnapshot attribute, help text)
_GAUGES: tuple[tuple[str, str, str], ...] = (
    ("memory_total_bytes", "total_bytes", "Total memory of the device in bytes."),
    ("memory_free_bytes", "free_bytes", "Free memory of the device in bytes (for the CPU: what this process may still take, within its container's limit and RLIMIT_AS)."),
    ("memory_used_bytes", "used_bytes", "Memory in use on the whole device in bytes, by every process."),
    ("memory_allocated_bytes", "allocated_bytes", "Memory held by this process's tensors in bytes (resident set size for the CPU)."),
    ("memory_reserved_bytes", "reserved_bytes", "Memory this process's allocator has reserved in bytes, cache included."),
    ("memory_peak_allocated_bytes", "peak_allocated_bytes", "Peak memory held by this process's tensors in bytes."),
)


def escape_label_value(value: str) -> str:
    """Backslash, double quote and line feed escaped, as the exposition format requires."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _escape_help(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def _uuid(device: DeviceSnapshot) -> str:
    uuid = str(device.details.get("uuid") or "")
    # torch gives the bare UUID; dcgm-exporter and nvidia-smi write it with a GPU- prefix.
    if uuid and device.type == "cuda" and not uuid.startswith(("GPU-", "MIG-")):
        uuid = f"GPU-{uuid}"
    return uuid


def _labels(device: DeviceSnapshot, host: str) -> str:
    pairs = (("device", device.id), ("uuid", _uuid(device)), ("host", host), ("name", device.name))
    return ",".join(f'{key}="{escape_label_value(str(value))}"' for key, value in pairs)


def _value(number: float) -> str:
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "+Inf" if number > 0 else "-Inf"
    return str(int(number)) if float(number).is_integer() else repr(float(number))


def render_prometheus(inventory: DeviceInventory, host: str | None = None) -> str:
    """The exposition text for every device of ``inventory`` (ends with a line feed)."""
    return render_devices(inventory.devices, host if host is not None else socket.gethostname())


def render_devices(devices: Sequence[DeviceSnapshot], host: str) -> str:
    lines: list[str] = []
    for suffix, attribute, help_text in _GAUGES:
        name = f"{PREFIX}_{suffix}"
        samples = list(_samples(devices, attribute, host))
        if not samples:
            continue
        lines.append(f"# HELP {name} {_escape_help(help_text)}")
        lines.append(f"# TYPE {name} gauge")
        lines.extend(f"{name}{{{labels}}} {value}" for labels, value in samples)
    lines.append(f"# HELP {PREFIX}_device_info Devices this process can use (always 1).")
    lines.append(f"# TYPE {PREFIX}_device_info gauge")
    lines.extend(f"{PREFIX}_device_info{{{_labels(d, host)},type=\"{escape_label_value(d.type)}\"}} 1" for d in devices)
    return "\n".join(lines) + "\n"


def _samples(devices: Iterable[DeviceSnapshot], attribute: str, host: str) -> Iterable[tuple[str, str]]:
    for device in devices:
        value = getattr(device, attribute)
        if value is None:
            continue
        yield _labels(device, host), _value(value)
