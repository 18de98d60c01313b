"""accelerate's own rules for device maps: its size parser, its module sizes, its largest layer.

A device map is accelerate's file, so it is read as accelerate reads it. Where accelerate is
installed (the optional extra ``accelerate``), its own functions answer
(``accelerate.utils.modeling``: ``convert_file_size_to_int``, ``compute_module_sizes``,
``get_max_layer_size``); where it is not, the same rules written out here answer, and
tests/core/moves/test_accelerate_maps.py checks both give the same figures on the same
inputs. ``rules()`` says which one answered, so an explanation can say so.

The rules (accelerate 1.16):

- a size is an integer (bytes), or text ending in a unit: ``GiB``/``MiB``/``KiB`` (powers of
  two), ``GB``/``MB``/``KB`` (powers of ten); a unit ending in a lowercase ``b`` is bits
  (``"160Mb"`` is 20,000,000 bytes); the number before the unit is anything ``float()`` reads
  (``"1.5e3MB"``). Anything else (``"10"``, ``"1TB"``, ``"10 B"``) is not a size.
- a module's size is the bytes of every parameter and buffer under it, each counted once,
  at 1/8 byte per bool.
- a "layer" is a module without children, or one whose class is in
  ``no_split_module_classes``; the largest layer of a list of modules is the biggest such
  size found under them (and every layer of that size).
"""

from __future__ import annotations

import importlib
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import torch
from torch import nn

Sizes = dict[str, float]


@cache
def _accelerate() -> Any | None:
    """``accelerate.utils.modeling``, or None where accelerate is not installed or broken."""
    try:
        return importlib.import_module("accelerate.utils.modeling")
    except Exception:  # noqa: BLE001 -- a broken optional install falls back to the built-in rules
        return None


def rules() -> str:
    """Who answers: ``"accelerate 1.16.0"`` or ``"built-in"`` (the same rules, written out)."""
    if _accelerate() is None:
        return "built-in"
    try:
        version = importlib.import_module("accelerate").__version__
    except Exception:  # noqa: BLE001 -- the version is a label only
        version = "?"
    return f"accelerate {version}"


# --------------------------------------------------------------------------- sizes


def builtin_parse_size(size: int | str) -> int:
    """accelerate's ``convert_file_size_to_int``, written out; ValueError for a non-size."""
    bad = ValueError(f"`size` {size} is not in a valid format. Use an integer for bytes, or a string with an unit (like '5.0GB').")
    if isinstance(size, int) and not isinstance(size, bool):
        if size < 0:
            raise bad
        return size
    if not isinstance(size, str):
        raise bad
    upper = size.upper()
    units = (("GIB", 2**30, False), ("MIB", 2**20, False), ("KIB", 2**10, False),
             ("GB", 10**9, True), ("MB", 10**6, True), ("KB", 10**3, True))  # fmt: skip
    for suffix, scale, bits_possible in units:
        if upper.endswith(suffix):
            try:
                value = int(float(size[: -len(suffix)]) * scale)
            except (ValueError, OverflowError):  # "infGB" overflows int(): accelerate lets that escape
                raise bad from None
            if bits_possible and size.endswith("b"):
                value //= 8
            if value < 0:
                raise bad
            return value
    raise bad


def parse_size(size: int | str) -> int:
    """A size as accelerate reads it (its own function where installed); ValueError if not one."""
    if isinstance(size, bool) or not isinstance(size, (int, str)):
        raise ValueError(f"{size!r} is not a size")
    acc = _accelerate()
    if acc is None:
        return builtin_parse_size(size)
    try:
        return int(acc.convert_file_size_to_int(size))
    except (ValueError, OverflowError) as exc:
        raise ValueError(str(exc)) from None


def parse_budget(value: Any) -> int:
    """A ``max_memory`` value: what ``get_max_memory`` accepts. Text goes through the size
    parser; a number (``1.5e9``, as ``json.dump`` writes a computed budget) is taken as bytes
    the way accelerate compares it, rounded down here for display."""
    if isinstance(value, float):
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"{value!r} is not a size")
        return int(value)
    return parse_size(value)


# --------------------------------------------------------------------------- module sizes


def tensor_bytes(t: torch.Tensor) -> float:
    """A tensor's size as accelerate counts it (a bool is 1/8 byte)."""
    return t.numel() * (1 / 8 if t.dtype == torch.bool else t.element_size())


def builtin_module_sizes(model: nn.Module) -> Sizes:
    """accelerate's ``compute_module_sizes`` (no dtype override), written out."""
    sizes: defaultdict[str, float] = defaultdict(float)
    tensors: Iterable[tuple[str, torch.Tensor]] = (*model.named_parameters(recurse=True), *model.named_buffers(recurse=True))
    for name, tensor in tensors:
        size = tensor_bytes(tensor)
        parts = name.split(".")
        for i in range(len(parts) + 1):
            sizes[".".join(parts[:i])] += size
    return sizes


def module_sizes(model: nn.Module) -> Sizes:
    """Bytes under each module and tensor name ("" the whole model), as accelerate counts them."""
    acc = _accelerate()
    return dict(builtin_module_sizes(model) if acc is None else acc.compute_module_sizes(model))


def builtin_largest_layer(modules: Sequence[tuple[str, nn.Module]], sizes: Sizes, no_split: Sequence[str] = ()) -> tuple[float, list[str]]:
    """accelerate's ``get_max_layer_size``, written out."""
    largest: float = 0
    names: list[str] = []
    todo = list(modules)
    while todo:
        name, module = todo.pop(0)
        children = list(module.named_children()) if isinstance(module, nn.Module) else []  # a map may name a tensor
        if not children or type(module).__name__ in no_split:
            size = sizes.get(name, 0)
            if size > largest:
                largest, names = size, [name]
            elif size == largest:
                names.append(name)
        else:
            todo = [(f"{name}.{child}", sub) for child, sub in children] + todo
    return largest, names


def largest_layer(modules: Sequence[tuple[str, nn.Module]], sizes: Sizes, no_split: Sequence[str] = ()) -> tuple[int, list[str]]:
    """The biggest layer under ``modules`` and every layer of that size, as accelerate finds it."""
    acc = _accelerate()
    if acc is None:
        size, names = builtin_largest_layer(modules, sizes, no_split)
    else:
        # accelerate indexes module_sizes for each layer: a layer without tensors is 0, not a KeyError.
        size, names = acc.get_max_layer_size(list(modules), defaultdict(float, sizes), list(no_split))
    return int(size), list(names)
