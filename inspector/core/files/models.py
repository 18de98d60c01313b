"""Model specs: the example ``Net``, factories, and files of every kind PyTorch writes."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import pickle
import pickletools
import re
import stat
import struct
import sys
import traceback
import warnings
import zipfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import torch
from torch import nn

from inspector.core.errors import InputError, InspectorError
from inspector.core.vocabulary import FailureKind
from inspector.core.files.trust import (
    exported_program_risks,
    is_pickle,
    torchscript_risks,
    unsafe_pickle_globals,
)


class Net(nn.Module):
    """The tutorial's network, exactly: Linear(3, 2) -> Linear(2, 1)."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(3, 2)
        self.fc2 = nn.Linear(2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.fc2(self.fc1(x))
        return out


@dataclass
class LoadedModel:
    """A model and what travels with it. Mutable on purpose: the worker that owns it moves it.

    Only one thread (the CLI's main thread, or the GUI's ModelWorker) ever touches it.
    """

    spec: str
    module: nn.Module
    optimizer: torch.optim.Optimizer | None = None
    #: A tensor, or a tuple of positional tensors, the model's forward accepts; None if unknown.
    example_input: Any = None
    #: How it was loaded: "example", "factory", "torchscript", "export", "state_dict",
    #: "safetensors", "pickle".
    source: str = "factory"
    notes: list[str] = field(default_factory=list)
    #: Makes ``optimizer`` when it is first needed (``ensure_optimizer``): creating the first
    #: optimizer of a process imports ``torch._dynamo`` (about a second), which a window
    #: should not wait for before it lists the model's tensors.
    optimizer_factory: Callable[[nn.Module], torch.optim.Optimizer] | None = None
    #: The class name of the optimizer ``optimizer_factory`` makes (for reports, before it exists).
    deferred_optimizer_name: str | None = None

    @property
    def class_name(self) -> str:
        return type(self.module).__name__

    @property
    def optimizer_name(self) -> str | None:
        """The optimizer's class name, made or deferred; None when the model has none."""
        if self.optimizer is not None:
            return type(self.optimizer).__name__
        return self.deferred_optimizer_name if self.optimizer_factory is not None else None

    def ensure_optimizer(self) -> torch.optim.Optimizer | None:
        """The optimizer, made now by ``optimizer_factory`` if it was deferred; None if the
        model has none."""
        if self.optimizer is None and self.optimizer_factory is not None:
            self.optimizer = self.optimizer_factory(self.module)
            self.optimizer_factory = None
        return self.optimizer


def example_optimizer(module: nn.Module) -> torch.optim.Optimizer:
    """The example's optimizer: SGD(lr=0.01) as in the tutorial, with momentum 0.9 as in
    real training, so a training step leaves state (a momentum buffer per parameter) to see."""
    return torch.optim.SGD(module.parameters(), lr=0.01, momentum=0.9)


def example_model(*, defer_optimizer: bool = False) -> LoadedModel:
    """The tutorial's Net with an SGD(lr=0.01, momentum=0.9) optimizer and a random (64, 3)
    input. ``defer_optimizer``: the optimizer is made on first need (``ensure_optimizer``)."""
    net = Net()
    return LoadedModel(
        spec="example",
        module=net,
        optimizer=None if defer_optimizer else example_optimizer(net),
        example_input=torch.randn(64, 3),
        source="example",
        optimizer_factory=example_optimizer if defer_optimizer else None,
        deferred_optimizer_name="SGD" if defer_optimizer else None,
    )


# --------------------------------------------------------------------------- errors


class ModelLoadError(InputError):
    """A model spec or model file could not be turned into a module (the user's input: exit 2)."""

    kind = FailureKind.LOAD


class ArchitectureNeeded(ModelLoadError):
    """A file holds only weights: the user must name the model they belong to. Each front
    end says where (the CLI's ``--arch``, the window's Architecture field)."""

    kind = FailureKind.ARCHITECTURE


class UntrustedFileError(ModelLoadError):
    """A file needs arbitrary code to load; nothing of it ran. ``wanted``: what it asked for."""

    kind = FailureKind.UNTRUSTED

    def __init__(self, message: str, *, path: str, wanted: tuple[str, ...], detail: str = ""):
        super().__init__(message, detail=detail)
        self.path = path
        self.wanted = wanted


# --------------------------------------------------------------------------- specs


class ModelSpec(NamedTuple):
    """A parsed model spec.

    ``kind`` is "example", "file" (``target`` is the path), "python_file" (``target`` is a
    ``.py`` path, ``attribute`` the factory in it) or "module" (``target`` a dotted module).
    """

    kind: str
    target: str = ""
    attribute: str = ""


_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\Z")
_MODEL_SUFFIXES = (".pt", ".pth", ".pt2", ".bin", ".ckpt", ".safetensors", ".jit", ".tar")


def parse_spec(spec: str) -> ModelSpec:
    """Tell what a model spec names, without importing or opening anything.

    An existing path always wins, so ``C:\\models\\net.pt`` is a file, not ``C`` + a factory.
    """
    text = spec.strip()
    if not text:
        raise ModelLoadError(
            "empty model spec: give 'example', a model file, or module:factory"
        )
    if text == "example":
        return ModelSpec("example")
    if text.endswith(".py"):
        raise ModelLoadError(
            f"a Python file needs the name of its factory after a colon, e.g. {text}:make_model"
        )
    if os.path.exists(text):
        return ModelSpec("file", text)
    location, colon, attribute = text.rpartition(":")
    if colon and _DOTTED_NAME.match(attribute):
        if location.endswith(".py"):
            return ModelSpec("python_file", location, attribute)
        if _DOTTED_NAME.match(location):
            return ModelSpec("module", location, attribute)
    if _DOTTED_NAME.match(text) and "." in text and Path(text).suffix not in _MODEL_SUFFIXES:
        raise ModelLoadError(
            f"no such file: {text} (to name a factory, write module:factory, "
            "e.g. torch.nn:Identity)"
        )
    return ModelSpec("file", text)


def load_model(
    spec: str = "example",
    *,
    trust: bool = False,
    architecture: str | None = None,
    defer_optimizer: bool = False,
) -> LoadedModel:
    """Load what ``spec`` names (see DESIGN.md "Model spec"), on the CPU.

    ``trust`` lets a checkpoint run the code it needs (pickled modules); only pass it when
    the user said so for this file. ``architecture`` is a factory spec that builds the module
    a state dict or ``.safetensors`` file is loaded into. ``defer_optimizer``: the example's
    optimizer is made on first need (``LoadedModel.ensure_optimizer``), not now.
    """
    parsed = parse_spec(spec)
    if parsed.kind == "example":
        loaded = example_model(defer_optimizer=defer_optimizer)
        loaded.spec = spec
        return loaded
    if parsed.kind in ("module", "python_file"):
        module, example_input = _build_from_factory(spec, parsed)
        return LoadedModel(spec=spec, module=module, example_input=example_input, source="factory")
    return _load_file(spec, Path(parsed.target), trust=trust, architecture=architecture)


# --------------------------------------------------------------------------- factories


def _build_from_factory(spec: str, parsed: ModelSpec) -> tuple[nn.Module, Any]:
    """Run the factory a spec names; return (module, example input or None)."""
    if parsed.kind == "example":
        return Net(), torch.randn(64, 3)
    if parsed.kind == "module":
        owner = _import_module(parsed.target, spec)
        factory = _attribute_of(owner, parsed.attribute, parsed.target, spec)
        return _call_factory(factory, spec)
    if parsed.kind == "python_file":
        with _user_file_module(Path(parsed.target), spec) as owner:
            factory = _attribute_of(owner, parsed.attribute, parsed.target, spec)
            return _call_factory(factory, spec)
    raise ModelLoadError(
        f"{spec} is a file, not a factory: an architecture is given as "
        "package.module:factory or path/to/file.py:factory"
    )


def _import_module(name: str, spec: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
            raise ModelLoadError(
                f"no module named {exc.name} (from spec {spec}){_local_file_hint(name, spec)}"
            ) from exc
        raise ModelLoadError(
            f"importing {name} (from spec {spec}) failed: {_describe(exc)}",
            detail=traceback.format_exc(),
        ) from exc
    except BaseException as exc:  # user code may raise anything, even exit
        _reraise_interrupt(exc)
        raise ModelLoadError(
            f"importing {name} (from spec {spec}) failed: {_describe(exc)}",
            detail=traceback.format_exc(),
        ) from exc


def _reraise_interrupt(exc: BaseException) -> None:
    """Ctrl+C stays Ctrl+C; anything else user code raises (SystemExit, a custom
    BaseException subclass) is the user's code failing, told in one line."""
    if isinstance(exc, KeyboardInterrupt):
        raise exc


def _local_file_hint(name: str, spec: str) -> str:
    """The console script does not put the working folder on sys.path; point at the file."""
    candidate = Path(*name.split(".")).with_suffix(".py")
    if candidate.is_file():
        return f"; to use the file {candidate}, write {candidate}:{spec.rpartition(':')[2]}"
    return ""


@contextmanager
def _user_file_module(path: Path, spec: str) -> Iterator[ModuleType]:
    """Import a user's ``.py`` file as a module; on any failure leave sys.modules as it was.

    The module is registered in sys.modules while it runs because dataclasses, typing and
    pickling look their module up there. Its folder is on sys.path while it runs, so it can
    import its neighbours as ``python file.py`` would let it.
    """
    if not path.is_file():
        raise ModelLoadError(f"no such file: {path} (from spec {spec})")
    name = _module_name_for(path)
    import_spec = importlib.util.spec_from_file_location(name, path)
    if import_spec is None or import_spec.loader is None:
        raise ModelLoadError(f"cannot import {path} as Python (from spec {spec})")
    module = importlib.util.module_from_spec(import_spec)
    previous = sys.modules.get(name)
    sys.modules[name] = module
    try:
        with _folder_on_sys_path(path.parent):
            try:
                import_spec.loader.exec_module(module)
            except BaseException as exc:  # user code may raise anything, even exit
                _reraise_interrupt(exc)
                raise ModelLoadError(
                    f"running {path} (from spec {spec}) failed: {_describe(exc)}",
                    detail=traceback.format_exc(),
                ) from exc
            yield module
    except BaseException:
        if previous is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = previous
        raise


def _module_name_for(path: Path) -> str:
    """A module name that cannot shadow a real one (a user's ``torch.py`` must not)."""
    resolved = str(path.resolve())
    stem = re.sub(r"\W", "_", path.stem)
    digest = hashlib.sha1(resolved.encode()).hexdigest()[:10]
    return f"_inspector_user_{stem}_{digest}"


@contextmanager
def _folder_on_sys_path(folder: Path) -> Iterator[None]:
    entry = str(folder.resolve())
    added = entry not in sys.path
    if added:
        sys.path.insert(0, entry)
    try:
        yield
    finally:
        if added and entry in sys.path:
            sys.path.remove(entry)


def _attribute_of(owner: ModuleType, attribute: str, owner_label: str, spec: str) -> Any:
    value: Any = owner
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise ModelLoadError(
                f"{owner_label} has no attribute {attribute!r} (from spec {spec})"
            ) from None
    return value


def _call_factory(factory: Any, spec: str) -> tuple[nn.Module, Any]:
    if isinstance(factory, nn.Module):  # the spec names a ready-made module instance
        return factory, None
    if not callable(factory):
        raise ModelLoadError(
            f"{spec} names {_a_value_of(factory)}, not a factory function or an nn.Module class"
        )
    try:
        result = factory()
    except BaseException as exc:  # user code may raise anything, even exit
        _reraise_interrupt(exc)
        hint = ""
        if inspect.isclass(factory) and isinstance(exc, TypeError):
            hint = "; a class that needs arguments must be built by a factory function"
        raise ModelLoadError(
            f"factory {spec} raised {_describe(exc)}{hint}", detail=traceback.format_exc()
        ) from exc
    return _unpack_factory_result(result, spec)


def _unpack_factory_result(result: Any, spec: str) -> tuple[nn.Module, Any]:
    if isinstance(result, nn.Module):
        return result, None
    if isinstance(result, (tuple, list)) and len(result) == 2 and isinstance(result[0], nn.Module):
        return result[0], _checked_example_input(result[1], spec)
    raise ModelLoadError(
        f"factory {spec} returned {_a_value_of(result)}, "
        "not an nn.Module or a (module, example_input) pair"
    )


def _checked_example_input(value: Any, spec: str) -> Any:
    """The contract with timing/placement: None, a tensor, or a tuple of positional tensors."""
    if value is None or isinstance(value, torch.Tensor):
        return value
    if (
        isinstance(value, (tuple, list))
        and value
        and all(isinstance(item, torch.Tensor) for item in value)
    ):
        return tuple(value)
    raise ModelLoadError(
        f"factory {spec} returned {_a_value_of(value)} as example input; "
        "expected a tensor or a tuple of tensors"
    )


# --------------------------------------------------------------------------- files


_PICKLE_PROTOCOL_OPCODE = 0x80
_CODE_AT_LOAD = "loading it would run code or touch files"


def _load_file(spec: str, path: Path, *, trust: bool, architecture: str | None) -> LoadedModel:
    kind = _file_kind(path)
    if kind == "torchscript":
        return _load_torchscript(spec, path, trust=trust)
    if kind == "export":
        return _load_exported_program(spec, path, trust=trust)
    if kind == "safetensors":
        return _load_safetensors(spec, path, architecture)
    return _load_checkpoint(spec, path, trust=trust, architecture=architecture)


def _file_kind(path: Path) -> str:
    """Which loader the file needs ("torchscript", "export", "safetensors", "checkpoint").

    Judged by content, not by name: people call all of them ``.pt``.
    """
    if not path.exists():
        raise ModelLoadError(f"no such file: {path}")
    if path.is_dir():
        raise ModelLoadError(f"{path} is a folder; give the model file inside it")
    head, size = _read_head(path)
    if size == 0:
        raise _incomplete(path, "the file is empty")
    if head.startswith(b"PK\x03\x04"):
        return _zip_kind(path)
    if _looks_like_safetensors(head, size):
        return "safetensors"
    if head[0] == _PICKLE_PROTOCOL_OPCODE:  # torch.save's legacy (pre-1.6) format
        return "checkpoint"
    if size <= _LARGEST_TEXT_PICKLE and is_pickle(path.read_bytes()):
        return "checkpoint"  # a protocol 0/1 pickle: weights-only loading judges it
    if path.suffix == ".safetensors":
        raise _incomplete(path, "its safetensors header is damaged")
    raise _incomplete(path, "its content is in no format PyTorch writes")


#: Pickles of protocol 0 and 1 have no header; past this size they are not worth parsing.
_LARGEST_TEXT_PICKLE = 64 * 2**20


def _read_head(path: Path) -> tuple[bytes, int]:
    """The first bytes and size of a regular file; anything else is refused unopened.

    A FIFO would block the read forever and a device can be endless, so the path is checked
    with stat before it is opened, and the opened file again with fstat (O_NONBLOCK: an
    open of a FIFO swapped in between does not wait for a writer).
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ModelLoadError(f"{path} is not a regular file (a device, pipe or socket); give a model file")
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(descriptor, "rb") as stream:
            status = os.fstat(stream.fileno())
            if not stat.S_ISREG(status.st_mode):
                raise ModelLoadError(f"{path} is not a regular file (a device, pipe or socket); give a model file")
            return stream.read(16), status.st_size
    except OSError as exc:
        raise ModelLoadError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _zip_kind(path: Path) -> str:
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise _incomplete(
            path, "it is cut short: the index at the end of its archive is missing"
        ) from None
    # PyTorch writes every record under one top folder (named after the file or "archive").
    records = {name.partition("/")[2] or name for name in names}
    if any(record.startswith("data/aotinductor/") for record in records):
        raise ModelLoadError(
            f"{path} is an AOTInductor package of compiled code, which this app does not run; "
            "open the torch.export .pt2 file or the model's factory instead"
        )
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
    raise _incomplete(path, "it is a zip archive, but not one PyTorch wrote")


def _looks_like_safetensors(head: bytes, size: int) -> bool:
    """A safetensors file: an 8-byte little-endian header length, then a JSON object."""
    if len(head) < 9:
        return False
    (header_length,) = struct.unpack("<Q", head[:8])
    return 0 < header_length <= size - 8 and head[8:9] == b"{"


def _incomplete(path: Path, reason: str) -> ModelLoadError:
    return ModelLoadError(f"not a complete PyTorch checkpoint: {path} ({reason})")


def _load_torchscript(spec: str, path: Path, *, trust: bool) -> LoadedModel:
    # TorchScript archives hold TorchScript code and C++-unpickled constants: no Python code
    # of the file runs, but a scripted __setstate__ runs at load and scripted code can call
    # ops that write files (torch.from_file(..., shared=True)): those need trust.
    if not trust:
        try:
            risks = torchscript_risks(path)
        except Exception as exc:  # PyTorch's zip reader refused it: the loader would too
            reason = f"the TorchScript archive could not be read: {_describe(exc)}"
            raise _incomplete(path, reason) from exc
        if risks:
            raise _untrusted(path, risks, reason=_CODE_AT_LOAD)
    try:
        module = torch.jit.load(str(path), map_location="cpu")
    except Exception as exc:
        reason = f"the TorchScript archive could not be read: {_describe(exc)}"
        raise _incomplete(path, reason) from exc
    return LoadedModel(spec=spec, module=module, source="torchscript")


def _load_exported_program(spec: str, path: Path, *, trust: bool) -> LoadedModel:
    if not trust:
        try:
            risks = exported_program_risks(path)
        except Exception as exc:  # the zip reader or the config parser refused it
            raise ModelLoadError(
                f"could not load the exported program {path}: {_describe(exc)}",
                detail=traceback.format_exc(),
            ) from exc
        if risks:
            raise _untrusted(path, risks, reason=_CODE_AT_LOAD)
    try:
        with _torch_load_weights_only(enabled=not trust):
            program = torch.export.load(str(path))
        module = program.module()
    except pickle.UnpicklingError as exc:
        raise _untrusted(path, _globals_named_in(str(exc)), detail=str(exc)) from exc
    except Exception as exc:
        raise ModelLoadError(
            f"could not load the exported program {path}: {_describe(exc)}",
            detail=traceback.format_exc(),
        ) from exc
    return LoadedModel(
        spec=spec, module=module, example_input=_exported_example_input(program), source="export"
    )


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


def _load_safetensors(spec: str, path: Path, architecture: str | None) -> LoadedModel:
    try:
        from safetensors import SafetensorError
        from safetensors.torch import load_file
    except ImportError:
        raise InspectorError(
            "reading .safetensors files needs the safetensors package: pip install safetensors",
            kind=FailureKind.LOAD,
        ) from None
    try:
        state_dict = load_file(str(path), device="cpu")
    except SafetensorError as exc:
        raise ModelLoadError(
            f"not a complete safetensors file: {path} ({_describe(exc)})"
        ) from exc
    return _model_from_state_dict(spec, path, state_dict, architecture, source="safetensors")


def _load_checkpoint(
    spec: str, path: Path, *, trust: bool, architecture: str | None
) -> LoadedModel:
    content = _torch_load(path, trust=trust)
    notes: list[str] = []
    if isinstance(content, Mapping):
        content, notes = _unwrap_checkpoint(content)
    if isinstance(content, nn.Module):
        return LoadedModel(spec=spec, module=content, source="pickle", notes=notes)
    if _is_state_dict(content):
        loaded = _model_from_state_dict(spec, path, content, architecture, source="state_dict")
        loaded.notes[:0] = notes
        return loaded
    raise ModelLoadError(
        f"{path} holds {_a_value_of(content)}, not a model or a state dict"
    )


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
            raise _incomplete(path, _describe(exc)) from exc
        wanted = (
            _unsafe_globals_in_checkpoint(path)
            or _unsafe_globals_in_raw_pickle(path)
            or _globals_named_in(str(exc))
        )
        if not wanted and not _zip_pickle_is_well_formed(path):
            raise _incomplete(path, f"its pickle is damaged: {_describe(exc)}") from exc
        raise _untrusted(path, wanted, detail=str(exc)) from exc
    except (AttributeError, ImportError) as exc:  # only when trusted: a class it names is missing
        raise ModelLoadError(
            f"{path} needs Python code that cannot be imported here: {_describe(exc)}; "
            "install or put on PYTHONPATH the package that defines the model"
        ) from exc
    except Exception as exc:
        if trust and not isinstance(exc, (RuntimeError, EOFError, OSError)):
            # A trusted pickle runs its own code, which may raise anything.
            raise ModelLoadError(
                f"could not load {path}: {_describe(exc)}", detail=traceback.format_exc()
            ) from exc
        # Weights-only loading runs no code of the file: whatever it raises (RuntimeError
        # from the zip reader, EOFError, IndexError for a cut legacy pickle...) is damage.
        raise _incomplete(path, _describe(exc)) from exc
    except BaseException as exc:  # a trusted pickle's code raised SystemExit or its own kind
        _reraise_interrupt(exc)
        raise ModelLoadError(
            f"could not load {path}: {_describe(exc)}", detail=traceback.format_exc()
        ) from exc


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


def _globals_named_in(message: str) -> tuple[str, ...]:
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


def _untrusted(
    path: Path, wanted: tuple[str, ...], detail: str = "", *, reason: str = "loading it would run code it names"
) -> UntrustedFileError:
    shown = ", ".join(wanted[:5]) + (f" and {len(wanted) - 5} more" if len(wanted) > 5 else "")
    reason = (
        f"{reason} ({shown}); none of it has run"
        if wanted
        else "it is written in a way that safe (weights-only) loading does not read, "
        "so loading it could run code"
    )
    return UntrustedFileError(
        f"refused to load {path}: {reason}. "
        "If you trust this file, load it with --trust (CLI) or confirm in the GUI",
        path=str(path),
        wanted=wanted,
        detail=detail,
    )


_CHECKPOINT_MODEL_KEYS = ("state_dict", "model_state_dict", "model")


def _unwrap_checkpoint(content: Mapping[str, Any]) -> tuple[Any, list[str]]:
    """A training checkpoint ({"model_state_dict": ..., "epoch": ...}) -> its model part."""
    for key in _CHECKPOINT_MODEL_KEYS:
        if key in content and (
            isinstance(content[key], nn.Module) or _is_state_dict(content[key])
        ):
            others = [str(other) for other in content if other != key]
            notes = [f"model taken from the checkpoint's {key!r} entry"]
            if others:
                notes.append(f"also in the checkpoint, not used: {', '.join(others)}")
            return content[key], notes
    return content, []


def _is_state_dict(content: Any) -> bool:
    return (
        isinstance(content, Mapping)
        and len(content) > 0
        and all(isinstance(key, str) for key in content)
        and any(isinstance(value, torch.Tensor) for value in content.values())
    )


# --------------------------------------------------------------------------- state dicts


#: Prefixes wrappers add to every key: DataParallel/DDP, Lightning, torch.compile.
_WRAPPER_PREFIXES = ("module.", "model.", "_orig_mod.")


def _model_from_state_dict(
    spec: str, path: Path, state_dict: Mapping[str, Any], architecture: str | None, *, source: str
) -> LoadedModel:
    if architecture is None:
        raise ArchitectureNeeded(
            f"{path} holds only weights (a state dict of {len(state_dict)} entries); say which "
            "model they belong to with an architecture spec such as mypackage.models:make_model "
            "or path/to/model.py:Net"
        )
    module, example_input = _build_from_factory(architecture, parse_spec(architecture))
    state_dict, notes = _without_wrapper_prefix(state_dict, module)
    tied_missing = _check_state_dict_fits(module, state_dict, path, architecture)
    try:
        # strict=False only where we checked ourselves that the missing keys are tied weights.
        module.load_state_dict(state_dict, strict=not tied_missing)
    except RuntimeError as exc:
        raise ModelLoadError(
            f"the weights in {path} do not fit {architecture}: {_describe(exc)}"
        ) from exc
    notes.append(f"weights from {path} loaded into {type(module).__name__} built by {architecture}")
    if tied_missing:
        notes.append(f"tied weights filled from their twins: {', '.join(tied_missing)}")
    return LoadedModel(
        spec=spec, module=module, example_input=example_input, source=source, notes=notes
    )


def _without_wrapper_prefix(
    state_dict: Mapping[str, Any], module: nn.Module
) -> tuple[Mapping[str, Any], list[str]]:
    expected = module.state_dict().keys()
    for prefix in _WRAPPER_PREFIXES:
        if all(key.startswith(prefix) for key in state_dict) and not any(
            key.startswith(prefix) for key in expected
        ):
            stripped = {key[len(prefix):]: value for key, value in state_dict.items()}
            return stripped, [f"key prefix {prefix!r} removed (saved from a wrapped model)"]
    return state_dict, []


def _check_state_dict_fits(
    module: nn.Module, state_dict: Mapping[str, Any], path: Path, architecture: str
) -> list[str]:
    """Raise one readable line naming every missing, unexpected and mis-shaped key.

    load_state_dict also reports these, but as a multi-line block that stops at nothing
    useful for a one-line error; and it cannot tell that a key missing from a safetensors
    file is a tied weight (safetensors keeps one name per shared tensor). Returns those.
    """
    expected = module.state_dict()
    missing = [key for key in expected if key not in state_dict]
    tied = [key for key in missing if _is_tied_to_given(key, expected, state_dict)]
    missing = [key for key in missing if key not in tied]
    unexpected = [key for key in state_dict if key not in expected]
    mismatched = [
        f"{key} {_shape(state_dict[key])} in file vs {_shape(expected[key])} in model"
        for key in state_dict
        if key in expected
        and isinstance(state_dict[key], torch.Tensor)
        and state_dict[key].shape != expected[key].shape
    ]
    problems = [
        _listing("missing keys", missing),
        _listing("unexpected keys", unexpected),
        _listing("shape mismatches", mismatched),
    ]
    problems = [problem for problem in problems if problem]
    if problems:
        raise ModelLoadError(
            f"the weights in {path} do not fit {architecture} "
            f"({type(module).__name__}): {'; '.join(problems)}"
        )
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


def _listing(label: str, items: list[str], limit: int = 5) -> str:
    if not items:
        return ""
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return f"{label}: {', '.join(items[:limit])}{more}"


def _shape(tensor: torch.Tensor) -> str:
    return f"({', '.join(str(size) for size in tensor.shape)})"


# --------------------------------------------------------------------------- wording


def _describe(exc: BaseException) -> str:
    """One line: "TypeError: message", long messages cut, PyTorch's ANSI bold removed."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    text = " ".join(text.split())
    if len(text) > 300:
        text = text[:297] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _a_value_of(value: Any) -> str:
    """ "a str", "a tuple of 3 items", "None" — what a user needs to see what went wrong."""
    if value is None:
        return "None"
    name = type(value).__name__
    article = "an" if name[:1].lower() in "aeiou" else "a"
    if isinstance(value, (tuple, list, dict)):
        return f"{article} {name} of {len(value)} items"
    return f"{article} {name}"
