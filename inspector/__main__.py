"""``python -m inspector``: the console script's entry, without the working folder on sys.path.

Python's ``-m`` puts the working folder first on sys.path. Left there, a file in it named like
a module that PyTorch or this app imports lazily (``triton.py``, ``safetensors.py``, even
``torch.py``) would run while a model is read: a downloaded model folder could run code
without ``--trust``. The folder goes before anything else is imported; ``python -P`` (or
``PYTHONSAFEPATH``) never adds it.
"""

import os
import sys


def _drop_working_folder() -> None:
    if getattr(sys.flags, "safe_path", False) or not sys.path:
        return  # nothing was put first: sys.path[0] is something the user named
    first = sys.path[0]
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:  # the working folder was deleted: an entry naming it finds nothing
        here = None
    if first == "" or (here is not None and os.path.realpath(first) == here):
        del sys.path[0]


_drop_working_folder()

from inspector.cli import entry  # noqa: E402 -- only once the working folder is gone

entry()
