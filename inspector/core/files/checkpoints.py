"""Checkpoints: what a ``torch.save`` file holds, unpickled with ``weights_only`` unless trusted.

Without trust nothing of the file runs: ``torch.load(weights_only=True)`` refuses any class
or function outside PyTorch's allow-list, and the refusal names every one the file wants (read
statically, nothing imported) so the user can judge before passing ``--trust``. A training
checkpoint (``{"model_state_dict": ..., "epoch": ...}``) gives its model part.
"""

from __future__ import annotations

import pickle
import pickletools
import re
import traceback
import warnings
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import torch
from torch import nn

from inspector.core.files.load_errors import (
    ModelLoadError,
    a_value_of,
    describe,
    incomplete,
    untrusted,
    user_code_error,
)
from inspector.core.files.load_bounds import (
    ShouldCancel,
    check_zip_sizes,
    is_zip,
    scan_plain_pickle,
    scan_zip_checkpoint,
)
from inspector.core.files.trust import unsafe_pickle_globals, weights_only_refuses
from inspector.core.messages import Text


def read_checkpoint(
    path: Path, *, trust: bool, should_cancel: ShouldCancel = None
) -> tuple[nn.Module | Mapping[str, Any], list[str]]:
    """The whole module or the state dict the file holds, and notes on where it was found in it.
    ``should_cancel``: the static check before an untrusted load stops when it says so."""
    if not trust:
        _refuse_before_loading(path, should_cancel)
    content = _torch_load(path, trust=trust)
    notes: list[str] = []
    if isinstance(content, Mapping):
        content, notes = _unwrap_checkpoint(content)
    if isinstance(content, nn.Module) or _is_state_dict(content):
        return content, notes
    raise ModelLoadError(Text("load.holds_no_model", path=path, value=a_value_of(content)))


def _refuse_before_loading(path: Path, should_cancel: ShouldCancel) -> None:
    """Read the file statically, with bounded work, before torch.load does: its declared
    sizes (``load_bounds``) and every name its pickle asks for. A name weights-only loading
    refuses is refused here, with all the others listed (torch.load names only the first,
    and PyTorch's own lister stops at opcodes it does not know)."""
    try:
        if is_zip(path):
            scan = scan_zip_checkpoint(path, check_zip_sizes(path), should_cancel)
        else:
            scan = scan_plain_pickle(path, should_cancel)
    except OSError:
        return  # torch.load says what is wrong with reading it
    wanted = weights_only_refuses(scan.names) if scan is not None else ()
    if wanted:
        raise untrusted(path, wanted)


def _torch_load(path: Path, *, trust: bool) -> Any:
    """torch.load with weights_only unless trusted; every failure becomes a plain message."""
    try:
        # map_location: a file saved on a GPU must open on a machine without one. PyTorch's
        # warnings (an unusual pickle protocol, say) are about the file: the error says it.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return torch.load(str(path), map_location="cpu", weights_only=not trust)
    except pickle.UnpicklingError as exc:
        if trust:
            raise incomplete(path, describe(exc)) from exc
        wanted = (
            _unsafe_globals_in_checkpoint(path)
            or _unsafe_globals_in_raw_pickle(path)
            or globals_named_in(str(exc))
        )
        if not wanted and not _zip_pickle_is_well_formed(path):
            raise incomplete(path, Text("load.pickle_damaged", error=describe(exc))) from exc
        raise untrusted(path, wanted, detail=str(exc)) from exc
    except (AttributeError, ImportError) as exc:  # only when trusted: a class it names is missing
        raise ModelLoadError(Text("load.code_not_importable", path=path, error=describe(exc))) from exc
    except Exception as exc:
        if trust and not isinstance(exc, (RuntimeError, EOFError, OSError)):
            # A trusted pickle runs its own code, which may raise anything.
            raise ModelLoadError(
                Text("load.failed", path=path, error=describe(exc)), detail=traceback.format_exc()
            ) from exc
        # Weights-only loading runs no code of the file: whatever it raises (RuntimeError
        # from the zip reader, EOFError, IndexError for a cut legacy pickle...) is damage.
        if "Invalid magic number" in str(exc):  # the legacy loader's first pickle was something else
            raise incomplete(path, Text("load.reason_plain_pickle")) from exc
        raise incomplete(path, describe(exc)) from exc
    except BaseException as exc:  # a trusted pickle's code raised SystemExit or its own kind
        raise user_code_error(Text("load.failed", path=path, error=describe(exc)), exc) from exc


def _unsafe_globals_in_checkpoint(path: Path) -> tuple[str, ...]:
    """Every class/function the checkpoint's pickle names that weights_only does not allow.

    A static read of the pickle: nothing is imported or run. torch.load stops at the first
    such name; this lists them all (torch >= 2.6, zip checkpoints only).
    """
    lister = getattr(torch.serialization, "get_unsafe_globals_in_checkpoint", None)
    if lister is None:
        return ()
    try:
        return tuple(sorted(lister(str(path))))
    except Exception:  # noqa: BLE001 -- legacy format, or a pickle it cannot walk: fall back to the message
        return ()


def _unsafe_globals_in_raw_pickle(path: Path) -> tuple[str, ...]:
    """The same for a file that is not a zip: a raw pickle or torch.save's legacy format."""
    try:
        if zipfile.is_zipfile(path):
            return ()
        return unsafe_pickle_globals(path.read_bytes())
    except OSError:
        return ()


_GLOBAL_IN_MESSAGE = re.compile(r"GLOBAL ([\w.]+)")


def globals_named_in(message: str) -> tuple[str, ...]:
    """The names weights_only refused, from its message ("Unsupported global: GLOBAL x.Y ...")."""
    return tuple(sorted(set(_GLOBAL_IN_MESSAGE.findall(message))))


def _zip_pickle_is_well_formed(path: Path) -> bool:
    """Whether the checkpoint's data.pkl parses to its end (read statically, nothing runs).

    weights_only refuses some intact files without naming a class (a pickle protocol it does
    not read, for one); those need trust, while a damaged pickle needs a new file.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            record = next(name for name in archive.namelist() if name.endswith("/data.pkl"))
            for _ in pickletools.genops(archive.read(record)):
                pass
    except Exception:  # noqa: BLE001 -- not a zip, no data.pkl, or a pickle cut short or garbled
        return False
    return True


_CHECKPOINT_MODEL_KEYS = ("state_dict", "model_state_dict", "model")


def _unwrap_checkpoint(content: Mapping[str, Any]) -> tuple[Any, list[str]]:
    """A training checkpoint ({"model_state_dict": ..., "epoch": ...}) -> its model part."""
    for key in _CHECKPOINT_MODEL_KEYS:
        if key in content and (
            isinstance(content[key], nn.Module) or _is_state_dict(content[key])
        ):
            others = [str(other) for other in content if other != key]
            notes: list[str] = [Text("load.note_checkpoint_entry", key=repr(key))]
            if others:
                notes.append(Text("load.note_checkpoint_unused", keys=", ".join(others)))
            return content[key], notes
    return content, []


def _is_state_dict(content: Any) -> bool:
    """A mapping of names to tensors (at least one), as ``Module.state_dict()`` gives."""
    return (
        isinstance(content, Mapping)
        and len(content) > 0
        and all(isinstance(key, str) for key in content)
        and any(isinstance(value, torch.Tensor) for value in content.values())
    )
