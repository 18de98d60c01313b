"""What a ``config.json`` declares, checked before anything is built from it.

A small config can ask for unbounded work: ``num_hidden_layers: 10**9`` made the meta build
run for ever (every layer is a module, even with no storage), 16,384 experts in each of 24
layers took four minutes and 5 GB. A count that is negative, zero or not a whole number was
planned as a model with no layers, or ended in transformers' ``TypeError``. So each size a
config declares, in it or in any config nested in it (``text_config``, ``vision_config``), is a
whole number (or a list of them, as Swin's per-stage ``num_heads``, or null: transformers'
default), at least its least, and at most a bound: the largest a published model uses, times a
margin of about 8 (each bound names that model). The expert blocks (layers times experts)
have their own bound: each one is a module of its own in some models. So do Swin's per-stage
``depths`` (a list of layer counts): each at most the layers' bound, and their sum too.

The types transformers would trip over are checked too, each refused in one line naming the
field: a dtype that is no floating-point dtype of torch, an ``auto_map`` that is not an object,
``architectures`` that is not a list of names, an attention, experts or quantization setting
of the wrong shape (whether its *value* is built into transformers is ``code_names``' check).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from inspector.core.files.load_errors import ModelLoadError, a_value_of
from inspector.core.messages import Text


@dataclass(frozen=True)
class Count:
    """A size a config declares: at least ``least``, at most ``limit``."""

    least: int
    limit: int
    #: The largest value a published model uses, and which model.
    published: str


_LAYERS = Count(1, 1024, "126 (Llama 3.1 405B)")
_STACK = Count(0, 1024, "126 (Llama 3.1 405B)")  # an encoder's or decoder's own: 0 where there is none
_HEADS = Count(1, 2048, "232 (Falcon-180B)")
_HIDDEN = Count(1, 131_072, "18,432 (Nemotron-4 340B)")
_INTERMEDIATE = Count(1, 524_288, "73,728 (Nemotron-4 340B)")
_VOCAB = Count(1, 2_097_152, "262,208 (Gemma 3)")
_EXPERTS = Count(0, 16_384, "2,048 (Switch Transformers c-2048)")
_POSITIONS = Count(1, 67_108_864, "10,485,760 (Llama 4 Scout)")
_HEAD_DIM = Count(1, 4096, "256 (Gemma)")
_DEPTH = Count(1, _LAYERS.limit, "36 (ResNet-152)")  # one stage's layers
#: What Swin's, ConvNeXt's, ResNet's ``depths`` may add up to: the layers' bound.
DEPTHS_PUBLISHED = "50 (ResNet-152)"

#: Each field's name, in the spellings transformers' configs use.
COUNTS: dict[str, Count] = {
    **dict.fromkeys(("num_hidden_layers", "n_layer", "n_layers", "num_layers"), _LAYERS),
    **dict.fromkeys(("num_encoder_layers", "num_decoder_layers", "encoder_layers", "decoder_layers"), _STACK),
    **dict.fromkeys(("num_attention_heads", "num_key_value_heads", "n_head", "n_heads", "num_heads",
                     "encoder_attention_heads", "decoder_attention_heads"), _HEADS),  # fmt: skip
    **dict.fromkeys(("hidden_size", "n_embd", "d_model"), _HIDDEN),
    **dict.fromkeys(("intermediate_size", "n_inner", "d_ff", "ffn_dim", "encoder_ffn_dim", "decoder_ffn_dim",
                     "moe_intermediate_size"), _INTERMEDIATE),  # fmt: skip
    "vocab_size": _VOCAB,
    **dict.fromkeys(("num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts"), _EXPERTS),
    **dict.fromkeys(("max_position_embeddings", "n_positions", "n_ctx", "max_seq_len"), _POSITIONS),
    **dict.fromkeys(("head_dim", "d_kv"), _HEAD_DIM),
    "depths": _DEPTH,
}
_LAYER_FIELDS = tuple(name for name, count in COUNTS.items() if count in (_LAYERS, _STACK))
_EXPERT_FIELDS = tuple(name for name, count in COUNTS.items() if count is _EXPERTS)
#: Layers times experts: Switch Transformers c-2048 has 30 sparse layers of 2,048 experts.
EXPERT_BLOCKS = 131_072
EXPERT_BLOCKS_PUBLISHED = "61,440 (Switch Transformers c-2048)"

DTYPE_FIELDS = ("dtype", "torch_dtype")
#: The keys through which a config names an attention or experts implementation (the
#: underscored ones are set as attributes by transformers, reaching the same setter).
IMPLEMENTATION_FIELDS = (
    "attn_implementation", "_attn_implementation", "_attn_implementation_internal",
    "experts_implementation", "_experts_implementation", "_experts_implementation_internal",
)  # fmt: skip


def check_config(config: dict[str, Any], folder: Path) -> None:
    """``ModelLoadError`` in one line naming the first field that is out of bounds or of the
    wrong type, in the config or any config nested in it."""
    for where, part in nested_objects(config):
        for name, value in part.items():
            field = f"{where}{name}"
            if name in COUNTS and value is not None:
                _check_count(folder, field, value, COUNTS[name])
            elif name in DTYPE_FIELDS and value is not None and floating_dtype(value) is None:
                raise ModelLoadError(Text("load.hf_bad_dtype", path=folder, field=field, value=_shown(value)))
            elif name in IMPLEMENTATION_FIELDS and not _implementation_shaped(value):
                raise _wrong_type(folder, field, value, "load.hf_expected_implementation")
            elif name in ("auto_map", "quantization_config") and not isinstance(value, dict):
                raise _wrong_type(folder, field, value, "load.hf_expected_mapping")
            elif name == "architectures" and where == "" and not _names(value):
                raise _wrong_type(folder, field, value, "load.hf_expected_names")
        _check_expert_blocks(folder, part)
        _check_depths(folder, where, part)


def nested_objects(value: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object in a JSON value, with the path that leads to it (``text_config.``)."""
    if isinstance(value, dict):
        yield where, value
        for name, item in value.items():
            yield from nested_objects(item, f"{where}{name}.")
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from nested_objects(item, f"{where[:-1]}[{number}]." if where else f"[{number}].")


