"""How often the memory sampler reads the devices: its bounds and default (Qt- and torch-free,
so the settings and the Preferences dialog need neither the sampler nor torch)."""

from __future__ import annotations

DEFAULT_SAMPLE_HZ = 10
MIN_SAMPLE_HZ, MAX_SAMPLE_HZ = 2, 20


def clamp_sample_hz(hz: float) -> float:
    """``hz`` within the sampler's bounds; anything unreadable gives the default."""
    try:
        hz = float(hz)
    except (TypeError, ValueError):
        return float(DEFAULT_SAMPLE_HZ)
    return float(min(MAX_SAMPLE_HZ, max(MIN_SAMPLE_HZ, hz)))
