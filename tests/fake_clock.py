"""A host clock for timing tests that never looks at real time: every read costs a fixed
number of nanoseconds, and a call of the model it drives costs another."""

from __future__ import annotations

import torch
from torch import nn


class FakeClock:
    """``perf_counter_ns`` stand-in: each read returns the time, then costs ``read_ns``."""

    def __init__(self, read_ns: int):
        self.now = 1_000_000
        self.read_ns = read_ns

    def __call__(self) -> int:
        now = self.now
        self.now += self.read_ns
        return now


class TakesTime(nn.Module):
    """A tiny model whose every forward call advances ``clock`` by ``call_ns``."""

    def __init__(self, clock: FakeClock, call_ns: int):
        super().__init__()
        self.linear = nn.Linear(3, 1)
        self.clock = clock
        self.call_ns = call_ns

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.clock.now += self.call_ns
        return self.linear(x)
