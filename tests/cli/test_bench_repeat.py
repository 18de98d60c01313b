"""``bench --repeat N``: N independent runs, runs 2..N each in a fresh process, kept apart in the
report; what their medians spread is recorded as this machine's run-to-run noise (issue 33)."""

from __future__ import annotations

import errno
import json

from inspector.cli import main
from inspector.core.measure.fresh_runs import WORKER_KEY
from inspector.core.measure.fresh_runs import read_worker as _read_worker
from inspector.core.measure import run_noise


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_repeat_takes_each_run_in_a_fresh_process_and_the_report_keeps_them(capsys, tmp_path, monkeypatch):
    record = tmp_path / "noise.json"
    monkeypatch.setenv(run_noise.ENV_FILE, str(record))
    out_path = tmp_path / "r.json"
    code, _out, err = run(capsys, "bench", "example", "--device", "cpu", "--runs", "10", "--repeat", "2", "--output", str(out_path))
    assert code == 0, err
    assert "run 2 of 2 (a fresh process)…" in err
    assert "cpu float32 forward: 2 runs in fresh processes, run medians" in err
    entry = json.loads(out_path.read_text())["latency"][0]
    assert [len(r) for r in entry["runs_ms"]] == [10, 10]
    assert entry["samples_ms"] == entry["runs_ms"][0] + entry["runs_ms"][1]
    # The spread of the two runs is this machine's record now: compare reads it for single runs.
    noise = run_noise.this_machine(record)
    assert noise.measured and noise.runs == 2


def test_a_repeat_out_of_range_is_refused_before_anything_is_measured(capsys):
    for bad in ("0", "51"):
        code, out, err = run(capsys, "bench", "example", "--device", "cpu", "--repeat", bad)
        assert code == 2 and out == ""
        assert err.strip() == f"error: --repeat must be from 1 to 50 (got {bad})"


def test_a_workers_output_is_taken_only_when_it_is_what_a_run_gives():
    good = {"device": "cpu", "dtype": "float32", "mode": "forward", "input_shape": [64, 3], "samples_ms": [0.1, 0.2]}
    line = json.dumps({WORKER_KEY: 1, "latency": [good]})
    assert _read_worker(f"printed by the model\n{line}\n", cap=10) == {("cpu", "float32", "forward", (64, 3)): [0.1, 0.2]}
    for samples in ([], [-1.0], [float("nan")], ["1"], [0.1] * 11, [True]):
        bad = json.dumps({WORKER_KEY: 1, "latency": [{**good, "samples_ms": samples}]})
        assert _read_worker(bad, cap=10) == {}
    assert _read_worker("no line of ours", cap=10) == {} and _read_worker('{"repeat_worker": [', cap=10) == {}


def test_a_run_that_cannot_start_is_noted_and_run_1_is_kept(capsys, tmp_path, monkeypatch):
    # No pipe, temporary folder or process to be had (EMFILE, a full TMPDIR, EAGAIN): bench says
    # so for that run and reports the runs it has, rather than ending in ``error: OSError``.
    from inspector.core import launcher

    def no_process(*_args, **_kwargs):
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(launcher, "run_app_worker", no_process)
    out_path = tmp_path / "r.json"
    code, _out, err = run(capsys, "bench", "example", "--device", "cpu", "--runs", "10", "--repeat", "2", "--output", str(out_path))
    assert code == 0, err
    assert "note: run 2 of 2 could not start: Too many open files" in err
    assert "error:" not in err
    entry = json.loads(out_path.read_text())["latency"][0]
    assert len(entry["samples_ms"]) == 10 and "runs_ms" not in entry  # run 1's figures, one run
