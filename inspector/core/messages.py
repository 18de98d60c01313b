"""Core's words for people, each with a stable id, so the window can say them in its language.

Core never imports Qt, yet the window speaks Simplified Chinese too. So the texts core hands
a person (failure messages, verdicts, findings) are made here as ``Text``: a ``str`` whose
value is the English sentence, which also carries its template's id (``key``) and arguments.
Everything that treats it as a string (the CLI, JSON reports, tests, ``==``) sees the English
text unchanged; the window looks the template up by id in its translations and fills in the
same arguments (``inspector.gui.core_text``). Arguments are already-formatted values (numbers
with units, device ids, dtypes, code), which stay as they are in every language.

A text built by concatenating a ``Text`` with more words is a plain ``str`` again (English
everywhere): give such a sentence a template of its own instead.

``tools/update_translations.py`` copies ``TEMPLATES`` into the window's translation sources.
"""

from __future__ import annotations

import string
from types import MappingProxyType
from typing import Any, Mapping

#: id -> English template (``str.format`` fields). An id never changes meaning; a changed
#: sentence gets its translation redone (the .ts marks it), a new meaning gets a new id.
TEMPLATES: dict[str, str] = {
    # ----- verdicts: how two latency figures compare (measure.spread, report.compare)
    "verdict.slower": "{label} {factor}× slower{than}",
    "verdict.faster": "{label} {factor}× faster{than}",
    "verdict.slower_unsure": "{label} {factor}× slower{than}? too few samples to tell",
    "verdict.faster_unsure": "{label} {factor}× faster{than}? too few samples to tell",
    "verdict.unclear": "no clear difference",
    "verdict.same_within": "about the same (within {within})",
    "verdict.same": "about the same",
}


def fields(template: str) -> set[str]:
    """The names of ``template``'s format fields (``{device}`` -> ``device``)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class Text(str):
    """An English sentence that knows its template id and arguments (see the module doc)."""

    key: str
    args: Mapping[str, str]

    def __new__(cls, key: str, **args: Any) -> Text:
        template = TEMPLATES[key]  # a KeyError here is a programming error: a new id needs a template
        values = {name: str(value) for name, value in args.items()}
        missing = fields(template) - values.keys()
        if missing:
            raise TypeError(f"text {key!r} needs {sorted(missing)}")
        self = super().__new__(cls, template.format(**values))
        self.key = key
        self.args = MappingProxyType(values)
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickle, copy: made again from its id and arguments
        return _remake, (self.key, dict(self.args))

    def __repr__(self) -> str:
        return f"Text({self.key!r}, {str.__repr__(self)})"


def _remake(key: str, args: dict[str, str]) -> Text:
    return Text(key, **args)
