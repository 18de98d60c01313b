"""The model a Hugging Face folder describes, built through the gate's steps in order.

1. ``config.json`` stat-checked and read with bounds (``folder_files``, ``json_file``), what it
   declares checked (``config_values``); a folder whose config names its own code
   (``auto_map``) refused unless trusted, naming the code, none of it run;
2. every other file the load reads stat-checked (``folder_files``);
3. transformers imported with the Hub offline (``libraries``), the config's class and
   runtime names checked against what it ships (``code_names``);
4. transformers given a private folder of the checked files alone (``folder_files.staged``),
   while what it prints is taken and said again escaped (``library_output``);
5. a build from the config alone timed ahead and said when long, stoppable and bounded (``build_time``);
6. all of it sealed: on the loading thread, no process starts and no connection opens (``sealed``).

With only a config, the model is built on the meta device: every tensor has its shape and
dtype and no storage, so a 70B config is inspected and planned for on a laptop. With weights,
transformers loads them from the ``.safetensors`` files (no pickle is ever read: a folder with
only ``pytorch_model.bin`` is built from its config and says so).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import torch
from torch import nn

from inspector.core.files.hugging_face import (
    build_time, cache, code_names, config_values, folder_files, libraries, sealed,
)
from inspector.core.files.hugging_face.library_output import said_again, taken_output
from inspector.core.errors import Cancelled
from inspector.core.files.load_errors import ModelLoadError, UntrustedFileError
from inspector.core.messages import Text

#: The longest token sequence of the example input (a model's own limit where smaller).
EXAMPLE_TOKENS = 128
#: The most characters of a library's exception a one-line error shows.
_ERROR_LIMIT = 300


class HuggingFaceModel(NamedTuple):
    module: nn.Module
    example_input: Any
    notes: list[str]


def is_model_folder(path: str | os.PathLike[str]) -> bool:
    """A folder holding something named ``config.json`` (what it is, the load checks)."""
    folder = Path(path)
    return folder.is_dir() and os.path.lexists(folder / folder_files.CONFIG)


#: What a load may say while it works (a sentence for the user), and asks to know whether to stop.
Say = Callable[[str], None]
ShouldCancel = Callable[[], bool]


def load_cached(name: str, *, trust: bool, say: Say | None = None,
                should_cancel: ShouldCancel | None = None) -> HuggingFaceModel:  # fmt: skip
    """The model ``hf:NAME`` names in the local cache (nothing is downloaded)."""
    snapshot = cache.cached_folder(name)
    return load_folder(snapshot, trust=trust, root=cache.repository_of(snapshot), say=say, should_cancel=should_cancel)


def load_folder(folder: Path, *, trust: bool, root: Path | None = None, say: Say | None = None,
                should_cancel: ShouldCancel | None = None) -> HuggingFaceModel:  # fmt: skip
    """The model a Hugging Face folder describes: with its weights where they are
    ``.safetensors``, else built on the meta device from ``config.json`` alone. ``root``: the
    folder every file must lead into (default: the folder itself). ``say``: told, before a
    long build from the config, how long it will take; ``should_cancel``: asked during it."""
    root = Path(os.path.realpath(root or folder))
    config = folder_files.read_config(folder, root)
    config_values.check_config(config, folder)
    remote = config.get("auto_map")
    if remote and not trust:
        code = _remote_code(folder, remote)
        raise UntrustedFileError(Text("load.hf_remote_code", path=folder, code=code), path=str(folder),
                                 wanted=tuple(code.split(", ")))  # fmt: skip
    remote_code = bool(remote) and trust
    files = folder_files.check_folder(folder, root, config, with_code=remote_code)
    transformers = libraries.transformers_module(folder)
    if not trust:
        code_names.check_runtime_names(transformers, config, folder)
    chosen = code_names.model_class(transformers, config, folder)
    model_type = config.get("model_type")
    if isinstance(model_type, str) and not remote_code and model_type not in _known_types(transformers):
        raise ModelLoadError(Text("load.hf_unknown_type", path=folder, version=transformers.__version__,
                                  model_type=repr(model_type)))  # fmt: skip
    chosen_by: list[str] = []
    if chosen is None and not remote_code and (by_type := code_names.causal_lm_class(transformers, config, folder)):
        chosen, why = by_type
        chosen_by.append(why)
    lines: list[str] = []
    try:
        with folder_files.staged(files) as stage, taken_output(lines), sealed.sealed() as refused:
            module, built_config, notes = _built(transformers, files, stage, chosen, remote_code, say, should_cancel)
    finally:
        said = said_again(lines)
    notes.extend(Text("load.hf_sealed_refused", what=what) for what in dict.fromkeys(refused))
    module.eval()
    example = _token_input(module, built_config)
    if example is not None:
        notes.append(Text("load.hf_token_input", shape=tuple(example.shape), vocab=f"{_vocab_size(built_config):,}"))
    return HuggingFaceModel(module, example, chosen_by + notes + said)


# --------------------------------------------------------------------------- parts


def _built(transformers: Any, files: folder_files.FolderFiles, stage: Path, chosen: Any, remote_code: bool,
           say: Say | None, should_cancel: ShouldCancel | None) -> tuple[nn.Module, Any, list[str]]:  # fmt: skip
    """The module, transformers' config object and the notes, from the staged folder."""
    folder = files.folder
    try:
        config = transformers.AutoConfig.from_pretrained(str(stage), local_files_only=True,
                                                         trust_remote_code=remote_code)  # fmt: skip
    except Exception as exc:  # noqa: BLE001 -- transformers' validation raises many kinds: one line
        raise ModelLoadError(Text("load.hf_bad_config", path=folder, error=_said(exc, stage, folder)),
                             detail=f"{type(exc).__name__}: {exc}") from None  # fmt: skip
    notes: list[str] = []
    dtype = config_values.declared_dtype(files.config)
    cls = chosen or _auto_class(transformers, config, remote_code)
    try:
        if files.weights:
            with build_time.stoppable(None, folder):  # bounded as a build from the config alone
                module = cls.from_pretrained(
                    str(stage), config=config, local_files_only=True, use_safetensors=True,
                    trust_remote_code=remote_code, **{_dtype_keyword(transformers): dtype},
                )  # fmt: skip
            count = sum(1 for _ in module.state_dict())
            notes.append(Text("load.hf_weights", files=", ".join(name for name, _ in files.weights), count=count))
        else:
            build = functools.partial(_build, cls, remote_code=remote_code)
            long_build = build_time.announce(config, build_time.estimate_seconds(build, config, folder), say)
            if long_build is not None:
                notes.append(long_build)
            with torch.device("meta"), build_time.stoppable(should_cancel, folder):
                module = build(config)
            module = module.to(dtype)  # meta tensors: nothing is copied
            pickled = ", ".join(files.pickled)
            notes.append(Text("load.hf_bin_ignored", files=pickled) if pickled else Text("load.hf_config_only"))
    except (ModelLoadError, Cancelled):
        raise
    except Exception as exc:  # noqa: BLE001 -- transformers and a model's code raise anything: one line for the user
        raise ModelLoadError(Text("load.hf_build_failed", path=folder, error=_said(exc, stage, folder)),
                             detail=f"{type(exc).__name__}: {exc}") from None  # fmt: skip
    try:
        config.name_or_path = str(folder)  # not the stage, which is gone once loaded
    except Exception:  # noqa: BLE001 -- a config of the folder's own code may not allow it: only a name
        pass
    return module, config, notes


