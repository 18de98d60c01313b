"""Model specs: what a spec names, and the model it loads (the example ``Net``, a factory's
module, or a file's), as a ``LoadedModel``.

The front door of model loading: ``load_model`` parses the spec and hands the work to
``factories`` (the user's code), ``model_files`` (files of every kind PyTorch writes) and
``state_dicts`` (weights loaded into the architecture the user names). Failures are the
``load_errors`` kinds.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import torch
from torch import nn

from inspector.core.files import hugging_face
from inspector.core.files.factories import build_from_file, build_from_module
from inspector.core.files.load_errors import ArchitectureNeeded, ModelLoadError
from inspector.core.files.model_files import FileContent, open_model_file
from inspector.core.files.state_dicts import load_weights
from inspector.core.messages import Text


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
    #: "safetensors", "pickle", "huggingface".
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


# --------------------------------------------------------------------------- specs


class ModelSpec(NamedTuple):
    """A parsed model spec.

    ``kind`` is "example", "file" (``target`` is the path), "python_file" (``target`` is a
    ``.py`` path, ``attribute`` the factory in it), "module" (``target`` a dotted module),
    "hf_folder" (``target`` a folder with a Hugging Face ``config.json``) or "hf_cache"
    (``target`` is ``ORG/NAME``, from ``hf:ORG/NAME``: a model in the local Hugging Face cache).
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
        raise ModelLoadError(Text("load.empty_spec"))
    if text == "example":
        return ModelSpec("example")
    if text.startswith(hugging_face.PREFIX) and not os.path.exists(text):
        return ModelSpec("hf_cache", text[len(hugging_face.PREFIX):])
    if hugging_face.is_model_folder(text):
        return ModelSpec("hf_folder", text)
    if text.endswith(".py"):
        raise ModelLoadError(Text("load.python_file_needs_factory", example=f"{text}:make_model"))
    if os.path.exists(text):
        return ModelSpec("file", text)
    location, colon, attribute = text.rpartition(":")
    if colon and _DOTTED_NAME.match(attribute):
        if location.endswith(".py"):
            return ModelSpec("python_file", location, attribute)
        if _DOTTED_NAME.match(location):
            return ModelSpec("module", location, attribute)
    if _DOTTED_NAME.match(text) and "." in text and Path(text).suffix not in _MODEL_SUFFIXES:
        raise ModelLoadError(Text("load.no_such_file_or_factory", path=text))
    return ModelSpec("file", text)


def absolute_spec(spec: str) -> str:
    """``spec`` with the file or folder it names made absolute (``models.py:make`` →
    ``/here/models.py:make``), so a process in another folder (a bench worker, a cluster rank)
    loads the same model; a spec that names no file (``example``, ``hf:org/name``,
    ``package.module:factory``) as it is. Links are kept (a Hugging Face cache's
    ``model.safetensors`` links to a blob without a suffix)."""
    text = spec.strip()
    if text == "example":  # before the files, as parse_spec reads it
        return spec
    if os.path.exists(text):
        return os.path.abspath(text)
    location, colon, attribute = text.rpartition(":")
    if colon and location.endswith(".py"):
        return f"{os.path.abspath(location)}:{attribute}"
    return spec


def resolved_spec(spec: str) -> str:
    """``spec`` with its file made absolute and free of links (``models.py:build`` and
    ``../here/models.py:build`` name one model), so two reports can tell whether they measured
    the same file; a spec that names no file, or cannot be parsed, as it is."""
    try:
        parsed = parse_spec(spec)
    except ModelLoadError:
        return spec
    if parsed.kind in ("file", "hf_folder"):
        return os.path.realpath(parsed.target)
    if parsed.kind == "python_file":
        return f"{os.path.realpath(parsed.target)}:{parsed.attribute}"
    return spec


def load_model(
    spec: str = "example",
    *,
    trust: bool = False,
    architecture: str | None = None,
    defer_optimizer: bool = False,
    should_cancel: Callable[[], bool] | None = None,
    say: Callable[[str], None] | None = None,
) -> LoadedModel:
    """Load what ``spec`` names (the specs: docs/cli.md, "Model specs"), on the CPU.

    ``trust`` lets a checkpoint run the code it needs (pickled modules); only pass it when
    the user said so for this file. ``architecture`` is a factory spec that builds the module
    a state dict or ``.safetensors`` file is loaded into. ``defer_optimizer``: the example's
    optimizer is made on first need (``LoadedModel.ensure_optimizer``), not now.
    ``should_cancel``: the static check of an untrusted file, and a Hugging Face model's build
    from its config, stop (``Cancelled``) when it says so. ``say``: told what a long load is
    doing before it does it (a build from a config that will take a while).
    """
    parsed = parse_spec(spec)
    if parsed.kind == "example":
        loaded = example_model(defer_optimizer=defer_optimizer)
        loaded.spec = spec
        return loaded
    if parsed.kind in ("module", "python_file"):
        module, example_input = _build_from_factory(spec, parsed)
        return LoadedModel(spec=spec, module=module, example_input=example_input, source="factory")
    if parsed.kind in ("hf_folder", "hf_cache"):
        if parsed.kind == "hf_folder":
            built = hugging_face.load_folder(Path(parsed.target), trust=trust, say=say, should_cancel=should_cancel)
        else:
            built = hugging_face.load_cached(parsed.target, trust=trust, say=say, should_cancel=should_cancel)
        return LoadedModel(spec=spec, module=built.module, example_input=built.example_input, source="huggingface",
                           notes=built.notes)  # fmt: skip
    return _load_file(spec, Path(parsed.target), trust=trust, architecture=architecture, should_cancel=should_cancel)


def _load_file(
    spec: str, path: Path, *, trust: bool, architecture: str | None, should_cancel: Callable[[], bool] | None = None
) -> LoadedModel:
    content = open_model_file(path, trust=trust, should_cancel=should_cancel)
    if isinstance(content.model, nn.Module):
        return LoadedModel(
            spec=spec,
            module=content.model,
            example_input=content.example_input,
            source=content.source,
            notes=list(content.notes),
        )
    return _model_from_weights(spec, path, content.model, content, architecture)


def _model_from_weights(
    spec: str, path: Path, state_dict: Mapping[str, Any], content: FileContent, architecture: str | None
) -> LoadedModel:
    """The module ``architecture`` builds, with the weights ``state_dict`` of the file loaded into it."""
    if architecture is None:
        raise ArchitectureNeeded(Text("load.architecture_needed", path=path, count=len(state_dict)))
    module, example_input = _build_from_factory(architecture, parse_spec(architecture))
    notes = [*content.notes, *load_weights(module, state_dict, path, architecture)]
    return LoadedModel(
        spec=spec, module=module, example_input=example_input, source=content.source, notes=notes
    )


def _build_from_factory(spec: str, parsed: ModelSpec) -> tuple[nn.Module, Any]:
    """Build what a spec names; return (module, example input or None)."""
    if parsed.kind == "example":
        return Net(), torch.randn(64, 3)
    if parsed.kind == "module":
        return build_from_module(parsed.target, parsed.attribute, spec)
    if parsed.kind == "python_file":
        return build_from_file(parsed.target, parsed.attribute, spec)
    raise ModelLoadError(Text("load.architecture_is_file", spec=spec))
