"""`bench` against hostile requests: report paths that cannot work, runs that measure nothing,
and runaway sample counts. Every case builds its input here and checks what a user sees:
one `error:` line, the documented exit code, no traceback, an earlier report untouched, and
nothing written outside the test's folder.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from inspector.cli import common, main
from inspector.core.measure import sampling, timing
from tests.unwritable import unwritable

GOOD_REPORT = b'{"a good report": "from yesterday"}\n'


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_error_line(err: str) -> str:
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, err
    return errors[0]


def listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """The working folder and HOME both in tmp_path, and a model whose loading leaves a mark,
    so a test can tell whether the model was loaded (and so measured) at all."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    factory = tmp_path / "marked.py"
    factory.write_text(
        "import pathlib, torch\n"
        f"MARK = pathlib.Path({str(tmp_path / 'loaded.mark')!r})\n"
        "def make():\n"
        "    MARK.write_text('loaded')\n"
        "    return torch.nn.Linear(3, 2), torch.randn(4, 3)\n"
    )
    return tmp_path


# ----------------------------------------------------------------- item 7: --output checked first


def _refused_before_measuring(capsys, sandbox, output: str, reason: str) -> None:
    before = listing(sandbox)
    code, out, err = run(capsys, "bench", str(sandbox / "marked.py:make"), "--runs", "2", "--output", output)
    assert code == 2, err
    line = assert_one_error_line(err)
    assert err == line + "\n"  # nothing else: not a move, not a progress line
    assert reason in line
    assert out == ""
    assert not (sandbox / "loaded.mark").exists()  # refused before the model was even loaded
    assert listing(sandbox) == before


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("", "cannot write the report: the path is empty"),
        ("   ", "cannot write the report: the path is empty"),
        (".json", "the file name has nothing before .json"),
        ("sub/.html", "the file name has nothing before .html"),
        ("r.xlsx", "must end in .json, .csv, .md, .html or .zip"),
        ("report", "must end in .json, .csv, .md, .html or .zip"),
        ("missing/r.json", "the folder missing does not exist"),
        ("/proc/r.json", "files cannot be created in /proc"),
        ("/proc/self/r.json", "files cannot be created in /proc/self"),
        ("~/absent/r.json", "does not exist"),
    ],
)
def test_a_report_path_that_cannot_work_is_refused_before_measuring(capsys, sandbox, output, reason):
    (sandbox / "sub").mkdir(exist_ok=True)
    _refused_before_measuring(capsys, sandbox, output, reason)


@pytest.mark.parametrize("name", ["out.json", "out", "out/", "~"])
def test_an_existing_folder_is_refused_as_the_report(capsys, sandbox, name):
    (sandbox / "out").mkdir()
    (sandbox / "out.json").mkdir()
    _refused_before_measuring(capsys, sandbox, name, f"{name}: it is a folder, give a file name in it")


def test_a_file_as_the_folder_is_refused(capsys, sandbox):
    (sandbox / "plain").write_text("x")
    _refused_before_measuring(capsys, sandbox, "plain/r.json", "plain is not a folder")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_pipe_is_refused_as_the_report(capsys, sandbox):
    os.mkfifo(sandbox / "pipe.json")
    _refused_before_measuring(capsys, sandbox, "pipe.json", "it is not a regular file")


def test_an_unchangeable_report_is_refused_and_kept(capsys, sandbox):
    good = sandbox / "good.json"
    good.write_bytes(GOOD_REPORT)
    with unwritable(good):
        _refused_before_measuring(capsys, sandbox, "good.json", "the file exists and is read-only")
    assert good.read_bytes() == GOOD_REPORT


def test_an_unchangeable_folder_is_refused(capsys, sandbox):
    folder = sandbox / "locked"
    folder.mkdir()
    with unwritable(folder):
        _refused_before_measuring(capsys, sandbox, "locked/r.json", "no permission to create files in locked")
        assert listing(folder) == set()


