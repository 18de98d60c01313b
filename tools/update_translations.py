"""Refresh the window's translations after a code change, or check they are complete (CI).

    python tools/update_translations.py          # core_texts.py, then the .ts, then the .qm
    python tools/update_translations.py --check  # change nothing; exit 1 naming what is off

Steps:
1. ``inspector/gui/core_texts.py`` is written from core's catalogue
   (``inspector.core.messages.TEMPLATES``), one ``QT_TRANSLATE_NOOP("CoreText", ...)`` each,
   so pyside6-lupdate sees the texts core hands the window (core itself never imports Qt).
2. ``pyside6-lupdate`` scans ``inspector/gui`` into ``resources/i18n/inspector_<lang>.ts``
   (vanished texts dropped, source lines kept relative for a readable diff).
3. ``pyside6-lrelease`` compiles each ``.ts`` into the ``.qm`` the wheel ships.

``--check`` does all three into a temporary folder and fails when the committed files differ
from what they would be (a source text missing from the ``.ts``, a stale ``core_texts.py`` or
``.qm``) or when any message is unfinished.
"""

from __future__ import annotations

import argparse
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
CORE_TEXTS = GUI / "core_texts.py"
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
    if not CORE_TEXTS.exists() or CORE_TEXTS.read_text(encoding="utf-8") != core_texts_source():
        problems.append(f"{CORE_TEXTS.relative_to(REPO)} is not current: run tools/update_translations.py")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        gui = work / "gui"
        shutil.copytree(GUI, gui, ignore=shutil.ignore_patterns("__pycache__"))
        (gui / "core_texts.py").write_text(core_texts_source(), encoding="utf-8")
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
    for line in problems:
        print(line)
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


def update() -> int:
    CORE_TEXTS.write_text(core_texts_source(), encoding="utf-8")
    I18N.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        ts = I18N / f"inspector_{language}.ts"
        lupdate(ts, language, GUI)
        lrelease(ts, I18N / f"inspector_{language}.qm")
        left = unfinished(ts)
        print(f"{ts.relative_to(REPO)}: {len(left)} unfinished")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; fail when anything is stale or unfinished")
    return check() if parser.parse_args().check else update()


if __name__ == "__main__":
    sys.exit(main())
