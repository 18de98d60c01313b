"""A model folder's JSON files (config, generation config, weight index), read with bounds.

A 524 MB config took 30 s and 2.4 GB to parse, 5,000,000 keys 3.3 GB, and 100,000 nested
brackets ended in ``RecursionError``. So, before ``json`` builds anything:

- the size: at most ``limit`` bytes are read (``regular_file``: a FIFO or device is never
  opened, a file that grows is cut off);
- the nesting: at most ``DEPTH`` levels, counted on the brackets outside strings in one pass
  that stops at the first level too deep (what is neither quote, bracket nor escape is
  skipped at C speed);

and while it parses, the keys are counted (``keys`` at most) and a key given twice in one
object is refused: readers differ on which value counts (Python's ``json`` keeps the last), so
a reviewer and the loader could read different configs.

A UTF-8 byte-order mark is accepted and dropped, as the report reader does; transformers never
sees the original file (the loader hands it a copy of what was read here, ``folder_files``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from inspector.core.files.load_errors import ModelLoadError, a_value_of
from inspector.core.files.regular_file import FileTooLarge, read_regular_file
from inspector.core.messages import Text
from inspector.core.units import first_line, format_bytes

#: Nesting levels: a published config nests four or five (quantization_config ->
#: config_groups -> group_0 -> weights -> field); json's own limit is Python's recursion.
DEPTH = 32
#: What a pass skips at C speed: outside strings, all but quotes and brackets; inside, all
#: but the closing quote and escapes. (A regex for whole strings, tried again from every quote of
#: an unterminated '"\"\"\"…', was quadratic: 30 s at 80 KB, hours at 4 MiB.)
_OUTSIDE = re.compile(r'[^"\[\]{}]*')
_IN_STRING = re.compile(r'[^"\\]*')
_OPENER = {"]": "[", "}": "{"}
_BOM = "\ufeff"


class _Refused(Exception):
    """Raised inside the parser's hook: a duplicate key or too many keys."""


def read_json_object(path: Path, *, folder: Path, limit: int, keys: int, what: str) -> dict[str, Any]:
    """The JSON object in ``path`` (a file of ``folder``, named so in messages), within the
    bounds; ``ModelLoadError`` in one line naming the file otherwise."""
    name = path.name
    try:
        raw = read_regular_file(path, limit)
    except FileTooLarge as exc:
        size = format_bytes(exc.size) if exc.size is not None else f"over {format_bytes(limit)}"
        raise ModelLoadError(Text("load.hf_file_too_large", path=folder, name=name, size=size,
                                  limit=format_bytes(limit), what=what)) from None  # fmt: skip
    except OSError as exc:
        raise ModelLoadError(Text("load.hf_bad_config", path=folder, error=f"{name}: {exc.strerror or exc}")) from None
    try:
        text = raw.decode("utf-8").removeprefix(_BOM)
    except UnicodeDecodeError:
        raise ModelLoadError(Text("load.hf_bad_config", path=folder, error=f"{name} is not UTF-8 text")) from None
    _check_depth(text, folder, name)
    counted = 0

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal counted
        counted += len(items)
        if counted > keys:
            raise _Refused(Text("load.hf_json_too_many_keys", path=folder, name=name, limit=f"{keys:,}"))
        made = dict(items)
        if len(made) != len(items):
            seen: set[str] = set()
            twice = next(key for key, _ in items if key in seen or seen.add(key))  # type: ignore[func-returns-value]
            raise _Refused(Text("load.hf_json_duplicate_key", path=folder, name=name, key=repr(twice)))
        return made

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except _Refused as refused:
        raise ModelLoadError(refused.args[0]) from None
    except (ValueError, RecursionError) as exc:  # RecursionError: only past DEPTH, kept as a guard
        raise ModelLoadError(Text("load.hf_bad_config", path=folder, error=f"{name}: {first_line(exc)}")) from None
    if not isinstance(data, dict):
        raise ModelLoadError(Text("load.hf_json_not_object", path=folder, name=name, value=a_value_of(data)))
    return data


def _check_depth(text: str, folder: Path, name: str) -> None:
    """Refuse more than ``DEPTH`` nested brackets, or brackets that do not pair."""
    verdict, _read = nesting(text)
    if verdict == "deep":
        raise ModelLoadError(Text("load.hf_json_too_deep", path=folder, name=name, limit=DEPTH))
    if verdict == "unpaired":
        raise ModelLoadError(Text("load.hf_json_unpaired", path=folder, name=name))


def nesting(text: str) -> tuple[str, int]:
    """One pass over ``text``: "deep" as soon as the brackets outside strings nest past
    ``DEPTH``, "unpaired" as soon as one closes what it did not open (or, at the end, one is
    left open), "" otherwise; and how far the pass read (it never steps back, so at most
    ``len(text)``: the work is linear in the size)."""
    opened: list[str] = []
    pos, end = 0, len(text)
    while True:
        pos = _OUTSIDE.match(text, pos).end()  # type: ignore[union-attr]  # ``*`` always matches
        if pos >= end:
            return ("unpaired" if opened else ""), end
        char = text[pos]
        pos += 1
        if char == '"':
            while True:  # to the closing quote, stepping over each backslash and what it escapes
                pos = _IN_STRING.match(text, pos).end()  # type: ignore[union-attr]
                if pos >= end or text[pos] == '"':
                    pos = min(pos + 1, end)
                    break
                pos += 2
        elif char in "[{":
            opened.append(char)
            if len(opened) > DEPTH:
                return "deep", pos
        elif not opened or opened.pop() != _OPENER[char]:
            return "unpaired", pos
