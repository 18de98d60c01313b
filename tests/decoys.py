"""Decoy modules: files named like the modules PyTorch and this app import on demand, planted
in a folder the user did not name (the working folder, a downloaded model's folder). Each
leaves a mark if it ever runs. And a watch that notes every top-level import made while such
a folder is on ``sys.path``, so a test sees the hole even for a module already imported.

In a test's own process use ``watching(folders)``; in a child process, ``watch_env(...)``
installs the same watch through a ``sitecustomize`` on ``PYTHONPATH`` (a folder the test names).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

#: What `inspect` of a .pt2 and of a .safetensors, `bench --per-module` and `fit` asked the
#: import system for (recorded on torch 2.13 with a meta path finder), with the names the
#: issue found and those of our own optional and window dependencies. Builtin modules cannot
#: be shadowed and are left out.
LAZY_NAMES = tuple(sorted({
    "PySide6", "_asyncio", "_bisect", "_blake2", "_bz2", "_compat_pickle", "_compression", "_contextvars", "_csv",
    "_ctypes", "_datetime", "_decimal", "_hashlib", "_heapq", "_lsprof", "_lzma", "_multiprocessing", "_opcode",
    "_pickle", "_posixshmem", "_posixsubprocess", "_queue", "_random", "_sha512", "_socket", "_ssl", "_statistics",
    "_struct", "_typing", "_uuid", "_weakrefset", "_winapi", "argparse", "array", "ast", "asyncio", "base64",
    "binascii", "bisect", "bz2", "cProfile", "calendar", "cmath", "colorama", "colorsys", "concurrent",
    "contextvars", "copy", "csv", "ctypes", "cuda", "dataclasses", "datetime", "decimal", "difflib", "dill", "dis",
    "email", "fcntl", "filelock", "flint", "fractions", "fsspec", "fx2trt_oss", "getpass", "gettext", "glob", "gmpy",
    "gmpy2", "grp", "gzip", "hashlib", "heapq", "hmac", "html", "http", "hypothesis", "inspect", "jinja2",
    "linecache", "locale", "logging", "lzma", "math", "mmap", "monkeytype", "mpmath", "msvcrt", "multiprocessing",
    "networkx", "numbers", "numpy", "nvidia", "onnx", "onnx_tf", "onnxruntime", "opcode", "opt_einsum", "org",
    "packaging", "pandas", "pickle", "pickletools", "pkgutil", "platform", "pprint", "profile", "pstats", "psutil",
    "pydot", "pynvml", "pyqtgraph", "queue", "quopri", "random", "resource", "runpy", "safetensors", "secrets",
    "select", "selectors", "shiboken6", "shlex", "shutil", "signal", "sklearn", "socket", "ssl", "statistics",
    "string", "struct", "subprocess", "sympy", "sysconfig", "tabulate", "tarfile", "tempfile", "tensorflow",
    "tensorrt", "termios", "textwrap", "threading", "timeit", "token", "tokenize", "torch", "torch2trt",
    "torchcomms", "torchdistx", "torchgen", "torchinfo", "tqdm", "traceback", "tree", "triton", "tvm", "typing",
    "typing_extensions", "unicodedata", "unittest", "uuid", "weakref", "xarray", "yaml", "z3", "zipfile", "zlib",
} - set(sys.builtin_module_names)))  # fmt: skip


def plant_decoys(folder: Path, marks: Path) -> None:
    """A ``NAME.py`` in ``folder`` for every lazily imported name; running one creates
    ``marks/NAME`` (with the builtin ``open``: a decoy imports nothing) and fails its import."""
    marks.mkdir(parents=True, exist_ok=True)
    for name in LAZY_NAMES:
        (folder / f"{name}.py").write_text(
            f"open({str(marks / name)!r}, 'w').close()\nraise ImportError('decoy {name} ran')\n"
        )


def decoys_that_ran(marks: Path) -> list[str]:
    return sorted(path.name for path in marks.iterdir()) if marks.exists() else []


class SysPathWatch:
    """A meta path finder that finds nothing: it notes each top-level import made while one of
    ``folders`` is on sys.path (as a path, ``""`` or ``"."``), where a decoy would be found."""

    def __init__(self, folders: Iterable[Path]) -> None:
        self.folders = {os.path.realpath(folder) for folder in folders}
        self.seen: list[tuple[str, str]] = []

    def find_spec(self, name, path=None, target=None):
        if path is None:  # top-level: searched on sys.path (a submodule searches its package)
            for entry in list(sys.path):
                if isinstance(entry, str) and os.path.realpath(entry or os.curdir) in self.folders:
                    self.seen.append((name, entry))
        return None


@contextmanager
def watching(folders: Iterable[Path]) -> Iterator[SysPathWatch]:
    watch = SysPathWatch(folders)
    sys.meta_path.insert(0, watch)
    try:
        yield watch
    finally:
        sys.meta_path.remove(watch)


_SITECUSTOMIZE = '''
import os, sys
_folders = {os.path.realpath(f) for f in os.environ["TDI_WATCH_FOLDERS"].split(os.pathsep)}
_log = os.environ["TDI_WATCH_LOG"]

class _Watch:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if path is None:
            for entry in list(sys.path):
                if isinstance(entry, str) and os.path.realpath(entry or os.curdir) in _folders:
                    fd = os.open(_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                    os.write(fd, f"{name}\\t{entry}\\n".encode())
                    os.close(fd)
        return None

sys.meta_path.insert(0, _Watch)
'''


def watch_env(site: Path, folders: Iterable[Path], log: Path) -> dict[str, str]:
    """The environment for a child that runs the watch from its start (``site``: an empty
    folder for the ``sitecustomize.py``); read what it saw with ``watched(log)``."""
    site.mkdir(parents=True, exist_ok=True)
    (site / "sitecustomize.py").write_text(_SITECUSTOMIZE)
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    env.update(
        PYTHONPATH=str(site),
        TDI_WATCH_FOLDERS=os.pathsep.join(str(folder) for folder in folders),
        TDI_WATCH_LOG=str(log),
        QT_QPA_PLATFORM="offscreen",
    )
    return env


def watched(log: Path) -> list[tuple[str, str]]:
    """(module, sys.path entry) for each top-level import the child made with a watched folder on sys.path."""
    if not log.exists():
        return []
    return [tuple(line.split("\t", 1)) for line in log.read_text().splitlines()]  # type: ignore[misc]
