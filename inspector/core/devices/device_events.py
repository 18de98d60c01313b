"""Timing one call on an accelerator with the device's own events (CUDA, XPU).

A host clock around a call on a GPU must synchronise the whole device on both sides, and
that synchronisation (tens of microseconds) lands inside the figure: a tiny model measured
that way reads 1.5x what ``torch.utils.benchmark`` says. Two events recorded on the
model's stream, around the call, time what the device did between them; waiting for the
second one happens after the figure is taken, outside it.

The events go on the current stream of the model's device (not of the current device):
that is where the model's kernels run unless the model picks its own streams.
"""

from __future__ import annotations

from typing import Any

import torch

#: Device types whose backend has timing events (``Event(enable_timing=True)`` with
#: ``record(stream)``, ``synchronize()`` and ``elapsed_time()``) and ``current_stream``.
EVENT_DEVICE_TYPES = ("cuda", "xpu")


class DeviceEvents:
    """A pair of timing events on one device's current stream, reused for every sample."""

    def __init__(self, backend: Any, device: torch.device) -> None:
        self.device = device
        self.kind = f"{device.type} events"
        self._stream = backend.current_stream(device)
        self._start = backend.Event(enable_timing=True)
        self._end = backend.Event(enable_timing=True)

    def start(self) -> None:
        self._start.record(self._stream)

    def stop(self) -> int:
        """Nanoseconds from ``start()`` to now on the device; waits for the device to get here."""
        self._end.record(self._stream)
        self._end.synchronize()
        return round(float(self._start.elapsed_time(self._end)) * 1e6)  # elapsed_time is in ms


def device_events(device: torch.device) -> DeviceEvents | None:
    """Timing events for ``device``, or None where its backend has none that work (the CPU,
    MPS, an XPU build without timing events): the caller then times with the host clock."""
    if device.type not in EVENT_DEVICE_TYPES:
        return None
    backend = getattr(torch, device.type, None)
    if backend is None or not hasattr(backend, "Event") or not hasattr(backend, "current_stream"):
        return None
    try:
        events = DeviceEvents(backend, device)
        # One empty interval proves the backend can time (some builds raise only here).
        events.start()
        events.stop()
    except (RuntimeError, TypeError, AttributeError, NotImplementedError, ValueError):
        return None
    return events
