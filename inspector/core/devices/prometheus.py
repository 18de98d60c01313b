"""Device memory as Prometheus metrics, written with ``prometheus_client``.

Made for node_exporter's textfile collector: a cron job runs ``devices --prometheus FILE``
each minute and the file is replaced atomically (a temporary file, then a rename), so the
collector never reads half a file. ``prometheus_client`` makes the text (``generate_latest``);
the app's own writer (``core.atomic_write``) writes it, not ``write_to_textfile``: that one
opens a predictable temporary name (``FILE.<pid>.<thread>``) without ``O_EXCL``, in the very
folder the collector shares, so a symlink planted there would have been written through.

The device gauges are facts about the device: total, free and used memory of the whole
device (the CPU's free is the machine's available memory, node_exporter's
``node_memory_MemAvailable_bytes``, so free + used = total), and an info series. What the
exporting process itself may still take on the host (the least of that, its cgroup's room
and ``RLIMIT_AS``: ``memory_limits``) is a series of its own,
``torch_device_inspector_process_memory_room_bytes``: under a cron job's ``ulimit -v`` it is
that job's room, never the device's. Figures of the process's own use (its allocator's
bytes, its RSS) are not exported: the exporter is a short-lived CLI process, and under a
device's name they would read as facts about the device.

Labels. Every device series carries ``torch_device`` (our id: ``cpu``, ``cuda:0``),
``type``, ``hostname`` and ``model_name``. Label names are snake_case, as promtool's
``check metrics`` lint wants (it refuses dcgm-exporter's camelCase ``modelName``). A CUDA GPU
also carries dcgm-exporter's join values under snake_case names: ``uuid`` (``GPU-…``, as
nvidia-smi writes it), and, where NVML (the ``nvml`` extra) says them, ``gpu`` (NVML's index,
which DCGM uses; not the CUDA ordinal, which ``CUDA_VISIBLE_DEVICES`` renumbers) and
``device`` (``nvidia`` + the minor number of ``/dev/nvidiaN``). ``resources/prometheus/
dcgm-join.rules.yml`` records our gauges under dcgm-exporter's label names and unit (MiB), so
a board joins them ``on(UUID)`` or ``on(Hostname, gpu)`` (tested with ``promtool test
rules``). A label with no value is left out, never written empty.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator, Sequence
from pathlib import Path

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from inspector.core.atomic_write import write_atomically, write_reason
from inspector.core.devices.inventory import DeviceInventory, DeviceSnapshot
from inspector.core.errors import InspectorError
from inspector.core.messages import Text
from inspector.core.vocabulary import FailureKind

PREFIX = "torch_device_inspector"

#: metric suffix -> (DeviceSnapshot attribute, help text): figures of the whole device only.
_GAUGES: tuple[tuple[str, str, str], ...] = (
    ("memory_total_bytes", "total_bytes", "Total memory of the device in bytes."),
    ("memory_free_bytes", "free_bytes", "Free memory of the whole device in bytes (for the CPU: the machine's available memory, MemAvailable)."),
    ("memory_used_bytes", "used_bytes", "Memory in use on the whole device in bytes, by every process."),
)


_ROOM_HELP = (
    "What the exporting process may still take on the host in bytes: the least of MemAvailable, its cgroup's "
    "room and RLIMIT_AS (ulimit -v) minus its size. A fact about the exporter's process and its limits, not a device."
)


def device_labels(device: DeviceSnapshot, host: str) -> dict[str, str]:
    """The labels of ``device``'s series: ours, then dcgm-exporter's where they have a value."""
    labels = {"torch_device": device.id, "type": device.type, "hostname": host, "model_name": device.name}
    if device.type == "cuda":
        uuid = str(device.details.get("uuid") or "")
        # torch gives the bare UUID; dcgm-exporter and nvidia-smi write it with a GPU- prefix.
        if uuid and not uuid.startswith(("GPU-", "MIG-")):
            uuid = f"GPU-{uuid}"
        labels["uuid"] = uuid
        if isinstance(device.details.get("nvml_index"), int):
            labels["gpu"] = str(device.details["nvml_index"])
        if isinstance(device.details.get("minor_number"), int):
            labels["device"] = f"nvidia{device.details['minor_number']}"
    return {key: value for key, value in labels.items() if value != ""}


class DeviceCollector(Collector):
    """The gauges of one inventory, read once (a snapshot, as the CLI takes it)."""

    def __init__(self, devices: Sequence[DeviceSnapshot], host: str) -> None:
        self.devices = tuple(devices)
        self.host = host

    def collect(self) -> Iterator[Metric]:
        for suffix, attribute, help_text in _GAUGES:
            family: GaugeMetricFamily | None = None
            for device in self.devices:
                value = _device_free(device) if attribute == "free_bytes" else getattr(device, attribute)
                if value is None:  # a figure the backend cannot tell is left out, not written as 0
                    continue
                labels = device_labels(device, self.host)
                if family is None:
                    family = GaugeMetricFamily(f"{PREFIX}_{suffix}", help_text)
                family.add_sample(family.name, labels, float(value))
            if family is not None:
                yield family
        info = GaugeMetricFamily(f"{PREFIX}_device_info", "Devices this process can use (always 1).")
        for device in self.devices:
            info.add_sample(info.name, device_labels(device, self.host), 1.0)
        yield info
        cpu = next((d for d in self.devices if d.type == "cpu" and d.free_bytes is not None), None)
        if cpu is not None:
            room = GaugeMetricFamily(f"{PREFIX}_process_memory_room_bytes", _ROOM_HELP, labels=["hostname"])
            room.add_metric([self.host], float(cpu.free_bytes or 0))
            yield room


def _device_free(device: DeviceSnapshot) -> int | None:
    """The device's own free memory. The CPU snapshot's ``free_bytes`` is this process's room
    (``ulimit -v`` and its cgroup included: what ``fit`` compares with); the machine's is
    what ``used_bytes`` was taken from (total - MemAvailable)."""
    if device.type != "cpu":
        return device.free_bytes
    if device.total_bytes is None or device.used_bytes is None:
        return None
    return device.total_bytes - device.used_bytes


def registry_for(inventory: DeviceInventory, host: str | None = None) -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(DeviceCollector(inventory.devices, host if host is not None else socket.gethostname()))
    return registry


def render_prometheus(inventory: DeviceInventory, host: str | None = None) -> str:
    """The exposition text (format 0.0.4) for every device of ``inventory``."""
    return generate_latest(registry_for(inventory, host)).decode("utf-8")


def write_prometheus(inventory: DeviceInventory, path: Path, host: str | None = None) -> None:
    """``path`` replaced atomically with the exposition (for the textfile collector); a failure
    (the disk full, the folder gone) is one ``InspectorError`` line naming the file."""
    path = Path(path)
    data = generate_latest(registry_for(inventory, host))
    try:
        write_atomically(path, data)
    except OSError as exc:
        raise InspectorError(Text("write.metrics_failed", path=path, reason=write_reason(path, exc)),
                             detail=str(exc), kind=FailureKind.WRITE) from None  # fmt: skip
