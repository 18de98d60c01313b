"""Refresh the window's translations after a code change, or check they are complete (CI).

    python tools/update_translations.py          # core_texts.py, then the .ts, the .qm, the .json
    python tools/update_translations.py --check  # change nothing; exit 1 naming what is off

Steps:
1. ``inspector/gui/common/core_texts.py`` is written from core's catalogue
   (``inspector.core.messages.TEMPLATES``), one ``QT_TRANSLATE_NOOP("CoreText", ...)`` each,
   so pyside6-lupdate sees the texts core hands the window (core itself never imports Qt);
   ``inspector/gui/common/report_view_texts.py`` likewise from the report views' own words, every
   literal ``word("...")`` in ``inspector/core/report`` (context "ReportView").
2. ``pyside6-lupdate`` scans ``inspector/gui`` into ``resources/i18n/inspector_<lang>.ts``
   (vanished texts dropped, source lines kept relative for a readable diff).
3. ``pyside6-lrelease`` compiles each ``.ts`` into the ``.qm`` the wheel ships.
4. Each ``.ts`` gives ``resources/i18n/report_<lang>.json``: the translations core reads
   without Qt to write a report in that language (``inspector.core.messages.catalogue``), for
   the contexts a report uses (``catalogue.CONTEXTS``).

``--check`` does all four into a temporary folder and fails when the committed files differ
from what they would be (a source text missing from the ``.ts``, a stale ``core_texts.py``,
``report_view_texts.py``, ``.qm`` or ``.json``) or when any message is unfinished.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GUI = REPO / "inspector" / "gui"
I18N = REPO / "resources" / "i18n"
CORE_TEXTS = GUI / "common" / "core_texts.py"
REPORT_VIEW_TEXTS = GUI / "common" / "report_view_texts.py"
#: The report views, whose ``word("...")`` calls are the words of context "ReportView".
REPORT_VIEWS = REPO / "inspector" / "core" / "report"
LANGUAGES = ("zh_CN",)


def _tool(name: str) -> str:
    """A PySide6 tool next to this interpreter (a venv's bin/), else on PATH."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        sys.exit(f"error: {name} not found (it comes with PySide6-Essentials)")
    return found


def core_texts_source() -> str:
    sys.path.insert(0, str(REPO))
    from inspector.core.messages import TEMPLATES

    lines = [
        '"""Core\'s texts, marked for pyside6-lupdate. Written by tools/update_translations.py from',
        "inspector.core.messages.TEMPLATES: do not edit by hand (tests check it is current).",
        '"""',
        "",
        "from PySide6.QtCore import QT_TRANSLATE_NOOP",
        "",
        "#: Every core template, as the window translates it (context \"CoreText\").",
        "CORE_TEXTS = {",
    ]
    for key, text in TEMPLATES.items():
        lines.append(f"    {key!r}: QT_TRANSLATE_NOOP(\"CoreText\", {text!r}),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def report_words() -> list[str]:
    """The literal first argument of every call named ``word`` in the report views, in the
    order of the files and their lines (``catalogue.word`` and ``Catalogue.word`` alike)."""
    found: list[tuple[str, int, int, str]] = []
    for path in sorted(REPORT_VIEWS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            first = node.args[0]
            if name == "word" and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((path.name, node.lineno, node.col_offset, first.value))
    return list(dict.fromkeys(text for *_, text in sorted(found)))


def report_view_texts_source() -> str:
    lines = [
        '"""The report views\' own words, marked for pyside6-lupdate. Written by tools/update_translations.py',
        'from every word("...") in inspector/core/report: do not edit by hand (tests check it is current).',
        '"""',
        "",
        "from PySide6.QtCore import QT_TRANSLATE_NOOP",
        "",
        "#: Every word of the report views, as a report in another language says it (context \"ReportView\").",
        "REPORT_VIEW_TEXTS = (",
    ]
    lines += [f"    QT_TRANSLATE_NOOP(\"ReportView\", {text!r})," for text in report_words()]
    lines.append(")")
    return "\n".join(lines) + "\n"


def report_catalogue(ts: Path, language: str) -> str:
    """``resources/i18n/report_<lang>.json`` from ``ts``: for each context a report uses,
    English source -> finished translation (plural forms left out: a report says no %n)."""
    sys.path.insert(0, str(REPO))
    from inspector.core.messages.catalogue import CONTEXTS

    found: dict[str, dict[str, str]] = {name: {} for name in CONTEXTS}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        if name not in found:
            continue
        for message in context.iter("message"):
            translation = message.find("translation")
            if message.get("numerus") == "yes" or translation is None or message.find("comment") is not None:
                continue
            if translation.get("type") in ("unfinished", "vanished", "obsolete") or not (translation.text or "").strip():
                continue
            found[name][message.findtext("source") or ""] = translation.text or ""
    data = {
        "language": language,
        "written_by": f"tools/update_translations.py from resources/i18n/{ts.name}: do not edit by hand",
        "contexts": found,
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def lupdate(ts: Path, language: str, gui: Path) -> None:
    subprocess.run(
        [_tool("pyside6-lupdate"), "-silent", "-no-obsolete", "-locations", "relative", "-extensions", "py",
         "-source-language", "en", "-target-language", language, str(gui), "-ts", str(ts)],
        check=True,
    )


def lrelease(ts: Path, qm: Path) -> None:
    subprocess.run([_tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)


def unfinished(ts: Path) -> list[str]:
    """The source texts of ``ts`` whose translation is missing or marked unfinished."""
    missing = []
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            forms = [] if translation is None else [translation.text or ""] + [f.text or "" for f in translation.iter("numerusform")]
            done = translation is not None and translation.get("type") not in ("unfinished", "vanished", "obsolete")
            if not done or not any(f.strip() for f in forms):
                missing.append(f"{name}: {message.findtext('source')!r}")
    return missing


def _without_locations(text: str) -> str:
    """The catalogue without what moves with every edit of the code: source lines, and the
    ``#:`` comments lupdate hands translators as notes."""
    text = re.sub(r"\s*<location [^>]*/>", "", text)
    return re.sub(r"\s*<extracomment>.*?</extracomment>", "", text, flags=re.S)


def check() -> int:
    problems: list[str] = []
    for generated, source in ((CORE_TEXTS, core_texts_source()), (REPORT_VIEW_TEXTS, report_view_texts_source())):
        if not generated.exists() or generated.read_text(encoding="utf-8") != source:
            problems.append(f"{generated.relative_to(REPO)} is not current: run tools/update_translations.py")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        gui = work / "gui"
        shutil.copytree(GUI, gui, ignore=shutil.ignore_patterns("__pycache__"))
        (gui / "common" / "core_texts.py").write_text(core_texts_source(), encoding="utf-8")
        (gui / "common" / REPORT_VIEW_TEXTS.name).write_text(report_view_texts_source(), encoding="utf-8")
        for language in LANGUAGES:
            committed = I18N / f"inspector_{language}.ts"
            ts = work / committed.name
            if committed.exists():
                shutil.copy(committed, ts)
            lupdate(ts, language, gui)
            if not committed.exists() or _without_locations(ts.read_text(encoding="utf-8")) != _without_locations(
                committed.read_text(encoding="utf-8")
            ):
                problems.append(f"{committed.relative_to(REPO)} lacks texts the code has (or keeps gone ones): run tools/update_translations.py")
            problems += [f"{language}: unfinished: {m}" for m in unfinished(ts)]
            qm = work / f"inspector_{language}.qm"
            lrelease(committed if committed.exists() else ts, qm)
            shipped = I18N / qm.name
            if not shipped.exists() or shipped.read_bytes() != qm.read_bytes():
                problems.append(f"{shipped.relative_to(REPO)} is not compiled from the .ts: run tools/update_translations.py")
            report_json = I18N / f"report_{language}.json"
            expected = report_catalogue(committed if committed.exists() else ts, language)
            if not report_json.exists() or report_json.read_text(encoding="utf-8") != expected:
                problems.append(f"{report_json.relative_to(REPO)} is not written from the .ts: run tools/update_translations.py")
    for line in problems:
        print(line)
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


def update() -> int:
    CORE_TEXTS.write_text(core_texts_source(), encoding="utf-8")
    REPORT_VIEW_TEXTS.write_text(report_view_texts_source(), encoding="utf-8")
    I18N.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        ts = I18N / f"inspector_{language}.ts"
        lupdate(ts, language, GUI)
        lrelease(ts, I18N / f"inspector_{language}.qm")
        (I18N / f"report_{language}.json").write_text(report_catalogue(ts, language), encoding="utf-8")
        left = unfinished(ts)
        print(f"{ts.relative_to(REPO)}: {len(left)} unfinished")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; fail when anything is stale or unfinished")
    return check() if parser.parse_args().check else update()


if __name__ == "__main__":
    sys.exit(main())
