"""The MemorySampler: device memory at 2–20 Hz, on its own QThread, into the window's timeline."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from inspector.core.devices import DeviceInventory, MemoryReading, OtherProcessesMemory, discover_devices, memory_reading
from inspector.core.measure import MemoryTimeline
from inspector.gui.common.i18n import translate
from inspector.gui.common.sample_rate import DEFAULT_SAMPLE_HZ, clamp_sample_hz

if TYPE_CHECKING:
    from inspector.gui.state.sample_gate import SampleGate

log = logging.getLogger(__name__)


class MemorySampler(QObject):
    """Discovers the devices once, then reads each one's memory at ``hz`` (2–20 Hz).

    Its QTimer is created in ``start`` so it lives on the sampler's own thread, and the
    readings land in the ``MemoryTimeline`` (thread-safe) before they are emitted.
    """

    inventoryReady = Signal(DeviceInventory)
    samples = Signal(object)  # tuple[MemoryReading, ...]

    def __init__(self, timeline: MemoryTimeline, hz: float = DEFAULT_SAMPLE_HZ, *, gate: SampleGate | None = None) -> None:
        super().__init__()
        #: A reading never runs inside a chunk of latency samples (``gui.sample_gate``).
        self._quiet = gate.quiet if gate is not None else contextlib.nullcontext
        self._timeline = timeline
        self._hz = clamp_sample_hz(hz)
        self._device_ids: list[str] = []
        self._timer: QTimer | None = None
        self._broken: set[str] = set()
        self._others = OtherProcessesMemory()  # NVML, at most once a second, CUDA only

    @Slot()
    def start(self) -> None:
        self.rediscover()
        self._timer = QTimer(self)
        self._timer.setInterval(round(1000 / self._hz))
        self._timer.timeout.connect(self.sample_once)
        self._timer.start()
        self.sample_once()

    @Slot()
    def rediscover(self) -> None:
        try:
            inventory = discover_devices()
        except Exception:  # discovery promises not to raise; never let the thread die on it
            log.exception("device discovery failed; listing the CPU only")
            # A note for the Devices panel, in the window's language of the moment.
            inventory = DeviceInventory(
                (), (translate("MemorySampler", "device discovery failed: see the log for details"),)
            )
        self._device_ids = inventory.ids() or ["cpu"]
        self.inventoryReady.emit(inventory)

    @Slot(float)
    def set_rate(self, hz: float) -> None:
        self._hz = clamp_sample_hz(hz)
        if self._timer is not None:
            self._timer.setInterval(round(1000 / self._hz))

    @Slot()
    def stop(self) -> None:
        """Stop sampling and end the sampler's thread (runs on that thread).

        The timer must be stopped on the thread it lives on; stopping or destroying it from
        the GUI thread later would make Qt warn "Timers cannot be stopped from another thread".
        """
        if self._timer is not None:
            self._timer.stop()
        QThread.currentThread().quit()

    @Slot()
    def sample_once(self) -> None:
        with self._quiet():
            readings = self._read()
            self._timeline.add(readings)
            self.samples.emit(readings)

    def _read(self) -> tuple[MemoryReading, ...]:
        readings: list[MemoryReading] = []
        for ident in self._device_ids:
            if ident in self._broken:
                continue
            try:
                readings.append(memory_reading(ident))
            except Exception:  # a device that vanished: log once, keep sampling the rest
                log.exception("cannot read the memory of %s; no longer sampling it", ident)
                self._broken.add(ident)
        return self._others.annotate(readings)

