"""One real training step on the user's model: forward, backward, optimizer step.

Unlike the train-step benchmark (``core.measure.timing``), which times steps on a copy, this changes
the model's weights and leaves what training leaves: a ``.grad`` on every trained parameter
and the optimizer's state (SGD's momentum buffers, Adam's moments), so the placement shows
them, and shows where they stay after a move.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import torch

from inspector.core.files.inputs import InputsLike
from inspector.core.devices.discovery import device_id
from inspector.core.errors import InputError, InspectorError
from inspector.core.files.models import LoadedModel
from inspector.core.measure.model_input import as_args, input_shapes, make_input, model_device, model_dtype
from inspector.core.measure.model_mode import set_mode
from inspector.core.measure.step_errors import run_failed
from inspector.core.measure.timing import synchronizer
from inspector.core.measure.train_on_copy import scalar_loss
from inspector.core.messages import Text
from inspector.core.units import dtype_name

#: What a model without an optimizer of its own gets for its first step (as the example has).
DEFAULT_OPTIMIZER = "SGD(lr=0.01, momentum=0.9)"


@dataclass(frozen=True)
class TrainStepResult:
    """What one step did: its stand-in loss (the sum of the outputs), where it ran, how long."""

    loss: float
    seconds: float
    optimizer: str  # class name, e.g. "SGD"
    device: str
    dtype: str
    input_shapes: tuple[tuple[int, ...], ...]
    notes: tuple[str, ...] = ()

    def call(self) -> str:
        """The step as the code it ran (the history's "call" column)."""
        return "loss = model(*inputs).sum(); loss.backward(); optimizer.step()"


def train_step(loaded: LoadedModel, input_shape: InputsLike | None = None) -> TrainStepResult:
    """Run one training step on ``loaded`` itself, with its optimizer (one is made if it
    has none: ``DEFAULT_OPTIMIZER``, kept for the next steps) and its example input or a
    random input of ``input_shape``. The loss is the sum of the outputs (a stand-in: the
    step's cost and what it leaves behind do not depend on the loss function).

    Raises ``InputError`` when the input does not fit the model (nothing changed then) and
    ``InspectorError`` when the backward pass or the optimizer fails. Each module's own
    train/eval flag is put back afterwards.
    """
    notes: list[str] = []
    module = loaded.module
    optimizer = loaded.ensure_optimizer()
    if optimizer is None:
        trainable = [p for p in module.parameters() if p.requires_grad]
        if not trainable:
            raise InputError(Text("input.training_not_trainable"))
        optimizer = loaded.optimizer = torch.optim.SGD(trainable, lr=0.01, momentum=0.9)
        notes.append(Text("bench.default_optimizer", optimizer=DEFAULT_OPTIMIZER))
    device, dtype = model_device(module), model_dtype(module)
    args = as_args(make_input(loaded, input_shape))
    shapes = input_shapes(args)
    where = device_id(device)
    flags = [(m, m.training) for m in module.modules()]
    sync = synchronizer(module)
    started = time.perf_counter()
    try:
        set_mode(loaded, module, "train", notes)
        try:
            output = module(*args)
        except Exception as exc:  # noqa: BLE001 -- the input's fault, said with its shape
            raise run_failed(exc, shapes, where, "training step", blame_input=True) from None
        loss = scalar_loss(output)
        try:
            # After a forward that worked, so a wrong input leaves the last step's grads.
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        except InspectorError:
            raise
        except Exception as exc:  # noqa: BLE001 -- backward or optimizer: said as what it is
            raise run_failed(exc, shapes, where, "training step", blame_input=False) from None
        if sync is not None:
            sync()
    finally:
        for m, training in flags:
            m.training = training
    return TrainStepResult(
        loss=float(loss.detach().float().item()),
        seconds=time.perf_counter() - started,
        optimizer=type(optimizer).__name__,
        device=where,
        dtype=dtype_name(dtype),
        input_shapes=tuple(shapes),
        notes=tuple(notes),
    )
