"""A report's words in another language, without Qt: the translations core reads itself.

The window translates through Qt's translators (the ``.qm``); a report is written by core,
in the CLI too, where Qt may not be installed. So ``tools/update_translations.py`` also
writes, from each ``resources/i18n/inspector_<lang>.ts``, a small JSON catalogue
(``resources/i18n/report_<lang>.json``, shipped as ``inspector.resources``): for each
context a report uses, English source text -> translation. Its contexts:

- ``CoreText``: core's sentences (``messages.TEMPLATES``; a ``Text`` is translated by its
  template, as the window does);
- ``ReportView``: the report views' own words (headings, table headers, row names), each
  marked in their source as ``word("...")``: the tool collects every such literal and hands it
  to the translators (a generated ``inspector/gui/common/report_view_texts.py`` that lupdate reads);
- the contexts the window's memory plot labels its events with (``MARK_CONTEXTS``), so a
  report's images can say them in the report's language (``inspector.gui.shell.report_images``).

Anything missing (a language without a catalogue, a text not yet translated, a translation
that lost a field) is said in English: a report is never refused for want of a word.
Numbers, units, code and identifiers are arguments and stay as they are in every language.
"""

from __future__ import annotations

import functools
import json
import re
import string
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping

from inspector.core.messages import TEMPLATES, Text, fields

#: The language reports are written in unless asked otherwise (the source language).
ENGLISH = "en"
#: The contexts of a catalogue: core's sentences, the report views' own words.
CORE = "CoreText"
REPORT_VIEW = "ReportView"
#: The window's contexts the memory plot's event marks are made of (a task's name and how it
#: ended): kept so a report's images can re-say a mark written in the window's language.
MARK_CONTEXTS = ("Task", "TaskMarks", "OutcomeWords", "ModelOpener", "ModelCommands", "FitFlow", "Vocabulary")
CONTEXTS = (CORE, REPORT_VIEW, *MARK_CONTEXTS)
#: Where the catalogues are, inside the package ``inspector.resources``.
RESOURCE_PACKAGE = "inspector.resources"
FOLDER = "i18n"
#: How ``<html lang=…>`` names each language (BCP 47).
HTML_LANG = {ENGLISH: "en", "zh_CN": "zh-CN"}


def catalogue_file(language: str) -> str:
    """The name of ``language``'s catalogue inside ``resources/i18n``."""
    return f"report_{language}.json"


def word(source: str) -> str:
    """Marks one of a report view's own English words for the translators (context
    ``ReportView``) and returns it as it is. ``tools/update_translations.py`` collects the
    literal argument of every call named ``word`` in the report views, this one and
    ``Catalogue.word`` alike; a word may have ``{name}`` fields, filled by ``Catalogue.word``."""
    return source


def available_languages() -> tuple[str, ...]:
    """English, and every language whose catalogue is installed (``zh_CN``)."""
    found = []
    try:
        folder = resources.files(RESOURCE_PACKAGE).joinpath(FOLDER)
        for item in folder.iterdir():
            match = re.fullmatch(r"report_([A-Za-z]{2,3}(?:_[A-Za-z0-9]+)?)\.json", item.name)
            if match and match.group(1) != ENGLISH:
                found.append(match.group(1))
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, OSError):
        pass
    return (ENGLISH, *sorted(found))


