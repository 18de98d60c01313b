"""The import graph of a package, computed from its source (``ast``; nothing is imported).

    python tools/import_graph.py                       # inspector.gui: folders, arrows, depth, cycles
    python tools/import_graph.py --json                # the same, one JSON document
    python tools/import_graph.py --edges               # every arrow, with the names it brings
    python tools/import_graph.py --map gui_map.tsv     # the graph as it would be after a move
    python tools/import_graph.py --heights 4           # the modules more than 4 floors high

Every import counts: at module level, inside functions (lazy imports), under
``if TYPE_CHECKING:`` and ``importlib.import_module("a.literal.name")``; relative imports are
resolved, and ``from pkg import module`` points at the module, not at ``pkg/__init__``.

Figures:
- modules per folder (a package's ``__init__`` counts in its own folder);
- arrows: distinct (importer, imported) pairs of modules inside the package;
- the longest import chain, in floors (the number of modules on it); a cycle counts as one floor;
- with ``--heights``, each module's height: the floors on the longest chain starting at it (a
  leaf is 1; a module's height is one more than the highest it imports);
- cycles (strongly connected groups of two or more modules);
- with a features layout (``<package>.features.<name>``), every arrow from one feature to another;
- with layers (``--layers shell,features,state,common``, highest first), every arrow from a lower
  layer to a higher one.

``--map`` reads a TSV of ``old<TAB>new`` dotted module names (``-`` as new: the module goes) and
renames the nodes before counting, so a proposed layout can be checked before anything moves.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Import:
    """One import statement (or one name of it) from a module of the package to another."""

    source: str
    target: str
    line: int
    #: What the importer takes: the names of ``from X import a, b``, or ``"<module>"``.
    names: tuple[str, ...]
    #: "module" (top level), "function" (inside a def), "type_checking", "dynamic" (import_module).
    kind: str


@dataclass
class Graph:
    package: str
    #: module name -> its file (relative to the root it was read from)
    modules: dict[str, Path]
    imports: list[Import] = field(default_factory=list)

    @property
    def edges(self) -> dict[tuple[str, str], list[Import]]:
        found: dict[tuple[str, str], list[Import]] = defaultdict(list)
        for imp in self.imports:
            if imp.source != imp.target:
                found[(imp.source, imp.target)].append(imp)
        return dict(found)

    def successors(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {name: set() for name in self.modules}
        for source, target in self.edges:
            out[source].add(target)
        return out


# ----- reading a package


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root`` (the folder holding its top-level package)."""
    folder = root.joinpath(*package.split("."))
    if not (folder / "__init__.py").is_file():
        raise SystemExit(f"error: {package} is not a package under {root}")
    found: dict[str, Path] = {}
    for path in sorted(folder.rglob("*.py")):
        relative = path.relative_to(root)
        parts = list(relative.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        # a folder without __init__.py below the package is not a package: skip what it holds
        if any(not root.joinpath(*parts[:i], "__init__.py").is_file() for i in range(len(package.split(".")), len(parts))):
            continue
        found[".".join(parts)] = relative
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, kind: str) -> Iterator[tuple[ast.AST, str]]:
    """Every node below ``node`` with the kind of place it sits in (see ``Import.kind``)."""
    for child in ast.iter_child_nodes(node):
        here = kind
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and kind == "module":
            here = "function"
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            yield child, kind
            for part in child.body:
                yield part, "type_checking"
                yield from _walk(part, "type_checking")
            for part in child.orelse:
                yield part, kind
                yield from _walk(part, kind)
            continue
        yield child, here
        yield from _walk(child, here)


