"""The model as a measurement sees it: its device, its dtype, and the input made for it.

``make_input`` gives the tensors to time with (random ones for an input shape, else the model's
example input), on the model's device and in its floating dtype; ``as_args`` and
``input_shapes`` turn them into the call's positional arguments and what a result names;
``tensors_in`` finds the tensors in what goes into and comes out of a call.
"""

from __future__ import annotations

from typing import Any, Iterator

import torch
from torch import nn

from inspector.core.devices.discovery import device_id
from inspector.core.errors import InputError
from inspector.core.files.inputs import InputsLike, as_specs, make_tensors
from inspector.core.files.models import LoadedModel
from inspector.core.messages import Text
from inspector.core.units import dtype_name, first_line


def model_device(module: nn.Module) -> torch.device:
    """The device of the first floating parameter (else any parameter/buffer, else the CPU)."""
    first = _first_floating_tensor(module)
    if first is not None:
        return first.device
    for t in model_tensors(module):
        return t.device
    return torch.device("cpu")


def model_dtype(module: nn.Module) -> torch.dtype:
    """The dtype of the first floating or complex parameter (else buffer); PyTorch's default
    otherwise. A complex64 model is complex64 here, not the default float32."""
    first = _first_floating_tensor(module)
    return first.dtype if first is not None else torch.get_default_dtype()


def model_tensors(module: nn.Module) -> Iterator[torch.Tensor]:
    yield from module.parameters()
    yield from (b for b in module.buffers() if b is not None)


def _first_floating_tensor(module: nn.Module) -> torch.Tensor | None:
    for p in module.parameters():
        if p.is_floating_point() or p.is_complex():
            return p
    for b in module.buffers():
        if b is not None and (b.is_floating_point() or b.is_complex()):
            return b
    return None


def make_input(loaded: LoadedModel, input_shape: InputsLike | None = None) -> Any:
    """The input to time with: random tensors for ``input_shape`` (input specs, see
    ``core.files.inputs``, or one bare shape), else the model's example input.

    Both end up on the model's device and, for floating tensors without a dtype of their
    own, in its floating dtype. Returns a tensor for one input, a tuple of positional
    arguments for several (or when the example input is one).
    """
    device, dtype = model_device(loaded.module), model_dtype(loaded.module)
    specs = as_specs(input_shape)
    if specs is not None:
        try:
            tensors = make_tensors(specs, loaded.module, device, dtype)
        except RuntimeError as exc:
            shown = "; ".join(s.text() for s in specs)
            raise InputError(
                Text("input.cannot_create", shapes=shown, dtype=dtype_name(dtype), device=device_id(device),
                     error=first_line(exc)),  # fmt: skip
                detail=str(exc),
            ) from None
        return tensors[0] if len(tensors) == 1 else tensors
    if loaded.example_input is None:
        raise InputError(Text("input.no_example_input"))
    return _to_model(loaded.example_input, device, dtype)


def _to_model(value: Any, device: torch.device, dtype: torch.dtype) -> Any:
    if isinstance(value, torch.Tensor):
        # Real inputs follow a real dtype, complex ones a complex dtype; a real input to a
        # complex model stays real (casting would drop or invent imaginary parts).
        same_kind = (value.is_floating_point() and dtype.is_floating_point) or (value.is_complex() and dtype.is_complex)
        return value.to(device, dtype) if same_kind else value.to(device)
    if isinstance(value, (tuple, list)):
        return tuple(_to_model(v, device, dtype) for v in value)
    return value


def as_args(inputs: Any) -> tuple[Any, ...]:
    return inputs if isinstance(inputs, tuple) else (inputs,)


def input_shapes(args: tuple[Any, ...]) -> list[tuple[int, ...]]:
    return [tuple(a.shape) for a in args if isinstance(a, torch.Tensor)]


def tensors_in(value: Any) -> Iterator[torch.Tensor]:
    """Every tensor in a call's arguments or output: a tensor, or dicts, tuples and lists of them."""
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from tensors_in(v)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from tensors_in(v)
