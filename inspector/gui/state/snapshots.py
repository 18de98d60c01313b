"""What the window last heard from its workers: the model's state, the device inventory and
the latest memory readings.

Frozen values, each replaced whole when a new one arrives (``results`` writes the model's,
``sampler_results`` the devices'); the window's parts read them and never hold the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inspector.core.session import ModelState


@dataclass
class Snapshots:
    model: ModelState | None = None
    inventory: Any = None  # core.devices.discovery.DeviceInventory, once the sampler found it
    readings: tuple[Any, ...] = ()