def _longest_known(name: str, modules: dict[str, Path]) -> str | None:
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def resolve_from(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute dotted name ``from <...> import`` names in ``module``."""
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    if node.level > 1:
        parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, modules: dict[str, Path], package: str) -> Iterator[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"

    def inside(name: str) -> bool:
        return name == package or name.startswith(package + ".")

    for node, kind in _walk(tree, "module"):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _longest_known(alias.name, modules)
                if target and inside(target):
                    yield Import(module, target, node.lineno, ("<module>",), kind)
        elif isinstance(node, ast.ImportFrom):
            base = resolve_from(module, is_package, node)
            by_target: dict[str, list[str]] = defaultdict(list)
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                if alias.name != "*" and whole in modules:
                    by_target[whole].append("<module>")
                else:
                    target = _longest_known(base, modules)
                    if target:
                        by_target[target].append(alias.name)
            for target, names in by_target.items():
                if inside(target):
                    yield Import(module, target, node.lineno, tuple(names), kind)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            first = node.args[0]
            if called == "import_module" and isinstance(first, ast.Constant) and isinstance(first.value, str):
                target = _longest_known(first.value, modules)
                if target and inside(target):
                    yield Import(module, target, node.lineno, ("<module>",), "dynamic")


def build_graph(root: Path, package: str, kinds: Iterable[str] | None = None) -> Graph:
    modules = module_files(root, package)
    graph = Graph(package, modules)
    wanted = set(kinds) if kinds is not None else None
    for module, relative in modules.items():
        for imp in imports_of(module, root / relative, modules, package):
            if wanted is None or imp.kind in wanted:
                graph.imports.append(imp)
    return graph


def read_map(path: Path) -> dict[str, str]:
    """``old<TAB>new`` per line; ``#`` comments and blank lines skipped; ``-`` drops a module."""
    mapping: dict[str, str] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        cells = line.split("\t") if "\t" in line else line.split()
        if len(cells) < 2:
            raise SystemExit(f"error: {path}:{number}: expected 'old<TAB>new', got {raw!r}")
        mapping[cells[0].strip()] = cells[1].strip()
    return mapping


def renamed(graph: Graph, mapping: dict[str, str]) -> Graph:
    """The graph with each module under its new name (unmapped ones keep theirs, ``-`` goes)."""
    def new(name: str) -> str:
        return mapping.get(name, name)

    modules = {new(name): path for name, path in graph.modules.items() if new(name) != "-"}
    out = Graph(graph.package, modules)
    for imp in graph.imports:
        source, target = new(imp.source), new(imp.target)
        if source != "-" and target != "-":
            out.imports.append(Import(source, target, imp.line, imp.names, imp.kind))
    return out


# ----- figures


def strongly_connected(nodes: Iterable[str], successors: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components, iteratively (a deep package must not hit the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for start in sorted(nodes):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(successors.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(successors.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def _component_depths(graph: Graph) -> tuple[list[list[str]], dict[int, int], dict[int, int | None]]:
    """The strongly connected groups (a cycle is one floor), each group's depth in floors and
    the group below it on its deepest chain (ties: the alphabetically first)."""
    successors = graph.successors()
    components = strongly_connected(graph.modules, successors)
    home = {member: i for i, component in enumerate(components) for member in component}
    down: dict[int, set[int]] = defaultdict(set)
    for source, targets in successors.items():
        for target in targets:
            if home[source] != home[target]:
                down[home[source]].add(home[target])
    depth: dict[int, int] = {}
    below: dict[int, int | None] = {}
    # Tarjan emits groups leaves first: one pass in that order has seen every group below.
    for i in range(len(components)):
        if down[i]:
            deepest = min(down[i], key=lambda j: (-depth[j], components[j][0]))
            depth[i], below[i] = depth[deepest] + 1, deepest
        else:
            depth[i], below[i] = 1, None
    return components, depth, below


def chains_deeper_than(graph: Graph, floors: int, limit: int = 50) -> list[list[str]]:
    """The deepest chain from each start with more than ``floors`` floors, deepest first (at
    most ``limit``); a cycle on a chain is one floor, its members joined by ``|``."""
    components, depth, below = _component_depths(graph)
    starts = sorted((i for i in depth if depth[i] > floors), key=lambda i: (-depth[i], components[i][0]))
    out = []
    for start in starts[:limit]:
        chain: list[str] = []
        at: int | None = start
        while at is not None:
            chain.append("|".join(components[at]))
            at = below[at]
        out.append(chain)
    return out


def heights(graph: Graph) -> dict[str, int]:
    """Each module's height: the floors on the longest chain starting at it (the members of a
    cycle share theirs), highest first (ties: by name)."""
    components, depth, _below = _component_depths(graph)
    found = {member: depth[i] for i, component in enumerate(components) for member in component}
    return dict(sorted(found.items(), key=lambda item: (-item[1], item[0])))


def longest_chain(graph: Graph) -> list[str]:
    """The longest import chain, first importer first."""
    chains = chains_deeper_than(graph, 0, limit=1)
    return chains[0] if chains else []


def cycles(graph: Graph) -> list[list[str]]:
    successors = graph.successors()
    return [c for c in strongly_connected(graph.modules, successors) if len(c) > 1]


def folder_of(module: str, graph: Graph) -> str:
    path = graph.modules[module]
    return path.parent.as_posix()


def modules_per_folder(graph: Graph) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for module in graph.modules:
        counts[folder_of(module, graph)] += 1
    return dict(sorted(counts.items()))


def modules_per_package(graph: Graph) -> dict[str, int]:
    """By dotted package (useful after ``--map``, when files have not moved yet)."""
    counts: dict[str, int] = defaultdict(int)
    for module, path in graph.modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        counts[package] += 1
    return dict(sorted(counts.items()))


def feature_of(module: str, features: str) -> str | None:
    if module.startswith(features + "."):
        return module[len(features) + 1:].split(".")[0]
    return None


def feature_crossings(graph: Graph, features: str) -> list[tuple[str, str, list[Import]]]:
    crossings = []
    for (source, target), imps in sorted(graph.edges.items()):
        a, b = feature_of(source, features), feature_of(target, features)
        if a and b and a != b:
            crossings.append((source, target, imps))
    return crossings


def layer_of(module: str, package: str, layers: list[str]) -> int | None:
    for rank, layer in enumerate(layers):
        name = f"{package}.{layer}"
        if module == name or module.startswith(name + "."):
            return rank
    return None


def layer_breaches(graph: Graph, layers: list[str]) -> list[tuple[str, str, list[Import]]]:
    """Arrows from a lower layer (later in ``layers``) up to a higher one."""
    breaches = []
    for (source, target), imps in sorted(graph.edges.items()):
        a, b = layer_of(source, graph.package, layers), layer_of(target, graph.package, layers)
        if a is not None and b is not None and a > b:
            breaches.append((source, target, imps))
    return breaches


def summary(
    graph: Graph, features: str | None, layers: list[str] | None, floors: int | None, higher_than: int | None = None,
) -> dict[str, Any]:
    chain = longest_chain(graph)
    edges = graph.edges
    kinds: dict[str, int] = defaultdict(int)
    for imps in edges.values():
        # an arrow counts as "module" if any of its imports is at module level, and so on
        order = ["module", "function", "type_checking", "dynamic"]
        kinds[min((imp.kind for imp in imps), key=order.index)] += 1

    def crossing(items: list[tuple[str, str, list[Import]]]) -> list[dict[str, Any]]:
        return [
            {
                "importer": s,
                "imported": t,
                "names": sorted({n for imp in imps for n in imp.names}),
                "lines": sorted({imp.line for imp in imps}),
                "kinds": sorted({imp.kind for imp in imps}),
            }
            for s, t, imps in items
        ]

    out: dict[str, Any] = {
        "package": graph.package,
        "modules": len(graph.modules),
        "modules_per_folder": modules_per_folder(graph),
        "modules_per_package": modules_per_package(graph),
        "arrows": len(edges),
        "arrows_by_kind": dict(sorted(kinds.items())),
        "depth": len(chain),
        "longest_chain": chain,
        "cycles": cycles(graph),
    }
    if features:
        out["feature_to_feature"] = crossing(feature_crossings(graph, features))
    if layers:
        out["layers"] = layers
        out["layer_breaches"] = crossing(layer_breaches(graph, layers))
    if floors:
        out[f"chains_deeper_than_{floors}"] = chains_deeper_than(graph, floors)
    if higher_than is not None:
        out["heights"] = {name: h for name, h in heights(graph).items() if h > higher_than}
    return out


def _short(name: str, package: str) -> str:
    return name[len(package) + 1:] if name.startswith(package + ".") else name


def print_text(result: dict[str, Any], graph: Graph, show_edges: bool) -> None:
    package = result["package"]
    print(f"package {package}: {result['modules']} modules")
    print("modules per folder:")
    for folder, count in result["modules_per_folder"].items():
        print(f"  {folder:<48} {count}")
    if result["modules_per_package"] and set(result["modules_per_package"]) != {package}:
        print("modules per package:")
        for name, count in result["modules_per_package"].items():
            print(f"  {name:<48} {count}")
    kinds = ", ".join(f"{k} {v}" for k, v in result["arrows_by_kind"].items())
    print(f"arrows (distinct importer -> imported pairs inside the package): {result['arrows']} ({kinds})")
    print(f"depth (floors on the longest import chain): {result['depth']}")
    print("  " + " -> ".join(_short(n, package) for n in result["longest_chain"]))
    print(f"cycles: {len(result['cycles'])}")
    for group in result["cycles"]:
        print("  " + " <-> ".join(_short(n, package) for n in group))
    for key, title in (("feature_to_feature", "feature -> another feature"), ("layer_breaches", "lower layer -> higher layer")):
        if key in result:
            print(f"{title}: {len(result[key])}")
            for item in result[key]:
                print(f"  {_short(item['importer'], package)} -> {_short(item['imported'], package)}"
                      f"  [{', '.join(item['names'])}] lines {item['lines']} ({', '.join(item['kinds'])})")
    for key, chains in result.items():
        if key.startswith("chains_deeper_than_"):
            print(f"{key.replace('_', ' ')}: {len(chains)} start modules")
            for chain in chains:
                print(f"  {len(chain)}: " + " -> ".join(_short(n, package) for n in chain))
    if "heights" in result:
        print(f"heights (floors on the longest chain from each module): {len(result['heights'])} modules")
        for name, height in result["heights"].items():
            print(f"  {height:>2}  {_short(name, package)}")
    if show_edges:
        print("arrows:")
        for (source, target), imps in sorted(graph.edges.items()):
            names = sorted({n for imp in imps for n in imp.names})
            kinds_here = sorted({imp.kind for imp in imps})
            print(f"  {_short(source, package)} -> {_short(target, package)}  [{', '.join(names)}] ({', '.join(kinds_here)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package", nargs="?", default="inspector.gui")
    parser.add_argument("--root", type=Path, default=REPO, help="folder holding the top-level package (default: the repository)")
    parser.add_argument("--features", default=None,
                        help="dotted package whose sub-packages are features (default: <package>.features)")
    parser.add_argument("--layers", default="shell,features,state,common",
                        help="comma-separated sub-packages, highest first ('' for none)")
    parser.add_argument("--deeper-than", type=int, default=None, metavar="N", help="list the chains with more than N floors")
    parser.add_argument("--heights", type=int, nargs="?", const=0, default=None, metavar="N",
                        help="each module's height (floors on the longest chain from it); with N, those above N")
    parser.add_argument("--map", type=Path, default=None, help="TSV old<TAB>new: count the graph after such a move")
    parser.add_argument("--runtime-only", action="store_true", help="leave out imports under TYPE_CHECKING")
    parser.add_argument("--edges", action="store_true", help="print every arrow")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    args = parser.parse_args(argv)

    kinds = ["module", "function", "dynamic"] if args.runtime_only else None
    graph = build_graph(args.root.resolve(), args.package, kinds)
    if args.map:
        graph = renamed(graph, read_map(args.map))
    features = args.features or f"{args.package}.features"
    layers = [layer.strip() for layer in args.layers.split(",") if layer.strip()]
    result = summary(graph, features, layers, args.deeper_than, args.heights)
    if args.json:
        if args.edges:
            result["edges"] = [
                {"importer": s, "imported": t, "names": sorted({n for i in imps for n in i.names}),
                 "kinds": sorted({i.kind for i in imps}), "lines": sorted({i.line for i in imps})}
                for (s, t), imps in sorted(graph.edges.items())
            ]
        json.dump(result, sys.stdout, indent=2)
        print()
    else:
        print_text(result, graph, args.edges)
    return 0


if __name__ == "__main__":
    sys.exit(main())
