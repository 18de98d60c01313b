"""tools/import_graph.py on a tiny package built here: depth, arrows, cycles, features, layers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import import_graph  # noqa: E402


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def app(tmp_path: Path) -> Path:
    write(tmp_path, {
        "app/__init__.py": '"""The app."""\n',
        "app/shell/__init__.py": "",
        # relative, module-level: shell.window -> features.a.view, features.b.view
        "app/shell/window.py": "from ..features.a import view\nfrom ..features.b.view import B\n",
        "app/features/__init__.py": "",
        "app/features/a/__init__.py": "",
        # a feature importing another, inside a function
        "app/features/a/view.py": "def f():\n    from app.features.b import view as other\n    return other\n",
        "app/features/b/__init__.py": "",
        # under TYPE_CHECKING, and `from pkg import module`
        "app/features/b/view.py": (
            "from typing import TYPE_CHECKING\n"
            "from app.state import store\n"
            "if TYPE_CHECKING:\n    from app.common.words import W\n"
            "class B: ...\n"
        ),
        "app/state/__init__.py": "",
        # a lower layer importing a higher one (state -> shell), by import_module
        "app/state/store.py": "import importlib\nimport os\nfrom app.common import words\n"
                              "def late():\n    return importlib.import_module('app.shell.window')\n",
        "app/common/__init__.py": "",
        "app/common/words.py": "import json\nW = 1\n",
    })
    return tmp_path


def test_arrows_depth_and_kinds(app: Path) -> None:
    graph = import_graph.build_graph(app, "app")
    edges = set(graph.edges)
    assert edges == {
        ("app.shell.window", "app.features.a.view"),
        ("app.shell.window", "app.features.b.view"),
        ("app.features.a.view", "app.features.b.view"),
        ("app.features.b.view", "app.state.store"),
        ("app.features.b.view", "app.common.words"),
        ("app.state.store", "app.common.words"),
        ("app.state.store", "app.shell.window"),
    }
    kinds = {(i.source, i.target): i.kind for i in graph.imports}
    assert kinds[("app.features.a.view", "app.features.b.view")] == "function"
    assert kinds[("app.features.b.view", "app.common.words")] == "type_checking"
    assert kinds[("app.state.store", "app.shell.window")] == "dynamic"
    # the dynamic import closes a cycle: window -> a.view -> b.view -> store -> window
    assert import_graph.cycles(graph) == [
        ["app.features.a.view", "app.features.b.view", "app.shell.window", "app.state.store"]]
    # the cycle is one floor, words below it
    assert import_graph.longest_chain(graph) == [
        "app.features.a.view|app.features.b.view|app.shell.window|app.state.store", "app.common.words"]


def test_depth_without_the_cycle_and_feature_crossings(app: Path) -> None:
    graph = import_graph.build_graph(app, "app", kinds=["module", "function", "type_checking"])
    assert len(graph.edges) == 6
    assert import_graph.cycles(graph) == []
    chain = import_graph.longest_chain(graph)
    assert chain == ["app.shell.window", "app.features.a.view", "app.features.b.view",
                     "app.state.store", "app.common.words"]
    assert [c[0] for c in import_graph.chains_deeper_than(graph, 3)] == ["app.shell.window", "app.features.a.view"]
    crossings = import_graph.feature_crossings(graph, "app.features")
    assert [(s, t) for s, t, _ in crossings] == [("app.features.a.view", "app.features.b.view")]
    assert crossings[0][2][0].names == ("<module>",)


def test_heights_count_the_floors_below_each_module(app: Path, capsys: pytest.CaptureFixture[str]) -> None:
    graph = import_graph.build_graph(app, "app", kinds=["module", "function", "type_checking"])
    found = import_graph.heights(graph)
    assert found["app.common.words"] == 1 and found["app.state.store"] == 2
    assert found["app.features.b.view"] == 3 and found["app.features.a.view"] == 4
    assert found["app.shell.window"] == 5 == len(import_graph.longest_chain(graph))
    assert list(found)[0] == "app.shell.window"  # highest first
    # with the dynamic import the four modules are one cycle: one floor, over words
    assert import_graph.heights(import_graph.build_graph(app, "app"))["app.state.store"] == 2
    import_graph.main(["app", "--root", str(app), "--runtime-only", "--heights", "1", "--json"])
    assert json.loads(capsys.readouterr().out)["heights"] == {  # above 1: all but words
        "app.features.a.view": 2, "app.features.b.view": 2, "app.shell.window": 2, "app.state.store": 2}


def test_layer_breach_and_names_used(app: Path) -> None:
    graph = import_graph.build_graph(app, "app")
    breaches = import_graph.layer_breaches(graph, ["shell", "features", "state", "common"])
    assert [(s, t) for s, t, _ in breaches] == [("app.state.store", "app.shell.window")]
    imps = graph.edges[("app.shell.window", "app.features.b.view")]
    assert imps[0].names == ("B",)


def test_a_mapping_projects_the_graph(app: Path, tmp_path: Path) -> None:
    table = tmp_path / "map.tsv"
    table.write_text("# old\tnew\napp.features.b.view\tapp.common.bview\napp.state.store\t-\n", encoding="utf-8")
    graph = import_graph.renamed(import_graph.build_graph(app, "app"), import_graph.read_map(table))
    assert "app.common.bview" in graph.modules and "app.state.store" not in graph.modules
    assert import_graph.feature_crossings(graph, "app.features") == []
    assert import_graph.modules_per_package(graph)["app.common"] == 3  # __init__, words, bview


def test_json_output(app: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import_graph.main(["app", "--root", str(app), "--json", "--runtime-only"])
    result = json.loads(capsys.readouterr().out)
    assert result["arrows"] == 6  # the TYPE_CHECKING arrow left out
    assert result["depth"] == 2  # the four-module cycle (import_module closes it) over words
    assert len(result["cycles"]) == 1
    assert result["modules_per_folder"] == {"app": 1, "app/common": 2, "app/features": 1, "app/features/a": 2,
                                            "app/features/b": 2, "app/shell": 2, "app/state": 2}
    assert [(i["importer"], i["imported"]) for i in result["feature_to_feature"]] == [
        ("app.features.a.view", "app.features.b.view")]
