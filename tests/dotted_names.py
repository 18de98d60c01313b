"""Does a dotted name such as ``core.moves.transaction.move_model`` name something real?

Read from the source with ``ast``, nothing imported: a module is a file or a package folder
under ``inspector/``, an attribute a name its module defines (a function, a class, an
assignment, an import, the names a lazy face imports under ``TYPE_CHECKING``), and a class's
attribute a name in its body. A name a module imports from elsewhere is taken as it is: what
lies behind it is checked where it is defined.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: A dotted path into the app: ``inspector.core.launcher``, ``gui.state.workers``,
#: ``core.session.Session.measure``. Not a file name (``cli.md``), not inside a path.
DOTTED = re.compile(r"(?<![\w./-])(?:inspector\.)?(?:core|gui|cli)(?:\.[A-Za-z_]\w*)+")
_FILE_SUFFIXES = frozenset({"md", "py", "json", "toml", "html", "txt", "csv", "zip", "png", "ts", "qm", "prom"})
#: Packages that are folders of data under another name once installed.
_DATA_PACKAGES = {"inspector.resources": REPO / "resources"}


def dotted_names(text: str) -> list[str]:
    """The dotted paths into the app that ``text`` names (a file name such as ``cli.md`` is not one)."""
    return [m.group(0) for m in DOTTED.finditer(text) if m.group(0).rsplit(".", 1)[-1] not in _FILE_SUFFIXES]


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` (with or without its leading ``inspector.``) names a module of the
    app, or something one of its modules or classes defines."""
    parts = dotted.split(".")
    if parts[0] != "inspector":
        parts = ["inspector", *parts]
    if ".".join(parts) in _DATA_PACKAGES:
        return _DATA_PACKAGES[".".join(parts)].is_dir()
    for cut in range(len(parts), 1, -1):
        source = _module_file(tuple(parts[:cut]))
        if source is not None:
            return _defines(_tree(source).body, parts[cut:])
    return False


def _module_file(parts: tuple[str, ...]) -> Path | None:
    base = REPO.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@functools.cache
def _tree(source: Path) -> ast.Module:
    return ast.parse(source.read_text(encoding="utf-8"))


def _defines(body: list[ast.stmt], names: list[str]) -> bool:
    for i, name in enumerate(names):
        node = _names_in(body).get(name)
        if node is None:
            return False
        if isinstance(node, ast.ClassDef):
            body = node.body
            continue
        # A function, a value or an imported name: what it holds is not read here.
        return i + 1 == len(names) or isinstance(node, (ast.ImportFrom, ast.Import))
    return True


def _names_in(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    """The names a module's (or a class's) statements bind, through ``if`` and ``try`` blocks."""
    names: dict[str, ast.stmt] = {}
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[statement.name] = statement
        elif isinstance(statement, ast.Assign):
            for target in statement.targets:
                names.update((n.id, statement) for n in ast.walk(target) if isinstance(n, ast.Name))
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in statement.targets):
                # a face whose names are found when first read (PEP 562's __getattr__)
                names.update((n.value, statement) for n in ast.walk(statement.value) if isinstance(n, ast.Constant))
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            names[statement.target.id] = statement
        elif isinstance(statement, (ast.ImportFrom, ast.Import)):
            names.update(((a.asname or a.name).split(".")[0], statement) for a in statement.names)
        elif isinstance(statement, (ast.If, ast.Try)):
            blocks = [statement.body, statement.orelse, getattr(statement, "finalbody", [])]
            blocks += [handler.body for handler in getattr(statement, "handlers", [])]
            for block in blocks:
                names.update(_names_in(block))
    return names


def docstrings(source: Path) -> list[tuple[int, str]]:
    """``(line, docstring)`` of the module, and of each class and function in ``source``."""
    found = []
    for node in ast.walk(_tree(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text:
                found.append((getattr(node, "lineno", 1), text))
    return found
