"""Issue 32, item 17: a file of /proc or /sys is refused as what it is, not as an "empty checkpoint".

Their size says nothing of their content: /proc's files say 0 and read as text, some read as
nothing or fail, /sys's say 4096. Each is refused in one line before it is read, as FIFOs and
devices are; a real empty file is still called empty.
"""

from __future__ import annotations

import os

import pytest

from inspector.cli import main
from inspector.core.files.load_errors import ModelLoadError
from inspector.core.files.models import load_model

SPECIAL = "is not a regular file with content but a special file the kernel makes up as it is read"

pytestmark = pytest.mark.skipif(not os.path.isfile("/proc/self/status"), reason="needs Linux's /proc")


def _existing(*candidates: str) -> str:
    for candidate in candidates:
        if os.path.isfile(candidate):
            return candidate
    pytest.skip(f"none of {candidates} exists here")


def test_a_proc_file_that_says_size_0_but_reads_as_text(capsys):
    assert os.stat("/proc/self/status").st_size == 0
    with pytest.raises(ModelLoadError, match=SPECIAL) as refused:
        load_model("/proc/self/status")
    assert "empty" not in str(refused.value)
    code = main(["inspect", "/proc/self/status"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.splitlines() == [f"error: /proc/self/status {SPECIAL} (/proc, /sys); give a model file"]


def test_a_proc_file_that_cannot_be_read_is_refused_unopened():
    path = _existing("/proc/self/attr/current", "/proc/self/clear_refs")
    with pytest.raises(ModelLoadError, match=SPECIAL):
        load_model(path)


def test_a_sys_file_of_4096_bytes():
    path = _existing("/sys/kernel/mm/transparent_hugepage/enabled", "/sys/power/state", "/sys/kernel/profiling")
    with pytest.raises(ModelLoadError, match=SPECIAL):
        load_model(path)


def test_a_real_empty_file_is_still_called_empty(tmp_path):
    path = tmp_path / "model.pt"
    path.write_bytes(b"")
    with pytest.raises(ModelLoadError, match=r"not a complete PyTorch checkpoint: .*model\.pt \(the file is empty\)"):
        load_model(str(path))
