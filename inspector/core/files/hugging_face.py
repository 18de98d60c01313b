"""Hugging Face model folders: a folder with ``config.json`` (and, optionally, its weights as
``model.safetensors`` or shards named by ``model.safetensors.index.json``), or ``hf:ORG/NAME``
found in the local Hugging Face cache. Nothing is ever downloaded.

With only a config, the model is built on the meta device: every tensor has its shape and
dtype and no storage, so a 70B config is inspected and planned for on a laptop (``fit``
traces its step on fake tensors). With weights, ``transformers`` loads them from the
``.safetensors`` files (no pickle is ever read: a folder with only ``pytorch_model.bin`` is
built from its config and says so).

Trust: a config whose ``auto_map`` names Python files of the folder (``trust_remote_code``)
is refused unless the user trusts it (``--trust``); the refusal says which code it would
run, and none of it runs. ``transformers`` is an optional dependency (the ``hf`` extra),
imported only when such a folder is opened.

Costs: importing ``transformers`` (about 2 s, once); building on meta allocates nothing
(under a second for an 8B config); loading weights reads them whole.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, NamedTuple

import torch
from torch import nn

from inspector.core.files.load_errors import ModelLoadError, UntrustedFileError
from inspector.core.messages import Text
from inspector.core.units import first_line as _first_line

PREFIX = "hf:"
CONFIG = "config.json"
SAFETENSORS = "model.safetensors"
SAFETENSORS_INDEX = "model.safetensors.index.json"
#: The longest token sequence of the example input (a model's own limit where smaller).
EXAMPLE_TOKENS = 128
_REPO_NAME = re.compile(r"[A-Za-z0-9][\w.\-]*/[A-Za-z0-9][\w.\-]*\Z")


class HuggingFaceModel(NamedTuple):
    module: nn.Module
    example_input: Any
    notes: list[str]


def is_model_folder(path: str | os.PathLike[str]) -> bool:
    """A folder holding a ``config.json``."""
    folder = Path(path)
    return folder.is_dir() and (folder / CONFIG).is_file()


def cache_root() -> Path:
    """Where ``huggingface_hub`` keeps downloaded models: ``HF_HUB_CACHE``, else
    ``$HF_HOME/hub``, else ``$XDG_CACHE_HOME/huggingface/hub`` (``~/.cache`` by default)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg).expanduser() / "huggingface" / "hub"


