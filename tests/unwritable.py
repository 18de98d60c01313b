"""Making a file or folder unchangeable for a test, as root too."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """``path`` made unchangeable: immutable (chattr +i) as root, read-only otherwise."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("root ignores permissions and chattr is not installed")
        made = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
        if made.returncode != 0:
            pytest.skip(f"this file system has no immutable flag: {made.stderr.decode().strip()}")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