def floating_dtype(value: Any) -> torch.dtype | None:
    """The floating-point dtype a config names (``"bfloat16"``), else None."""
    found = getattr(torch, value, None) if isinstance(value, str) and value.isidentifier() else None
    return found if isinstance(found, torch.dtype) and found.is_floating_point else None


def declared_dtype(config: dict[str, Any]) -> torch.dtype:
    """The dtype the config says its weights are in (``dtype``, the older ``torch_dtype``),
    else float32. Read from the checked JSON: reading ``config.torch_dtype`` from
    transformers' object prints its deprecation warning."""
    for name in DTYPE_FIELDS:
        found = floating_dtype(config.get(name))
        if found is not None:
            return found
    return torch.float32


# --------------------------------------------------------------------------- parts


def _check_count(folder: Path, field: str, value: Any, count: Count) -> None:
    values = value if isinstance(value, list) else [value]
    for item in values:
        if not isinstance(item, int) or isinstance(item, bool) or item < count.least:
            raise ModelLoadError(Text("load.hf_field_not_count", path=folder, field=field, value=_shown(item),
                                      least=count.least))  # fmt: skip
        if item > count.limit:
            raise ModelLoadError(Text("load.hf_field_too_large", path=folder, field=field, value=f"{item:,}",
                                      limit=f"{count.limit:,}", published=count.published))  # fmt: skip


def _check_expert_blocks(folder: Path, part: dict[str, Any]) -> None:
    layers = sum(_whole(part.get(name)) for name in _LAYER_FIELDS)
    experts = max(_whole(part.get(name)) for name in _EXPERT_FIELDS)
    if layers * experts > EXPERT_BLOCKS:
        raise ModelLoadError(Text("load.hf_too_many_experts", path=folder, layers=f"{layers:,}",
                                  experts=f"{experts:,}", blocks=f"{layers * experts:,}",
                                  limit=f"{EXPERT_BLOCKS:,}", published=EXPERT_BLOCKS_PUBLISHED))  # fmt: skip


def _check_depths(folder: Path, where: str, part: dict[str, Any]) -> None:
    """Their sum (each one already checked a whole number within ``_DEPTH``)."""
    depths = part.get("depths")
    if isinstance(depths, list) and sum(depths) > _LAYERS.limit:
        raise ModelLoadError(Text("load.hf_too_deep", path=folder, field=f"{where}depths", layers=f"{sum(depths):,}",
                                  limit=f"{_LAYERS.limit:,}", published=DEPTHS_PUBLISHED))  # fmt: skip


def _whole(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _implementation_shaped(value: Any) -> bool:
    """A name, or an object of sub-config -> name (transformers' per-sub-config form), or null."""
    if value is None or isinstance(value, str):
        return True
    return isinstance(value, dict) and all(v is None or isinstance(v, str) for v in value.values())


def _names(value: Any) -> bool:
    return value is None or (isinstance(value, list) and all(isinstance(v, str) for v in value))


def _wrong_type(folder: Path, field: str, value: Any, expected: str) -> ModelLoadError:
    return ModelLoadError(Text("load.hf_field_type", path=folder, field=field, value=_shown(value),
                               expected=Text(expected)))  # fmt: skip


def _shown(value: Any) -> str:
    """A value as JSON writes it (every character outside ASCII escaped), short: a
    100,000-character string is its start and its length; an object or list its size."""
    if isinstance(value, (dict, list)):
        return str(a_value_of(value))
    text = json.dumps(value)
    return text if len(text) <= 80 else f"{text[:60]}… ({len(text):,} characters)"
