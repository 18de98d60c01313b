"""Each feature installs itself (``state.feature``): one table of features (``shell.features``),
and neither the window nor its session wiring names a feature's session parts.

Read from the source with ``ast`` (every import counts, inside functions too), and from the
table itself."""

from __future__ import annotations

import ast
from pathlib import Path

from inspector.gui.shell.features import FEATURES

ROOT = Path(__file__).resolve().parents[3]
FEATURES_DIR = ROOT / "inspector" / "gui" / "features"
#: Packages with no session part to install: the remote session's dialog and link are the
#: app's (File › Connect to server… makes a window of the remote kind).
NOT_INSTALLED = {"remote"}
#: What the window's frame (built before torch) still makes of the features: its panels and
#: the actions it binds itself (Help's pages work while torch loads; Open, Connect and Refresh
#: call the window's kind and requests).
FRAME_IMPORTS = {
    "inspector.gui.features.help.pages", "inspector.gui.features.help.actions",
    "inspector.gui.features.devices.actions", "inspector.gui.features.model.actions",
    "inspector.gui.features.remote.actions", "inspector.gui.features.moves.action_bar",
    "inspector.gui.features.devices.panel", "inspector.gui.features.history.panel",
    "inspector.gui.features.model.panel",
}  # fmt: skip


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return {n for n in names if n.startswith("inspector.gui.features.")}


def _modules(names: set[str]) -> set[str]:
    """The feature modules among ``names`` (``a.b.module.Class`` -> ``a.b.module``)."""
    return {n for n in names if (ROOT / (n.replace(".", "/") + ".py")).is_file()}


def test_the_session_wiring_names_no_feature():
    assert _imports(ROOT / "inspector" / "gui" / "shell" / "session_parts.py") == set()


def test_the_window_names_no_feature_beyond_its_frame():
    found = _modules(_imports(ROOT / "inspector" / "gui" / "shell" / "window.py"))
    assert found - FRAME_IMPORTS == set(), "install it from the table of features (shell.features) instead"


def test_every_feature_package_is_in_the_table_once_by_its_install():
    packages = {p.name for p in FEATURES_DIR.iterdir() if (p / "__init__.py").is_file()}
    installed = [f.__name__ for f in FEATURES]
    assert len(installed) == len(set(installed))
    assert sorted(installed) == sorted(f"inspector.gui.features.{name}.feature" for name in packages - NOT_INSTALLED)
    assert all(callable(getattr(f, "install", None)) for f in FEATURES)


def test_the_check_sees_a_feature_named_by_the_window():
    """(The scan is not blind: a window importing a feature's session part would be seen.)"""
    source = ROOT / "inspector" / "gui" / "shell" / "window.py"
    imports = _modules(_imports(source) | {"inspector.gui.features.report.flow"})
    assert imports - FRAME_IMPORTS == {"inspector.gui.features.report.flow"}
