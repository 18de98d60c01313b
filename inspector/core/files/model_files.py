"""Model files: which kind a file is (judged by content), and its loader for each kind.

TorchScript archives, ``torch.export`` ``.pt2`` programs, ``.safetensors`` weights and
``torch.save`` checkpoints (``checkpoints``). Without trust nothing from a file runs or
touches the disk: a TorchScript archive or a ``.pt2`` opens only when ``files.trust`` finds
nothing in it that would run code at load, and every ``torch.load`` inside is weights-only.
Anything that is not a regular file (a FIFO, a device) is refused before it is opened.
"""

from __future__ import annotations

import os
import pickle
import struct
import traceback
import zipfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import torch
from torch import nn

from inspector.core.files.checkpoints import globals_named_in, read_checkpoint
from inspector.core.files.load_bounds import ShouldCancel, check_zip_sizes
from inspector.core.files.load_errors import ModelLoadError, describe, incomplete, untrusted
from inspector.core.files.regular_file import NotRegularFile, open_regular
from inspector.core.files.safetensors_file import open_safetensors
from inspector.core.files.trust import exported_program_risks, starts_like_pickle, torchscript_risks
from inspector.core.messages import Text


class FileContent(NamedTuple):
    """What a model file holds: a whole module, or only weights that need the module they
    belong to (a state dict, or a ``SafetensorsFile``: the header, its tensors read once they
    fit). ``source``: "torchscript", "export", "pickle", "state_dict" or "safetensors"."""

    model: nn.Module | Mapping[str, Any]
    source: str
    example_input: Any = None
    notes: tuple[str, ...] = ()


_PICKLE_PROTOCOL_OPCODE = 0x80
_CODE_AT_LOAD = Text("load.reason_code_or_files")


def open_model_file(path: Path, *, trust: bool, should_cancel: ShouldCancel = None) -> FileContent:
    """Load the file at ``path`` on the CPU with the loader its content needs.

    ``trust`` lets it run the code it needs (pickled modules, TorchScript that runs at load);
    only pass it when the user said so for this file. ``should_cancel`` stops the static
    check of an untrusted file (``load_bounds``) when it says so.
    """
    kind = _file_kind(path)
    if not trust and kind in ("torchscript", "export"):
        check_zip_sizes(path)  # before any of their records is inflated
    if kind == "torchscript":
        return _load_torchscript(path, trust=trust)
    if kind == "export":
        return _load_exported_program(path, trust=trust)
    if kind == "safetensors":  # the header only: tensors are read once they fit (state_dicts)
        return FileContent(open_safetensors(path), "safetensors")
    model, notes = read_checkpoint(path, trust=trust, should_cancel=should_cancel)
    return FileContent(model, "pickle" if isinstance(model, nn.Module) else "state_dict", notes=tuple(notes))


def _file_kind(path: Path) -> str:
    """Which loader the file needs ("torchscript", "export", "safetensors", "checkpoint").

    Judged by content, not by name: people call all of them ``.pt``.
    """
    if not path.exists():
        raise ModelLoadError(Text("load.no_such_file", path=path))
    if path.is_dir():
        raise ModelLoadError(Text("load.is_folder", path=path))
    head, size = _read_head(path)
    if size == 0:
        if head:  # a size of 0 that reads as something: a file the kernel makes up as it is read
            raise ModelLoadError(Text("load.kernel_file", path=path))
        raise incomplete(path, Text("load.reason_empty"))
    if head.startswith(b"PK\x03\x04"):
        return _zip_kind(path)
    if _looks_like_safetensors(head, size):
        return "safetensors"
    if head[0] == _PICKLE_PROTOCOL_OPCODE:  # torch.save's legacy (pre-1.6) format
        return "checkpoint"
    if size <= _LARGEST_TEXT_PICKLE and starts_like_pickle(path):
        return "checkpoint"  # a protocol 0/1 pickle: weights-only loading judges it
    if path.suffix == ".safetensors":
        raise incomplete(path, Text("load.reason_safetensors_header"))
    raise incomplete(path, Text("load.reason_unknown_format"))


#: Pickles of protocol 0 and 1 have no header; past this size they are not worth parsing.
_LARGEST_TEXT_PICKLE = 64 * 2**20


