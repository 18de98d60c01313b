"""Device memory as Prometheus metrics, written with ``prometheus_client``.

Made for node_exporter's textfile collector: a cron job runs ``devices --prometheus FILE``
each minute and the file is replaced atomically (a temporary file, then a rename), so the
collector never reads half a file. ``prometheus_client`` makes the text (``generate_latest``);
the app's own writer (``core.atomic_write``) writes it, not ``write_to_textfile``: that one
opens a predictable temporary name (``FILE.<pid>.<thread>``) without ``O_EXCL``, in the very
folder the collector shares, so a symlink planted there would have been written through.

Only facts about devices are exported: total, free and used memory of the whole device, and
an info series. Figures about the exporting process itself (its allocator's bytes, its
RSS) are not: the exporter is a short-lived CLI process, and under a device's name they
would read as facts about the device (a GPU's always 0 while a training job fills it).

Labels. Every series carries ``torch_device`` (our id: ``cpu``, ``cuda:0``), ``type``,
``Hostname`` and ``modelName``. A CUDA GPU also carries dcgm-exporter's join labels with
dcgm-exporter's values, so a Grafana board can join the two with ``on(UUID)`` (or
``on(Hostname, gpu)``): ``UUID`` (``GPU-…``, as nvidia-smi writes it), and, where NVML
(the ``nvml`` extra) says them, ``gpu`` (NVML's index, which DCGM uses; not the CUDA
ordinal, which ``CUDA_VISIBLE_DEVICES`` renumbers) and ``device`` (``nvidia`` + the minor
number of ``/dev/nvidiaN``). A label with no value is left out, never written empty.
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
    ("memory_free_bytes", "free_bytes", "Free memory of the device in bytes (for the CPU: what a new process may still take, within the exporter's container limit and RLIMIT_AS)."),
    ("memory_used_bytes", "used_bytes", "Memory in use on the whole device in bytes, by every process."),
)


def device_labels(device: DeviceSnapshot, host: str) -> dict[str, str]:
    """The labels of ``device``'s series: ours, then dcgm-exporter's where they have a value."""
    labels = {"torch_device": device.id, "type": device.type, "Hostname": host, "modelName": device.name}
    if device.type == "cuda":
        uuid = str(device.details.get("uuid") or "")
        # torch gives the bare UUID; dcgm-exporter and nvidia-smi write it with a GPU- prefix.
        if uuid and not uuid.startswith(("GPU-", "MIG-")):
            uuid = f"GPU-{uuid}"
        labels["UUID"] = uuid
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
                value = getattr(device, attribute)
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
