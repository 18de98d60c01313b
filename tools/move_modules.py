"""Move modules to new dotted names and rewrite every place that names them.

    python tools/move_modules.py MAP.tsv --dry-run   # print the moves and every line it would change
    python tools/move_modules.py MAP.tsv             # git mv, new packages, rewrites

MAP.tsv: one ``old<TAB>new`` per line (dotted module names; ``#`` starts a comment), e.g.

    pkg.ui.compare_table    pkg.ui.features.compare.table
    pkg.ui.panels           -        # the package goes (its __init__ must hold only a docstring)
    +  pkg.ui.features      One package per thing a user does.   # a new package's docstring

(The examples here say ``pkg.ui``: a real name in this file would be rewritten by a real move.)

What it does:
1. ``git mv`` each module's file to the path of its new name, creating every package on the
   way with an ``__init__.py`` holding a one-line docstring (a ``+`` row gives it; else a plain one).
2. Rewrites, in every text file git knows (tracked, or untracked and not ignored): whole dotted
   names (``pkg.ui.compare`` never touches ``pkg.ui.compare_table``; a name
   followed by ``.attr``, as in ``mock.patch("pkg.ui.workers.QThread")``, is rewritten
   too), file paths (``pkg/ui/compare.py``, ``ui/compare.py``, as in .ts ``<location>``
   entries and docstrings), and in Python the import statements whose words are not dotted
   names: ``from pkg.ui import i18n, screen_fit`` is split by new parent, keeping each
   local name (``from pkg.ui.common import i18n``, ``from pkg.ui.shell import
   screen_fit``; ``... import table as compare_table`` where the last part changed), and
   relative imports in moved files (or pointing at moved modules) become absolute.
3. Removes ``__init__.py`` files mapped to ``-`` (only if they hold nothing but a docstring) and
   the folders the moves leave empty.
4. Reports what is left for a person: names of removed packages still written somewhere, new
   packages missing from pyproject's explicit ``packages`` list.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import subprocess
import sys
import tokenize
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MAX_LINE = 120


@dataclass
class Plan:
    root: Path
    #: old dotted module -> new dotted module ("-": the module goes)
    renames: dict[str, str]
    #: new package -> its docstring (from "+" rows)
    docstrings: dict[str, str] = field(default_factory=dict)
    #: old dotted module -> its file, relative to root
    files: dict[str, Path] = field(default_factory=dict)

    @property
    def moves(self) -> dict[str, str]:
        return {old: new for old, new in self.renames.items() if new != "-"}

    def new_file(self, old: str) -> Path:
        new = self.renames[old]
        if self.files[old].name == "__init__.py":
            return Path(*new.split("."), "__init__.py")
        return Path(*new.split(".")).with_suffix(".py")


def read_plan(path: Path, root: Path) -> Plan:
    renames: dict[str, str] = {}
    docstrings: dict[str, str] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        cells = [c.strip() for c in (line.split("\t") if "\t" in line else line.split(None, 2))]
        cells = [c for c in cells if c]
        if cells[0] == "+" and len(cells) >= 2:
            docstrings[cells[1]] = cells[2] if len(cells) > 2 else ""
            continue
        if len(cells) != 2:
            raise SystemExit(f"error: {path}:{number}: expected 'old<TAB>new', got {raw!r}")
        if cells[0] in renames:
            raise SystemExit(f"error: {path}:{number}: {cells[0]} is mapped twice")
        renames[cells[0]] = cells[1]
    plan = Plan(root, renames, docstrings)
    problems = []
    for old in renames:
        base = root.joinpath(*old.split("."))
        if base.with_suffix(".py").is_file():
            plan.files[old] = base.with_suffix(".py").relative_to(root)
        elif (base / "__init__.py").is_file():
            plan.files[old] = (base / "__init__.py").relative_to(root)
        else:
            problems.append(f"{old}: no such module under {root}")
    targets: dict[Path, str] = {}
    leaving = {root / f for f in plan.files.values()}
    for old in plan.moves:
        if old not in plan.files:
            continue
        target = plan.new_file(old)
        if target in targets:
            problems.append(f"{old} and {targets[target]} both go to {target}")
        targets[target] = old
        if (root / target).exists() and (root / target) not in leaving:
            problems.append(f"{old}: {target} exists already")
        if not _valid_dotted(plan.renames[old]):
            problems.append(f"{old}: {plan.renames[old]!r} is not a dotted module name")
    if problems:
        raise SystemExit("error: the map does not hold:\n  " + "\n  ".join(problems))
    return plan


def _valid_dotted(name: str) -> bool:
    return all(part.isidentifier() for part in name.split("."))


# ----- rewriting


_NAME = r"[A-Za-z_]\w*(?:[ \t]+as[ \t]+[A-Za-z_]\w*)?"
#: ``from a.b import c, d as e`` on one line, else a run of name characters or of others (the
#: dotted names in a run are rewritten as they come)
FROM_LINE = re.compile(
    rf"(?P<from>(?<![\w.])from[ \t]+[\w.]+[ \t]+import[ \t]+{_NAME}(?:[ \t]*,[ \t]*{_NAME})*)"
    rf"|[\w.]+|[^\w.]+",
)


def _alternation(names: dict[str, str], lookbehind: str) -> re.Pattern[str] | None:
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"{lookbehind}(?:{alternatives})(?![\w])")


def _name_pattern(names: list[str]) -> re.Pattern[str] | None:
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    # whole dotted names: not inside a longer word or dotted name on the left, not followed by
    # a word character (so ".attr" after it is fine, "_table" is not)
    return re.compile(rf"(?<![\w.])(?:{alternatives})(?![\w])")


class Rewriter:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.names = dict(plan.moves)
        self.dotted = _name_pattern(list(self.names))
        #: "pkg/ui/compare.py" and its short form "ui/compare.py" -> their new paths
        self.full_paths: dict[str, str] = {}
        self.short_paths: dict[str, str] = {}
        for old in plan.moves:
            if plan.files[old].name == "__init__.py":
                continue  # a package is named by its dotted name, not by its __init__'s path
            old_path, new_path = plan.files[old].as_posix(), plan.new_file(old).as_posix()
            self.full_paths[old_path] = new_path
            if "/" in old_path:
                self.short_paths[old_path.split("/", 1)[1]] = new_path.split("/", 1)[1]
        # a full path may follow "../../" (a .ts <location>); a short one stands alone, so
        # "tests/ui/window.py" is not "ui/window.py"
        self.path_patterns = [
            (pattern, table)
            for pattern, table in (
                (_alternation(self.full_paths, r"(?<![\w.-])"), self.full_paths),
                (_alternation(self.short_paths, r"(?<![\w./-])"), self.short_paths),
            )
            if pattern is not None
        ]
        #: old module -> (the file it was, whether it is a package)
        self.module_of_file = {plan.files[m]: m for m in plan.files}
        #: a package that goes -> {a name its modules define -> the one module defining it}, so
        #: ``from pkg import Name`` (a re-export, or a PEP 562 lazy face) finds Name's new home
        self.homes: dict[str, dict[str, str]] = {}
        for package in (old for old, new in plan.renames.items() if new == "-"):
            found: dict[str, list[str]] = defaultdict(list)
            for module in plan.moves:
                if module.startswith(package + "."):
                    for name in _defined_names(plan.root / plan.files[module]):
                        found[name].append(module)
            self.homes[package] = {name: mods[0] for name, mods in found.items() if len(mods) == 1}

    # -- plain text: dotted names and paths

    def text(self, source: str) -> str:
        """Dotted names, one-line ``from x import a, b`` (in strings, docs, code blocks: what
        no AST sees) and paths, rewritten."""
        source = FROM_LINE.sub(self._from_line, source)
        for pattern, table in self.path_patterns:
            source = pattern.sub(lambda m, t=table: t[m.group(0)], source)  # type: ignore[misc]
        return source

    def _dotted(self, text: str) -> str:
        return self.dotted.sub(lambda m: self.names[m.group(0)], text) if self.dotted is not None else text

    def _from_line(self, match: re.Match[str]) -> str:
        whole = match.group(0)
        if match.group("from") is None:
            return self._dotted(whole)
        try:
            node = ast.parse(match.group("from")).body[0]
        except SyntaxError:
            return self._dotted(whole)
        new = self.import_from(node, None, False, wrap=False) if isinstance(node, ast.ImportFrom) else None
        if new is None:
            return self._dotted(whole)
        # on a line of its own: one statement per line; inside a line (a string): "; "
        before = match.string[match.string.rfind("\n", 0, match.start()) + 1: match.start()]
        joiner = "\n" + before if not before.strip() else "; "
        return joiner.join(new)

    # -- Python: import statements, then text elsewhere

    def python(self, source: str, module: str | None, is_package: bool) -> str:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            return self.text(source)
        lines = source.splitlines(keepends=True)
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line))
        edits: list[tuple[int, int, str]] = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.end_lineno is None or node.end_col_offset is None:
                continue
            new = self.import_from(node, module, is_package)
            if new is None:
                continue
            start = offsets[node.lineno - 1] + node.col_offset
            end = offsets[node.end_lineno - 1] + node.end_col_offset
            first_line = lines[node.lineno - 1]
            if first_line[: node.col_offset].strip():
                continue  # "x = 1; from a import b": left to the text rule
            indent = first_line[: node.col_offset]
            comments = _comments(source[start:end])
            tail_end = offsets[node.end_lineno] if node.end_lineno < len(lines) else len(source)
            tail = source[end:tail_end]
            tail_comment = tail.strip()
            if tail_comment.startswith("#") and not comments:
                # a trailing comment (noqa, type: ignore) belongs on every line the statement becomes
                new = [f"{line}  {tail_comment}" for line in new]
                end = end + len(tail.rstrip("\r\n"))
            text = ("\n" + indent).join(line.replace("\n", "\n" + indent) for line in comments + new)
            edits.append((start, end, text))
        out: list[str] = []
        at = 0
        for start, end, text in sorted(edits):
            out.append(self.text(source[at:start]))
            out.append(text)
            at = end
        out.append(self.text(source[at:]))
        return "".join(out)

    def import_from(self, node: ast.ImportFrom, module: str | None, is_package: bool,
                    wrap: bool = True) -> list[str] | None:
        """The lines that replace ``node``, or None when it names nothing that moves."""
        base = node.module or ""
        if node.level:
            if module is None:
                return None
            parts = module.split(".")
            if not is_package:
                parts = parts[:-1]
            parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
            base = ".".join(parts + ([node.module] if node.module else []))
        homes = self.homes.get(base, {})
        moving = base in self.names or any(f"{base}.{a.name}" in self.names or a.name in homes for a in node.names)
        own_file_moves = module is not None and module in self.names
        if not moving and not (node.level and own_file_moves):
            return None
        groups: dict[str, list[str]] = defaultdict(list)
        for alias in node.names:
            whole = f"{base}.{alias.name}"
            if alias.name != "*" and whole in self.names:
                parent, _, leaf = self.names[whole].rpartition(".")
                local = alias.asname or alias.name
                groups[parent].append(leaf if local == leaf else f"{leaf} as {local}")
            elif alias.name in homes:
                groups[self.names[homes[alias.name]]].append(
                    alias.name if not alias.asname else f"{alias.name} as {alias.asname}")
            else:
                new_base = self._rename_prefix(base)
                groups[new_base].append(alias.name if not alias.asname else f"{alias.name} as {alias.asname}")
        out = []
        for parent, names in groups.items():
            one = f"from {parent} import {', '.join(names)}"
            if wrap and len(one) + 8 > MAX_LINE and len(names) > 1:
                one = f"from {parent} import (\n" + "".join(f"    {n},\n" for n in names) + ")"
            out.append(one)
        return out

    def _rename_prefix(self, name: str) -> str:
        if self.dotted is None:
            return name
        return self.dotted.sub(lambda m: self.names[m.group(0)], name)


def _defined_names(path: Path) -> set[str]:
    """The names a module binds at its top level (classes, functions, assignments, imports)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _comments(statement: str) -> list[str]:
    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(statement).readline) if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, IndentationError):
        return []


