"""Import torch on the loader's thread without PySide6's import hook.

Importing PySide6 replaces ``builtins.__import__`` with its ``__feature_import__``, which backs
``from __feature__ import snake_case``: it runs Python code after every import statement and
reads the whole source of each new module (``inspect.getsource``) to see whether it names
PySide6 (napari/napari#8584). ``import torch`` after Qt took 2.0-2.4 s here against 1.8 s
before it; through the interpreter's own ``__import__`` it takes 1.75-1.85 s again.

So, while ``bypassed()`` is in force, imports made by the thread that entered it go straight
to the interpreter's ``__import__``; every other thread (the window's) keeps PySide's hook,
and the hook is put back afterwards. What is lost: modules imported that way are not in
PySide's feature table, which only a module that says ``from __feature__ import …`` needs
(PySide then uses the selection of the last module that had one: none here, as this app
selects no feature). Nothing happens where PySide's hook is not installed; where the
interpreter's own import was not kept (PySide imported before ``inspector``), importlib's
implementation of it stands in.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any

import inspector

#: The name PySide6's hook has (the interpreter's own is ``__import__``).
PYSIDE_HOOK_NAME = "__feature_import__"


def interpreter_import() -> Callable[..., Any] | None:
    """The interpreter's own ``__import__``, where it was kept before PySide replaced it; else
    importlib's implementation of it (``importlib.__import__``): a script or a test runner that
    imports PySide6 before ``inspector`` (pytest-qt does) would otherwise have torch's ~600
    modules each read whole by PySide's hook: 50 s to a session here, against 2 s."""
    kept = getattr(inspector, "_interpreter_import", None)
    return kept if getattr(kept, "__name__", "") == "__import__" else importlib.__import__


@contextlib.contextmanager
def bypassed() -> Iterator[bool]:
    """This thread's imports skip PySide's hook until the block ends; yields whether they do."""
    hooked = builtins.__import__
    plain = interpreter_import()
    if plain is None or getattr(hooked, "__name__", "") != PYSIDE_HOOK_NAME:
        yield False
        return
    ident = threading.get_ident()

    def dispatch(  # ``__import__``'s own signature
        name: str,
        globals: Mapping[str, object] | None = None,
        locals: Mapping[str, object] | None = None,
        fromlist: Sequence[str] | None = (),
        level: int = 0,
    ) -> ModuleType:
        target = plain if threading.get_ident() == ident else hooked
        return target(name, globals, locals, fromlist, level)

    builtins.__import__ = dispatch
    try:
        yield True
    finally:
        if builtins.__import__ is dispatch:  # (someone who replaced it meanwhile keeps theirs)
            builtins.__import__ = hooked
