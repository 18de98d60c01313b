"""The window's shape from its imports (issue 37), read from the source by ``tools/import_graph.py``
(every import counts: module level, inside functions, under ``TYPE_CHECKING``, ``import_module``).

- The app builds a window along a chain of at most 8 modules (``shell.app`` -> the window ->
  the table of features (``shell.features``, issue 44) -> a feature's install -> its view ->
  its parts -> a shared word list -> ``common.i18n``); the package's face,
  ``inspector.gui`` (``inspector.gui.create_window``, the documented test handle, which imports the app when first
  asked), is the one floor above it.
- No feature imports another, no layer imports a higher one (shell > features > state > common).
- No cycles.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import import_graph  # noqa: E402

PACKAGE = "inspector.gui"
LAYERS = ["shell", "features", "state", "common"]


def _graph() -> import_graph.Graph:
    return import_graph.build_graph(ROOT, PACKAGE)


def _chain(graph: import_graph.Graph, start: str) -> list[str]:
    """The longest import chain from ``start`` (its modules, ``start`` first)."""
    heights = import_graph.heights(graph)
    successors = graph.successors()
    chain = [start]
    while successors[chain[-1]]:
        chain.append(max(sorted(successors[chain[-1]]), key=lambda name: heights[name]))
    return chain


def test_the_app_builds_the_window_along_at_most_eight_floors() -> None:
    graph = _graph()
    heights = import_graph.heights(graph)
    app = f"{PACKAGE}.shell.app"
    assert heights[app] <= 8, " -> ".join(_chain(graph, app))
    # The window reaches the features through their table only, each through its install.
    features = f"{PACKAGE}.shell.features"
    assert heights[f"{PACKAGE}.shell.window"] == heights[features] + 1
    assert max(h for name, h in heights.items() if ".features." in name) < heights[features]
    # The package's face (``inspector.gui.create_window``) is the one floor above the app.
    assert heights[PACKAGE] == heights[app] + 1
    # Every module but the face and the app stands lower than the app.
    assert max(h for name, h in heights.items() if name not in (PACKAGE, app)) < heights[app]


def test_the_remote_window_is_no_floor_between_the_app_and_the_window() -> None:
    graph = _graph()
    remote = f"{PACKAGE}.shell.remote_window"
    window = f"{PACKAGE}.shell.window"
    assert window not in graph.successors()[remote]
    assert remote not in graph.successors()[window]


def test_features_are_independent_and_layers_point_down() -> None:
    graph = _graph()
    crossings = import_graph.feature_crossings(graph, f"{PACKAGE}.features")
    assert [(source, target) for source, target, _ in crossings] == []
    breaches = import_graph.layer_breaches(graph, LAYERS)
    assert [(source, target) for source, target, _ in breaches] == []
    assert import_graph.cycles(graph) == []