# ----- files


def text_files(root: Path) -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=root, check=True, capture_output=True,
    ).stdout.decode("utf-8", "surrogateescape")
    return [Path(p) for p in sorted(set(listed.split("\0"))) if p and (root / p).is_file()]


def read_text(path: Path) -> str | None:
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def only_docstring(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return all(isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) for n in tree.body)


def plan_changes(plan: Plan, rewriter: Rewriter, map_file: Path | None) -> dict[Path, tuple[str, str]]:
    changes: dict[Path, tuple[str, str]] = {}
    for relative in text_files(plan.root):
        if map_file is not None and (plan.root / relative).resolve() == map_file.resolve():
            continue
        before = read_text(plan.root / relative)
        if before is None:
            continue
        if relative.suffix == ".py":
            module = rewriter.module_of_file.get(relative) or _module_name(relative)
            after = rewriter.python(before, module, relative.name == "__init__.py")
        else:
            after = rewriter.text(before)
        if after != before:
            changes[relative] = (before, after)
    return changes


def _module_name(relative: Path) -> str | None:
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) if parts and all(p.isidentifier() for p in parts) else None


def new_packages(plan: Plan) -> list[Path]:
    """The ``__init__.py`` of every folder a moved module lands in that would have none."""
    will_exist = {plan.new_file(old) for old in plan.moves}
    gone = {plan.files[old] for old in plan.renames}
    needed: set[Path] = set()
    for old in plan.moves:
        folder = plan.new_file(old).parent
        while folder.parts:
            init = folder / "__init__.py"
            if ((plan.root / init).is_file() and init not in gone) or init in will_exist or init in needed:
                break
            needed.add(init)
            folder = folder.parent
    return sorted(needed)


