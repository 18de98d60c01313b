"""What a ``config.json`` asks transformers to run, checked against what transformers itself
ships, before anything is built.

- ``architectures`` picks the class that is called with the config. Any attribute of
  ``transformers`` would do (``Trainer``, ``pipeline``, ``set_seed`` and ``AutoTokenizer`` were
  all really called): only subclasses of ``transformers.PreTrainedModel`` are accepted, a name
  transformers does not have is left to ``model_type``, and anything else is refused, naming it.
- Where ``architectures`` names none (``LlamaConfig().save_pretrained`` writes none), the class
  is the causal language model ``model_type`` maps to in transformers' own table
  (``MODEL_FOR_CAUSAL_LM_MAPPING_NAMES``, what ``AutoModelForCausalLM`` builds), said as such:
  the base model (``AutoModel``) has no head, and a plan of it was 0.5 B parameters short for an
  8B Llama. A type with no such class is refused, naming the classes it has.
- An attention implementation (``attn_implementation``: "kernels-community/flash-attn" made
  the load go to the Hub and import kernel code), an experts implementation, or a
  quantization method must be one transformers registers itself (its ``AttentionInterface``,
  ``ExpertsInterface`` and quantizer mapping list them; a name with a ``/`` is a Hub repository,
  never built in, even after a trusted load registered it). ``flash_attention_N`` counts as
  built in only where its package is installed: elsewhere transformers loads a kernel from the
  Hub's cache in its place. Without ``--trust`` anything else is refused in one line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from inspector.core.files.hugging_face.config_values import IMPLEMENTATION_FIELDS, nested_objects
from inspector.core.files.load_errors import ModelLoadError, UntrustedFileError
from inspector.core.messages import Text
from inspector.core.units import first_line

#: Used where a transformers release does not expose its lists (they are read from it where
#: it does): the implementations every release since 4.48 registers.
_ATTENTION = ("eager", "sdpa", "flash_attention_2", "flex_attention", "paged|eager")
_EXPERTS = ("eager", "batched_mm", "grouped_mm")
_FLASH = re.compile(r"flash_attention_(\d+)\Z")
#: The id of the note that says which class a config naming none was built as (fit says it again).
CLASS_FROM_TYPE = "load.hf_class_from_type"


def model_class(transformers: Any, config: dict[str, Any], folder: Path) -> Any:
    """The ``PreTrainedModel`` subclass ``architectures`` names first (None where it names
    none that transformers has); ``ModelLoadError`` for a name of transformers that is not one."""
    chosen = None
    homes = getattr(transformers, "_class_to_module", None)  # its lazy module's name -> submodule
    for name in config.get("architectures") or ():
        home = homes.get(name) if isinstance(homes, dict) else None
        if isinstance(home, str) and not home.startswith("models."):  # Trainer, pipeline: not even imported
            raise ModelLoadError(Text("load.hf_not_model_class", path=folder, name=repr(name)))
        try:
            found = getattr(transformers, name, None) if name.isidentifier() else None
        except Exception as exc:  # noqa: BLE001 -- a lazy import of transformers failed: one line
            raise ModelLoadError(Text("load.hf_build_failed", path=folder, error=f"{name}: {first_line(exc)}")) from None
        if found is None:
            continue
        if not (isinstance(found, type) and issubclass(found, transformers.PreTrainedModel)):
            raise ModelLoadError(Text("load.hf_not_model_class", path=folder, name=repr(name)))
        chosen = chosen or found
    return chosen


def causal_lm_class(transformers: Any, config: dict[str, Any], folder: Path) -> tuple[Any, Text] | None:
    """The causal language model class of the config's ``model_type`` and the note that says so
    (None where the config has no ``model_type``: transformers says what it lacks);
    ``ModelLoadError`` naming the type's model classes where it has none."""
    model_type = config.get("model_type")
    if not isinstance(model_type, str):
        return None
    for name in _names(_auto_table(transformers, "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES").get(model_type)):
        found = getattr(transformers, name, None) if name.isidentifier() else None
        # The same allow-list as architectures: only a model class of transformers is ever built.
        if isinstance(found, type) and issubclass(found, transformers.PreTrainedModel):
            return found, Text(CLASS_FROM_TYPE, name=name, model_type=repr(model_type))
    choices = sorted({name for table in _auto_tables(transformers) for name in _names(table.get(model_type))})
    raise ModelLoadError(Text("load.hf_no_causal_class", path=folder, model_type=repr(model_type),
                              choices=", ".join(choices) or "none known"))  # fmt: skip


def _auto_table(transformers: Any, name: str) -> Any:
    try:
        table = getattr(transformers.models.auto.modeling_auto, name)
    except AttributeError:  # a release that keeps it elsewhere: no class is known
        return {}
    return table if isinstance(table, dict) else {}


def _auto_tables(transformers: Any) -> list[Any]:
    """Every model_type -> class-name table of transformers' auto classes (the task heads)."""
    try:
        names = [n for n in vars(transformers.models.auto.modeling_auto) if n.startswith("MODEL_") and n.endswith("_MAPPING_NAMES")]
    except AttributeError:
        return []
    return [_auto_table(transformers, n) for n in names]


