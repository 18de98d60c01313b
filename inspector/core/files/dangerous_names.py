"""Which names a pickle asks for would run code or reach the system, said in words.

A refusal lists what a file wants; a shell command must not hide behind nine model classes.
Names are judged statically, by module and by their own spelling (nothing is imported): a
name from a module that executes code or reaches the operating system is called what it
does (``posix.system — runs a shell command``), any other name that is not spelled like a
class is a function, which runs when the file loads. Those come first in every list and
are never left out; classes follow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from inspector.core.messages import Text

#: Module (its first part, or a dotted prefix) -> what its names do, as a text id.
_MODULES: dict[str, str] = {
    "subprocess": "trust.danger_program",
    "asyncio.subprocess": "trust.danger_program",
    "multiprocessing": "trust.danger_program",
    "pty": "trust.danger_program",
    "webbrowser": "trust.danger_program",
    "os": "trust.danger_os",
    "posix": "trust.danger_os",
    "nt": "trust.danger_os",
    "builtins": "trust.danger_builtin",
    "__builtin__": "trust.danger_builtin",
    "importlib": "trust.danger_import",
    "runpy": "trust.danger_python",
    "code": "trust.danger_python",
    "pdb": "trust.danger_python",
    "pickle": "trust.danger_python",
    "_pickle": "trust.danger_python",
    "marshal": "trust.danger_python",
    "dill": "trust.danger_python",
    "socket": "trust.danger_network",
    "_socket": "trust.danger_network",
    "urllib": "trust.danger_network",
    "http": "trust.danger_network",
    "ftplib": "trust.danger_network",
    "smtplib": "trust.danger_network",
    "requests": "trust.danger_network",
    "sys": "trust.danger_interpreter",
    "shutil": "trust.danger_files",
    "tempfile": "trust.danger_files",
    "pathlib": "trust.danger_files",
    "io": "trust.danger_files",
    "ctypes": "trust.danger_native",
    "_ctypes": "trust.danger_native",
    "cffi": "trust.danger_native",
    "torch.hub": "trust.danger_download",
}

#: Functions that say more than their module does.
_FUNCTIONS: dict[str, str] = {
    "system": "trust.danger_shell",
    "popen": "trust.danger_shell",
    "getoutput": "trust.danger_shell",
    "getstatusoutput": "trust.danger_shell",
    "eval": "trust.danger_python",
    "exec": "trust.danger_python",
    "execfile": "trust.danger_python",
    "compile": "trust.danger_python",
    "breakpoint": "trust.danger_python",
    "__import__": "trust.danger_import",
    "import_module": "trust.danger_import",
    "open": "trust.danger_files",
}

#: ``os``/``posix``/``nt`` functions that start a program (exec*, spawn*, fork, posix_spawn).
_STARTS_PROGRAM = re.compile(r"(exec|spawn|posix_spawn|fork|startfile)\w*\Z")
_DOTTED_NAME = re.compile(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+\Z")


def _plain_name(item: str) -> str:
    """The name in an item of a refusal's list ("posix.system (pickled in constants/x.pt)")."""
    if isinstance(item, Text) and item.key == "trust.pickled_name":
        return str(item.args["name"])
    return item


def _kind(item: str) -> str | None:
    """The text id saying what the name ``item`` is or holds does, or None for a class (or
    something that is not a name)."""
    name = _plain_name(item)
    if not _DOTTED_NAME.match(name):
        return None
    module, _, member = name.rpartition(".")
    if member in _FUNCTIONS and module.split(".")[0] in _MODULES:
        return _FUNCTIONS[member]
    for prefix, kind in _MODULES.items():
        if module == prefix or module.startswith(prefix + "."):
            if kind == "trust.danger_os" and _STARTS_PROGRAM.match(member):
                return "trust.danger_program"
            return kind
    if member in _FUNCTIONS:  # eval or system reached through another module's namespace
        return _FUNCTIONS[member]
    if not member[:1].isupper():  # classes are CapWords; anything else is a function
        return "trust.danger_function"
    return None


def is_dangerous(name: str) -> bool:
    """Whether ``name`` runs code or reaches the system (anything a pickle names that is
    not a class)."""
    return _kind(name) is not None


def described(item: str) -> str:
    """``item`` as a refusal lists it: a dangerous name with what it does
    (``posix.system — runs a shell command``); anything else as it is."""
    kind = _kind(item)
    if kind is None:
        return item
    if isinstance(item, Text) and item.key == "trust.pickled_name":
        return Text(item.key, name=Text(kind, name=_plain_name(item)), record=item.args["record"])
    return Text(kind, name=item)


#: Most telling first: a shell command before a file copy, any of those before a plain function.
_SEVERITY = (
    "trust.danger_shell", "trust.danger_program", "trust.danger_python", "trust.danger_import",
    "trust.danger_native", "trust.danger_download", "trust.danger_network", "trust.danger_files",
    "trust.danger_os", "trust.danger_interpreter", "trust.danger_builtin", "trust.danger_function",
)  # fmt: skip


def _rank(item: str) -> int:
    kind = _kind(item)
    return len(_SEVERITY) if kind is None else _SEVERITY.index(kind)


def dangerous_first(items: Iterable[str]) -> tuple[str, ...]:
    """``items`` without repeats: names that reach the system first (the most telling
    first), then other functions, then the rest (classes, and what is not a name); the
    order of ``items`` otherwise."""
    unique = list(dict.fromkeys(items))
    return tuple(sorted(unique, key=_rank))
