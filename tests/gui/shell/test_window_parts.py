"""The window's parts never import the window (DESIGN.md: "parts receive widgets/state/signals,
never the window").

Read from the source with ``ast``, so every form counts: plain and ``from`` imports, relative
ones, ``importlib.import_module``, and those inside ``if TYPE_CHECKING:`` or a function. The
import-linter contract in pyproject.toml says the same from the import graph.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
GUI = ROOT / "inspector" / "gui"
WINDOW = "inspector.gui.shell.main_window"

#: Who may import the window, and why.
ALLOWED = {
    "inspector/gui/shell/app.py": "create_window composes it",
    "inspector/gui/shell/main_window.py": "itself",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(module: str | None, level: int, importer: str, is_package: bool) -> str:
    """The absolute name a ``from`` import names (``from ..x import y`` in ``a.b.c`` -> ``a.x``)."""
    if level == 0:
        return module or ""
    package = importer.split(".") if is_package else importer.split(".")[:-1]
    base = package[: len(package) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _is_window(name: str) -> bool:
    return name == WINDOW or name.startswith(WINDOW + ".")


def window_imports(source: str, importer: str, is_package: bool = False) -> list[int]:
    """The line numbers in ``source`` (the module ``importer``) that import the main window."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            if any(_is_window(alias.name) for alias in node.names):
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, importer, is_package)
            if _is_window(base) or any(_is_window(f"{base}.{alias.name}") for alias in node.names):
                lines.append(node.lineno)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__") and _is_window(str(node.args[0].value)):
                lines.append(node.lineno)
    return sorted(lines)


def test_no_gui_module_but_the_app_imports_the_main_window():
    offenders = []
    for path in sorted(GUI.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative in ALLOWED:
            continue
        lines = window_imports(path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py")
        offenders += [f"{relative}:{line}" for line in lines]
    assert offenders == [], (
        "these gui modules import the main window; give the part the widgets, state and signals "
        f"it uses instead (DESIGN.md): {offenders}"
    )


def test_the_allowed_modules_exist():
    """An exemption for a module that moved or went away would exempt nothing: say so."""
    assert all((ROOT / path).is_file() for path in ALLOWED)


@pytest.mark.parametrize(
    "source, importer",
    [
        ("import inspector.gui.shell.main_window", "inspector.gui.shell.worker_results"),
        ("import inspector.gui.shell.main_window as mw", "inspector.gui.shell.worker_results"),
        ("from inspector.gui.shell.main_window import MainWindow", "inspector.gui.shell.worker_results"),
        ("from inspector.gui.shell import main_window", "inspector.gui.shell.worker_results"),
        ("from inspector.gui.shell import layout, main_window", "inspector.gui.shell.worker_results"),
        ("from .main_window import MainWindow", "inspector.gui.shell.worker_results"),
        ("from . import main_window", "inspector.gui.shell.worker_results"),
        ("from ...shell.main_window import MainWindow", "inspector.gui.features.history.panel"),
        ("from ...shell import main_window", "inspector.gui.features.history.panel"),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from inspector.gui.shell.main_window import MainWindow",
         "inspector.gui.shell.worker_results"),
        ("def f():\n    from inspector.gui.shell.main_window import MainWindow", "inspector.gui.shell.worker_results"),
        ("import importlib\nimportlib.import_module('inspector.gui.shell.main_window')", "inspector.gui.shell.worker_results"),
    ],
)
def test_every_form_of_importing_the_window_is_seen(source, importer):
    assert window_imports(source, importer) != []


@pytest.mark.parametrize(
    "source, importer",
    [
        ("from inspector.gui.shell import layout", "inspector.gui.shell.worker_results"),
        ("from .layout import build_frame", "inspector.gui.shell.worker_results"),
        ("from PySide6.QtWidgets import QMainWindow", "inspector.gui.shell.worker_results"),
        ("from ..main_window_notes import x", "inspector.gui.features.history.panel"),
    ],
)
def test_other_imports_are_not_taken_for_the_window(source, importer):
    assert window_imports(source, importer) == []


def test_a_package_resolves_its_relative_imports_from_itself():
    assert window_imports("from .main_window import MainWindow", "inspector.gui.shell", is_package=True) != []


def test_every_menu_row_calls_something_the_window_has(make_window):
    # Menu slots are resolved when triggered (the frame's menus exist before the session's
    # parts): each row's dotted path must still lead to a callable once the session is up.
    from inspector.gui.shell.menus import MENUS, ActionSpec, _resolve

    window = make_window()
    rows = [row for _title, items in MENUS for row in items if isinstance(row, ActionSpec)]
    assert len(rows) >= 15
    for row in rows:
        assert callable(_resolve(window, row.slot)), row.slot
