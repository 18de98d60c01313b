"""``bench`` refuses two outputs that are one file before any work: ``--output r.json
--trace r.json`` kept only the trace, and said both were written. And a name too long for
the writer's temporary file is refused before any work too (issue 43, item 12)."""

from __future__ import annotations

import os

import pytest

from inspector.cli import bench, main
from inspector.core.atomic_write import TEMP_EXTRA_BYTES, longest_name
from inspector.core.errors import InputError
from inspector.core.files.output_path import check_distinct_outputs


@pytest.fixture
def loads(monkeypatch):
    """Every model load ``bench`` starts (none may start when its outputs collide)."""
    calls: list[object] = []

    def load(args):
        calls.append(args)
        raise AssertionError("bench loaded the model before refusing its outputs")

    monkeypatch.setattr(bench, "_load", load)
    return calls


def _same_file_spellings(tmp_path, monkeypatch):
    """Pairs of (--output, --trace) that name one file, each spelt differently."""
    report = tmp_path / "r.json"
    (tmp_path / "sub").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path / "sub")
    yield "the same name", str(report), str(report)
    yield "~ and ..", "~/r.json", "../r.json"
    os.symlink(report, tmp_path / "link.json")  # dangling: r.json does not exist yet
    yield "a symlink to a file not yet written", str(report), str(tmp_path / "link.json")
    report.write_text("{}")
    yield "a symlink", str(tmp_path / "link.json"), str(report)
    os.link(report, tmp_path / "hard.json")
    yield "a hard link", str(report), str(tmp_path / "hard.json")


def test_bench_refuses_outputs_that_are_one_file_before_loading(capsys, tmp_path, monkeypatch, loads):
    for case, output, trace in _same_file_spellings(tmp_path, monkeypatch):
        before = sorted(p.name for p in tmp_path.iterdir())
        code = main(["bench", "--device", "cpu", "--runs", "2", "--output", output, "--trace", trace])
        out, err = capsys.readouterr()
        assert code == 2, case
        assert err.count("\n") == 1 and err.startswith("error: --output and --trace name the same file"), (case, err)
        assert out == "" and loads == [], case
        assert sorted(p.name for p in tmp_path.iterdir()) == before, case  # nothing written
        if (tmp_path / "r.json").exists():
            assert (tmp_path / "r.json").read_text() == "{}", case  # the existing file untouched


def test_a_memory_snapshot_linked_to_the_report_is_one_file(tmp_path):
    report = tmp_path / "r.json"
    report.write_text("{}")
    os.symlink(report, tmp_path / "snap.pickle")
    with pytest.raises(InputError, match=r"^--output and --memory-snapshot name the same file"):
        check_distinct_outputs(
            {"--output": str(report), "--trace": None, "--memory-snapshot": str(tmp_path / "snap.pickle")}
        )


def test_distinct_outputs_are_written(capsys, tmp_path):
    code = main(["bench", "--device", "cpu", "--runs", "2", "--output", str(tmp_path / "r.json"),
                 "--trace", str(tmp_path / "t.json")])  # fmt: skip
    _, err = capsys.readouterr()
    assert code == 0, err
    assert "report written" in err and "trace written" in err
    assert (tmp_path / "r.json").read_text() != (tmp_path / "t.json").read_text()


def test_standard_output_redirected_to_the_report_is_one_file(tmp_path):
    """``bench --json --output r.json > r.json``: the report renamed over r.json would leave
    what is printed in a file no name reaches."""
    report = tmp_path / "r.json"
    with open(report, "w") as stdout:  # what the shell's `> r.json` opens
        with pytest.raises(InputError, match=r"^standard output and --output name the same file"):
            check_distinct_outputs({"--output": str(report)}, stdout_fd=stdout.fileno())
        check_distinct_outputs({"--output": str(tmp_path / "other.json")}, stdout_fd=stdout.fileno())
    r, w = os.pipe()  # a pipe or a terminal is no file a path names
    try:
        check_distinct_outputs({"--output": str(report)}, stdout_fd=w)
    finally:
        os.close(r)
        os.close(w)


# ----- issue 43, item 12: a name the probe passes is one the writer can create


def _name_of(length: int, suffix: str = ".json") -> str:
    return "r" * (length - len(suffix)) + suffix


@pytest.mark.parametrize("flag", ["--output", "--trace"])
def test_a_name_too_long_for_the_temporary_file_is_refused_before_measuring(capsys, tmp_path, loads, flag):
    longest = longest_name(tmp_path)
    if longest is None or longest + TEMP_EXTRA_BYTES < 250:
        pytest.skip("this file system takes names of another length")
    path = tmp_path / _name_of(250)  # under NAME_MAX (255), over it with the temporary suffix
    code = main(["bench", "--device", "cpu", "--runs", "2", flag, str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and loads == []  # nothing measured
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert f"the file name is 250 bytes long, and at most {longest} fit in this folder" in err
    assert list(tmp_path.iterdir()) == []  # nothing written, no probe left


def test_the_longest_name_that_fits_is_written(capsys, tmp_path):
    longest = longest_name(tmp_path)
    if longest is None:
        pytest.skip("this system does not say how long a name may be")
    path = tmp_path / _name_of(longest)
    code = main(["bench", "--device", "cpu", "--runs", "2", "--output", str(path)])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert [p.name for p in tmp_path.iterdir()] == [path.name] and path.stat().st_size > 0
