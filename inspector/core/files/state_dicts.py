"""Weights into a module: a state dict (from a checkpoint or ``.safetensors``) loaded into the
module the user's architecture spec built, with every mismatch named in one line.

Handles what real files carry: keys prefixed by a wrapper (DataParallel/DDP, Lightning,
``torch.compile``), and tied weights that ``.safetensors`` stores once under one name.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import torch
from torch import nn

from inspector.core.files.load_errors import ModelLoadError, describe
from inspector.core.files.safetensors_file import SafetensorsFile
from inspector.core.messages import Text, capped, joined

#: Prefixes wrappers add to every key: DataParallel/DDP, Lightning, torch.compile.
_WRAPPER_PREFIXES = ("module.", "model.", "_orig_mod.")

_Value = TypeVar("_Value")


def load_weights(module: nn.Module, state_dict: Mapping[str, Any], path: Path, architecture: str) -> list[str]:
    """Load ``state_dict`` (read from ``path``) into ``module`` (built by ``architecture``).

    A ``SafetensorsFile`` is checked from its header (names and shapes) and its tensors are
    read only once they fit: a file that cannot fit costs its header, not its data.
    Returns notes on what was adapted; raises ``ModelLoadError`` when the weights do not fit.
    """
    shapes = state_dict if isinstance(state_dict, SafetensorsFile) else _shapes_of(state_dict)
    prefix, notes = _wrapper_prefix(shapes, module)
    tied_missing = _check_state_dict_fits(module, _without(prefix, shapes), path, architecture)
    weights = _without(prefix, state_dict.read() if isinstance(state_dict, SafetensorsFile) else state_dict)
    try:
        # strict=False only where we checked ourselves that the missing keys are tied weights.
        module.load_state_dict(weights, strict=not tied_missing)
    except RuntimeError as exc:
        raise ModelLoadError(Text("load.weights_do_not_fit", path=path, architecture=architecture,
                                  error=describe(exc))) from exc  # fmt: skip
    notes.append(Text("load.note_weights_loaded", path=path, module=type(module).__name__, architecture=architecture))
    if tied_missing:
        notes.append(Text("load.note_tied_filled", names=", ".join(tied_missing)))
    return notes


def _shapes_of(state_dict: Mapping[str, Any]) -> dict[str, torch.Size | None]:
    """Each entry's shape; None for an entry that is not a tensor."""
    return {key: value.shape if isinstance(value, torch.Tensor) else None for key, value in state_dict.items()}


def _wrapper_prefix(keys: Mapping[str, Any], module: nn.Module) -> tuple[str, list[str]]:
    """The prefix a wrapper put before every key (and a note saying it goes), or ""."""
    expected = module.state_dict().keys()
    for prefix in _WRAPPER_PREFIXES:
        if all(key.startswith(prefix) for key in keys) and not any(key.startswith(prefix) for key in expected):
            return prefix, [Text("load.note_prefix_removed", prefix=repr(prefix))]
    return "", []


def _without(prefix: str, entries: Mapping[str, _Value]) -> Mapping[str, _Value]:
    if not prefix:
        return entries
    return {key[len(prefix):]: value for key, value in entries.items()}


def _check_state_dict_fits(
    module: nn.Module, shapes: Mapping[str, torch.Size | None], path: Path, architecture: str
) -> list[str]:
    """Raise one readable line naming every missing, unexpected and mis-shaped key.

    ``shapes``: each key's shape in the file (None: not a tensor). load_state_dict also
    reports these, but as a multi-line block that stops at nothing useful for a one-line
    error; and it cannot tell that a key missing from a safetensors file is a tied weight
    (safetensors keeps one name per shared tensor). Returns those.
    """
    expected = module.state_dict()
    missing = [key for key in expected if key not in shapes]
    tied = [key for key in missing if _is_tied_to_given(key, expected, shapes)]
    missing = [key for key in missing if key not in tied]
    unexpected = [key for key in shapes if key not in expected]
    mismatched: list[str] = []
    for key, shape in shapes.items():
        if key in expected and shape is not None and shape != expected[key].shape:
            mismatched.append(Text("load.shape_mismatch", key=key, file=_shape(shape), model=_shape(expected[key].shape)))
    problems = [
        _listing("load.missing_keys", missing),
        _listing("load.unexpected_keys", unexpected),
        _listing("load.shape_mismatches", mismatched),
    ]
    problems = [problem for problem in problems if problem]
    if problems:
        raise ModelLoadError(Text("load.weights_do_not_fit_keys", path=path, architecture=architecture,
                                  module=type(module).__name__, problems=joined(problems, "list.semicolon")))  # fmt: skip
    return tied


def _is_tied_to_given(key: str, expected: Mapping[str, Any], given: Mapping[str, Any]) -> bool:
    tensor = expected[key]
    if not isinstance(tensor, torch.Tensor) or tensor.numel() == 0:
        return False
    return any(
        other in given
        and isinstance(twin, torch.Tensor)
        and twin.data_ptr() == tensor.data_ptr()
        and twin.shape == tensor.shape
        for other, twin in expected.items()
        if other != key
    )


def _listing(key: str, items: list[str], limit: int = 5) -> str:
    """``"missing keys: a, b and 3 more"`` (``key``: its template), or "" for no items."""
    if not items:
        return ""
    shown = joined([capped(item) for item in items[:limit]])  # a 100,000-character key: its start
    return Text(key, keys=Text("list.and_more", names=shown, more=len(items) - limit) if len(items) > limit else shown)


def _shape(shape: torch.Size) -> str:
    return f"({', '.join(str(size) for size in shape)})"