class Catalogue:
    """One language's words for a report (English, when it has none)."""

    def __init__(self, language: str, contexts: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self.language = language
        self._contexts = MappingProxyType({name: dict(words) for name, words in (contexts or {}).items()})

    @property
    def html_lang(self) -> str:
        return HTML_LANG.get(self.language, self.language.replace("_", "-"))

    def context(self, name: str) -> Mapping[str, str]:
        """Source text -> translation of one context ({} for English or an unknown one)."""
        return MappingProxyType(self._contexts.get(name, {}))

    def translate(self, context: str, source: str) -> str:
        """``source`` in this language, or as it is."""
        return self._contexts.get(context, {}).get(source) or source

    def word(self, source: str, /, **values: Any) -> str:
        """A report view's own word (context ``ReportView``), its ``{name}`` fields filled with
        ``values`` (each as it is: numbers, units, names). A translation that lost or renamed a
        field gives the English."""
        translated = self.translate(REPORT_VIEW, source)
        if not values:
            return translated
        try:
            return translated.format(**values)
        except (KeyError, IndexError, ValueError):
            return source.format(**values)

    def text(self, value: Any) -> str:
        """A text for a report, in this language: core's ``Text`` through its template (the
        ``Text`` arguments inside it too); an English sentence of core's read back from a file
        (a plain ``str``) likewise when it reads as one of core's templates (``recognised``);
        anything else (a name, a number) as it is."""
        if self.language == ENGLISH or not isinstance(value, str):
            return "" if value is None else str(value)
        text = value if isinstance(value, Text) else recognised(value)
        if text is None:
            return str(value)
        return text.translated(lambda template: self.translate(CORE, template))


#: The English one: every word as written.
ENGLISH_CATALOGUE = Catalogue(ENGLISH)


@functools.lru_cache(maxsize=8)
def catalogue(language: str = ENGLISH) -> Catalogue:
    """``language``'s catalogue, read once. English, or one that is not installed, says
    everything in English (``available_languages`` names those that are)."""
    if language == ENGLISH:
        return ENGLISH_CATALOGUE
    try:
        data = resources.files(RESOURCE_PACKAGE).joinpath(FOLDER).joinpath(catalogue_file(language)).read_text(encoding="utf-8")
        parsed = json.loads(data)
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, OSError, ValueError):
        return Catalogue(language)
    contexts = parsed.get("contexts") if isinstance(parsed, dict) else None
    if not isinstance(contexts, dict):
        return Catalogue(language)
    clean = {
        str(name): {str(k): str(v) for k, v in words.items() if isinstance(k, str) and isinstance(v, str) and v}
        for name, words in contexts.items()
        if isinstance(words, dict)
    }
    return Catalogue(language, clean)


# --------------------------------------------------------------------------- reading English back


#: The most characters of a text ``recognised`` tries: a sentence of a report, not a file.
_RECOGNISE_LIMIT = 2000
#: Templates that are all fields and punctuation (``"{first}, {rest}"``) would read any text
#: with a comma as a list: only a template with at least this many letters of its own is tried
#: on a whole sentence.
_LEAST_LETTERS = 4


def recognised(text: str) -> Text | None:
    """``text``, an English sentence of core's read back from a file (a report's notes and
    verdicts are English strings once written), as the ``Text`` it was made as: its template
    found by its words, its arguments taken back; an argument that is itself one of core's
    sentences (a reason inside a sentence) is recognised too. None when no template reads it.

    Of several templates that read it, the one with most words of its own wins (the most
    specific). Arguments come back as they were written (already capped when made)."""
    if not text or len(text) > _RECOGNISE_LIMIT:
        return None
    return _recognise(text, depth=0)


def _recognise(text: str, depth: int) -> Text | None:
    best: tuple[int, str, dict[str, str]] | None = None
    for key, pattern, letters in _patterns():
        if best is not None and letters <= best[0]:
            break  # sorted by letters: nothing after this one can be more specific
        if depth > 0 and key.startswith("list."):
            continue  # a name with "and" in it is no list
        match = pattern.fullmatch(text)
        if match is not None:
            best = (letters, key, match.groupdict())
    if best is None:
        return None
    _, key, raw = best
    values: dict[str, Any] = {}
    for name, value in raw.items():
        inner = _recognise(value, depth + 1) if depth < 3 else None
        values[name] = inner if inner is not None else value
    try:
        made = Text(key, **values)
    except (TypeError, KeyError, ValueError):
        return None
    return made if str(made) == text else None  # (an argument capped when made again: not it)


@functools.lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[str, re.Pattern[str], int], ...]:
    """(id, regex, letters of its own) of each template worth trying, most letters first."""
    found = []
    for key, template in TEMPLATES.items():
        literal = "".join(part for part, _, _, _ in string.Formatter().parse(template))
        letters = sum(ch.isalpha() for ch in literal)
        if not fields(template):
            pattern = re.compile(re.escape(template))
        else:
            pattern = _template_regex(template)
        if letters >= _LEAST_LETTERS or key.startswith("list."):
            found.append((key, pattern, letters))
    found.sort(key=lambda item: -item[2])
    return tuple(found)


def _template_regex(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    seen: set[str] = set()
    for literal, name, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name:
            if name in seen:  # the same field twice: the same text both times
                parts.append(f"(?P={name})")
            else:
                seen.add(name)
                parts.append(f"(?P<{name}>.+?)")
    return re.compile("".join(parts), re.DOTALL)
