"""The memory plot's y unit: the largest binary unit its highest figure reads in."""

from __future__ import annotations

_BINARY_UNITS = (("B", 1), ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40))


def pick_unit(max_bytes: float) -> tuple[str, int]:
    """The largest binary unit in which ``max_bytes`` is still at least 1 (bytes at the least:
    the example model is 44 bytes)."""
    name, size = _BINARY_UNITS[0]
    for unit, unit_size in _BINARY_UNITS:
        if max_bytes >= unit_size:
            name, size = unit, unit_size
    return name, size