def cached_folder(name: str) -> Path:
    """The snapshot folder of ``ORG/NAME`` in the local cache (the revision ``refs/main``
    names, else the newest snapshot); ``ModelLoadError`` naming the cache where it is absent."""
    if not _REPO_NAME.match(name):
        raise ModelLoadError(Text("load.hf_bad_name", name=repr(name)))
    cache = cache_root()
    repo = cache / ("models--" + name.replace("/", "--"))
    snapshots = repo / "snapshots"
    chosen: Path | None = None
    ref = repo / "refs" / "main"
    if ref.is_file():
        candidate = snapshots / ref.read_text(encoding="utf-8").strip()
        chosen = candidate if candidate.is_dir() else None
    if chosen is None and snapshots.is_dir():
        found = sorted((p for p in snapshots.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime)
        chosen = found[-1] if found else None
    if chosen is None or not (chosen / CONFIG).is_file():
        raise ModelLoadError(Text("load.hf_not_in_cache", name=name, cache=cache))
    return chosen


def load_folder(folder: Path, *, trust: bool) -> HuggingFaceModel:
    """The model a Hugging Face folder describes: with its weights where they are
    ``.safetensors``, else built on the meta device from ``config.json`` alone."""
    config_data = _read_config(folder)
    remote = config_data.get("auto_map")
    if remote and not trust:
        code = _remote_code(folder, remote)
        raise UntrustedFileError(Text("load.hf_remote_code", path=folder, code=code), path=str(folder),
                                 wanted=tuple(code.split(", ")))  # fmt: skip
    try:
        import transformers
    except ImportError:
        raise ModelLoadError(Text("load.hf_needs_transformers", path=folder)) from None
    remote_code = bool(remote) and trust
    try:
        config = transformers.AutoConfig.from_pretrained(str(folder), local_files_only=True,
                                                         trust_remote_code=remote_code)  # fmt: skip
    except (ValueError, KeyError) as exc:
        if "model_type" in config_data and not remote:
            raise ModelLoadError(Text("load.hf_unknown_type", path=folder, version=transformers.__version__,
                                      model_type=repr(config_data.get("model_type"))),  # fmt: skip
                                 detail=str(exc)) from None
        raise ModelLoadError(Text("load.hf_bad_config", path=folder, error=_first_line(exc)), detail=str(exc)) from None
    notes: list[str] = []
    dtype = _config_dtype(config)
    weights = _safetensors_files(folder)
    try:
        if weights:
            module = _pretrained_class(transformers, config, remote_code).from_pretrained(
                str(folder), config=config, local_files_only=True, use_safetensors=True,
                trust_remote_code=remote_code, **{_dtype_keyword(transformers): dtype},
            )  # fmt: skip
            count = sum(1 for _ in module.state_dict())
            notes.append(Text("load.hf_weights", files=", ".join(p.name for p in weights), count=count))
        else:
            with torch.device("meta"):
                module = _build(transformers, config, remote_code)
            module = module.to(dtype)  # meta tensors: nothing is copied
            pickled = sorted(p.name for p in folder.glob("*.bin"))
            notes.append(Text("load.hf_bin_ignored", files=", ".join(pickled)) if pickled else Text("load.hf_config_only"))
    except ModelLoadError:
        raise
    except Exception as exc:  # noqa: BLE001 -- transformers and a model's code raise anything: one line for the user
        raise ModelLoadError(Text("load.hf_build_failed", path=folder, error=_first_line(exc)),
                             detail=f"{type(exc).__name__}: {exc}") from None  # fmt: skip
    module.eval()
    example = _token_input(module, config)
    if example is not None:
        notes.append(Text("load.hf_token_input", shape=tuple(example.shape), vocab=f"{_vocab_size(config):,}"))
    return HuggingFaceModel(module, example, notes)


# --------------------------------------------------------------------------- parts


def _read_config(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / CONFIG).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ModelLoadError(Text("load.hf_bad_config", path=folder, error=_first_line(exc))) from None
    if not isinstance(data, dict):
        raise ModelLoadError(Text("load.hf_bad_config", path=folder, error="not a JSON object"))
    return data


def _remote_code(folder: Path, auto_map: Any) -> str:
    """What ``trust_remote_code`` would run: each class and the file it is in."""
    entries = auto_map.values() if isinstance(auto_map, dict) else [auto_map]
    named: list[str] = []
    for entry in entries:
        for reference in entry if isinstance(entry, (list, tuple)) else [entry]:
            if not isinstance(reference, str):
                continue
            module, _, cls = reference.rpartition("--")[2].rpartition(".")
            where = f"{module}.py" if module else reference
            exists = "" if (folder / where).is_file() else ", not in the folder"
            named.append(f"{cls} from {where}{exists}")
    return ", ".join(dict.fromkeys(named)) or repr(auto_map)


def _config_dtype(config: Any) -> torch.dtype:
    """The dtype the config says its weights are in (``dtype``, ``torch_dtype``), else float32."""
    for name in ("dtype", "torch_dtype"):
        value = getattr(config, name, None)
        if isinstance(value, torch.dtype):
            return value
        if isinstance(value, str) and isinstance(getattr(torch, value, None), torch.dtype):
            found: torch.dtype = getattr(torch, value)
            return found
    return torch.float32


def _dtype_keyword(transformers: Any) -> str:
    """``from_pretrained``'s dtype argument: ``dtype`` from transformers 4.56 on."""
    major, minor = (int(p) for p in re.findall(r"\d+", transformers.__version__)[:2])
    return "dtype" if (major, minor) >= (4, 56) else "torch_dtype"


def _safetensors_files(folder: Path) -> list[Path]:
    if (folder / SAFETENSORS).is_file():
        return [folder / SAFETENSORS]
    index = folder / SAFETENSORS_INDEX
    if index.is_file():
        try:
            weight_map = json.loads(index.read_text(encoding="utf-8")).get("weight_map", {})
        except (OSError, ValueError) as exc:
            raise ModelLoadError(Text("load.hf_bad_config", path=index, error=_first_line(exc))) from None
        return [folder / name for name in sorted(set(weight_map.values()))]
    return []


def _pretrained_class(transformers: Any, config: Any, remote_code: bool) -> Any:
    """The class the config's ``architectures`` names (``LlamaForCausalLM``), else the auto
    class the folder's code maps, else ``AutoModel``."""
    for name in getattr(config, "architectures", None) or ():
        cls = getattr(transformers, name, None) if isinstance(name, str) else None
        if cls is not None:
            return cls
    auto_map = getattr(config, "auto_map", None) or {}
    if remote_code:
        for key in ("AutoModelForCausalLM", "AutoModelForMaskedLM", "AutoModelForSeq2SeqLM", "AutoModel"):
            if key in auto_map:
                return getattr(transformers, key)
    return transformers.AutoModel


def _build(transformers: Any, config: Any, remote_code: bool) -> nn.Module:
    cls = _pretrained_class(transformers, config, remote_code)
    if cls.__name__.startswith("Auto"):
        built: nn.Module = cls.from_config(config, trust_remote_code=remote_code)
    else:
        built = cls(config)
    return built


def _vocab_size(config: Any) -> int | None:
    size = getattr(config, "vocab_size", None)
    if size is None and hasattr(config, "get_text_config"):
        size = getattr(config.get_text_config(), "vocab_size", None)
    return int(size) if isinstance(size, int) and size > 0 else None


def _token_input(module: nn.Module, config: Any) -> torch.Tensor | None:
    """Token ids for a model whose main input is ``input_ids``: (1, up to 128), below the
    vocabulary size; None for other models (their input is given by shape)."""
    vocab = _vocab_size(config)
    if getattr(module, "main_input_name", None) != "input_ids" or vocab is None:
        return None
    limits = [getattr(config, name, None) for name in ("max_position_embeddings", "n_positions")]
    tokens = min([EXAMPLE_TOKENS] + [n for n in limits if isinstance(n, int) and n > 0])
    generator = torch.Generator().manual_seed(0)
    return torch.randint(0, vocab, (1, tokens), generator=generator, dtype=torch.int64)

