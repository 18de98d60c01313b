"""What a rollback cannot promise, known before a move starts (per module class).

``core.moves.rollback`` puts back everything ``Module._apply`` changes. It cannot vouch for a
module class with its own ``to``/``_apply`` that may keep state outside its ``__dict__``, nor
for weights packed where ``_apply`` never sees them (quantized modules): ``vouch`` names those
in words before a move, and ``has_packed_weights`` is why a device move is refused outright.

Costs: one check per module class, cached; a model's check is O(modules) for their classes.
"""

from __future__ import annotations

import torch
from torch import nn

_MODULE_APPLY = nn.Module._apply
_MODULE_METHODS = {name: getattr(nn.Module, name) for name in ("to", "cuda", "cpu", "_apply")}
#: ``_apply`` overrides in torch itself whose extra work is rebinding ``__dict__`` entries.
_KNOWN_APPLY: tuple[type, ...] = (nn.RNNBase,)


_CLASS_PROBLEMS: dict[type[nn.Module], str | None] = {}


def _class_problem(cls: type[nn.Module]) -> str | None:
    """Why a rollback of a module of this class might not be exact (None: it will be)."""
    if cls not in _CLASS_PROBLEMS:
        _CLASS_PROBLEMS[cls] = _find_class_problem(cls)
    return _CLASS_PROBLEMS[cls]


def _find_class_problem(cls: type[nn.Module]) -> str | None:
    if cls.__module__.startswith("torch.ao.nn.quantized"):
        return (
            f"{cls.__name__} keeps its weights packed where Module.to() does not reach them: "
            "they stay on their device and in their dtype"
        )
    if cls._apply is not _MODULE_APPLY and not issubclass(cls, _KNOWN_APPLY):
        return (
            f"{cls.__name__} has its own _apply(): a rollback restores its attributes and the "
            "tensors the move converts, not state it keeps elsewhere"
        )
    return None


def vouch(modules: list[nn.Module]) -> list[str]:
    """Why a rollback of these modules (``walk``'s list, root first) might not be exact."""
    problems: dict[str, None] = {}
    root = type(modules[0])
    if not issubclass(root, torch.jit.ScriptModule):
        for name in ("to", "cuda", "cpu"):
            if getattr(root, name) is not _MODULE_METHODS[name]:
                problems[
                    f"{root.__name__} overrides Module.{name}(): a rollback restores its attributes "
                    "and the tensors the move converts, not what else that method changes"
                ] = None
    for cls in set(map(type, modules)):
        problem = _class_problem(cls)
        if problem is not None:
            problems[problem] = None
    return list(problems)


def has_packed_weights(modules: list[nn.Module]) -> bool:
    """Quantized modules: their weights sit in packed C++ objects a device move leaves behind."""
    return any(cls.__module__.startswith("torch.ao.nn.quantized") for cls in set(map(type, modules)))
