"""Core's words for people, each with a stable id, so the window can say them in its language.

Core never imports Qt, yet the window speaks Simplified Chinese too. So the texts core hands
a person (failure messages, verdicts, findings) are made here as ``Text``: a ``str`` whose
value is the English sentence, which also carries its template's id (``key``) and arguments.
Everything that treats it as a string (the CLI, JSON reports, tests, ``==``) sees the English
text unchanged; the window looks the template up by id in its translations and fills in the
same arguments (``inspector.gui.common.i18n.core_text``). Arguments are already-formatted values (numbers
with units, device ids, dtypes, code), which stay as they are in every language.

A text built by concatenating a ``Text`` with more words is a plain ``str`` again (English
everywhere): give such a sentence a template of its own instead. A part that varies (a
reason, "forward pass" or "training step", a list) can be a ``Text`` argument of the
sentence: it stays a ``Text``, and ``Text.translated`` translates it along with the sentence.

The catalogue is kept in one part per capability of core (``files_texts``, ``devices_texts``,
``placement_texts``, ``moves_texts``, ``measure_texts``, ``report_texts``, ``remote_texts``,
``snippets_texts``),
each a few dicts of id -> template; a new id goes into its capability's part. ``TEMPLATES``
joins them here in a fixed order, and ``tools/update_translations.py`` copies it, in that
order, into the window's translation sources (``inspector/gui/common/core_texts.py``, then the .ts).

Face (``__all__``): the names the window and the CLI use, each imported from its module
when first read (``inspector.core.lazy_face``), so importing the package imports none of them.
"""

from __future__ import annotations

import re
import string
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from inspector.core.messages import (
    cluster_texts,
    devices_texts,
    files_texts,
    measure_texts,
    moves_texts,
    placement_texts,
    plan_texts,
    remote_texts,
    report_texts,
    snippets_texts,
)
from inspector.core.lazy_face import lazy_names

#: Lists the window punctuates its own way (``joined``).
_LISTS: dict[str, str] = {
    "list.comma": "{first}, {rest}",
    "list.and": "{first} and {rest}",
    "list.semicolon": "{first}; {rest}",
    "list.and_more": "{names} and {more} more",
}


def _joined_parts(*parts: Mapping[str, str]) -> dict[str, str]:
    """The parts as one catalogue, in order; an id in two parts is a programming error."""
    catalogue: dict[str, str] = {}
    for part in parts:
        for key, template in part.items():
            if key in catalogue:
                raise ValueError(f"message id {key!r} is in two parts of the catalogue")
            catalogue[key] = template
    return catalogue


#: id -> English template (``str.format`` fields). An id never changes meaning; a changed
#: sentence gets its translation redone (the .ts marks it), a new meaning gets a new id.
#: The parts interleave where the catalogue grew that way; keep this order, so the window's
#: translation sources stay as they are.
TEMPLATES: dict[str, str] = _joined_parts(
    _LISTS,
    report_texts.VERDICTS,
    measure_texts.TIME_LEFT,
    placement_texts.PLACEMENT,
    measure_texts.MEASUREMENT,
    files_texts.LOADING,
    report_texts.REPORT_FILES,
    devices_texts.DEVICES,
    moves_texts.MOVES,
    files_texts.TRUST,
    moves_texts.PRICE,
    moves_texts.DEVICE_MAPS,
    devices_texts.INVENTORY,
    report_texts.ENVIRONMENT,
    remote_texts.REMOTE,
    plan_texts.PLAN,
    plan_texts.HUGGING_FACE,
    snippets_texts.SNIPPETS,
    cluster_texts.CLUSTER,
)


#: The most characters one name (a key, a module or class name, a spec) takes in a table
#: cell or inside a sentence.
NAME_LIMIT = 200
#: The most characters one argument of a ``Text`` takes: a 100,000-character key or
#: exception message from a file makes no 100 KB "one-line" error.
ARGUMENT_LIMIT = 1000


def capped(text: str, limit: int = NAME_LIMIT) -> str:
    """``text`` if it has at most ``limit`` characters; else its start, "…", its last few
    characters (a tensor's ``.weight``/``.bias``) and its length, in about ``limit``
    characters: ``"aaaa…a.weight (100,007 characters)"``. A text capped already stays as it
    is (a ``Text`` made again from its arguments, after pickling)."""
    if len(text) <= limit:
        return text
    head, tail = cap_split(limit)
    if _CAP_NOTE.fullmatch(text, head):
        return text
    return f"{text[:head]}…{text[-tail:]} ({len(text):,} characters)"


def cap_split(limit: int) -> tuple[int, int]:
    """How many characters of a capped text's start and end are kept (``capped``)."""
    tail = max(1, limit // 5)
    return limit - tail, tail


_CAP_NOTE = re.compile(r"….* \(\d{1,3}(,\d{3})* characters\)", re.DOTALL)


def fields(template: str) -> set[str]:
    """The names of ``template``'s format fields (``{device}`` -> ``device``)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class Text(str):
    """An English sentence that knows its template id and arguments (see the module doc)."""

    key: str
    args: Mapping[str, str]

    def __new__(cls, key: str, /, **args: Any) -> Text:  # a field may be called "key" too
        template = TEMPLATES[key]  # a KeyError here is a programming error: a new id needs a template
        # A Text argument stays a Text (a reason inside a sentence), so the window can
        # translate it too (``translated``); any other value becomes its string, capped.
        values = {name: value if isinstance(value, Text) else capped(str(value), ARGUMENT_LIMIT)
                  for name, value in args.items()}  # fmt: skip
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

    def translated(self, translate: Callable[[str], str], shown: Callable[[str], str] = str) -> str:
        """This sentence in another language: ``translate`` maps an English template to its
        translation (the window: Qt's translator, context "CoreText"); arguments that are
        ``Text`` themselves are translated the same way. ``shown`` turns each other argument
        into the text shown (the window escapes what came from files). A translation that
        lost or renamed a field gives the English sentence (with its arguments ``shown``)."""
        values = {name: value.translated(translate, shown) if isinstance(value, Text) else shown(value)
                  for name, value in self.args.items()}  # fmt: skip
        try:
            return translate(TEMPLATES[self.key]).format(**values)
        except (KeyError, IndexError, ValueError):
            return self.translated(_english, shown)


def _english(template: str) -> str:
    return template


def joined(items: Sequence[str], key: str = "list.comma") -> str:
    """``items`` as one list, which the window can translate item by item and punctuate its
    own way: ``"cpu (1 tensor), meta (2 tensors)"`` (``list.comma``), ``"a and b and c"``
    (``list.and``), ``"a; b"`` (``list.semicolon``). One item is itself; none, ``""``."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return Text(key, first=items[0], rest=joined(items[1:], key))


def _remake(key: str, args: dict[str, str]) -> Text:
    return Text(key, **args)


if TYPE_CHECKING:
    from inspector.core.messages.catalogue import (
        ENGLISH,
        MARK_CONTEXTS,
        available_languages,
        catalogue as language_catalogue,
    )

__all__ = [
    "ENGLISH",
    "MARK_CONTEXTS",
    "Text",
    "available_languages",
    "joined",
    "language_catalogue",
]

#: name -> the module that defines it ("module:name" where the face renames it).
_HOMES = {
    "ENGLISH": "catalogue",
    "MARK_CONTEXTS": "catalogue",
    "available_languages": "catalogue",
    "language_catalogue": "catalogue:catalogue",
}
__getattr__, __dir__ = lazy_names(globals(), _HOMES)
