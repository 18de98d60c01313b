"""Report paths: what ``check_output_path`` refuses before measuring, and what ``save_report``
(the window's exports too) refuses to replace."""

from __future__ import annotations

import os

import pytest

from inspector.core.errors import InputError
from inspector.core.files.models import example_model
from inspector.core.files.output_path import check_output_path
from inspector.core.report.timing_report import build_report, save_report
from tests.unwritable import unwritable
from tests.report_edge import typed


def test_a_good_path_comes_back_with_home_expanded(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert check_output_path("~/r.HTML") == tmp_path / "r.HTML"
    assert list(tmp_path.iterdir()) == []  # the probe file is gone


@pytest.fixture(scope="module")
def report():
    return build_report(example_model())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_save_report_does_not_replace_a_pipe(tmp_path, report):
    fifo = tmp_path / "r.json"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="it is not a regular file"):
        save_report(typed(report), fifo)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_save_report_does_not_replace_an_unchangeable_file(tmp_path, report):
    path = tmp_path / "r.md"
    path.write_bytes(b"kept")
    with unwritable(path):
        with pytest.raises(InputError, match="the file exists and is read-only"):
            save_report(typed(report), path)
    assert path.read_bytes() == b"kept"
    assert [p.name for p in tmp_path.iterdir()] == ["r.md"]
