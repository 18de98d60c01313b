"""``bench --threads N``: torch's intra-op threads while measuring, set before the model loads
(issue 46 item 2: on one thread the example's figure repeated between fresh processes, on
PyTorch's team of two it landed 26-71 µs apart). The report says how many; a count no machine
has is one line, exit 2; a worker of --repeat is given the same count."""

from __future__ import annotations

import json

import pytest
import torch

from inspector.cli import build_parser, main
from inspector.cli.bench_repeats import worker_argv


@pytest.fixture
def threads_restored():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


def test_one_thread_is_what_the_run_used_and_what_the_report_says(capsys, tmp_path, threads_restored):
    out = tmp_path / "r.json"
    code = main(["bench", "example", "--device", "cpu", "--runs", "20", "--threads", "1", "--output", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert torch.get_num_threads() == 1
    [entry] = json.loads(out.read_text())["latency"]
    assert entry["threads"] == 1
    # A one-thread run is not told to use one thread.
    assert "bench --threads 1 measures without the OpenMP team" not in err


@pytest.mark.parametrize("count", ["0", "-2", "5000"])
def test_a_thread_count_no_machine_has_is_one_line_before_anything_loads(capsys, count, threads_restored):
    before = torch.get_num_threads()
    code = main(["bench", "example", "--device", "cpu", "--runs", "5", f"--threads={count}"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.count("\n") == 0
    assert f"--threads must be a whole number from 1 to 1,024 (got {count})" in err
    assert torch.get_num_threads() == before


def test_a_worker_of_repeat_is_given_the_same_count():
    parser = build_parser()
    args = parser.parse_args(["bench", "example", "--device", "cpu", "--threads", "1", "--repeat", "3"])
    assert parser.parse_args(worker_argv(args, "--repeat-worker")).threads == 1