def test_tilde_is_expanded_to_the_home_folder(capsys, sandbox):
    code, _, err = run(capsys, "bench", "--device", "cpu", "--runs", "2", "--output", "~/r.json")
    assert code == 0, err
    assert json.loads((sandbox / "home" / "r.json").read_text())["latency"][0]["device"] == "cpu"
    assert not (sandbox / "~").exists()


# ----------------------------------------------------------------- item 6: no report from nothing


@pytest.mark.cpu_only
def test_a_run_that_measures_nothing_leaves_the_earlier_report_intact(capsys, sandbox):
    good = sandbox / "good.json"
    good.write_bytes(GOOD_REPORT)
    before = listing(sandbox)
    code, out, err = run(capsys, "bench", "--device", "cuda", "--runs", "2", "--output", str(good))
    assert code == 1
    line = assert_one_error_line(err)
    assert "no CUDA support" in line
    assert "nothing was measured, so no report was written" in err
    assert good.read_bytes() == GOOD_REPORT
    assert listing(sandbox) == before and out == ""


def test_a_measurement_that_fails_on_every_device_writes_no_report(capsys, sandbox, monkeypatch):
    from inspector.core.errors import InspectorError

    def out_of_memory(loaded, **kwargs):
        raise InspectorError("out of memory while timing", kind="oom")

    monkeypatch.setattr(timing, "measure_latency", out_of_memory)
    good = sandbox / "good.md"
    good.write_bytes(GOOD_REPORT)
    code, _, err = run(capsys, "bench", "--device", "cpu", "--runs", "2", "--output", str(good))
    assert code == 1
    assert assert_one_error_line(err) == "error: cpu: out of memory while timing"
    assert good.read_bytes() == GOOD_REPORT


def test_no_report_file_appears_when_nothing_was_measured(capsys, sandbox, monkeypatch):
    from inspector.core.errors import InspectorError

    def out_of_memory(loaded, **kwargs):
        raise InspectorError("out of memory while timing", kind="oom")

    monkeypatch.setattr(timing, "measure_latency", out_of_memory)
    code, _, _ = run(capsys, "bench", "--device", "cpu", "--runs", "2", "--output", "new.json")
    assert code == 1
    assert not (sandbox / "new.json").exists()


# ----------------------------------------------------------------- item 10: runaway requests


def test_a_runaway_run_count_is_capped_with_a_note(capsys, sandbox, monkeypatch):
    monkeypatch.setattr(timing, "MAX_SAMPLES", 40)  # the real cap (100,000) is seconds of work
    code, _, err = run(capsys, "bench", "--device", "cpu", "--runs", "1000000000", "--output", "r.json")
    assert code == 0, err
    first = err.splitlines()[0]  # said before measuring, not after
    assert first == "note: 1,000,000,000 runs asked for: capped at 40 samples per measurement"
    entry = json.loads((sandbox / "r.json").read_text())["latency"][0]
    assert len(entry["samples_ms"]) == 40
    assert "1,000,000,000 runs asked for: capped at 40 samples per measurement" in entry["notes"]
    assert "capped at 40 samples" in (sandbox / "r.json").read_text()


def test_a_runaway_minimum_time_is_capped_with_a_note(capsys, sandbox, monkeypatch):
    monkeypatch.setattr(timing, "MAX_MEASURE_SECONDS", 0.05)
    code, _, err = run(capsys, "bench", "--device", "cpu", "--min-time", "1e9", "--output", "r.md")
    assert code == 0, err
    assert err.splitlines()[0] == "note: a minimum time of 1e+09 s asked for: capped at 0.05 s per measurement"
    assert "a minimum time of 1e+09 s asked for" in (sandbox / "r.md").read_text()


def test_the_sample_cap_reached_under_a_minimum_time_is_said(capsys, sandbox, monkeypatch):
    monkeypatch.setattr(timing, "MAX_SAMPLES", 5)
    code, _, err = run(capsys, "bench", "--device", "cpu", "--min-time", "600", "--output", "r.json")
    assert code == 0, err
    entry = json.loads((sandbox / "r.json").read_text())["latency"][0]
    assert len(entry["samples_ms"]) == 5
    [note] = [n for n in entry["notes"] if n.startswith("stopped at the cap of 5 samples")]
    assert "before the minimum time of 600 s was reached" in note
    assert f"note: {note}" in err.splitlines()


