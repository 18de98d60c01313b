"""Issue 43, item 9: the run-to-run noise record is a file the user did not name, so it is read
as every file is (``files.regular_file``) and written as reports are (``core.atomic_write``).

A FIFO there hung every ``compare``; ``/dev/zero`` took 3.2 GB in 4 s; the writer's temporary
name (``.run_noise.json.<pid>.tmp``) could be planted as a symlink. Now each of those, a folder
and a 200 MB sparse file are no record: compare answers with the default noise and says why,
no byte of them is read, and the writer never opens a name someone else chose.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc

import pytest

from inspector.core.files import regular_file
from inspector.core.files.regular_file import FileTooLarge, read_regular_file
from inspector.core.measure import run_noise
from inspector.core.measure.run_noise import DEFAULT_SIGMA
from tests.core.report.generated import real_report, scaled, with_latency, with_samples

posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and /dev/zero")


@pytest.fixture
def bytes_read(monkeypatch):
    """Every byte the process asks of ``os.read`` from now on (asked, not got: the bound)."""
    asked: list[int] = []
    real_read = os.read

    def counting(fd: int, n: int) -> bytes:
        asked.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", counting)
    return asked


def _hostile(tmp_path, kind: str):
    """A record path that is not a record: a FIFO, /dev/zero through a symlink, a folder, a
    200 MB sparse file (a few KB on disk)."""
    path = tmp_path / "run_noise.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    else:
        with open(path, "wb") as sparse:
            sparse.truncate(200 * 2**20)
    return path


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder", "sparse"])
def test_a_record_that_is_no_record_is_refused_unread_in_bounded_memory(tmp_path, kind, bytes_read):
    path = _hostile(tmp_path, kind)
    tracemalloc.start()
    try:
        noise = run_noise.this_machine(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert noise.sigma == DEFAULT_SIGMA and not noise.measured
    assert str(path) in noise.unread and "was not read" in noise.unread
    assert sum(bytes_read) == 0  # stat said what it was: not one byte asked for
    assert peak < 1 << 20


@posix_only
def test_the_writer_refuses_to_replace_what_is_not_a_record(tmp_path):
    for kind in ("fifo", "dev-zero", "folder", "sparse"):
        folder = tmp_path / kind
        folder.mkdir()
        path = _hostile(folder, kind)
        before = os.lstat(path)
        assert run_noise.record([[1.0, 1.1], [1.2, 1.3]], path=path) is None
        after = os.lstat(path)
        assert (after.st_mode, after.st_ino, after.st_size) == (before.st_mode, before.st_ino, before.st_size)


def test_a_file_that_grows_past_the_limit_while_read_is_cut_at_the_limit(tmp_path, bytes_read, monkeypatch):
    path = tmp_path / "grows.json"
    path.write_bytes(b" " * 5000)
    real_fstat = os.fstat
    # stat (before and after the open) says 10 bytes; the file holds 5,000, as if it grew.
    monkeypatch.setattr(regular_file.os, "fstat", lambda fd: os.stat_result((*real_fstat(fd)[:6], 10, *real_fstat(fd)[7:])))
    with pytest.raises(FileTooLarge) as refused:
        read_regular_file(path, limit=100)
    assert refused.value.size is None
    assert sum(bytes_read) <= 101  # the limit, and one byte to tell that it is over


def test_the_writer_never_follows_a_symlink_planted_at_a_temporary_name(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    path = tmp_path / "run_noise.json"
    # The old writer's name for this process; and a guessable name is no longer used at all.
    (tmp_path / f".{path.name}.{os.getpid()}.tmp").symlink_to(victim)
    pooled = run_noise.record([[1.0, 1.02, 0.99], [1.1, 1.12, 1.09]], path=path)
    assert pooled is not None and pooled.measured
    assert victim.read_text() == "the user's own file\n"
    assert json.loads(path.read_text())["version"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["victim.txt", "run_noise.json", f".{path.name}.{os.getpid()}.tmp"]
    )  # no temporary file left behind


def test_a_damaged_record_says_so_and_is_left_for_the_user(tmp_path):
    path = tmp_path / "run_noise.json"
    path.write_text("my notes, not a record\n")
    noise = run_noise.this_machine(path)
    assert noise.sigma == DEFAULT_SIGMA and "is not a noise record" in noise.unread
    assert run_noise.record([[1.0, 1.1], [1.2, 1.3]], path=path) is None
    assert path.read_text() == "my notes, not a record\n"
    missing = run_noise.this_machine(tmp_path / "none.json")
    assert missing.unread == ""  # no record yet: nothing to say but the default's own note


@posix_only
def test_compare_answers_with_a_fifo_as_the_record_and_never_opens_it(tmp_path):
    report = real_report()
    # (quiet samples: a loaded machine's real ones may be flagged noisy, and get no verdict at all)
    entry = with_samples(report["latency"][0], [1.0 + 0.01 * (i % 5) for i in range(30)])
    (tmp_path / "a.json").write_text(json.dumps(with_latency(report, [entry])))
    (tmp_path / "b.json").write_text(json.dumps(with_latency(report, [scaled(entry, 1.02)])))
    fifo = _hostile(tmp_path, "fifo")
    env = {**os.environ, run_noise.ENV_FILE: str(fifo)}
    # The timeout is a safety net for the old hang, not a bound on speed.
    done = subprocess.run([sys.executable, "-m", "inspector", "compare", "a.json", "b.json"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""
    assert "no clear difference" in done.stdout
    # A verdict reads no record (issue 46): the stated constant, whatever the file is.
    assert str(fifo) not in done.stdout and "a constant stated for separate benches" in done.stdout
