"""The Chinese catalogue is complete and current: what CI checks on every change of a text."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TS = ROOT / "resources" / "i18n" / "inspector_zh_CN.ts"
PLACEHOLDER = re.compile(r"%n|%\d+|\{[A-Za-z_]\w*\}")


def messages() -> list[tuple[str, str, str, str]]:
    """(context, source, disambiguation, translation forms joined) of every message."""
    found = []
    for context in ET.parse(TS).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            forms = [f.text or "" for f in translation.iter("numerusform")] or [translation.text or ""]
            for form in forms:
                found.append((name, message.findtext("source") or "", message.findtext("comment") or "", form))
    return found


def test_the_catalogue_is_current_complete_and_compiled():
    # lupdate over the window's sources finds no text missing from the .ts and none gone;
    # every message is translated; the shipped .qm is compiled from this .ts.
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "update_translations.py"), "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_translation_keeps_the_placeholders_of_its_source():
    wrong = [
        (ctx, src, tr) for ctx, src, _, tr in messages()
        if sorted(set(PLACEHOLDER.findall(src))) != sorted(set(PLACEHOLDER.findall(tr)))
    ]  # fmt: skip
    assert not wrong, wrong[:5]


def test_every_accelerator_survives_translation():
    # "&File" -> "文件(&F)": a menu that loses its & loses its Alt key.
    lost = [(ctx, src, tr) for ctx, src, _, tr in messages() if re.search(r"&\w", src) and "&" not in tr]
    assert not lost, lost[:5]


def _literal_calls(path: Path) -> list[tuple[str, str, str]]:
    """(context, source, disambiguation) of each ``translate("Ctx", "text"[, "disamb"])`` call."""
    calls = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name not in ("translate", "QT_TRANSLATE_NOOP") or len(node.args) < 2:
            continue
        if all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[:2]):
            third = node.args[2] if len(node.args) > 2 else None
            disamb = third.value if isinstance(third, ast.Constant) and isinstance(third.value, str) else ""
            calls.append((node.args[0].value, node.args[1].value, disamb))
    return calls


def test_lupdate_saw_every_text_the_code_translates():
    # pyside6-lupdate skips a call it cannot parse without a word (a plural whose count is
    # an attribute, say): such a text would stay English in every language.
    known = {(ctx, src, dis) for ctx, src, dis, _ in messages()}
    unseen = [
        (str(path.relative_to(ROOT)), call)
        for path in sorted((ROOT / "inspector" / "gui").rglob("*.py"))
        for call in _literal_calls(path)
        if call not in known
    ]
    assert not unseen, unseen[:10]


@pytest.mark.parametrize("module", ["inspector.core.messages"])
def test_every_core_template_has_a_translation_with_its_fields(module):
    from inspector.core.messages import TEMPLATES, fields

    translated = {src: tr for ctx, src, _, tr in messages() if ctx == "CoreText"}
    missing = [key for key, text in TEMPLATES.items() if text not in translated]
    assert not missing, missing[:10]
    wrong = [key for key, text in TEMPLATES.items() if fields(text) != fields(translated[text].replace("{{", ""))]
    assert not wrong, wrong[:10]