def test_a_run_count_that_would_take_too_long_stops_at_the_time_cap(capsys, sandbox, monkeypatch):
    monkeypatch.setattr(sampling, "_MAX_MEASURE_NS", 1)  # any one sample is past it
    code, _, err = run(capsys, "bench", "--device", "cpu", "--runs", "500", "--output", "r.json")
    assert code == 0, err
    entry = json.loads((sandbox / "r.json").read_text())["latency"][0]
    assert len(entry["samples_ms"]) == 1
    assert any(n.startswith("stopped after 1 of 500 runs: the cap of") for n in entry["notes"])
    assert "note: stopped after 1 of 500 runs" in err


def test_help_states_the_caps_the_core_enforces(capsys):
    assert (common.MAX_SAMPLES, common.MAX_MEASURE_SECONDS) == (timing.MAX_SAMPLES, timing.MAX_MEASURE_SECONDS)
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "capped at 100,000" in text and "stops after 3,600 s" in text
    assert "(capped at 3,600 s or 100,000 samples)" in text


_OUT_OF_MEMORY = (
    "import torch\n"
    "class M(torch.nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.l = torch.nn.Linear(4, 2)\n"
    "    def forward(self, x):\n"
    "        raise torch.OutOfMemoryError('CUDA out of memory. Tried to allocate 2.00 GiB')\n"
    "def make():\n"
    "    return M(), torch.randn(3, 4)\n"
)


def test_rank_zero_writes_nothing_over_the_report_when_every_rank_failed(capsys, tmp_path, monkeypatch):
    """Rank 0 of a two-rank torchrun job: its own failure and rank 1's come back from the
    gather; nothing over good.json, exit 1. (Only the gather is stood in for here; a real
    one gathers a rank's failure in tests/cli/test_ranks_cli.py.)"""
    import dataclasses

    from inspector.core.remote import ranks

    class TwoRanks:
        def __init__(self, env, timeout_s=1800.0):
            self.env = env

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def gather(self, result):
            assert result.rank == 0 and not result.ok  # rank 0's own failure, as it is sent
            return [result, dataclasses.replace(result, rank=1, local_rank=1)]

    monkeypatch.setattr(ranks, "RankGroup", TwoRanks)
    for name, value in (("RANK", "0"), ("LOCAL_RANK", "0"), ("WORLD_SIZE", "2")):
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "oom.py").write_text(_OUT_OF_MEMORY)
    good = tmp_path / "good.json"
    good.write_bytes(GOOD_REPORT)
    code, out, err = run(capsys, "bench", f"{tmp_path / 'oom.py'}:make", "--runs", "3", "--output", "good.json")
    assert code == 1, err
    assert "note: nothing was measured, so no report was written to good.json" in err
    assert "error: 2 of 2 ranks failed" in err and "out of memory" in err
    assert good.read_bytes() == GOOD_REPORT
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.json", "oom.py"]


@pytest.mark.slow  # ~10 s of torchrun; rank 0's logic runs in the test above, a real gather in test_ranks_cli
def test_ranks_that_all_fail_leave_the_earlier_report_intact(tmp_path):
    """The torchrun path: rank 0 gathers two failures and writes nothing over good.json."""
    from tests.cli.test_ranks_cli import _torchrun

    (tmp_path / "oom.py").write_text(_OUT_OF_MEMORY)
    good = tmp_path / "good.json"
    good.write_bytes(GOOD_REPORT)
    proc = _torchrun(tmp_path, "oom.py:make", "--runs", "3", "--output", "good.json")
    assert proc.returncode == 1
    assert "note: nothing was measured, so no report was written to good.json" in proc.stderr
    assert "error: 2 of 2 ranks failed" in proc.stderr
    assert good.read_bytes() == GOOD_REPORT
