"""Models whose tensors share memory, as factory files (``path.py:make``) and in-process.

``VIEWS``: a 4 MiB parameter and three buffers that are views of its storage (``.view(-1)``,
``.t()``, ``[:512]``): 4 MiB allocated, 14 MiB if each tensor were counted on its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

MIB = 1 << 20

VIEWS = '''
import torch
from torch import nn


class Views(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(1024, 1024))
        self.register_buffer("flat", self.weight.data.view(-1))
        self.register_buffer("transposed", self.weight.data.t())
        self.register_buffer("head", self.weight.data[:512])

    def forward(self, x):
        return x @ self.weight


def make():
    return Views(), torch.randn(2, 1024)
'''


def write_factory(folder: Path, source: str = VIEWS, name: str = "views") -> str:
    """The source as ``folder/name.py``; returns its spec, ``folder/name.py:make``."""
    path = folder / f"{name}.py"
    path.write_text(source)
    return f"{path}:make"


def build(source: str = VIEWS) -> Any:
    """``make()`` of the source, run here: (module, example input)."""
    namespace: dict[str, Any] = {}
    exec(compile(source, "<view_models>", "exec"), namespace)  # noqa: S102 -- our own test source
    return namespace["make"]()
