"""Model specs: the example ``Net``, factories, and files of every kind PyTorch writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn


class Net(nn.Module):
    """The tutorial's network, exactly: Linear(3, 2) -> Linear(2, 1)."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(3, 2)
        self.fc2 = nn.Linear(2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.fc1(x))


@dataclass
class LoadedModel:
    """A model and what travels with it. Mutable on purpose: the worker that owns it moves it.

    Only one thread (the CLI's main thread, or the GUI's ModelWorker) ever touches it.
    """

    spec: str
    module: nn.Module
    optimizer: torch.optim.Optimizer | None = None
    #: A tensor, or a tuple of positional tensors, the model's forward accepts; None if unknown.
    example_input: Any = None
    #: How it was loaded: "example", "factory", "torchscript", "export", "state_dict",
    #: "safetensors", "pickle".
    source: str = "factory"
    notes: list[str] = field(default_factory=list)

    @property
    def class_name(self) -> str:
        return type(self.module).__name__


def example_model() -> LoadedModel:
    """The tutorial's Net with an SGD(lr=0.01) optimizer and a random (64, 3) input."""
    net = Net()
    return LoadedModel(
        spec="example",
        module=net,
        optimizer=torch.optim.SGD(net.parameters(), lr=0.01),
        example_input=torch.randn(64, 3),
        source="example",
    )
