"""The files a Hugging Face load reads, checked before transformers sees them, and the folder
transformers is then given: one holding those files and nothing else.

Each file is looked at with ``lstat`` first: it must lead (through any links) to a regular file
inside ``root`` (the folder itself; for a cached model, its repository folder, where the
snapshot's links point into ``blobs/``). A FIFO shard hung the load for ever (its open is in
Rust and retries on EINTR, so not even Ctrl-C ended it); a link to ``/etc`` or to another
user's files is not the folder's. The JSON files are then read with bounds (``json_file``);
the weight index must be an object whose ``weight_map`` names plain file names of the folder.

Transformers is never pointed at the folder itself: it gets a private temporary folder (the
"stage") holding the config, generation config and index exactly as read and checked here,
and links to the checked weight files. Each weight (and trusted code) file is opened as it is
staged and checked again through its descriptor, and the stage's link leads to that open file
(``/dev/fd/N``) where the system has one: a shard swapped for a FIFO, or for a link elsewhere,
between the check and transformers' open is refused, never read. So whatever else the folder holds (a tokenizer, an
``adapter_config.json`` naming another model, a file a later transformers would look for) is
not there for it to open, and a config with a byte-order mark is read as the report reader
reads one. The folder's Python files are staged only when the user trusts its code.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.core.files.hugging_face.json_file import read_json_object
from inspector.core.files.load_errors import ModelLoadError, a_value_of
from inspector.core.files.regular_file import kernel_file_systems
from inspector.core.messages import Text

CONFIG = "config.json"
GENERATION = "generation_config.json"
SAFETENSORS = "model.safetensors"
SAFETENSORS_INDEX = "model.safetensors.index.json"
#: config.json and generation_config.json: published configs are a few KB; the largest known
#: (BEiT's 21,841 ImageNet-22k labels, named twice) about 1.5 MB.
CONFIG_LIMIT = 4 * 2**20
CONFIG_KEYS = 262_144
#: The weight index: DeepSeek-V3's (about 91,000 tensors in 163 files) is about 9 MB.
INDEX_LIMIT = 32 * 2**20
INDEX_KEYS = 1_048_576
#: Weight files one index may name (Llama 3.1 405B has 191, DeepSeek-V3 163).
SHARDS = 4096


@dataclass(frozen=True)
class FolderFiles:
    """What a load reads, as checked: the JSON files' content, the weight files' real paths."""

    folder: Path
    config: dict[str, Any]
    generation: dict[str, Any] | None
    index: dict[str, Any] | None
    #: (name in the folder, the regular file it leads to), in the folder's order of names.
    weights: tuple[tuple[str, Path], ...]
    code: tuple[tuple[str, Path], ...]
    #: Pickled weights the folder holds (never read; said in a note).
    pickled: tuple[str, ...]


def read_config(folder: Path, root: Path) -> dict[str, Any]:
    """``config.json``, checked and read with bounds."""
    found = _checked(folder, root, CONFIG)
    if found is None:
        raise ModelLoadError(Text("load.hf_bad_config", path=folder, error=f"{CONFIG}: no such file"))
    return read_json_object(found, folder=folder, limit=CONFIG_LIMIT, keys=CONFIG_KEYS, what=CONFIG)


def check_folder(folder: Path, root: Path, config: dict[str, Any], *, with_code: bool) -> FolderFiles:
    """Every file the load will read, checked (``with_code``: the folder's ``*.py`` too)."""
    generation_file = _checked(folder, root, GENERATION)
    generation = None
    if generation_file is not None:
        generation = read_json_object(generation_file, folder=folder, limit=CONFIG_LIMIT, keys=CONFIG_KEYS,
                                      what=GENERATION)  # fmt: skip
    index = None
    single = _checked(folder, root, SAFETENSORS)
    if single is not None:  # transformers prefers it to an index: so is it read alone
        weights: tuple[tuple[str, Path], ...] = ((SAFETENSORS, single),)
    else:
        index_file = _checked(folder, root, SAFETENSORS_INDEX)
        weights = ()
        if index_file is not None:
            index = read_json_object(index_file, folder=folder, limit=INDEX_LIMIT, keys=INDEX_KEYS,
                                     what=SAFETENSORS_INDEX)  # fmt: skip
            weights = tuple((name, _required(folder, root, name)) for name in _shard_names(folder, index))
    names = _names(folder)
    code = tuple((name, _required(folder, root, name)) for name in names if name.endswith(".py")) if with_code else ()
    pickled = tuple(name for name in names if name.endswith(".bin"))
    return FolderFiles(folder, config, generation, index, weights, code, pickled)


@contextmanager
def staged(files: FolderFiles) -> Iterator[Path]:
    """A private folder holding only what was checked: the JSON files as read, links to the
    weight (and, trusted, code) files. Removed on the way out."""
    stage = Path(tempfile.mkdtemp(prefix="inspector-hf-"))
    held = ExitStack()
    try:
        _write_json(stage / CONFIG, files.config)
        if files.generation is not None:
            _write_json(stage / GENERATION, files.generation)
        if files.index is not None:
            _write_json(stage / SAFETENSORS_INDEX, files.index)
        for name, real in files.weights + files.code:
            _link(_held(real, name, files.folder, held), stage / name, files.folder)
        yield stage
    finally:
        held.close()
        shutil.rmtree(stage, ignore_errors=True)


# --------------------------------------------------------------------------- parts


def _checked(folder: Path, root: Path, name: str) -> Path | None:
    """The regular file inside ``root`` that ``folder/name`` leads to; None where there is no
    such name; ``ModelLoadError`` for anything else (a FIFO, a device, a link out)."""
    path = folder / name
    try:
        os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _unreadable(folder, name, exc) from None
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(root):
        raise ModelLoadError(Text("load.hf_outside", path=folder, name=name, target=real, root=root))
    try:
        info = os.stat(real)
    except OSError as exc:
        raise _unreadable(folder, name, exc) from None
    kind = _kind(info)
    if kind:
        raise ModelLoadError(Text("load.hf_not_regular", path=folder, name=name, kind=kind))
    return real


def _required(folder: Path, root: Path, name: str) -> Path:
    found = _checked(folder, root, name)
    if found is None:
        raise ModelLoadError(Text("load.hf_bad_config", path=folder, error=f"{name}: no such file"))
    return found


def _kind(info: os.stat_result) -> str:
    """What a file that is not a regular file with content of its own is ("" for one that is)."""
    mode = info.st_mode
    if stat.S_ISREG(mode):
        return "a file of /proc or /sys" if info.st_dev in kernel_file_systems() else ""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def _unreadable(folder: Path, name: str, exc: OSError) -> ModelLoadError:
    return ModelLoadError(Text("load.hf_bad_config", path=folder, error=f"{name}: {exc.strerror or exc}"))


def _shard_names(folder: Path, index: dict[str, Any]) -> list[str]:
    """The weight files an index names: plain names of the folder, each once, in order."""
    weight_map = index.get("weight_map")
    if not isinstance(weight_map, dict) or not all(isinstance(v, str) for v in weight_map.values()):
        shown = a_value_of(weight_map) if not isinstance(weight_map, dict) else Text("load.hf_index_names_not_text")
        raise ModelLoadError(Text("load.hf_index_no_map", path=folder, name=SAFETENSORS_INDEX, value=shown))
    names = sorted(set(weight_map.values()))
    for name in names:
        if not _plain_name(name):
            raise ModelLoadError(Text("load.hf_bad_file_name", path=folder, where=SAFETENSORS_INDEX, name=repr(name)))
    if len(names) > SHARDS:
        raise ModelLoadError(Text("load.hf_too_many_shards", path=folder, name=SAFETENSORS_INDEX,
                                  count=f"{len(names):,}", limit=f"{SHARDS:,}"))  # fmt: skip
    return names


def _plain_name(name: str) -> bool:
    """A file name of the folder itself: no separator, no parent, nothing hidden in it."""
    return (
        0 < len(name) <= 255
        and name not in (".", "..")
        and not any(c in name for c in "/\\\0:")
        and name.isprintable()
        and Path(name).name == name
    )


def _names(folder: Path) -> list[str]:
    try:
        return sorted(entry.name for entry in os.scandir(folder))
    except OSError as exc:
        raise _unreadable(folder, ".", exc) from None


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data), encoding="utf-8")


def _held(real: Path, name: str, folder: Path, held: ExitStack) -> Path:
    """The checked file, opened now and checked again by its descriptor (kept open in ``held``),
    and the path that leads to that open file rather than to whatever its name holds later
    (``/dev/fd/N``; the real path where the system has no such folder)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)  # O_NONBLOCK: a FIFO put there since the check opens at once
    except OSError as exc:
        raise _unreadable(folder, name, exc) from None
    held.callback(os.close, fd)
    kind = _kind(os.fstat(fd))
    if kind:
        raise ModelLoadError(Text("load.hf_not_regular", path=folder, name=name, kind=kind))
    by_descriptor = Path(f"/dev/fd/{fd}")
    return by_descriptor if by_descriptor.exists() else real


def _link(real: Path, link: Path, folder: Path) -> None:
    """A link to a checked file (a symbolic one, else a hard one where symbolic links need
    privileges); nothing is copied."""
    try:
        os.symlink(real, link)
    except OSError:
        try:
            os.link(real, link)
        except OSError as exc:
            error = f"{link.name} could not be linked in {link.parent}: {exc.strerror or exc}"
            raise ModelLoadError(Text("load.hf_build_failed", path=folder, error=error)) from None
