"""The train-step benchmark's step: forward, a stand-in loss, backward and the optimizer's
step, on a deep copy of the model and its optimizer, so the user's parameters, grads and
optimizer state stay bitwise what they were.
"""

from __future__ import annotations

import copy
import functools
from typing import Any, Callable

import torch
from torch import nn

from inspector.core.devices.discovery import is_out_of_memory
from inspector.core.errors import InputError, InspectorError
from inspector.core.files.models import LoadedModel
from inspector.core.measure.model_input import tensors_in
from inspector.core.measure.model_mode import set_mode
from inspector.core.measure.step_errors import StepFailed
from inspector.core.messages import Text
from inspector.core.units import first_line
from inspector.core.vocabulary import FailureKind

def train_step_on_copy(
    loaded: LoadedModel, args: tuple[Any, ...], notes: list[str]
) -> tuple[Callable[[], None], nn.Module]:
    """One forward + backward + optimizer step on a copy of the model and its optimizer; and
    that copy (what the step ran in, should the model change its own dtype as it runs)."""
    loaded.ensure_optimizer()
    module_copy, optimizer_copy = _copy_for_training(loaded)
    if optimizer_copy is None:
        trainable = [p for p in module_copy.parameters() if p.requires_grad]
        if not trainable:
            raise InputError(Text("input.train_step_not_trainable"))
        optimizer_copy = torch.optim.SGD(trainable, lr=0.01)
        notes.append(Text("bench.copy_default_optimizer"))
    else:
        notes.append(Text("bench.copy_optimizer", optimizer=type(optimizer_copy).__name__))
    set_mode(loaded, module_copy, "train", notes)

    def step() -> None:
        # Only the forward call may raise unmarked (the sampler blames it on the input).
        try:
            optimizer_copy.zero_grad(set_to_none=True)
        except Exception as exc:
            raise StepFailed(exc, in_forward=False) from exc
        output = module_copy(*args)
        try:
            scalar_loss(output).backward()
            optimizer_copy.step()
        except InspectorError:
            raise
        except Exception as exc:
            raise StepFailed(exc, in_forward=False) from exc

    return step, module_copy


def _copy_for_training(loaded: LoadedModel) -> tuple[nn.Module, torch.optim.Optimizer | None]:
    """Deep-copy model and optimizer together, so the copied optimizer points at the copied
    parameters (one shared deepcopy memo) and its state is a copy, never the user's tensors."""
    try:
        # Under no_grad: a TorchScript module's deepcopy clones its parameters with autograd
        # on, into non-leaf tensors no optimizer accepts ("can't optimize a non-leaf Tensor").
        with torch.no_grad():
            module_copy, optimizer_copy = copy.deepcopy((loaded.module, loaded.optimizer))
    except Exception as exc:  # noqa: BLE001 -- re-raised as a message the user can act on
        if is_out_of_memory(exc):
            raise InspectorError(
                Text("failure.copy_oom"),
                detail=str(exc),
                kind=FailureKind.OOM,
            ) from None
        raise InspectorError(
            Text("failure.copy_failed", error=first_line(exc)),
            detail=f"{type(exc).__name__}: {exc}",
        ) from None
    # ...and those clones come out not requiring grad: give each the original's flag back.
    for original, copied in zip(loaded.module.parameters(), module_copy.parameters()):
        if original.requires_grad and not copied.requires_grad:
            copied.requires_grad_(True)
    return module_copy, optimizer_copy


def scalar_loss(output: Any) -> torch.Tensor:
    """A stand-in loss: the sum of every output tensor that depends on trainable parameters."""
    parts = [t.float().sum() for t in tensors_in(output) if t.requires_grad and t.is_floating_point()]
    if not parts:
        raise InputError(Text("input.output_not_trainable"))
    return functools.reduce(torch.add, parts)