def _names(entry: Any) -> list[str]:
    """A table's entry as class names (one name, or several for a type with variants)."""
    values = entry if isinstance(entry, (list, tuple)) else [entry]
    return [v for v in values if isinstance(v, str)]


def check_runtime_names(transformers: Any, config: dict[str, Any], folder: Path) -> None:
    """``UntrustedFileError`` for an implementation or quantization method transformers does
    not ship (call it unless the user trusts the folder)."""
    attention, experts = _attention_names(transformers), _experts_names(transformers)
    for where, part in nested_objects(config):
        for name in IMPLEMENTATION_FIELDS:
            value = part.get(name)
            values = value.values() if isinstance(value, dict) else [value]
            known = experts if "experts" in name else attention
            for item in (v for v in values if isinstance(v, str)):
                _check_implementation(transformers, folder, f"{where}{name}", item, known)
        quantization = part.get("quantization_config")
        if isinstance(quantization, dict):
            _check_quantization(transformers, folder, f"{where}quantization_config", quantization)


# --------------------------------------------------------------------------- parts


def _check_implementation(transformers: Any, folder: Path, field: str, value: str, known: set[str]) -> None:
    plain = value.removeprefix("paged|")
    if "/" in value or ":" in value or (value not in known and plain not in known):
        raise _not_built_in(transformers, folder, field, value, known)
    flash = _FLASH.match(plain)
    if flash and not _flash_installed(transformers, int(flash.group(1))) and _kernels_installed(transformers):
        raise UntrustedFileError(Text("load.hf_flash_missing", path=folder, field=field, value=repr(value)),
                                 path=str(folder), wanted=(value,))  # fmt: skip


def _check_quantization(transformers: Any, folder: Path, field: str, quantization: dict[str, Any]) -> None:
    method = quantization.get("quant_method")
    if method is None and (quantization.get("load_in_4bit") or quantization.get("load_in_8bit")):
        return  # bitsandbytes, as transformers reads such a config
    known = _quantization_names(transformers)
    if not isinstance(method, str) or method not in known:
        raise _not_built_in(transformers, folder, f"{field}.quant_method", method, known)


def _not_built_in(transformers: Any, folder: Path, field: str, value: Any, known: set[str]) -> UntrustedFileError:
    return UntrustedFileError(
        Text("load.hf_not_built_in", path=folder, field=field, value=repr(value), version=transformers.__version__,
             known=", ".join(sorted(known))),  # fmt: skip
        path=str(folder),
        wanted=(str(value),),
    )


def _attention_names(transformers: Any) -> set[str]:
    registered = _interface_names(transformers, "modeling_utils", "ALL_ATTENTION_FUNCTIONS")
    return {"eager", "paged|eager", *registered} if registered else set(_ATTENTION)


def _experts_names(transformers: Any) -> set[str]:
    registered = _interface_names(transformers, "integrations.moe", "ALL_EXPERTS_FUNCTIONS")
    registered |= _interface_names(transformers, "integrations.finegrained_fp8", "ALL_FP8_EXPERTS_FUNCTIONS")
    return {"eager", *registered} if registered else set(_EXPERTS)


def _interface_names(transformers: Any, module: str, name: str) -> set[str]:
    """The names a transformers interface (``AttentionInterface``) registers; none with a
    ``/`` or ``:`` (a Hub kernel a trusted load registered is still not built in)."""
    found: Any = transformers
    try:
        for part in [*module.split("."), name]:
            found = getattr(found, part)
        names = found.valid_keys() if hasattr(found, "valid_keys") else found.keys()
    except Exception:  # noqa: BLE001 -- a release without it: the fallback list
        return set()
    return {n for n in names if isinstance(n, str) and "/" not in n and ":" not in n}


def _quantization_names(transformers: Any) -> set[str]:
    """The ``quant_method`` values transformers has a quantizer for (``bitsandbytes``' two
    quantizers are one method in a config)."""
    try:
        mapping = transformers.quantizers.auto.AUTO_QUANTIZER_MAPPING
    except Exception:  # noqa: BLE001 -- a release without it: none is known to be built in
        return set()
    names = {n for n in mapping if isinstance(n, str)}
    return names | {n.rsplit("_", 1)[0] for n in names if n.endswith(("_4bit", "_8bit"))}


def _flash_installed(transformers: Any, version: int) -> bool:
    try:
        matrix = transformers.modeling_flash_attention_utils.FLASH_ATTENTION_COMPATIBILITY_MATRIX
        return bool(matrix[version]["general_availability_check"]())
    except Exception:  # noqa: BLE001 -- unknown here: not installed, as far as the app can tell
        return False


def _kernels_installed(transformers: Any) -> bool:
    try:
        return bool(transformers.utils.is_kernels_available())
    except Exception:  # noqa: BLE001 -- a release without kernels support
        return False
