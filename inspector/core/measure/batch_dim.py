"""Which dimension of a model's input is its batch, as the model says it: what throughput
("items/s") multiplies by.

PyTorch's layers take the batch first (``Linear``, ``Conv2d``: N first), except those with a
``batch_first`` flag (``nn.Transformer``, ``MultiheadAttention``, ``RNN``/``LSTM``/``GRU``),
which are sequence-first unless it is set: the Transformer preset's ``10,32,512`` is a batch of
32, not 10. A model's own ``batch_first`` (a factory's model may declare one) decides; else its
layers' flags, when they agree; layers that disagree leave the batch unknown (None), and a
front end then says calls/s alone rather than a figure built on a guess.
"""

from __future__ import annotations

from torch import nn

#: How many modules are asked: a model of a million modules is not walked to say a throughput.
MODULES_ASKED = 100_000


def batch_dimension(module: nn.Module) -> int | None:
    """0 or 1: the batch's dimension in the model's (first) input; None when its layers disagree."""
    own = _flag(module)
    if own is not None:
        return 0 if own else 1
    flags: set[bool] = set()
    for count, sub in enumerate(module.modules()):
        if count >= MODULES_ASKED:
            break
        flag = _flag(sub)
        if flag is not None:
            flags.add(flag)
    if len(flags) > 1:
        return None
    return 1 if flags == {False} else 0


def batch_size(module: nn.Module, shape: tuple[int, ...]) -> int | None:
    """The batch ``shape`` (the first input's) holds for ``module``; None when unknown or
    when the input has no such dimension (a scalar, a 1-D input to a sequence-first layer)."""
    dim = batch_dimension(module)
    if dim is None or len(shape) <= dim:
        return None
    return int(shape[dim]) if shape[dim] > 0 else None


def _flag(module: nn.Module) -> bool | None:
    # Only a real bool counts: a model's attribute of another type says nothing about batches.
    value = getattr(module, "batch_first", None)
    return value if isinstance(value, bool) else None
