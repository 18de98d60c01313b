"""A package's public face whose names are imported on first use (PEP 562).

Each package of core re-exports, in its ``__init__``, the few names the front ends use
(``from inspector.core.measure import MemoryTimeline``), so the window and the CLI never
name a module inside a package (a contract in ``pyproject.toml`` keeps them off). The
window's frame imports several faces before torch is loaded (``gui/shell/torch_loader.py``), while
most modules behind them import torch: so a face imports nothing when it is imported, and a
name's module when the name is first read. Each face names the same modules in an
``if TYPE_CHECKING:`` block, for mypy and for the import graph the contracts check.

A face never re-exports a name that is also a module of its package (``run_verdicts``): the
import system sets that attribute to the module as soon as anything imports it, hiding the
name. Such a name is re-exported under another (``"verdicts_of_runs": "run_verdicts:run_verdicts"``).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping


def lazy_names(
    namespace: dict[str, Any], homes: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of the face whose ``globals()`` is ``namespace``.
    ``homes`` maps each public name to ``"module"`` (the module of the package that defines
    it under that name) or ``"module:name"`` (defined there under ``name``)."""
    package = namespace["__name__"]

    def face_getattr(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, original = home.partition(":")
        # Read from its module each time, not kept here: a test that patches the module's
        # name (monkeypatch.setattr(ranks, "RankGroup", ...)) is seen by the front end, and
        # undone for it too.
        return getattr(importlib.import_module(f"{package}.{module}"), original or name)

    def face_dir() -> list[str]:
        return sorted(set(namespace) | set(homes))

    return face_getattr, face_dir
