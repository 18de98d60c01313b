"""The model's own bytes per device: what its parameters, buffers, grads and optimizer state
take on each device, from the placement ledger.

Process RSS and the machine's used memory say little about a model (``import torch`` alone
is ~470 MiB of RSS); these figures are the model itself, so a move shows as a step from one
device to the other. The session records one ``ModelBytes`` after each load and move in its
``MemoryTimeline``; the memory plot draws them first, and the report keeps them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from inspector.core.placement.tensor_rows import KINDS, Placement

#: The device of tensors that hold no memory: never a curve of bytes.
_NO_MEMORY = "meta"


@dataclass(frozen=True)
class ModelBytes:
    """Bytes per device and kind (``KINDS``: parameter, buffer, grad, optimizer_state).

    Memory shared by several tensors (tied weights, views) counts once, on the kind of the
    first tensor lying in it, as in the placement's totals.
    """

    by_device: Mapping[str, Mapping[str, int]]

    def total(self, device: str) -> int:
        return int(sum(self.by_device.get(device, {}).values()))

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {device: dict(kinds) for device, kinds in self.by_device.items()}


def model_bytes(placement: Placement) -> ModelBytes:
    """Sum a placement's tensors per device and kind (meta tensors hold no memory)."""
    sums: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(KINDS, 0))
    for row in placement.tensors:
        if row.shares_with is None and row.device != _NO_MEMORY:
            sums[row.device][row.kind] += row.counted_bytes
    return ModelBytes({device: dict(kinds) for device, kinds in sums.items()})


def model_bytes_from_dict(data: object) -> ModelBytes:
    """A ``ModelBytes`` from its ``to_dict`` (a report's entry): anything that is not a
    count of bytes is left out, so a hand-edited report never breaks the plot."""
    by_device: dict[str, dict[str, int]] = {}
    if isinstance(data, Mapping):
        for device, kinds in data.items():
            if not isinstance(kinds, Mapping):
                continue
            clean = {k: int(v) for k, v in kinds.items()
                     if k in KINDS and isinstance(v, (int, float)) and not isinstance(v, bool)
                     and math.isfinite(v) and v >= 0}  # fmt: skip
            if clean:
                by_device[str(device)] = {k: clean.get(k, 0) for k in KINDS}
    return ModelBytes(by_device)


def step_series(records: list[tuple[float, ModelBytes]], device: str, until: float) -> dict[str, np.ndarray]:
    """One device's model bytes as a staircase: ``t`` and each kind plus ``total``, with a
    vertical step at each record (a move) and the last value held until ``until``.

    A device the model is not on at a record reads 0 there (it left, or has not come yet).
    """
    if not records:
        empty = np.empty(0)
        return {"t": empty, "total": empty, **{k: empty for k in KINDS}}
    times: list[float] = []
    rows: list[list[float]] = []
    previous: list[float] | None = None
    for t, record in records:
        kinds = record.by_device.get(device, {})
        row = [float(kinds.get(k, 0)) for k in KINDS]
        if previous is not None:
            times.append(t)
            rows.append(previous)  # the level before the step, up to the step
        times.append(t)
        rows.append(row)
        previous = row
    last_t = records[-1][0]
    if until > last_t and previous is not None:
        times.append(until)
        rows.append(previous)
    block = np.asarray(rows, dtype=float)
    out: dict[str, Any] = {"t": np.asarray(times, dtype=float)}
    for i, kind in enumerate(KINDS):
        out[kind] = block[:, i]
    out["total"] = block.sum(axis=1)
    return out
