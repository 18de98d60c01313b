"""Input specs: the text a user types for a model's inputs, and the tensors made from it.

One parser for every front end (``bench``/``fit``/``inspect --input-shape``, the window's
input-shape field, the fit dialog). The syntax (docs/cli.md, ``bench``): positional inputs separated
by ``;``, each a shape with an optional ``:dtype`` -- ``1,3,224,224``, ``10,32,512; 20,32,512``
(a Transformer's src and tgt), ``8,128:int64`` (token ids). A floating input without a dtype
takes the model's floating dtype; integer inputs draw indices every embedding accepts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import NamedTuple

import torch
from torch import nn

from inspector.core.errors import InputError
from inspector.core.messages import Text

#: The dtypes an input may name after ``:``.
INPUT_DTYPES = ("float32", "float16", "bfloat16", "float64", "int64", "int32", "int16", "int8", "uint8", "bool")
#: An integer input for a model without an embedding draws from [0, this): a valid index or
#: class label for any dimension of size 2 or more.
DEFAULT_INTEGER_HIGH = 2
#: The most elements a tensor's size can count (PyTorch sizes are signed 64-bit).
_MAX_ELEMENTS = 2**63 - 1
class InputSpec(NamedTuple):
    """One positional input: its shape, and its dtype name (None: the model's floating dtype).

    A tuple, so ``shape, dtype = spec`` reads it and it compares equal to ``(shape, dtype)``.
    """

    shape: tuple[int, ...]
    dtype: str | None = None

    def text(self) -> str:
        """As a user would type it: ``8,128:int64``."""
        shape = ",".join(map(str, self.shape))
        return f"{shape}:{self.dtype}" if self.dtype else shape


InputSpecs = tuple[InputSpec, ...]
#: What the measuring functions accept: specs, or one bare shape (one floating input).
InputsLike = Sequence[InputSpec] | tuple[int, ...]


def parse_shape(text: str) -> tuple[int, ...]:
    """``"1,3,224,224" -> (1, 3, 224, 224)``; also accepts ``1x3x224x224`` and ``(1, 3, 224)``."""
    cleaned = text.strip().strip("()[]").strip()
    if not cleaned:
        raise InputError(Text("input.shape_empty"))
    parts = [p.strip() for p in re.split(r"[,x×]", cleaned)]
    try:
        dims = tuple(int(p) for p in parts)
    except ValueError:
        raise InputError(Text("input.shape_not_numbers", shape=repr(text.strip()))) from None
    check_shape(dims, text.strip())
    return dims


def check_shape(dims: tuple[int, ...], shown: object) -> None:
    """InputError unless ``dims`` is a shape a tensor can have (positive sizes, < 2^63 elements)."""
    if not dims or any(d <= 0 for d in dims):
        raise InputError(Text("input.shape_not_positive", shape=repr(shown)))
    if math.prod(dims) > _MAX_ELEMENTS:
        raise InputError(Text("input.shape_too_large", shape=repr(shown)))


def parse_inputs(text: str) -> InputSpecs:
    """``"10,32,512; 20,32,512"`` -> two floating inputs; ``"8,128:int64"`` -> token ids."""
    parts = [p.strip() for p in text.split(";")]
    if not any(parts):
        raise InputError(Text("input.shape_empty"))
    specs: list[InputSpec] = []
    for number, part in enumerate(parts, 1):
        if not part:
            raise InputError(Text("input.empty_between", text=repr(text.strip())))
        shape_text, colon, dtype_text = part.partition(":")
        dtype = dtype_text.strip() or None
        if colon and dtype is None:
            raise InputError(Text("input.no_dtype_after_colon", number=number, part=repr(part), choices=", ".join(INPUT_DTYPES)))
        if dtype is not None and dtype not in INPUT_DTYPES:
            raise InputError(Text("input.not_an_input_dtype", dtype=repr(dtype), choices=", ".join(INPUT_DTYPES)))
        specs.append(InputSpec(parse_shape(shape_text), dtype))
    return tuple(specs)


def format_inputs(specs: Sequence[InputSpec]) -> str:
    """The text ``parse_inputs`` reads back: ``10,32,512; 20,32,512``."""
    return "; ".join(InputSpec(*s).text() for s in specs)


def as_specs(value: InputsLike | None) -> InputSpecs | None:
    """Specs from what a caller passed: specs as they are, a bare shape as one floating input."""
    if value is None:
        return None
    items = tuple(value)
    if items and all(isinstance(d, int) and not isinstance(d, bool) for d in items):
        shape = tuple(int(d) for d in items)  # type: ignore[call-overload]
        check_shape(shape, shape)
        return (InputSpec(shape),)
    specs = tuple(InputSpec(tuple(int(d) for d in s[0]), s[1]) for s in items)  # type: ignore[index]
    if not specs:
        raise InputError(Text("input.no_input_given"))
    for spec in specs:
        check_shape(spec.shape, spec.shape)
        if spec.dtype is not None and spec.dtype not in INPUT_DTYPES:
            raise InputError(Text("input.not_an_input_dtype", dtype=repr(spec.dtype), choices=", ".join(INPUT_DTYPES)))
    return specs


def integer_high(module: nn.Module) -> int:
    """Integer inputs draw below this: the first embedding's ``num_embeddings`` (token ids
    every lookup accepts), else ``DEFAULT_INTEGER_HIGH``."""
    for m in module.modules():
        if isinstance(m, (nn.Embedding, nn.EmbeddingBag)):
            return max(1, int(m.num_embeddings))
    return DEFAULT_INTEGER_HIGH


def make_tensors(
    specs: Sequence[InputSpec], module: nn.Module, device: torch.device, float_dtype: torch.dtype
) -> tuple[torch.Tensor, ...]:
    """One random tensor per spec on ``device``: floating ones ``randn`` (in ``float_dtype``
    unless the spec names one), integer ones ``randint`` below ``integer_high(module)``."""
    high: int | None = None
    out: list[torch.Tensor] = []
    for spec in specs:
        dtype = getattr(torch, spec.dtype) if spec.dtype else float_dtype
        if dtype.is_floating_point or dtype.is_complex:
            out.append(torch.randn(spec.shape, dtype=dtype, device=device))
        elif dtype == torch.bool:
            out.append(torch.randint(0, 2, spec.shape, device=device).bool())
        else:
            if high is None:
                high = integer_high(module)
            limit = min(high, int(torch.iinfo(dtype).max) + 1)
            out.append(torch.randint(0, limit, spec.shape, dtype=dtype, device=device))
    return tuple(out)
