"""Factories: the user's code that builds a model (``package.module:factory``, ``file.py:factory``).

A spec naming a factory is the user's explicit request to run that code, so it runs (no
trust question): the module is imported, the factory called with no arguments, and what it
returns checked: an ``nn.Module``, or ``(module, example_input)``. Whatever the user's code
raises, even ``SystemExit``, becomes one ``ModelLoadError`` line (Ctrl+C stays Ctrl+C), and a
failed import leaves ``sys.modules`` and ``sys.path`` as they were.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import torch
from torch import nn

from inspector.core.files.load_errors import ModelLoadError, a_value_of, describe, user_code_error
from inspector.core.messages import Text


def build_from_module(name: str, attribute: str, spec: str) -> tuple[nn.Module, Any]:
    """Import the module ``name`` and call its ``attribute``; return (module, example input or None)."""
    owner = _import_module(name, spec)
    return _call_factory(_attribute_of(owner, attribute, name, spec), spec)


def build_from_file(path: str, attribute: str, spec: str) -> tuple[nn.Module, Any]:
    """Run the ``.py`` file at ``path`` and call its ``attribute``; return (module, example input or None)."""
    with _user_file_module(Path(path), spec) as owner:
        return _call_factory(_attribute_of(owner, attribute, path, spec), spec)


def _import_module(name: str, spec: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except BaseException as exc:  # user code may raise anything, even exit
        if isinstance(exc, ModuleNotFoundError) and exc.name and (name == exc.name or name.startswith(exc.name + ".")):
            raise ModelLoadError(
                Text("load.no_module", module=exc.name, spec=spec, hint=_local_file_hint(name, spec))
            ) from exc
        raise user_code_error(Text("load.import_failed", module=name, spec=spec, error=describe(exc)), exc) from exc


def _local_file_hint(name: str, spec: str) -> str:
    """The working folder is never on sys.path (a decoy ``triton.py`` there would run); point at the file."""
    candidate = Path(*name.split(".")).with_suffix(".py")
    if candidate.is_file():
        return Text("load.hint_local_file", path=candidate, spec=f"{candidate}:{spec.rpartition(':')[2]}")
    return ""


@contextmanager
def _user_file_module(path: Path, spec: str) -> Iterator[ModuleType]:
    """Import a user's ``.py`` file as a module; on any failure leave sys.modules as it was.

    The module is registered in sys.modules while it runs because dataclasses, typing and
    pickling look their module up there. Its folder is on sys.path while it runs, so it can
    import its neighbours as ``python file.py`` would let it.
    """
    if not path.is_file():
        raise ModelLoadError(Text("load.no_such_file_spec", path=path, spec=spec))
    name = _module_name_for(path)
    import_spec = importlib.util.spec_from_file_location(name, path)
    if import_spec is None or import_spec.loader is None:
        raise ModelLoadError(Text("load.not_python", path=path, spec=spec))
    module = importlib.util.module_from_spec(import_spec)
    previous = sys.modules.get(name)
    sys.modules[name] = module
    try:
        with _folder_on_sys_path(path.parent):
            try:
                import_spec.loader.exec_module(module)
            except BaseException as exc:  # user code may raise anything, even exit
                raise user_code_error(Text("load.running_failed", path=path, spec=spec, error=describe(exc)), exc) from exc
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
            raise ModelLoadError(Text("load.no_attribute", owner=owner_label, attribute=repr(attribute), spec=spec)) from None
    return value


def _call_factory(factory: Any, spec: str) -> tuple[nn.Module, Any]:
    if isinstance(factory, nn.Module):  # the spec names a ready-made module instance
        return factory, None
    if not callable(factory):
        raise ModelLoadError(Text("load.not_a_factory", spec=spec, value=a_value_of(factory)))
    try:
        result = factory()
    except BaseException as exc:  # user code may raise anything, even exit
        hint: str = ""
        if inspect.isclass(factory) and isinstance(exc, TypeError):
            hint = Text("load.hint_class_needs_arguments")
        raise user_code_error(Text("load.factory_raised", spec=spec, error=describe(exc), hint=hint), exc) from exc
    return _unpack_factory_result(result, spec)


def _unpack_factory_result(result: Any, spec: str) -> tuple[nn.Module, Any]:
    if isinstance(result, nn.Module):
        return result, None
    if isinstance(result, (tuple, list)) and len(result) == 2 and isinstance(result[0], nn.Module):
        return result[0], _checked_example_input(result[1], spec)
    raise ModelLoadError(Text("load.factory_returned", spec=spec, value=a_value_of(result)))


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
    raise ModelLoadError(Text("load.factory_example_input", spec=spec, value=a_value_of(value)))
