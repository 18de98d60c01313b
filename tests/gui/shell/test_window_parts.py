"""The window's parts never import the window (docs/architecture.md: parts receive the widgets,
state and signals they use, never the window): the window's class (``shell.window``) and its remote kind
(``shell.remote_window``, composed with it, not a subclass) are imported by the app only, the
composition root (the main window; File › Connect… a window of the remote kind), and neither
imports the other.

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
WINDOW = "inspector.gui.shell.window"
KINDS = ("inspector.gui.shell.remote_window",)
#: The window's class and its remote kind: none is imported but as ``ALLOWED`` says.
WINDOWS = (WINDOW, *KINDS)

#: Who may import which of them, and why.
ALLOWED = {
    "inspector/gui/shell/app.py": {WINDOW, *KINDS},  # create_window makes the main window; File › Connect… a remote one
    "inspector/gui/shell/window.py": {WINDOW},  # itself
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


def _which_window(name: str) -> str | None:
    """The window module ``name`` is (or lies in), if any."""
    return next((w for w in WINDOWS if name == w or name.startswith(w + ".")), None)


def imported_windows(source: str, importer: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, window module) for each import in ``source`` (the module ``importer``) of the
    window's class or one of its kinds."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, importer, is_package)
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__"):
                names = [str(node.args[0].value)]
        windows = {w for w in map(_which_window, names) if w is not None}
        found += [(node.lineno, w) for w in sorted(windows)]
    return sorted(found)


def window_imports(source: str, importer: str, is_package: bool = False) -> list[int]:
    """The line numbers in ``source`` (the module ``importer``) that import the window or a kind of it."""
    return sorted({line for line, _window in imported_windows(source, importer, is_package)})


def test_only_the_app_imports_the_window_and_its_kinds():
    offenders = []
    for path in sorted(GUI.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        allowed = ALLOWED.get(relative, set())
        found = imported_windows(path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py")
        offenders += [f"{relative}:{line} ({window})" for line, window in found if window not in allowed]
    assert offenders == [], (
        "these gui modules import the window or a kind of it; give the part the widgets, state and "
        f"signals it uses instead (docs/architecture.md): {offenders}"
    )


def test_the_allowed_modules_exist():
    """An exemption for a module that moved or went away would exempt nothing: say so."""
    assert all((ROOT / path).is_file() for path in ALLOWED)


def test_the_window_is_imported_where_it_is_allowed():
    """The check sees the imports it allows (else it would pass by seeing nothing)."""
    seen = {}
    for relative in ALLOWED:
        path = ROOT / relative
        seen[relative] = {w for _line, w in imported_windows(path.read_text(encoding="utf-8"), _module_name(path))}
    assert seen["inspector/gui/shell/app.py"] == {WINDOW, *KINDS}


def test_the_window_and_its_remote_kind_never_import_each_other():
    """Composition, not a subclass: the remote kind reaches the window as ``window_kind.KindHost``,
    and the window knows only the ``WindowKind`` it is handed (every form of import counts)."""
    for relative, other in (("inspector/gui/shell/remote_window.py", WINDOW), ("inspector/gui/shell/window.py", KINDS[0])):
        path = ROOT / relative
        found = imported_windows(path.read_text(encoding="utf-8"), _module_name(path))
        assert other not in {w for _line, w in found}, f"{relative} imports {other}"


@pytest.mark.parametrize(
    "source, importer",
    [
        ("import inspector.gui.shell.window", "inspector.gui.shell.worker_results"),
        ("import inspector.gui.shell.window as w", "inspector.gui.shell.worker_results"),
        ("from inspector.gui.shell.window import InspectorWindow", "inspector.gui.shell.worker_results"),
        ("from inspector.gui.shell import window", "inspector.gui.shell.worker_results"),
        ("from inspector.gui.shell import layout, window", "inspector.gui.shell.worker_results"),
        ("from .window import InspectorWindow", "inspector.gui.shell.worker_results"),
        ("from . import remote_window", "inspector.gui.shell.worker_results"),
        ("from ...shell.window import InspectorWindow", "inspector.gui.features.history.panel"),
        ("from ...shell import window", "inspector.gui.features.history.panel"),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from inspector.gui.shell.window import InspectorWindow",
         "inspector.gui.shell.worker_results"),
        ("def f():\n    from inspector.gui.shell.window import InspectorWindow", "inspector.gui.shell.worker_results"),
        ("import importlib\nimportlib.import_module('inspector.gui.shell.window')", "inspector.gui.shell.worker_results"),
        ("from inspector.gui.shell.window import InspectorWindow", "inspector.gui.features.history.panel"),
        ("from . import window", "inspector.gui.shell.session_parts"),
        ("from inspector.gui.shell import remote_window", "inspector.gui.shell.session_parts"),
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
        ("from ...shell.window_notes import x", "inspector.gui.features.history.panel"),
        ("from inspector.gui.shell import windows_list", "inspector.gui.shell.worker_results"),
    ],
)
def test_other_imports_are_not_taken_for_the_window(source, importer):
    assert window_imports(source, importer) == []


def test_a_package_resolves_its_relative_imports_from_itself():
    assert window_imports("from .window import InspectorWindow", "inspector.gui.shell", is_package=True) != []


def test_every_menu_row_calls_something_the_window_has(make_window):
    # The frame's menus exist before the session's parts: each feature binds its actions'
    # callbacks when it is built. Once the session is up, every action of the menus has one.
    from PySide6.QtGui import QAction

    from inspector.gui.shell.menus import action_specs

    window = make_window()
    specs = action_specs()
    assert len(specs) >= 16
    assert len({s.id for s in specs}) == len({s.name for s in specs}) == len(specs)
    unbound = [spec.id for spec in specs if not window.menu_actions.is_bound(spec)]
    assert unbound == []
    for spec in specs:  # the object names docs/architecture.md lists find the registry's actions
        assert window.findChild(QAction, spec.name) is window.menu_actions.action(spec.id), spec.name


def test_an_action_triggered_before_its_feature_is_bound_does_nothing(qapp):
    from PySide6.QtCore import QT_TRANSLATE_NOOP
    from PySide6.QtWidgets import QWidget

    from inspector.gui.common.actions import ActionRegistry, ActionSpec

    parent = QWidget()
    registry = ActionRegistry(parent)
    spec = ActionSpec("test.say", "sayAction", QT_TRANSLATE_NOOP("Menus", "&Say"), "Ctrl+Shift+Y")
    action = registry.add(spec)
    said = []
    action.trigger()  # nothing bound yet: nothing happens
    registry.bind(spec, lambda: said.append("said"))
    action.trigger()
    assert said == ["said"] and action.objectName() == "sayAction" and action.text() == "&Say"
    with pytest.raises(ValueError):  # one action per id
        registry.add(ActionSpec("test.say", "otherAction", "&Other"))
    with pytest.raises(KeyError):  # a binding to an id nobody declared is a mistake, said at once
        registry.bind("test.unknown", lambda: None)
