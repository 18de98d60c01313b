"""The documents stay true to the code: the READMEs' test command is CI's, every link and
every module they name exists, the CLI reference names every option the parser has, the
protocol reference every op, event and argument the agent reads, and nothing points at a
document outside the repository.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
from pathlib import Path

import pytest

from inspector.cli import build_parser
from inspector.core.remote import protocol
from inspector.core.vocabulary import FailureKind
from tests.dotted_names import REPO, docstrings, dotted_names, resolves

READMES = (REPO / "README.md", REPO / "README.zh-CN.md")
DOCS = REPO / "docs"
MAX_README_WORDS = 1000
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def documents() -> list[Path]:
    return [*READMES, *sorted(DOCS.glob("*.md"))]


def ci_test_command() -> str:
    (command,) = [line for line in (REPO / ".ci" / "run").read_text().splitlines() if "pytest" in line]
    return command.strip()


def test_there_are_documents():
    assert {"architecture.md", "cli.md", "remote-protocol.md", "trust.md"} <= {p.name for p in DOCS.glob("*.md")}


# ---------------------------------------------------------------- the READMEs


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.name)
def test_the_readme_test_command_is_the_one_ci_runs(readme):
    blocks = [body.strip() for _, body in _FENCE.findall(readme.read_text(encoding="utf-8"))]
    assert [b for b in blocks if "pytest" in b] == [ci_test_command()]


def test_the_readme_is_short():
    # as `wc -w` counts: runs of non-space characters, code blocks included
    words = len((REPO / "README.md").read_text(encoding="utf-8").split())
    assert words <= MAX_README_WORDS, f"README.md has {words} words (at most {MAX_README_WORDS}): move detail to docs/"


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.name)
def test_the_readme_has_a_table_of_contents_and_the_same_sections_as_the_other(readme):
    text = readme.read_text(encoding="utf-8")
    contents = [target for target in _LINK.findall(text) if target.startswith("#")]
    sections = [title for level, title in _headings(text) if level == 2]
    assert len(contents) >= len(sections) - 1 >= 4  # every section but the contents itself
    assert {slug for slug in _slugs(text)} >= {t[1:] for t in contents}
    english = [title for level, title in _headings(READMES[0].read_text(encoding="utf-8")) if level == 2]
    assert len(sections) == len(english), "the two READMEs keep the same sections, in step"


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.name)
def test_the_readme_shows_the_window_in_screenshots_made_by_the_script(readme):
    images = [t for t in _LINK.findall(readme.read_text(encoding="utf-8")) if t.endswith(".png")]
    assert images and all(t.startswith("docs/images/") for t in images)
    assert (REPO / "tools" / "screenshots.py").is_file()


# ---------------------------------------------------------------- links and names


@pytest.mark.parametrize("document", documents(), ids=lambda p: p.name)
def test_every_relative_link_resolves(document):
    text = document.read_text(encoding="utf-8")
    broken = []
    for target in _LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in _slugs(file.read_text(encoding="utf-8")):
            broken.append(target)
    assert not broken, f"{document.name}: links to nothing: {broken}"


@pytest.mark.parametrize("document", documents(), ids=lambda p: p.name)
def test_every_module_and_path_a_document_names_exists(document):
    text = document.read_text(encoding="utf-8")
    missing = [name for name in dotted_names(text) if not resolves(name)]
    paths = re.findall(r"`((?:inspector|tests|tools|benchmarks|resources|packaging|docs)/[\w/.-]*)`", text)
    missing += [p for p in paths if not (REPO / p).exists()]
    assert not missing, f"{document.name} names what does not exist: {missing}"


def test_every_module_a_docstring_names_exists():
    missing = [
        f"{source.relative_to(REPO)}:{line}: {name}"
        for source in sorted((REPO / "inspector").rglob("*.py"))
        for line, text in docstrings(source)
        for name in dotted_names(text)
        if not resolves(name)
    ]
    assert not missing, "docstrings name modules that are gone:\n" + "\n".join(missing)


def test_the_name_check_can_fail():
    assert resolves("core.moves.transaction") and resolves("inspector.core.session.Session")
    assert resolves("core.devices.DeviceInventory")  # a lazy face's name
    assert not resolves("gui.plots.memory.MemoryPlot") and not resolves("core.session.NoSuchThing")
    assert dotted_names("see cli.md and core.launcher.") == ["core.launcher"]


def test_nothing_points_at_documents_outside_the_repository():
    outside = re.compile(r"DESIGN(?:\.md|\b)|\.\./shared")
    here = Path(__file__).resolve()
    offenders = []
    for path in _repository_files():
        if path == here or path.suffix in {".png", ".qm", ".ico", ".pyc", ".svg"}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        offenders += [f"{path.relative_to(REPO)}:{n}" for n, line in enumerate(text.splitlines(), 1) if outside.search(line)]
    assert not offenders, "say what is meant, or point at docs/: " + ", ".join(offenders)


# ---------------------------------------------------------------- the references


def test_the_cli_reference_names_every_sub_command_and_option():
    """Each sub-command has its section, naming every option the parser gives it (those every
    command takes are named once, in their own section); so the reference cannot drift."""
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    sections = _sections(text)
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a.choices, dict)]  # the sub-parsers
    everywhere = {flag for action in parser._actions for flag in action.option_strings}
    missing = [f"{flag} (no sub-command)" for flag in sorted(everywhere) if not _names_flag(text, flag)]
    for name, sub in commands.choices.items():
        section = sections.get(f"`{name}`")
        if section is None:
            missing.append(f"a section `{name}`")
            continue
        flags = {f for a in sub._actions if a.help != argparse.SUPPRESS for f in a.option_strings} - everywhere
        missing += [f"{name} {flag}" for flag in sorted(flags) if not _names_flag(section, flag)]
    assert not missing, f"docs/cli.md does not name: {missing}"


def test_the_cli_reference_names_every_key_of_the_report():
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    schema = json.loads((REPO / "resources" / "report.schema.json").read_text(encoding="utf-8"))
    keys = list(schema["properties"]) + list(schema["$defs"]["latencyEntry"]["properties"])
    assert not [k for k in keys if f"`{k}`" not in text]


def test_the_protocol_reference_names_every_op_event_error_and_argument():
    text = (DOCS / "remote-protocol.md").read_text(encoding="utf-8")
    assert f"version {protocol.PROTOCOL_VERSION}" in text
    names = [*protocol.Op, *protocol.EventName, *protocol.ErrorKind, *FailureKind, *_agent_arguments()]
    assert len(names) > 30
    assert not [n for n in names if f"`{n}`" not in text], "docs/remote-protocol.md is missing these"


def _agent_arguments() -> set[str]:
    """Each request argument the agent reads: ``args.get("hz")``, ``arg.number(args, "hz", ...)``."""
    def is_args(node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id == "args"

    found = set()
    tree = ast.parse((REPO / "inspector" / "core" / "remote" / "agent.py").read_text(encoding="utf-8"))
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        if isinstance(call.func, ast.Attribute) and call.func.attr == "get" and is_args(call.func.value):
            named = call.args[0]
        elif len(call.args) > 1 and is_args(call.args[0]):
            named = call.args[1]
        else:
            continue
        if isinstance(named, ast.Constant) and isinstance(named.value, str):
            found.add(named.value)
    return found


# ---------------------------------------------------------------- helpers


def _headings(markdown: str) -> list[tuple[int, str]]:
    without_code = _FENCE.sub("", markdown)
    return [(len(m.group(1)), m.group(2).strip()) for m in re.finditer(r"^(#{1,6})\s+(.*)$", without_code, re.M)]


def _sections(markdown: str) -> dict[str, str]:
    """Each level-2 section's text (its sub-sections included), by its title."""
    parts = re.split(r"^## +(.*)$", _FENCE.sub(lambda m: m.group(0).replace("## ", "# "), markdown), flags=re.M)
    return {title.strip(): body for title, body in zip(parts[1::2], parts[2::2])}


def _slugs(markdown: str) -> set[str]:
    """The anchors GitHub gives the headings: lower case, punctuation dropped, spaces as '-'."""
    return {re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-") for _, title in _headings(markdown)}


def _names_flag(text: str, flag: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text) is not None


def _repository_files() -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=REPO, capture_output=True, check=True, timeout=60,
        ).stdout.decode("utf-8", "surrogateescape")
    except (OSError, subprocess.SubprocessError):
        pytest.skip("not a git checkout: the repository's files cannot be listed")
    return [REPO / name for name in listed.split("\0") if name and (REPO / name).is_file()]