def _read_head(path: Path) -> tuple[bytes, int]:
    """The first bytes and size of a regular file; anything else is refused unopened
    (``regular_file.open_regular``: stat, then an O_NONBLOCK open and fstat; a FIFO would block
    the read forever, a device can be endless, a file of /proc or /sys has a size that says
    nothing of what it holds)."""
    try:
        descriptor, status = open_regular(path)
        with os.fdopen(descriptor, "rb") as stream:
            return stream.read(16), status.st_size
    except NotRegularFile as exc:
        raise ModelLoadError(Text("load.kernel_file" if exc.kernel_file else "load.not_regular", path=path)) from None
    except IsADirectoryError:
        raise ModelLoadError(Text("load.not_regular", path=path)) from None
    except OSError as exc:
        raise ModelLoadError(Text("load.cannot_read", path=path, error=exc.strerror or exc)) from exc


def _zip_kind(path: Path) -> str:
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise incomplete(path, Text("load.reason_cut_short")) from None
    # PyTorch writes every record under one top folder (named after the file or "archive").
    records = {name.partition("/")[2] or name for name in names}
    if any(record.startswith("data/aotinductor/") for record in records):
        raise ModelLoadError(Text("load.aotinductor", path=path))
    if (
        "archive_format" in records
        or "serialized_exported_program.json" in records  # older torch.export.save layout
        or any(record.startswith("models/") and record.endswith(".json") for record in records)
    ):
        return "export"
    if "constants.pkl" in records:
        return "torchscript"
    if "data.pkl" in records:
        return "checkpoint"
    raise incomplete(path, Text("load.reason_foreign_zip"))


def _looks_like_safetensors(head: bytes, size: int) -> bool:
    """A safetensors file: an 8-byte little-endian header length, then a JSON object."""
    if len(head) < 9:
        return False
    (header_length,) = struct.unpack("<Q", head[:8])
    return 0 < header_length <= size - 8 and head[8:9] == b"{"


def _load_torchscript(path: Path, *, trust: bool) -> FileContent:
    # TorchScript archives hold TorchScript code and C++-unpickled constants: no Python code
    # of the file runs, but a scripted __setstate__ runs at load and scripted code can call
    # ops that write files (torch.from_file(..., shared=True)): those need trust.
    if not trust:
        try:
            risks = torchscript_risks(path)
        except Exception as exc:  # PyTorch's zip reader refused it: the loader would too
            raise incomplete(path, Text("load.reason_torchscript_unreadable", error=describe(exc))) from exc
        if risks:
            raise untrusted(path, risks, reason=_CODE_AT_LOAD)
    try:
        module = torch.jit.load(str(path), map_location="cpu")
    except Exception as exc:
        raise incomplete(path, Text("load.reason_torchscript_unreadable", error=describe(exc))) from exc
    return FileContent(module, "torchscript")


def _load_exported_program(path: Path, *, trust: bool) -> FileContent:
    if not trust:
        try:
            risks = exported_program_risks(path)
        except Exception as exc:  # the zip reader or the config parser refused it
            raise ModelLoadError(
                Text("load.export_failed", path=path, error=describe(exc)),
                detail=traceback.format_exc(),
            ) from exc
        if risks:
            raise untrusted(path, risks, reason=_CODE_AT_LOAD)
    try:
        with _torch_load_weights_only(enabled=not trust):
            program = torch.export.load(str(path))
        module = program.module()
    except pickle.UnpicklingError as exc:
        raise untrusted(path, globals_named_in(str(exc)), detail=str(exc)) from exc
    except Exception as exc:
        raise ModelLoadError(
            Text("load.export_failed", path=path, error=describe(exc)),
            detail=traceback.format_exc(),
        ) from exc
    return FileContent(module, "export", example_input=_exported_example_input(program))


@contextmanager
def _torch_load_weights_only(*, enabled: bool) -> Iterator[None]:
    """Force ``weights_only=True`` on every torch.load inside the block.

    torch.export.load calls torch.load(..., weights_only=False) on pickled members of the
    archive; TORCH_FORCE_WEIGHTS_ONLY_LOAD is PyTorch's documented switch that overrides
    such call sites (torch >= 2.4), so nothing in the archive can run code. The variable is
    process-wide for the moment of the load; it can only make a concurrent torch.load safer.
    """
    if not enabled:
        yield
        return
    names = ("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD")
    saved = {name: os.environ.get(name) for name in names}
    os.environ["TORCH_FORCE_WEIGHTS_ONLY_LOAD"] = "1"
    os.environ.pop("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", None)  # both set is an error
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _exported_example_input(program: Any) -> Any:
    """The positional inputs the program was exported with, when there are no keywords."""
    example = getattr(program, "example_inputs", None)
    if not example:
        return None
    args, kwargs = example
    if kwargs or not args or not all(isinstance(arg, torch.Tensor) for arg in args):
        return None
    return args[0] if len(args) == 1 else tuple(args)