def _said(exc: BaseException, stage: Path, folder: Path) -> str:
    """A library's exception as one short line, naming the folder rather than the stage."""
    text = " ".join(str(exc).replace(str(stage), str(folder)).split()) or type(exc).__name__
    return text if len(text) <= _ERROR_LIMIT else text[: _ERROR_LIMIT - 3] + "..."


def _known_types(transformers: Any) -> Any:
    """The ``model_type`` values transformers has a config class for."""
    try:
        return transformers.models.auto.configuration_auto.CONFIG_MAPPING_NAMES
    except AttributeError:  # a release that keeps it elsewhere: let AutoConfig say
        return _Everything()


class _Everything:
    def __contains__(self, item: object) -> bool:
        return True


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


def _dtype_keyword(transformers: Any) -> str:
    """``from_pretrained``'s dtype argument: ``dtype`` from transformers 4.56 on."""
    major, minor = (int(p) for p in re.findall(r"\d+", transformers.__version__)[:2])
    return "dtype" if (major, minor) >= (4, 56) else "torch_dtype"


def _auto_class(transformers: Any, config: Any, remote_code: bool) -> Any:
    """Where no class was chosen before (``code_names``): the auto class the folder's code maps
    (trusted), else ``AutoModel`` (a config without ``model_type``)."""
    auto_map = getattr(config, "auto_map", None) or {}
    if remote_code:
        for key in ("AutoModelForCausalLM", "AutoModelForMaskedLM", "AutoModelForSeq2SeqLM", "AutoModel"):
            if key in auto_map:
                return getattr(transformers, key)
    return transformers.AutoModel


def _build(cls: Any, config: Any, *, remote_code: bool) -> nn.Module:
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
