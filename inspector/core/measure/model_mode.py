"""The model's train/eval mode around a measurement, put back as it was afterwards.

A forward is timed in eval mode with every submodule's own flag restored afterwards; an
exported program has its mode baked into its graph (its buffers are put back instead).
"""

from __future__ import annotations

import contextlib
from typing import Iterator

import torch
from torch import nn

from inspector.core.files.models import LoadedModel
from inspector.core.messages import Text

def set_mode(loaded: LoadedModel, module: nn.Module, method: str, notes: list[str]) -> None:
    """``module.eval()`` / ``module.train()``, where the model has such a mode to set.

    A torch.export program has its mode baked into its graph, and the module that
    ``ExportedProgram.module()`` returns raises NotImplementedError from both calls.
    """
    if loaded.source == "export":
        notes.append(Text("bench.exported_mode", method=method))
        return
    try:
        getattr(module, method)()
    except NotImplementedError:
        notes.append(Text("bench.mode_unsupported", method=method))


@contextlib.contextmanager
def eval_mode(loaded: LoadedModel, notes: list[str]) -> Iterator[None]:
    """``model.eval()`` for the block, then every submodule's own train/eval flag back."""
    # Per submodule, not just the root: a user may keep e.g. a frozen BatchNorm in eval.
    flags = [(m, m.training) for m in loaded.module.modules()]
    try:
        set_mode(loaded, loaded.module, "eval", notes)
        yield
    finally:
        for m, training in flags:
            m.training = training


@contextlib.contextmanager
def buffers_kept(loaded: LoadedModel) -> Iterator[None]:
    """An exported program keeps its export-time mode: one exported in training mode updates
    its buffers (BatchNorm's running statistics) on every forward. Put them back afterwards,
    as ``model.eval()`` would have kept them, so a forward benchmark leaves the model as it was."""
    if loaded.source != "export":
        yield
        return
    kept = [(b, b.clone()) for b in loaded.module.buffers() if b is not None]
    try:
        yield
    finally:
        with torch.no_grad():
            for buffer, value in kept:
                buffer.copy_(value)