def docstring_for(plan: Plan, init: Path) -> str:
    dotted = ".".join(init.parent.parts)
    text = plan.docstrings.get(dotted) or f"The ``{init.parent.name}`` package."
    return f'"""{text}"""\n'


def _changed_lines(before: str, after: str) -> list[str]:
    import difflib

    out = []
    for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0):
        if line.startswith(("---", "+++")):
            continue
        out.append(line)
    return out


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("map", type=Path)
    parser.add_argument("--root", type=Path, default=REPO, help="the repository (default: this one)")
    parser.add_argument("--dry-run", action="store_true", help="print what would change; change nothing")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    plan = read_plan(args.map, root)
    rewriter = Rewriter(plan)
    changes = plan_changes(plan, rewriter, args.map)
    inits = new_packages(plan)
    drops = [old for old, new in plan.renames.items() if new == "-"]
    dropped_files = [plan.files[old] for old in drops if plan.files[old].name == "__init__.py"
                     and only_docstring(root / plan.files[old])]
    kept = [old for old in drops if plan.files[old] not in dropped_files]

    print(f"{len(plan.moves)} moves, {len(inits)} new packages, {len(dropped_files)} removed, {len(changes)} files rewritten")
    for old in plan.moves:
        print(f"  git mv {plan.files[old]} {plan.new_file(old)}")
    for init in inits:
        print(f"  new {init}: {docstring_for(plan, init).strip()}")
    for path in dropped_files:
        print(f"  git rm {path}")
    for old in kept:
        print(f"  LEFT FOR HAND: {old} is mapped to '-' but holds code (its file stays)")
    if args.dry_run:
        for relative, (before, after) in sorted(changes.items()):
            print(f"--- {relative}")
            for line in _changed_lines(before, after):
                print(f"  {line}")
    else:
        for relative, (_, after) in changes.items():
            (root / relative).write_text(after, encoding="utf-8")
        for old in plan.moves:
            target = root / plan.new_file(old)
            target.parent.mkdir(parents=True, exist_ok=True)
        for init in inits:
            (root / init).write_text(docstring_for(plan, init), encoding="utf-8")
        # packages first: a moved __init__ must not land on a new docstring-only one
        for old in plan.moves:
            git(root, "mv", str(plan.files[old]), str(plan.new_file(old)))
        for path in dropped_files:
            git(root, "rm", "-q", "-f", str(path))
        if inits:
            git(root, "add", *map(str, inits))
        for old in plan.renames:
            folder = root / plan.files[old].parent
            while folder != root and folder.is_dir():
                for cache in folder.glob("__pycache__"):
                    for item in cache.iterdir():
                        item.unlink()
                    cache.rmdir()
                if any(folder.iterdir()):
                    break
                folder.rmdir()
                folder = folder.parent

    leftovers = _leftovers(plan, root, drops, args.dry_run, changes, inits)
    for line in leftovers:
        print(line)
    return 0


def _leftovers(plan: Plan, root: Path, drops: list[str], dry_run: bool, changes: dict[Path, tuple[str, str]],
               inits: list[Path]) -> list[str]:
    out = []
    pattern = _name_pattern(drops)
    if pattern is not None:
        for relative in text_files(root):
            text = changes[relative][1] if dry_run and relative in changes else read_text(root / relative)
            if text is None:
                continue
            for number, line in enumerate(text.splitlines(), 1):
                if pattern.search(line):
                    out.append(f"  STILL NAMED: {relative}:{number}: {line.strip()}")
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8") if pyproject.is_file() else ""
    if re.search(r"^packages\s*=", text, re.M):
        listed = set(re.findall(r'"([\w.]+)"', text))
        packages = {n.rpartition(".")[0] for n in plan.moves.values()} | {".".join(i.parent.parts) for i in inits}
        packages |= {plan.renames[o] for o in plan.moves if plan.files[o].name == "__init__.py"}
        top = {p.split(".")[0] for p in listed}
        missing = sorted(p for p in packages if p.split(".")[0] in top and p not in listed)
        if missing:
            out.append("  ADD TO pyproject.toml [tool.setuptools] packages: " + ", ".join(missing))
    if out:
        out.insert(0, "left for a person:")
    return out


if __name__ == "__main__":
    sys.exit(main())
